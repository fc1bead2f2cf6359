"""The command line against hostile output paths and a systematic sweep (issue 16): ``--out`` never replaces a device
or a special file (links are followed on purpose), and every argument of every command meets every hostile class of
value: exit 0 or one line and exit 2, never a traceback, a hang or output to a special file."""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

import pytest

from solver.paths import SCENARIOS
from tests.support.cli_fuzz import (
    COMMANDS,
    base_argv,
    check,
    looks_like_file,
    one_line_exit_2,
    run_main,
    special_path_of,
    writes_a_file,
)

# --- issue 16: --out never replaces a device or a special file; links are followed on purpose -------

OUT_COMMANDS = {
    "wagons simulate": lambda out: ["wagons", "simulate", "--scenario", "boomtown", "--policy", "random",
                                    "--games", "2", "--out", out, "--json", "--quiet"],
    "batch": lambda out: ["batch", "outlaws-playouts", "--n", "2", "--executor", "serial", "--no-progress",
                          "--out", out, "--json"],
}
OUT_KINDS = ["new", "existing", "existing-0640", "symlink", "dangling-symlink", "symlink-loop", "directory", "fifo",
             "devnull", "missing-folder", "empty", "unwritable-folder", "symlink-to-dir", "proc", "sys"]


def _make_out(kind: str, folder: Path, suffix: str) -> str:
    target = folder / f"o{suffix}"
    if kind in ("existing", "existing-0640", "symlink"):
        target.write_text("old")
        if kind == "existing-0640":
            os.chmod(target, 0o640)
        if kind == "symlink":
            (folder / f"link{suffix}").symlink_to(target)
            return str(folder / f"link{suffix}")
    elif kind == "dangling-symlink":
        (folder / f"link{suffix}").symlink_to(folder / f"nowhere{suffix}")
        return str(folder / f"link{suffix}")
    elif kind == "symlink-loop":
        (folder / "loop-a").symlink_to(folder / "loop-b")
        (folder / "loop-b").symlink_to(folder / "loop-a")
        return str(folder / "loop-a")
    elif kind == "directory":
        target.mkdir()
    elif kind == "symlink-to-dir":
        (folder / "d").mkdir()
        (folder / f"link{suffix}").symlink_to(folder / "d")
        return str(folder / f"link{suffix}")
    elif kind == "fifo":
        os.mkfifo(target)
    elif kind == "devnull":
        return os.devnull
    elif kind == "missing-folder":
        return str(folder / "no" / f"o{suffix}")
    elif kind == "empty":
        return ""
    elif kind in ("proc", "sys"):  # issue 33: writable by its bits for root; no file can be made there
        return f"/{kind}/o{suffix}"
    return str(target)


@pytest.mark.parametrize("command", sorted(OUT_COMMANDS))
@pytest.mark.parametrize("kind", OUT_KINDS)
def test_out_on_every_kind_of_path(command, kind, tmp_path, monkeypatch):
    import stat as st_mode

    suffix = ".parquet"
    folder = tmp_path / "w"
    folder.mkdir()
    out = _make_out(kind, folder, suffix)
    if kind == "unwritable-folder":  # root ignores permissions: the check itself is what is tested
        real_access = os.access
        monkeypatch.setattr(os, "access", lambda p, mode, **kw: False if str(p) == str(folder) else real_access(p, mode))
    before = {p.name: p.lstat().st_mode for p in folder.iterdir()}
    null_before = os.stat(os.devnull)
    code, stdout, err = run_main(OUT_COMMANDS[command](out))
    check(OUT_COMMANDS[command](out), code, stdout, err)
    after = {p.name: p.lstat().st_mode for p in folder.iterdir()}
    assert st_mode.S_ISCHR(os.stat(os.devnull).st_mode) and os.stat(os.devnull).st_rdev == null_before.st_rdev
    ok = {"new", "existing", "existing-0640", "symlink", "dangling-symlink", "devnull"}
    assert (code == 0) == (kind in ok), (kind, err)
    if code == 2:
        assert after == before, (kind, before, after)  # nothing written, nothing replaced, no temporary left
        return
    assert not [n for n in after if n.startswith(".")], after  # no temporary file or parts folder left
    if kind in ("symlink", "dangling-symlink"):
        link = folder / f"link{suffix}"
        assert link.is_symlink() and link.resolve().stat().st_size > 100  # the link stays, its file is written
    elif kind != "devnull":
        mode = st_mode.S_IMODE((folder / f"o{suffix}").stat().st_mode)
        umask = os.umask(0)
        os.umask(umask)
        assert mode == (0o640 if kind == "existing-0640" else 0o666 & ~umask), oct(mode)


def test_out_into_a_folder_that_refuses_the_write_is_one_line(tmp_path, monkeypatch):
    """A PermissionError while writing (e.g. a read-only mount) is one line, not a traceback."""
    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "replace", refuse)
    one_line_exit_2(OUT_COMMANDS["wagons simulate"](str(tmp_path / "o.csv")))
    assert list(tmp_path.iterdir()) == []


