"""AppTest: each hostile link of issue 33 ("a link breaks a page") opens its page as usual, at its default state,
with one inline error line naming the parameter, and no traceback. The decoder's own properties are
``tests/fuzz/test_address.py``."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from dashboard.ask import keep as ask_keep
from dashboard.cactus import companion
from dashboard.nav import BY_NAME, page_file
from dashboard.outlaws import play as outlaws_play
from dashboard.outlaws import position_work
from dashboard.shared.work import urldoc
from dashboard.wagons import game as wagons_game
from dashboard.wagons.sheet import work as wagons_sheet
from solver.outlaws import game as ogm
from solver.outlaws import line as ln
from tests.support.dashboard.apptest import APP, errors

ISSUE_LINK = "eNrtwTENAAAAAqCgzv41rOEBJAAAwLsCAAD3BkhrbLk"
"""The issue's 43 characters: JSON nested 3,000 deep once inflated."""
PAGE_STATE = {"wagons_play": (wagons_game.KEY,), "wagons_sheet": (wagons_sheet.WORK,),
              "cactus": (companion.KEY, "ct_tab__kept"), "outlaws": (position_work.KEY,),
              "outlaws_table": (outlaws_play.KEY,), "verification": ("ver_tab__kept",), "ask": (ask_keep.KEY,)}
"""The session keys holding each page's state (what a link in its address restores; the open tab)."""
PREFIX = {"readings": "The readings in the address were not used: ", "lc": "The game in the address was not loaded: ",
          "lc_own": "The game in the address was not loaded: ",
          "sheet": "The score sheet in the address was not loaded: ", "cactus": "The game in the address was not loaded: ",
          "line": "The game in the address was not loaded: ", "at": "The game in the address was not loaded: ",
          "tab": "The tab in the address was not opened: ", "ask": "The question in the address was not opened: "}
"""The page's words before the decoder's line, by parameter."""


def opened(name: str, params: dict[str, str] | None = None) -> AppTest:
    """Page ``name`` opened from a link holding ``params``: its first run is that page's, in a new session (the app
    runs once with a clean address first, as AppTest needs to know its pages; the session it leaves is emptied)."""
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    for key in list(at.session_state.keys()):
        del at.session_state[key]
    for key, value in (params or {}).items():
        at.query_params[key] = value
    if name != "home":
        at.switch_page(page_file(name))
    at.run()
    return at


_CLEAN: dict[str, dict] = {}


def default_state(name: str) -> dict:
    """The page's state when opened with a clean address (once per page)."""
    if name not in _CLEAN:
        at = opened(name)
        assert not at.exception and not errors(at), errors(at)
        _CLEAN[name] = {k: at.session_state[k] for k in PAGE_STATE.get(name, ())}
    return _CLEAN[name]


def assert_one_line_and_defaults(name: str, params: dict[str, str], parameter: str) -> str:
    """The page opened from the hostile link: no exception, its default state, one error line for ``parameter``."""
    at = opened(name, params)
    assert not at.exception, [e.message for e in at.exception]
    (line,) = errors(at)
    assert "\n" not in line and "Traceback" not in line and line.startswith(PREFIX[parameter]), line
    assert {k: at.session_state[k] for k in PAGE_STATE.get(name, ())} == default_state(name)
    readings = at.session_state["readings"] if "readings" in at.session_state else {}
    assert not any(readings.values()), readings
    return line


@pytest.mark.parametrize("name", list(BY_NAME))
def test_readings_nested_3000_deep_open_every_page_at_its_defaults(name):
    line = assert_one_line_and_defaults(name, {"readings": ISSUE_LINK}, "readings")
    assert "nested deeper than" in line


@pytest.mark.parametrize(("name", "parameter"), [("wagons_play", "lc"), ("wagons_play", "lc_own"),
                                                 ("wagons_sheet", "sheet"), ("cactus", "cactus"),
                                                 ("outlaws_table", "line"), ("ask", "ask")])
def test_a_page_state_nested_3000_deep_opens_the_page_at_its_defaults(name, parameter):
    assert "nested deeper than" in assert_one_line_and_defaults(name, {parameter: ISSUE_LINK}, parameter)


SHEET = {"scenario": "gold-rush", "rows": [], "pile": [3, 7, 11]}
CACTUS = {"players": None, "marked": [1, 2, 3, 4], "history": []}


