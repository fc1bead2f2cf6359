"""The app shell (dashboard/app.py, dashboard/nav.py) and the store's wiring (issue 32, "Nothing lost"): every run
mounts this browser's store, My games is a page of the navigation that resumes into the real pages, and the test
session never uses the user's data folder."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from dashboard.nav import BY_NAME, page_file
from dashboard.shared import games
from dashboard.shared.work import browser, store
from tests.support.dashboard.apptest import open_page

DASHBOARD = Path(__file__).resolve().parents[2] / "dashboard"


def test_the_suite_keeps_its_store_in_a_temporary_folder():
    path = store.default_path()
    assert os.environ[store.ENV] == str(path)
    assert Path(tempfile.gettempdir()).resolve() in path.resolve().parents
    assert ".local/share" not in str(path)


def test_my_games_is_a_page_and_every_kind_resumes_into_a_page_of_the_navigation():
    assert page_file("my_games") == "shared/my_games.py"
    files = {(DASHBOARD / info.file).resolve() for info in BY_NAME.values()}
    for kind in games.KINDS.values():
        assert kind.page.resolve() in files, kind


def test_every_run_knows_its_browser_and_my_games_lists_this_browsers_items():
    at = open_page("my_games")
    assert not at.exception
    ident = at.session_state["_ruleslinger_browser_id"][0]
    assert browser.valid(ident)
    assert [t.value for t in at.title] == ["My games"]
    assert at.info[0].value.startswith("Nothing saved in this browser yet")
    handle = store.Handle.of(store.open_store(), ident)
    handle.save_item("wagons-town", "Saloon corner", {"scenario": "boomtown", "rows": [], "pile": []})
    at.run()
    assert "**Saloon corner**" in at.markdown[0].value and "Lone Cowboy town" in at.markdown[0].value


def test_no_page_script_shows_a_stray_string():
    """Streamlit draws every bare expression of a page script (its "magic"), so a string meant as a note under a
    constant appears on the page (the play page showed "Session keys (and kept work) of the after-game answers"):
    page scripts hold no bare string but their docstring."""
    import ast

    for info in BY_NAME.values():
        tree = ast.parse((DASHBOARD / info.file).read_text())
        stray = [node.lineno for node in tree.body[1:]
                 if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)]
        assert stray == [], (info.file, stray)


def _calls(node) -> list[str]:
    """The dotted names of the calls in a statement (``store.start``, ``st.navigation``)."""
    import ast

    return [ast.unparse(n.func) for n in ast.walk(node) if isinstance(n, ast.Call)]


def test_the_page_is_chosen_before_anything_can_ask_for_a_rerun():
    """The browser learns which page it is on from ``st.navigation``'s message. A rerun asked before it arrives (the
    cookie writer reports at once a browser id another tab wrote) runs the Home page instead: a tab opened at
    /outlaws_table whose connection lacked the cookie showed Home. In app.py, ``st.navigation`` comes before the
    store's start (the writer, and a session starting over under an adopted id), which comes before everything that
    reads the session or the address; only the page's set-up and the missing-library stop precede it."""
    import ast

    body = ast.parse((DASHBOARD / "app.py").read_text()).body
    at = {name: i for i, stmt in enumerate(body) for name in _calls(stmt)}
    assert at["st.navigation"] < at["store.start"] < at["page.run"], at
    drawing_before = [name for name, i in at.items() if i < at["st.navigation"]
                      and name.startswith("st.") and name not in {"st.set_page_config", "st.error", "st.stop",
                                                                   "st.Page", "st.navigation"}]
    assert drawing_before == []
    for name in ("readings_from_address", "start_rooms", "readings_to_address", "deliver_stopped"):
        assert at[name] > at["store.start"], name


def test_a_tab_that_takes_its_browsers_id_shows_that_browsers_work_in_every_box():
    """A tab whose connection lacked the cookie starts with a new id and draws the empty work; when the cookie writer
    reports the id another tab of the browser wrote, the session starts over under it: the Outlaws page's seed box
    shows the browser's seed (it kept the first run's 1), and the address the first run wrote is not taken as work."""
    from dashboard.outlaws import position_work
    from solver.outlaws.position import initial_position
    from solver.outlaws.position_json import position_to_json
    from solver.outlaws.readings import OutlawsReadings

    ident = browser.new_id()
    doc = {"position": position_to_json(initial_position(seed=5, readings=OutlawsReadings())), "seed": 5}
    store.Handle.of(store.open_store(), ident).save_work(position_work.KEY, doc)
    at = open_page("outlaws")
    assert at.text_input(key="ol_seed").value == "1" and position_work.QUERY in at.query_params  # the empty work
    at.session_state[browser.WRITER_KEY] = {"held": ident}
    at.run()
    assert not at.exception
    assert at.session_state["_ruleslinger_browser_id"] == (ident, False)
    assert at.text_input(key="ol_seed").value == "5"
    assert at.session_state[position_work.KEY] == doc
