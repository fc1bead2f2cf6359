"""Hostile command lines for every ``ruleslinger`` command: exit 0 or exit 2 with one line, never a
traceback or a hang.

The commands are discovered from the parser (a game's new command is fuzzed the day it lands):
for each leaf command hypothesis builds argument lists from its own arguments, filled with hostile
values: malformed JSON/TOML files, wrong types, huge numbers, unknown ids, deep nesting, large
files, empty strings, and mutations of the project's own example files. Each command gets
``CLI_EXAMPLES`` cases in-process (``solver.cli.main``); a few run as real subprocesses of
``.venv/bin/ruleslinger`` with a timeout.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_fuzz_io import deep, json_values, no_hang

from solver import cli
from solver.paths import REPO, SCENARIOS

CLI_EXAMPLES = 60
"""Cases per command (in-process)."""
SLOW_COMMANDS = {("batch",): 25}
"""Commands whose every case starts processes: fewer cases."""
HANG = 90
"""Seconds one command may take before the case counts as a hang."""

HOSTILE_WORDS = ["", " ", "0", "-1", "1", "2", "3", "7", "13", "18", "99", "-0", "1.5", "1e9", "nan", "inf",
                 "9" * 30, "-" + "9" * 30, "9" * 5000, "0x10", "1,2,x", "3,3,3", ",,,", "1,,2", "1," * 200,
                 "nosuch", "boomtown", "gold-rush", "A", "B", "random", "greedy", "true", "null", "{}", "[]",
                 "--json", "-", "\x00", "é", "../../etc/passwd", "tcp://", "serial", "a=b", "=", "round1_window=99"]
FILE_TEXTS = [
    "", "{", "[]", "null", "42", '"text"', "{}", "[" * 40 + "]" * 40, deep(5000, "{"), "[" + "9" * 5000 + "]",
    "NaN", "\ufeff{}", "a = 1\n[b]\n", '{"placements": 5}', '{"placements": [{"card": 999, "x": 0, "y": 0, "rot": 0}]}',
    '{"placements": [{"card": -1, "x": 1e308, "y": "0", "rot": 90}]}', '{"placements": [{"card": 1}]}',
    '{"placements": [{"card": 3, "x": 0, "y": 0, "rot": 0}, {"card": 3, "x": 0, "y": 0, "rot": 0}]}',
    '{"placements": [{"card": 3, "x": 100000000000000000000, "y": -5, "rot": 180}]}',
    '{"pile": [1, 1, 1, 99]}', '{"pile": "1,2"}', '{"pile": [true, null, 2.5]}', '{"pile": []}',
    '{"to_move": "C", "actions_left": 99}', '{"to_move": "A", "actions_left": -1, "street": {}}',
    '{"to_move": "A", "actions_left": 2, "street": {"A": ["governor"], "B": []}, "tokens": []}',
]


def leaf_commands(parser: argparse.ArgumentParser | None = None, prefix=()):
    parser = parser or cli.build_parser()
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if not subs:
        yield prefix, parser
        return
    for name, child in subs[0].choices.items():
        yield from leaf_commands(child, prefix + (name,))


COMMANDS = {path: parser for path, parser in leaf_commands()}


def example_files() -> list[Path]:
    return sorted(p for p in SCENARIOS.rglob("*") if p.suffix in (".json", ".toml") and p.stat().st_size < 200_000)


@st.composite
def file_argument(draw, folder: Path) -> str:
    """A path to a hostile file (or a missing path / a directory)."""
    choice = draw(st.integers(0, 5))
    target = folder / f"in{draw(st.integers(0, 3))}{draw(st.sampled_from(['.json', '.toml', '']))}"
    if choice == 0:
        return draw(st.sampled_from([str(folder), str(folder / "missing.json"), "", "-"]))
    if choice == 1:
        target.write_text(draw(st.sampled_from(FILE_TEXTS)))
    elif choice == 2:
        target.write_text(json.dumps(draw(json_values)))
    elif choice == 3:
        target.write_bytes(draw(st.binary(max_size=300)))
    elif choice == 4 and (examples := example_files()):
        text = draw(st.sampled_from(examples)).read_text()
        i = draw(st.integers(0, max(0, len(text) - 1)))
        text = text[:i] + draw(st.sampled_from(["", "9" * 25, "-", '"x"', "null", "]", "{", "999"])) + \
            text[i + draw(st.integers(0, 8)):]
        target.write_text(text)
    else:
        target.write_text("[" + "0," * 600_000 + "0]")  # 1.2 MB: over the size limit
    return str(target)


def _value(draw, action: argparse.Action, folder: Path) -> str:
    if action.choices and draw(st.booleans()):
        return str(draw(st.sampled_from(sorted(map(str, action.choices)))))
    looks_like_file = action.dest in ("town", "opponent", "position", "file", "path", "data", "rules_file") or \
        "FILE" in str(action.metavar or "") or "POSITION" in str(action.metavar or "").upper()
    if looks_like_file and draw(st.integers(0, 3)):
        return draw(file_argument(folder))
    if draw(st.integers(0, 3)) == 0:
        return draw(file_argument(folder))
    return draw(st.sampled_from(HOSTILE_WORDS))


@st.composite
def argv_for(draw, path: tuple, parser: argparse.ArgumentParser, folder: Path) -> list[str]:
    argv = list(path)
    for action in parser._actions:
        if isinstance(action, (argparse._HelpAction, argparse._VersionAction)):
            continue
        if not action.option_strings:  # positional: usually required
            if draw(st.integers(0, 9)):
                count = 1 if action.nargs in (None, "?") else draw(st.integers(1, 3))
                argv += [_value(draw, action, folder) for _ in range(count)]
            continue
        if action.dest == "executor":  # never point the fuzzer at a network address (a 10 s timeout)
            if draw(st.booleans()):
                argv += ["--executor", draw(st.sampled_from(["serial", "local", "nosuch", "", "spark://x"]))]
            continue
        if not draw(st.integers(0, 2)):
            continue
        option = draw(st.sampled_from(action.option_strings))
        if action.nargs == 0:
            argv.append(option)
        else:
            argv += [option, _value(draw, action, folder)]
    if draw(st.integers(0, 9)) == 0:
        argv.append(draw(st.sampled_from(["--bogus", "extra", "--json=1"])))
    return argv


def run_main(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with no_hang(HANG), redirect_stdout(out), redirect_stderr(err):
        code = cli.main(argv)
    return code, out.getvalue(), err.getvalue()


def check(argv: list[str], code: int, out: str, err: str) -> None:
    shown = " ".join(a[:60] for a in argv)
    assert code in (0, 2), f"exit {code} for: ruleslinger {shown}\n{err[-2000:]}"
    if code == 2:
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("ruleslinger: error:"), f"ruleslinger {shown}:\n{err[-2000:]}"
        assert out == "", f"partial output on error for: ruleslinger {shown}"
    else:
        assert out.strip(), f"no output for: ruleslinger {shown}"
        if "--json" in argv:
            json.loads(out)
        assert "Traceback" not in err


@pytest.mark.slow
@pytest.mark.parametrize("path", sorted(COMMANDS), ids=lambda p: " ".join(p))
def test_every_command_survives_hostile_arguments(path, tmp_path_factory):
    folder = tmp_path_factory.mktemp("cli-fuzz")
    parser = COMMANDS[path]

    @settings(max_examples=SLOW_COMMANDS.get(path, CLI_EXAMPLES), deadline=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(data=st.data())
    def fuzz(data):
        argv = data.draw(argv_for(path, parser, folder))
        check(argv, *run_main(argv))

    fuzz()


# --- a few real subprocesses: the console script, stdout/stderr, exit code, no hang ---------------

RULESLINGER = Path(sys.executable).with_name("ruleslinger")
SUBPROCESS_CASES = [
    ["nosuchgame"],
    ["batch", "cactus-montecarlo", "--n", "9" * 40],
    ["batch", "cactus-montecarlo", "--n", "10", "--option", "duel_win_chance=1/0"],
    ["batch", "nosuch-kind", "--json"],
    ["rules", "--game", "{" * 5000],
]


def _subprocess(argv: list[str]) -> subprocess.CompletedProcess:
    command = [str(RULESLINGER)] if RULESLINGER.exists() else [sys.executable, "-m", "solver"]
    return subprocess.run(command + argv, capture_output=True, text=True, timeout=120, cwd=REPO,
                          env=dict(os.environ, PYTHONWARNINGS="ignore"))


@pytest.mark.parametrize("argv", SUBPROCESS_CASES, ids=lambda a: " ".join(x[:20] for x in a))
def test_console_script_gives_one_line_and_exit_2(argv):
    done = _subprocess(argv)
    assert done.returncode == 2, done.stderr[-2000:]
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("ruleslinger: error:"), done.stderr[-2000:]
    assert done.stdout == ""


def test_console_script_on_hostile_files(tmp_path):
    """Every command that takes a file, run as a real process on a deeply nested and a huge file."""
    nested = tmp_path / "nested.json"
    nested.write_text(deep(100_000, "["))
    huge = tmp_path / "huge.json"
    huge.write_text("[" + "0," * 600_000 + "0]")
    file_commands = [path for path, parser in COMMANDS.items()
                     if any(not a.option_strings and a.dest not in ("kind",) and a.nargs in (None, "?")
                            for a in parser._actions if not isinstance(a, argparse._HelpAction))]
    for path in file_commands[:6]:
        for bad in (nested, huge):
            done = _subprocess([*path, str(bad), "--json"])
            assert done.returncode == 2, (path, done.stderr[-2000:])
            assert len(done.stderr.strip().splitlines()) == 1, (path, done.stderr[-2000:])
