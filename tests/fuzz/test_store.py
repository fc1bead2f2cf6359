"""Hostile input to the saved-games store and My games: store paths that cannot be used, names and documents that
are not text, forged ids, Markdown and HTML in names, a full disk while deleting, and a thousand saved items.

Cases per kind: :data:`FUZZ` examples each (store paths, names shown as text, names and documents and ids refused);
the file mode, the full-disk delete and the paged list once each.
"""

from __future__ import annotations

import os
import re
import sqlite3
import stat
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import given
from hypothesis import strategies as hst
from streamlit.testing.v1 import AppTest

from dashboard.shared import games
from dashboard.shared.work import browser, store
from dashboard.shared.work.plaintext import plain
from solver.errors import BadInput, printable
from tests.support.fuzz import FUZZ
from tests.support.paths import ROOT

APP = str(ROOT / "tests" / "apps" / "store_app.py")
MY_GAMES = "../../dashboard/shared/my_games.py"


@pytest.fixture(autouse=True)
def _kinds_put_back():
    with mock.patch.dict(games.KINDS):
        yield


def _store(tmp_path: Path) -> store.Store:
    return store._open(tmp_path / "store.sqlite3")


# ----------------------------------------------------------------------------- store paths that cannot be used

_SEGMENT = hst.text(hst.characters(codec="utf-8", exclude_characters="/\x00"), min_size=1, max_size=20)
HOSTILE_PATHS = hst.one_of(
    hst.integers(256, 5000).map(lambda n: "n" * n),                      # one name too long (ENAMETOOLONG)
    hst.lists(hst.just("d" * 250), min_size=17, max_size=30).map("/".join),  # a path too long
    hst.tuples(_SEGMENT, hst.sampled_from(["\x00", "\ud800", "\udce9"])).map("".join),  # NUL, not text
    hst.just("dir/"),                                                     # a folder
    hst.just("file/store.sqlite3"),                                       # a file where a folder should be
)


@FUZZ
@given(name=HOSTILE_PATHS)
def test_an_unusable_store_path_is_one_line(tmp_path_factory, name):
    base = tmp_path_factory.mktemp("s")
    (base / "dir").mkdir()
    (base / "file").write_text("x")
    try:
        store._open(Path(str(base) + "/" + name))
    except store.StoreUnavailable as exc:
        line = str(exc)
        assert line.startswith("the saved-games store ") and "\n" not in line and len(line) < 400
        line.encode("utf-8")  # printable: no lone surrogate reaches the page
    else:  # a name the file system takes after all is a working store
        pass


def test_a_300_character_store_name_gives_the_pages_one_warning(tmp_path, monkeypatch):
    monkeypatch.setenv(store.ENV, str(tmp_path / ("n" * 300)))
    at = AppTest.from_file(APP, default_timeout=30).run()
    assert not at.exception and len(at.warning) == 1
    assert at.warning[0].value.startswith("Saving is off until the dashboard restarts:")
    assert "File name too long" in at.warning[0].value


def test_the_store_file_is_made_private_whatever_the_umask(tmp_path):
    old = os.umask(0o022)
    try:
        _store(tmp_path)
        loose = tmp_path / "loose.sqlite3"
        loose.touch(mode=0o644)
        os.chmod(loose, 0o644)
        store._open(loose)
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(tmp_path / "store.sqlite3").st_mode) == 0o600
    assert stat.S_IMODE(os.stat(loose).st_mode) == 0o600  # an older, readable file is closed to others


# ----------------------------------------------------------------------------- names are text

_MARKUP = hst.sampled_from(["![x](http://127.0.0.1:9/x.png)", "<img src=x onerror=alert(1)>", "**bold**", "_i_",
                            "[link](javascript:alert(1))", ":red[red]", ":material/home:", "$x^2$", "~~s~~", "`c`",
                            "# head", "- item", "1. item", "> quote", "&amp;", "<script>", "\\", "\ud800"])
NAMES = hst.lists(hst.one_of(_MARKUP, hst.text(max_size=8)), min_size=1, max_size=6).map(" ".join)
_ACTIVE = re.compile(r"(?<!\\)(?:\\\\)*[`*~<\[\]$]")


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


@FUZZ
@given(name=NAMES)
def test_a_name_is_shown_as_plain_text(name):
    shown = plain(name)
    assert "\n" not in shown and not _ACTIVE.search(shown), shown  # no markup character left unescaped
    assert not re.match(r"\s*(?:[-+>#]|\d+[.)])", shown)  # no list, quote or heading
    assert _unescape(shown) == " ".join(printable(name).split())  # what the player reads is what was typed
    shown.encode("utf-8")


