"""The store of each browser's work and saved games (dashboard.shared.work.store, .browser, .games; issue 32).

Unit tests of the SQLite store (round trips, two browsers isolated, My games' rename and delete, limits, damaged
files refused in one line, threads), AppTests of tests/apps/store_app.py (two browsers isolated, a returning
browser, a damaged store refused in one line while the app starts, My games resuming, renaming, deleting). The
store in Chromium (work kept across another page, a reload, a closed browser and a server restart; the id a
long-lived cookie; a tab that connected without it; another browser sees none) is the restart test of
tests/browser/test_table_companion.py, which also resumes a Lone Cowboy game and town from My games after the restart.
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path
from unittest import mock

import pytest
from streamlit.testing.v1 import AppTest

from dashboard.shared import games
from dashboard.shared.work import browser, store
from solver.errors import BadInput
from tests.support.paths import ROOT

APP = str(ROOT / "tests" / "apps" / "store_app.py")
MY_GAMES = "../../dashboard/shared/my_games.py"  # as AppTest.switch_page wants it: from the app's folder


@pytest.fixture(autouse=True)
def _kinds_put_back():
    """The AppTests run tests/apps/store_app.py in this process, and it adds its ``note`` kind to ``games.KINDS``;
    the table is put back after each test, so a module run later in the same worker sees the dashboard's kinds."""
    with mock.patch.dict(games.KINDS):
        yield


@pytest.fixture
def path(tmp_path, monkeypatch) -> Path:
    """A store file of this test's own, named by RULESLINGER_STORE (never the user's data folder)."""
    target = tmp_path / "data" / "store.sqlite3"
    monkeypatch.setenv(store.ENV, str(target))
    return target


def handle(path: Path, ident: str | None = None) -> store.Handle:
    return store.Handle.of(store.open_store(path), ident or browser.new_id())


# ----------------------------------------------------------------------------- the file and its rows