@pytest.mark.parametrize(("name", "parameter", "doc", "why"), [
    ("wagons_sheet", "sheet", {**SHEET, "scenario": ["gold-rush"]}, "scenario"),
    ("cactus", "cactus", {**CACTUS, "players": [3]}, "players"),
    ("cactus", "cactus", {**CACTUS, "marked": [1, "2", 3, 4]}, "marked"),
], ids=["sheet-scenario-a-list", "cactus-players-a-list", "cactus-marked-text-and-numbers"])
def test_a_well_formed_document_of_the_wrong_type_opens_the_page_at_its_defaults(name, parameter, doc, why):
    assert why in assert_one_line_and_defaults(name, {parameter: urldoc.encode(doc)}, parameter)


def a_valid_line() -> str:
    start = ogm.initial_state(0)
    return urldoc.encode(ln.line_to_json(start, [ln.Step(ogm.legal_actions(start)[0], 0)]))


@pytest.mark.parametrize("step", ["²", "1" * 5000, "٣"], ids=["superscript-two", "5000-digits", "arabic-three"])
def test_a_valid_line_with_a_step_that_is_no_ascii_number_opens_the_table_at_its_defaults(step):
    line = assert_one_line_and_defaults("outlaws_table", {"line": a_valid_line(), "at": step}, "at")
    assert "the step in the address" in line


def test_a_valid_line_and_step_still_open_where_they_were():
    at = opened("outlaws_table", {"line": a_valid_line(), "at": "0"})
    assert not at.exception and not errors(at)
    kept = at.session_state[outlaws_play.KEY]
    assert len(kept["line"]["steps"]) == 1 and kept["at"] == 0


@pytest.mark.parametrize("name", ["cactus", "verification"])
def test_a_tab_the_page_does_not_have_is_one_line_and_the_first_tab(name):
    line = assert_one_line_and_defaults(name, {"tab": "No such tab"}, "tab")
    assert "'No such tab'" in line


SURROGATE_LINK = "eNqrVirISaxMLSpWslIw1lFQyk0syk5NAXKiY4G8jMzikvyiShC3Wim1LDWvBMhUiilNsTAwUKqNrQUAZhkTXQ"
"""A Cactus Town game whose event is the JSON escape of a lone surrogate (``"\\ud800"``): text no page can print."""


@pytest.mark.parametrize(("name", "parameter", "text"), [
    ("cactus", "cactus", SURROGATE_LINK),
    ("cactus", "cactus", urldoc.encode({**CACTUS, "players": 3, "marked": [], "history": [{"event": "\ud800"}]})),
    ("wagons_sheet", "sheet", urldoc.encode({**SHEET, "scenario": "\udce9\x1b[31m"})),
    ("outlaws_table", "line", urldoc.encode({"seed": 0, "steps": [{"\ud800": 1}]})),
], ids=["cactus-issue-link", "cactus-event", "sheet-scenario", "outlaws-line-key"])
def test_a_lone_surrogate_in_an_address_opens_the_page_at_its_defaults(name, parameter, text):
    line = assert_one_line_and_defaults(name, {parameter: text}, parameter)
    line.encode("utf-8")  # printable: the refusal never repeats text that cannot be shown


IMAGE = "![pixel](http://127.0.0.1:9/p.png)"
"""An image link: shown as Markdown, the browser would fetch its address."""


@pytest.mark.parametrize(("name", "parameter", "text"), [
    ("cactus", "cactus", urldoc.encode({**CACTUS, "players": 3, "marked": [], "history": [{"event": IMAGE}]})),
    ("wagons_sheet", "sheet", urldoc.encode({**SHEET, "scenario": IMAGE})),
    ("outlaws_table", "line", urldoc.encode({"seed": 0, "steps": [{IMAGE: 1}]})),
    ("cactus", "tab", IMAGE),
], ids=["cactus-event", "sheet-scenario", "outlaws-line-key", "tab"])
def test_markup_in_an_address_is_shown_as_plain_text(name, parameter, text):
    at = opened(name, {parameter: text})
    assert not at.exception
    (line,) = [e.value for e in at.error]
    assert "![" not in line.replace("!\\[", "") and "](" not in line.replace("\\](", ""), line  # no image, no link
    assert IMAGE in errors(at)[0] or "\\" not in IMAGE  # the player reads what the address held