def test_my_games_shows_a_hostile_name_as_text(tmp_path, monkeypatch):
    monkeypatch.setenv(store.ENV, str(tmp_path / "store.sqlite3"))
    at = AppTest.from_file(APP, default_timeout=30).run()
    ident = at.session_state["_ruleslinger_browser_id"][0]
    name = "![pixel](http://127.0.0.1:9/p.png) <img src=x> **loud**"
    store.Handle.of(store.open_store(), ident).save_item("note", name, {"note": "x"})
    at.switch_page(MY_GAMES).run()
    shown = at.markdown[0].value
    assert not at.exception and not _ACTIVE.search(shown.split("  \n")[0].strip("*"))
    assert name in _unescape(shown)


@FUZZ
@given(name=hst.text(min_size=1, max_size=30).map(lambda t: t + "\ud800"),
       ident=hst.one_of(hst.integers(min_value=2**63), hst.integers(max_value=-1), hst.booleans(), hst.text()))
def test_names_documents_and_ids_that_cannot_be_kept_are_one_line(tmp_path_factory, name, ident):
    handle = store.Handle(_store(tmp_path_factory.mktemp("s")), "a" * 64)
    for call in (lambda: handle.save_item("note", name, {}), lambda: handle.save_item("note", "ok", {"t": name}),
                 lambda: handle.delete_item(ident), lambda: handle.get_item(ident),
                 lambda: handle.rename_item(ident, "x")):
        with pytest.raises(BadInput) as caught:
            call()
        assert "\n" not in str(caught.value)
        str(caught.value).encode("utf-8")


# ----------------------------------------------------------------------------- a full disk


class _FullDisk(sqlite3.Connection):
    """A connection to a store on a full disk: anything that grows the write-ahead log fails as SQLite says."""

    def execute(self, sql, *args):
        text = " ".join(sql.split()).upper()
        if text.startswith(("INSERT", "UPDATE", "DELETE")) and self.execute_plain("PRAGMA journal_mode") == "wal":
            raise sqlite3.OperationalError("database or disk is full")
        return super().execute(sql, *args)

    def execute_plain(self, sql):
        return super().execute(sql).fetchone()[0]


def test_delete_works_on_a_full_disk(tmp_path):
    kept = _store(tmp_path)
    handle = store.Handle(kept, "b" * 64)
    items = [handle.save_item("note", f"game {i}", {"i": i}) for i in range(3)]
    full = mock.patch.object(store.Store, "connect", lambda self: sqlite3.connect(
        self.path, timeout=1, isolation_level=None, factory=_FullDisk))
    with full:
        with pytest.raises(store.StoreError, match="disk is full"):
            handle.save_item("note", "one more", {})
        handle.delete_item(items[0].id)
        with pytest.raises(BadInput, match="not in this browser's list"):
            handle.delete_item(items[0].id)
    assert [i.name for i in handle.list_items()] == ["game 2", "game 1"]
    with kept.reading() as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"  # the log is back on


# ----------------------------------------------------------------------------- a thousand saved items


def test_my_games_draws_a_page_of_a_thousand_items(tmp_path, monkeypatch):
    monkeypatch.setenv(store.ENV, str(tmp_path / "store.sqlite3"))
    at = AppTest.from_file(APP, default_timeout=60).run()
    ident = at.session_state["_ruleslinger_browser_id"][0]
    handle = store.Handle.of(store.open_store(), ident)
    with store.open_store().writing() as conn:
        conn.executemany("INSERT INTO items (owner, kind, name, doc, created, updated) VALUES (?, 'note', ?, '{}', ?, ?)",
                         [(handle.owner, f"game {i:04d}", float(i), float(i)) for i in range(store.MAX_ITEMS)])
    at.switch_page(MY_GAMES).run()
    drawn = [b.key for b in at.button if b.key and b.key.startswith("mg_resume_")]
    assert len(drawn) == games.PAGE_SIZE and "game 0999" in at.markdown[0].value
    at.number_input(key="mg_page").set_value(50).run()
    assert not at.exception and "game 0019" in at.markdown[0].value
    last = [b.key for b in at.button if b.key and b.key.startswith("mg_delete_")][-1]
    at.button(key=last).click().run()
    assert not at.exception and len(handle.list_items()) == store.MAX_ITEMS - 1
    assert browser.valid(ident)
