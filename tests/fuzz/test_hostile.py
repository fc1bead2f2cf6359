"""Hostile text and hostile output targets: every message is printable, and the one output writer
(:mod:`solver.io.output`) refuses names that are not text and the program's own files before any work, and says a
full disk in one line with the old file kept (fakes of a full disk: a writer that raises ENOSPC, Polars writing to
``/dev/full``).

Cases per kind: :data:`FUZZ` examples each (messages, output names, own files, full disks); the commands once each.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path
from unittest import mock

import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.errors import BadInput, one_line, printable
from solver.io import output
from solver.io.numbers import short_repr
from solver.paths import OWN_FOLDERS, REPO, SCENARIOS, STORE_ENV
from tests.support.cli_fuzz import run_main
from tests.support.fuzz import FUZZ, FUZZ_EXAMPLES, assert_one_line

# ----------------------------------------------------------------------------- text

ANY_TEXT = st.text(st.characters(codec=None, categories=None), max_size=80)
"""Any code points: lone surrogates, controls, format characters, private use, unassigned."""


@FUZZ
@given(text=ANY_TEXT)
def test_every_message_can_be_printed_and_encoded(text):
    for made in (one_line(text), str(BadInput(f"field {text}: refused")), short_repr(text), printable(text)):
        made.encode("utf-8")
    line = str(BadInput(text))
    assert "\n" not in line and line.isprintable(), repr(line)
    if text.isprintable():
        assert printable(text) == text  # ordinary text is left as it is


# ----------------------------------------------------------------------------- output names

NOT_UTF8 = st.binary(min_size=1, max_size=12).filter(lambda b: b"/" not in b and b"\x00" not in b).map(
    lambda b: os.fsdecode(b"caf\xe9" + b)).filter(lambda t: not _utf8(t))


def _utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


@FUZZ
@given(name=NOT_UTF8, suffix=st.sampled_from([".parquet", ".csv", ".json"]))
def test_a_name_that_is_not_utf8_is_refused_before_any_work(tmp_path_factory, name, suffix):
    folder = tmp_path_factory.mktemp("o")
    with pytest.raises(BadInput, match="not UTF-8") as caught:
        output.output_target(folder / (name + suffix))
    assert_one_line(caught.value)
    str(caught.value).encode("utf-8")
    assert os.listdir(folder) == []


def _own_files() -> list[Path]:
    files = [p for folder in OWN_FOLDERS for p in sorted(folder.rglob("*")) if p.is_file()]
    return files[::max(1, len(files) // 200)] + [SCENARIOS / "wagons" / "cards.json", SCENARIOS / "wagons" / "goals.toml",
                                                 SCENARIOS / "wagons" / "simulations.parquet", SCENARIOS / "new.json"]


@st.composite
def own_file_aliases(draw, folder: Path) -> str:
    """A path to one of the program's own files: plain, through ``..``, relative, or through a symbolic link."""
    target = draw(st.sampled_from(_own_files()))
    how = draw(st.sampled_from(["plain", "dots", "relative", "link"]))
    if how == "dots":
        return str(target.parent / ".." / target.parent.name / "." / target.name)
    if how == "relative":
        return os.path.relpath(target)
    link = folder / f"link-{abs(hash(target))}"
    if not link.is_symlink():
        link.symlink_to(target.parent)
    return str(link / target.name)


@FUZZ
@given(data=st.data())
def test_the_programs_own_files_are_never_an_output(tmp_path_factory, data):
    path = data.draw(own_file_aliases(tmp_path_factory.getbasetemp()))
    with pytest.raises(BadInput, match="the program's own file") as caught:
        output.output_target(path)
    assert_one_line(caught.value)


def test_the_store_is_never_an_output(tmp_path, monkeypatch):
    kept = tmp_path / "store.sqlite3"
    kept.write_bytes(b"SQLite")
    monkeypatch.setenv(STORE_ENV, str(kept))
    (tmp_path / "hard").hardlink_to(kept)
    for path in (kept, tmp_path / "hard", tmp_path / "store.sqlite3-wal", tmp_path / "." / "store.sqlite3"):
        with pytest.raises(BadInput, match="saved-games store"):
            output.output_target(path)
    assert output.output_target(tmp_path / "other.parquet") == tmp_path / "other.parquet"