def test_default_path_follows_the_variable_then_xdg(monkeypatch, tmp_path):
    monkeypatch.delenv(store.ENV, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert store.default_path() == tmp_path / "ruleslinger" / "store.sqlite3"
    monkeypatch.setenv("XDG_DATA_HOME", "relative/ignored")  # the XDG spec: a relative value is ignored
    assert store.default_path() == Path.home() / ".local" / "share" / "ruleslinger" / "store.sqlite3"
    monkeypatch.setenv(store.ENV, str(tmp_path / "mine.db"))
    assert store.default_path() == tmp_path / "mine.db"


def test_a_new_store_is_made_with_its_folder_versioned_and_in_wal_mode(path):
    handle(path).save_work("sheet", {"cards": [1, 2]})
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == store.SCHEMA_VERSION
        assert conn.execute("PRAGMA application_id").fetchone()[0] == store.APPLICATION_ID
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_ids_are_long_random_and_kept_only_as_a_hash(path):
    ids = {browser.new_id() for _ in range(200)}
    assert len(ids) == 200 and all(browser.valid(i) and len(i) == 43 for i in ids)  # 43 base64 chars: 256 bits
    ident = browser.new_id()
    handle(path, ident).save_work("sheet", {"town": "at the table"})
    with sqlite3.connect(path) as conn:
        owners = [row[0] for row in conn.execute("SELECT owner FROM work")]
    assert owners == [store.owner_of(ident)] and ident not in owners
    for name in ("", "short", ident + "x", ident[:-1] + "!"):
        assert not browser.valid(name)
        with pytest.raises(BadInput):
            store.owner_of(name)


def test_work_round_trip_replace_and_delete(path):
    h = handle(path)
    assert h.load_work("sheet") is None
    h.save_work("sheet", {"placements": [{"card": 5, "x": 6, "y": 1}], "scenario": "boomtown"})
    h.save_work("line", [1, 2, 3])
    assert h.load_work("sheet") == {"placements": [{"card": 5, "x": 6, "y": 1}], "scenario": "boomtown"}
    h.save_work("sheet", {"placements": []})
    assert h.load_work("sheet") == {"placements": []} and h.load_work("line") == [1, 2, 3]
    h.delete_work("sheet")
    assert h.load_work("sheet") is None and h.load_work("line") == [1, 2, 3]
    again = store.Handle.of(store.Store(path), browser.new_id())  # another connection sees the same file
    assert again.load_work("line") is None


def test_two_browsers_never_see_or_change_each_others_rows(path):
    mine, theirs = handle(path), handle(path)
    mine.save_work("sheet", {"who": "mine"})
    item = mine.save_item("wagons-town", "Sunday town", {"who": "mine"})
    assert theirs.load_work("sheet") is None
    assert theirs.list_items() == [] and theirs.get_item(item.id) is None
    for change in (lambda: theirs.rename_item(item.id, "stolen"), lambda: theirs.delete_item(item.id),
                   lambda: theirs.update_item(item.id, {"who": "theirs"})):
        with pytest.raises(BadInput, match="not in this browser's list"):
            change()
    theirs.save_work("sheet", {"who": "theirs"})
    assert mine.load_work("sheet") == {"who": "mine"}
    assert mine.get_item(item.id).doc == {"who": "mine"} and mine.get_item(item.id).name == "Sunday town"


def test_my_games_items_listed_latest_first_renamed_updated_deleted(path):
    h = handle(path)
    first = h.save_item("wagons-town", "First", {"n": 1})
    second = h.save_item("outlaws-line", "Second", {"n": 2})
    assert [i.name for i in h.list_items()] == ["Second", "First"]
    assert [i.name for i in h.list_items("wagons-town")] == ["First"]
    assert all(i.doc is None for i in h.list_items())  # listing does not read the documents
    h.rename_item(first.id, "  The   first game ")
    h.update_item(second.id, {"n": 22})
    got = h.get_item(first.id)
    assert (got.name, got.kind, got.doc) == ("The first game", "wagons-town", {"n": 1})
    assert got.updated >= got.created and h.get_item(second.id).doc == {"n": 22}
    h.delete_item(second.id)
    assert [i.id for i in h.list_items()] == [first.id]
    with pytest.raises(BadInput):
        h.delete_item(second.id)
    for bad in ("", "   ", "x" * (store.MAX_NAME + 1), 5):
        with pytest.raises(BadInput):
            h.rename_item(first.id, bad)
    assert h.get_item(first.id).name == "The first game"


def test_documents_over_the_limits_are_refused_in_one_line_and_nothing_changes(path):
    h = handle(path)
    h.save_work("sheet", {"kept": True})
    deep: list = []
    for _ in range(40):
        deep = [deep]
    for doc, words in [({"pile": "x" * (store.MAX_DOC_BYTES + 1)}, "too large to keep"),
                       (deep, "nested deeper"), ({"odds": float("nan")}, "cannot be kept"),
                       ({"card": object()}, "cannot be kept"), ({"big": 10**60}, "a number of 61 characters")]:
        with pytest.raises(BadInput, match=words) as err:
            h.save_work("sheet", doc)
        assert "\n" not in str(err.value) and len(str(err.value)) < 300
        with pytest.raises(BadInput):
            h.save_item("wagons-town", "Too big", doc)
    assert h.load_work("sheet") == {"kept": True} and h.list_items() == []


def test_each_browser_keeps_a_bounded_number_of_rows(path, monkeypatch):
    monkeypatch.setattr(store, "MAX_ITEMS", 3)
    monkeypatch.setattr(store, "MAX_WORK", 2)
    h = handle(path)
    for n in range(3):
        h.save_item("note", f"n{n}", n)
    with pytest.raises(BadInput, match="3 saved games already"):
        h.save_item("note", "one more", 4)
    h.save_work("a", 1)
    h.save_work("b", 2)
    h.save_work("a", 3)  # replacing a kept key is always allowed
    with pytest.raises(BadInput, match="2 pieces of work already"):
        h.save_work("c", 4)
    assert len(h.list_items()) == 3 and h.load_work("c") is None
    handle(path).save_item("note", "another browser's", 1)  # the bound is per browser


# ----------------------------------------------------------------------------- refused files


def _refusal(path: Path) -> str:
    with pytest.raises(store.StoreUnavailable) as err:
        store.open_store(path)
    line = str(err.value)
    assert "\n" not in line and str(path) in line
    return line


def test_a_file_that_is_not_a_database_is_refused_in_one_line_and_left_alone(tmp_path):
    path = tmp_path / "store.sqlite3"
    garbage = b"my notes, not a database\n" * 100
    path.write_bytes(garbage)
    assert "damaged" in _refusal(path) and "file is not a database" in _refusal(path)
    assert path.read_bytes() == garbage  # never overwritten: the user may want it back


def test_a_damaged_page_inside_a_real_store_is_refused(tmp_path):
    path = tmp_path / "store.sqlite3"
    h = handle(path)
    for n in range(120):
        h.save_item("note", f"n{n}", {"text": "x" * 500})
    data = bytearray(path.read_bytes())
    data[3 * 4096: 3 * 4096 + 400] = b"\xa5" * 400  # the middle of a table's page
    copy = tmp_path / "copy.sqlite3"
    copy.write_bytes(bytes(data))
    assert "malformed" in _refusal(copy)


def test_other_files_folders_and_newer_stores_are_refused(tmp_path):
    other = tmp_path / "other.sqlite3"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE songs (title TEXT)")
    assert "not a Ruleslinger store" in _refusal(other)
    newer = tmp_path / "newer.sqlite3"
    store.open_store(newer)
    with sqlite3.connect(newer) as conn:
        conn.execute(f"PRAGMA user_version = {store.SCHEMA_VERSION + 1}")
    store._OPENED.pop(newer)  # a restarted server reads the file again
    assert "newer Ruleslinger" in _refusal(newer)
    folder = tmp_path / "folder.sqlite3"
    folder.mkdir()
    assert "a folder, not a file" in _refusal(folder)


def test_an_empty_file_becomes_a_store_and_a_refusal_lasts_the_run(tmp_path):
    empty = tmp_path / "empty.sqlite3"
    empty.touch()  # SQLite reads a zero-length file as an empty database
    handle(empty).save_work("k", 1)
    bad = tmp_path / "bad.sqlite3"
    bad.write_bytes(b"x" * 1000)
    first = _refusal(bad)
    bad.unlink()  # mended while the server runs: it is checked again at the next start, not every run
    assert _refusal(bad) == first


# ----------------------------------------------------------------------------- threads


def test_many_threads_write_at_once_without_loss(path):
    ids = [browser.new_id() for _ in range(6)]
    shared = browser.new_id()
    errors: list[BaseException] = []

    def work(n: int) -> None:
        try:
            own, common = handle(path, ids[n]), handle(path, shared)
            for k in range(25):
                own.save_work(f"w{k % 5}", {"thread": n, "k": k})
                own.save_item("note", f"t{n}-{k}", k)
                common.save_work("same", {"thread": n, "k": k})
                common.save_item("note", f"c{n}-{k}", k)
        except BaseException as exc:  # noqa: BLE001 - reported by the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    for n, ident in enumerate(ids):
        h = handle(path, ident)
        assert len(h.list_items()) == 25
        assert [h.load_work(f"w{k}") for k in range(5)] == [{"thread": n, "k": 20 + k} for k in range(5)]
    common = handle(path, shared)
    assert len(common.list_items()) == 150 and common.load_work("same")["k"] == 24


# ----------------------------------------------------------------------------- AppTests


def _app(held: str | None = None) -> AppTest:
    """The test app in a new session: a new browser, or (``held``) the browser holding that id, as the cookie
    writer reports it when the session's connection did not carry the cookie (AppTest cannot send cookies)."""
    at = AppTest.from_file(APP, default_timeout=30)
    if held:
        at.session_state[browser.WRITER_KEY] = {"held": held}
    return at.run()


def _id(at: AppTest) -> str:
    return at.session_state["_ruleslinger_browser_id"][0]


def _type_note(at: AppTest, text: str) -> None:
    at.text_area(key="note").input(text).run()


def _save_note(at: AppTest, name: str) -> None:
    at.text_input(key="note_save_name").input(name).run()
    at.button(key="note_save_save").click().run()
    assert [s.value for s in at.success] == [f"Saved '{name}' to My games."]


def test_apptest_two_browsers_are_isolated_and_a_returning_browser_finds_its_work(path):
    one, two = _app(), _app()
    assert not one.exception and not two.exception and _id(one) != _id(two)
    _type_note(one, "six cards placed, the saloon at (2, 1)")
    _save_note(one, "Saloon town")
    _type_note(two, "the other player's note")
    again = _app(held=_id(one))
    assert again.text_area(key="note").value == "six cards placed, the saloon at (2, 1)"
    assert _app(held=_id(two)).text_area(key="note").value == "the other player's note"
    assert _app().text_area(key="note").value == ""  # a third browser starts empty
    two.switch_page(MY_GAMES).run()
    assert "Saloon town" not in " ".join(m.value for m in two.markdown)
    assert [i.value for i in two.info][0].startswith("Nothing saved in this browser yet")


def test_apptest_a_session_that_adopts_its_browsers_id_drops_the_work_of_its_own_new_id(path):
    """The writer reports an id the browser holds after the session's first run (another tab wrote it): the note
    the first run mirrored under the session's own new id gives way to the browser's, which is not overwritten."""
    one = _app()
    _type_note(one, "the browser's note")
    late = _app()
    assert late.text_area(key="note").value == ""  # a new id: nothing kept under it
    late.session_state[browser.WRITER_KEY] = {"held": _id(one)}
    late.run()
    assert _id(late) == _id(one) and late.text_area(key="note").value == "the browser's note"
    assert _app(held=_id(one)).text_area(key="note").value == "the browser's note"


def test_apptest_a_damaged_store_is_refused_in_one_line_and_the_app_still_starts(path):
    path.parent.mkdir(parents=True)
    garbage = b"\x00garbage, not SQLite\n" * 64
    path.write_bytes(garbage)
    at = _app()
    assert not at.exception
    assert len(at.warning) == 1
    line = at.warning[0].value
    assert line.startswith("Saving is off until the dashboard restarts:") and "damaged" in line and str(path) in line
    assert "\n" not in line
    assert [t.value for t in at.title] == ["Note"]
    _type_note(at, "kept in this session only")  # the page works; its work lasts as long as the session
    assert at.text_area(key="note").value == "kept in this session only" and not at.error
    assert all(b.key != "note_save_save" for b in at.button)  # no saving offered while saving is off
    at.switch_page(MY_GAMES).run()
    assert not at.exception and "Saving is off" in at.info[0].value
    assert path.read_bytes() == garbage


def test_apptest_a_browser_refusing_the_cookie_is_told_in_one_line(path):
    at = AppTest.from_file(APP, default_timeout=30)
    at.session_state[browser.WRITER_KEY] = {"refused": True}  # what the writer reports when the cookie did not stick
    at.run()
    assert not at.exception and [w.value for w in at.warning] == [
        "This browser refuses cookies: your work is kept only while this tab stays open."]
    assert not _app().warning


def test_apptest_my_games_resumes_renames_and_deletes(path):
    at = _app()
    _type_note(at, "the game we stopped at dinner")
    _save_note(at, "Dinner game")
    _type_note(at, "something else since")
    at.switch_page(MY_GAMES).run()
    assert "**Dinner game**" in at.markdown[0].value and "Note · saved" in at.markdown[0].value
    (item,) = handle_items(at)
    at.text_input(key=f"mg_name_{item.id}").input("Dinner, table two").run()
    at.button(key=f"mg_rename_{item.id}").click().run()
    assert at.success[0].value == "Renamed 'Dinner game'." and "**Dinner, table two**" in at.markdown[0].value
    at.button(key=f"mg_resume_{item.id}").click().run()
    assert not at.exception and [t.value for t in at.title] == ["Note"]
    assert at.text_area(key="note").value == "the game we stopped at dinner"
    assert _app(held=_id(at)).text_area(key="note").value == "the game we stopped at dinner"  # kept as work too
    at.switch_page(MY_GAMES).run()
    at.button(key=f"mg_delete_{item.id}").click().run()
    assert at.success[0].value == "Deleted 'Dinner, table two'." and handle_items(at) == []


def handle_items(at: AppTest) -> list[store.Item]:
    return store.Handle.of(store.open_store(), _id(at)).list_items()


def test_apptest_kept_work_that_no_longer_loads_is_one_line(path):
    ident = browser.new_id()
    store.Handle.of(store.open_store(), ident).save_work("town", {"cards": "not a list"})

    def app():
        import streamlit as st

        from dashboard.shared.work import store as kept
        from solver.errors import BadInput as Bad

        def load(doc):
            if not isinstance(doc.get("cards"), list):
                raise Bad("the town's 'cards' must be a list")
            return doc

        kept.sync("town", load=load)
        st.write("town:", st.session_state.get("town", "fresh"))

    at = AppTest.from_function(app)
    at.session_state[browser.WRITER_KEY] = {"held": ident}
    at.run()
    assert [e.value for e in at.error] == ["Your kept work could not be restored: the town's 'cards' must be a list"]
    assert "town: fresh" in " ".join(m.value for m in at.markdown)


def test_apptest_unchanged_work_is_not_rewritten(path):
    at = _app()
    _type_note(at, "once")
    h = store.Handle.of(store.open_store(), _id(at))
    with sqlite3.connect(path) as conn:
        before = conn.execute("SELECT updated FROM work").fetchall()
    at.run()
    at.run()
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT updated FROM work").fetchall() == before
    assert h.load_work("note") == "once"


def test_kinds_name_pages_that_exist():
    for kind in games.KINDS.values():
        assert kind.page.is_file(), kind
    assert len({k.work_key for k in games.KINDS.values()}) == len(games.KINDS)
