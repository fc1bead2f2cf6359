"""Browser: hostile links opened in Chromium at phone (390x844) width, then widened to laptop
(1366x768); each page shows its heading, one inline error line and no traceback (the AppTest checks of every link are
``tests/fuzz/test_address_pages.py``)."""

from __future__ import annotations

from urllib.parse import quote

import pytest

from dashboard.shared.work import urldoc
from solver.outlaws import game as ogm
from solver.outlaws import line as ln
from tests.support.dashboard.browser import BROWSER, SHOTS, expect, shot, wait_idle

pytestmark = BROWSER

ISSUE_LINK = "eNrtwTENAAAAAqCgzv41rOEBJAAAwLsCAAD3BkhrbLk"
START = ogm.initial_state(0)
LINE = urldoc.encode(ln.line_to_json(START, [ln.Step(ogm.legal_actions(START)[0], 0)]))
LINKS = [
    ("readings", "", f"readings={ISSUE_LINK}", "Ruleslinger", "The readings in the address were not used"),
    ("sheet", "wagons_sheet", "sheet=" + urldoc.encode({"scenario": ["gold-rush"], "rows": [], "pile": []}),
     "Lone Cowboy score sheet", "The score sheet in the address was not loaded"),
    ("step", "outlaws_table", f"line={LINE}&at={quote('²')}", "Outlaws table", "The game in the address was not loaded"),
]


def _one_error_line(page, words: str) -> None:
    alerts = page.get_by_test_id("stAlertContentError")
    expect(alerts.first).to_contain_text(words)
    assert alerts.count() == 1, alerts.all_inner_texts()
    assert page.get_by_test_id("stException").count() == 0
    expect(page.get_by_test_id("stSkeleton")).to_have_count(0)  # the page drawn in full, at its defaults


@pytest.mark.parametrize(("name", "path", "query", "heading", "words"), LINKS, ids=[link[0] for link in LINKS])
def test_a_hostile_link_opens_the_page_with_one_error_line(page, server, name, path, query, heading, words):
    """Opened on the phone, then the same page widened to the laptop: one error line at each width."""
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{server}/{path}?{query}")
    page.get_by_role("heading", name=heading).first.wait_for()
    wait_idle(page)
    _one_error_line(page, words)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"address_{name}_phone.png"))
    page.set_viewport_size({"width": 1366, "height": 768})
    _one_error_line(page, words)
    shot(page, f"address_{name}_laptop")
