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
from hypothesis import given
from hypothesis import strategies as st

from solver.errors import BadInput, one_line, printable
from solver.io import output
from solver.io.numbers import short_repr
from solver.paths import OWN_FOLDERS, REPO, SCENARIOS, STORE_ENV
from tests.support.cli_fuzz import run_main
from tests.support.fuzz import FUZZ, assert_one_line

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