# ----------------------------------------------------------------------------- a full disk


def _fault(kind: str):
    """A writer failing as a full disk (or another disk error) makes it fail."""
    frame = pl.DataFrame({"a": list(range(50))})
    if kind == "polars-parquet":
        return lambda tmp: frame.write_parquet("/dev/full")  # a ComputeError wrapping os error 28
    if kind == "polars-csv":
        return lambda tmp: frame.write_csv("/dev/full")

    def write(tmp: str) -> None:
        Path(tmp).write_bytes(b"half")
        raise OSError({"enospc": errno.ENOSPC, "edquot": errno.EDQUOT, "eio": errno.EIO}[kind], "failed")

    return write


@FUZZ
@given(kind=st.sampled_from(["polars-parquet", "polars-csv", "enospc", "edquot", "eio"]),
       suffix=st.sampled_from([".parquet", ".csv", ".json"]), old=st.booleans())
def test_a_full_disk_is_one_line_and_the_old_file_is_kept(tmp_path_factory, kind, suffix, old):
    folder = tmp_path_factory.mktemp("full")
    target = folder / f"out{suffix}"
    if old:
        target.write_bytes(b"the old rows")
    with pytest.raises(BadInput) as caught:
        output.write_atomically(target, _fault(kind))
    assert_one_line(caught.value)
    assert ("the disk is full" in str(caught.value)) == (kind not in ("eio",)), str(caught.value)
    assert ("old file is unchanged" in str(caught.value)) == old
    assert sorted(os.listdir(folder)) == (["out" + suffix] if old else [])  # no temporary file left
    if old:
        assert target.read_bytes() == b"the old rows"


def test_a_bug_in_a_writer_is_not_taken_for_a_full_disk(tmp_path):
    def broken(tmp: str) -> None:
        raise KeyError("a bug")

    with pytest.raises(KeyError):
        output.write_atomically(tmp_path / "x.csv", broken)
    assert os.listdir(tmp_path) == []


def _full_parquet(self, *args, **kwargs):
    raise pl.exceptions.ComputeError("parquet: File out of specification: underlying IO error: No space left on "
                                     "device (os error 28)")


@pytest.mark.parametrize("argv", [
    ["wagons", "simulate", "--scenario", "boomtown", "--policy", "random", "--games", "3", "--out", "{}/x.parquet"],
    ["batch", "wagons-games", "--scenario", "boomtown", "--n", "3", "--executor", "serial", "--out", "{}/x.parquet"],
], ids=["simulate", "batch"])
def test_commands_on_a_full_disk_are_one_line_exit_2(tmp_path, argv):
    (tmp_path / "x.parquet").write_bytes(b"old")
    argv = [a.format(tmp_path) for a in argv]
    with mock.patch.object(pl.DataFrame, "write_parquet", _full_parquet):
        code, out, err = run_main(argv)
    assert code == 2 and out == "" and "Traceback" not in err, err
    (line,) = [li for li in err.splitlines() if not li.startswith("[")]  # progress lines, then the one error line
    assert line.startswith("ruleslinger: error:") and "the disk is full" in err and "old file is unchanged" in err
    assert (tmp_path / "x.parquet").read_bytes() == b"old" and os.listdir(tmp_path) == ["x.parquet"]


@pytest.mark.parametrize("argv", [
    ["wagons", "simulate", "--scenario", "boomtown", "--policy", "random", "--games", "2", "--out", "OWN"],
    ["batch", "wagons-games", "--scenario", "boomtown", "--n", "2", "--out", "OWN"],
    ["wagons", "simulate", "--scenario", "boomtown", "--policy", "random", "--games", "2", "--out", "caf\udce9.csv"],
], ids=["simulate-own", "batch-own", "simulate-not-utf8"])
def test_commands_refuse_own_files_and_names_that_are_not_text(tmp_path, monkeypatch, argv):
    monkeypatch.chdir(tmp_path)
    stored = SCENARIOS / "wagons" / "simulations.parquet"
    before = stored.read_bytes()
    argv = [str(stored) if a == "OWN" else a for a in argv]
    code, out, err = run_main(argv)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1, err  # refused before any game is played
    assert stored.read_bytes() == before and os.listdir(tmp_path) == []
    assert REPO.is_dir()