def test_leftovers_of_killed_writes_are_removed_by_the_next_write(tmp_path, capsys):
    dead = 2**22 + 12345  # above the default pid_max of 4194304: no such process
    (tmp_path / f".o.parquet.tmp-{dead}.abcd").write_text("half")
    (tmp_path / f".parts-{dead}.efgh").mkdir()
    (tmp_path / f".parts-{dead}.efgh" / "part-000000.parquet").write_text("half")
    (tmp_path / f".parts-{os.getppid()}.live").mkdir()  # a running process's parts stay
    code, out, err = run_main(OUT_COMMANDS["batch"](str(tmp_path / "o.parquet")))
    assert code == 0, err
    assert sorted(p.name for p in tmp_path.iterdir()) == [f".parts-{os.getppid()}.live", "o.parquet"]


# --- issue 16: a systematic sweep, every argument of every command x every hostile class -----------

SWEEP_WORDS = {
    "huge integer": "9" * 5000, "huge negative": "-" + "9" * 45, "huge exponent": "1e999999999",
    "negative exponent": "1e-999999999", "huge fraction": "1/" + "9" * 5000, "past 64 bits": str(2**64),
    "float for int": "1.0", "zero float": "0.0", "boolean": "true", "nan": "nan", "infinity": "-inf",
    "unicode digit": "\u0663", "underscore digits": "1_000", "hex": "0x10", "empty": "", "NUL": "\x00",
    "huge list": "1," * 5000, "huge option": "duel_win_chance=1e999999999",
    "largest int64": str(2**63 - 1), "smallest int64": str(-(2**63) + 1),
}
SWEEP_FILES = {
    "duplicate keys": '{"placements": [{"card": 13, "x": 1, "y": 1, "rot": 0, "rot": 180}], "pile": [1], "pile": [2]}',
    "floats for ints": '{"placements": [{"card": 13.0, "x": 1.0, "y": 1, "rot": 180.0}], "pile": [1.0]}',
    "booleans for ints": '{"placements": [{"card": 13, "x": 1, "y": 1, "rot": false}], "pile": [true]}',
    "huge numbers": '{"placements": [{"card": 13, "x": ' + "9" * 5000 + ', "y": 1e999, "rot": 0}]}',
    "a JSON string naming a file": json.dumps(str(SCENARIOS / "outlaws" / "contracts-example.json")),
    "NaN": '{"placements": NaN, "pile": [Infinity]}',
    "TOML huge": "a = " + "9" * 5000 + "\nb = 1e999\n",
}
SWEEP_SPECIAL = ["loop", "dangling", "to-zero", "to-dir", "fifo", "dev-null", "dev-zero", "self", "proc", "sys"]


SWEEP_FLAGS = {("cactus", "verify"): ["--quick"]}
"""Switches the sweep's base line adds: a case whose hostile word is a valid reading (``--solo-events true``) runs
the checks of that reading only, not every alternative's too (seconds, not a minute)."""


def sweep_cases():
    """(command, argument, class name, value kind) for every argument of every command."""
    for path, parser in sorted(COMMANDS.items()):
        for action in parser._actions:
            if isinstance(action, (argparse._HelpAction, argparse._VersionAction)) or action.nargs == 0:
                continue
            name = action.option_strings[0] if action.option_strings else action.dest
            for word in SWEEP_WORDS:
                yield path, name, "word", word
            if looks_like_file(action) or writes_a_file(action):
                for text in SWEEP_FILES:
                    yield path, name, "file", text
                for special in SWEEP_SPECIAL:
                    yield path, name, "special", special


SWEEP = list(sweep_cases())


def _sweep_value(kind: str, which: str, folder: Path) -> str:
    if kind == "word":
        return SWEEP_WORDS[which]
    if kind == "file":
        target = folder / f"sweep-{abs(hash(which)) % 10**6}.json"
        target.write_text(SWEEP_FILES[which])
        return str(target)
    return special_path_of(which, folder)


@pytest.mark.slow
@pytest.mark.parametrize("path", sorted(COMMANDS), ids=lambda p: " ".join(p))
def test_sweep_every_argument_with_every_hostile_class(path, tmp_path_factory, monkeypatch):
    """Each case: a valid command line with one argument replaced by one hostile class value.
    Exit 0 or a one-line exit 2, never a traceback, a hang or output to a special file."""
    folder = tmp_path_factory.mktemp("sweep")
    monkeypatch.chdir(folder)
    parser = COMMANDS[path]
    base = base_argv(path, parser, folder)
    cases = [c for c in SWEEP if c[0] == path]
    started, ran = time.monotonic(), 0
    for _, name, kind, which in cases:
        value = _sweep_value(kind, which, folder)
        argv, placed = list(path), False
        options = []
        for action, words in base:
            own = (action.option_strings[0] if action.option_strings else action.dest) == name
            words = ([words[0], value] if action.option_strings else [value]) if own else words
            placed |= own
            (options if action.option_strings else argv).extend(words)
        if not placed:
            action = next(a for a in parser._actions if (a.option_strings[:1] or [a.dest])[0] == name)
            options += [name, value] if action.option_strings else []
            if not action.option_strings:
                argv.append(value)
        argv += options + SWEEP_FLAGS.get(path, []) + ["--json"]
        code, out, err = run_main(argv)
        check(argv, code, out, err)
        assert len(err) < 800, err[:800]
        ran += 1
    assert stat_is_char_device("/dev/null")
    print(f"swept {' '.join(path)}: {ran} cases in {time.monotonic() - started:.0f}s")
    assert ran == len(cases)


def stat_is_char_device(path: str) -> bool:
    import stat

    return stat.S_ISCHR(os.stat(path).st_mode)