# ----------------------------------------------------------------------------- the compiled-code cache

KERNEL = '''
from solver.wagons.optimizer.walk.compiled import njit


def total(n):
    s = 0
    for i in range(n):
        s += i * i
    return s


compiled = njit(cache=True)(total)
'''


@pytest.fixture
def kernel(tmp_path, monkeypatch):
    """A one-function module whose numba cache lives in its own ``__pycache__`` (this test's folder), and a way to
    compile it afresh (a new dispatcher over the same cache files, as the next process would)."""
    import importlib.util

    from solver.wagons.optimizer.walk import safecache

    monkeypatch.setattr(safecache, "_WARNED", set())
    (tmp_path / "hostile_kernel.py").write_text(KERNEL)
    spec = importlib.util.spec_from_file_location("hostile_kernel", tmp_path / "hostile_kernel.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)

    def fresh():
        from solver.wagons.optimizer.walk.compiled import njit

        return njit(cache=True)(module.total)

    assert module.compiled(10) == 285  # compiled and cached once
    return fresh, tmp_path / "__pycache__"


def _cache_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.glob("hostile_kernel.total-*") if p.suffix in (".nbi", ".nbc"))


@settings(max_examples=min(FUZZ_EXAMPLES, 40), deadline=None, suppress_health_check=list(HealthCheck))
@given(damage=st.sampled_from(["truncate", "flip", "garbage", "empty", "pickle"]), at=st.floats(0, 1),
       which=st.sampled_from(["nbi", "nbc", "both"]), data=st.binary(max_size=64))
def test_a_damaged_cache_entry_is_dropped_and_compiled_in_memory(kernel, capsys, damage, at, which, data):
    import pickle

    from solver.wagons.optimizer.walk import safecache

    fresh, folder = kernel
    if not _cache_files(folder):
        fresh()(10)  # a case before this one dropped the entry: cache it again
    safecache._WARNED.clear()
    capsys.readouterr()
    for path in _cache_files(folder):
        if which != "both" and path.suffix != "." + which:
            continue
        blob = path.read_bytes()
        cut = int(at * (len(blob) - 1))
        path.write_bytes({"truncate": blob[:cut], "flip": blob[:cut] + bytes([blob[cut] ^ 0x40]) + blob[cut + 1:],
                          "garbage": data, "empty": b"",
                          "pickle": pickle.dumps(numba_version()) + pickle.dumps(("stamp", {}))}[damage])
    assert fresh()(10) == 285
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) <= 1 and all(li.startswith("ruleslinger: warning:") for li in lines), lines


def numba_version() -> str:
    import numba

    return numba.__version__


@pytest.mark.parametrize("error", [errno.ENOSPC, errno.EACCES, errno.EROFS, errno.EDQUOT])
def test_a_cache_that_cannot_be_written_compiles_in_memory_with_one_warning(kernel, capsys, error):
    import numba.core.caching as caching

    fresh, folder = kernel
    for path in _cache_files(folder):
        path.unlink()
    capsys.readouterr()

    def full(self, filepath):
        raise OSError(error, os.strerror(error))

    with mock.patch.object(caching.IndexDataCacheFile, "_open_for_write", full):
        assert fresh()(12) == 506
        assert fresh()(12) == 506
    lines = capsys.readouterr().err.strip().splitlines()
    assert lines == [f"ruleslinger: warning: the compiled-code cache cannot be written ({os.strerror(error)}); "
                     "compiling in memory"]


def test_a_sound_entry_is_loaded_without_a_word(kernel, capsys):
    fresh, folder = kernel
    capsys.readouterr()
    again = fresh()
    assert again(10) == 285 and capsys.readouterr().err == ""
    assert sum(again.stats.cache_hits.values()) == 1
