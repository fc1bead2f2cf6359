"""Browser: the Outlaws position editor lists every problem of an edited position at once, inline, one line each,
at phone (390x844) width and widened to laptop (1366x768) width, and the position shown stays as it was ("values,
not strings"; the AppTest checks, the "Edit as JSON" path and text quoted as typed, are
``tests/dashboard/outlaws/test_problems.py``)."""

from __future__ import annotations

from dashboard.outlaws.problems import in_words
from solver.outlaws.position import initial_position
from solver.outlaws.position_json import position_problems, position_to_json
from solver.outlaws.readings import OutlawsReadings
from tests.support.dashboard.browser import BROWSER, SHOTS, expect, open_page, shot, wait_idle

pytestmark = BROWSER


def _edited() -> tuple[dict, int]:
    """The set-up of seed 1 (the page's first position) with the Governor put in A's Saloon and a character that
    is not a Bandit immobilized: three problems. Also that character's column."""
    doc = position_to_json(initial_position(seed=1, readings=OutlawsReadings()))
    col = next(c for c, name in enumerate(doc["street"]["A"]) if name not in ("bandit", "governor"))
    doc["saloon"]["A"][0] = "governor"
    doc["immobilized"] = [["A", col]]
    return doc, col


def _choose(page, widget: str, label: str, option: str) -> None:
    """Type ``option`` into the select box labelled ``label`` and take it."""
    page.get_by_test_id(widget).filter(has_text=label).locator("input").click()
    page.keyboard.type(option)
    page.keyboard.press("Enter")


def _problems_listed(page, doc: dict):
    """The one alert: "Position not changed: 3 problems", one line each, named as the rulebook does."""
    alert = page.get_by_test_id("stAlertContentError").filter(has_text="Position not changed")
    expect(alert).to_have_count(1)
    expect(alert).to_contain_text("Position not changed: 3 problems")
    items = alert.locator("li")
    expect(items).to_have_count(3)
    assert items.all_inner_texts() == [in_words(p) for p in position_problems(doc)]
    assert page.get_by_test_id("stException").count() == 0
    expect(page.get_by_text("A to move")).to_be_visible()  # the position shown is unchanged
    return alert


def test_the_position_editor_lists_every_problem(page, server):
    """Edited on the phone; the same page widened to the laptop lists the same problems."""
    page.set_viewport_size({"width": 390, "height": 844})
    open_page(page, server, "outlaws", "Outlaws")
    page.get_by_text("Position editor").click()
    doc, col = _edited()
    _choose(page, "stSelectbox", "Saloon A #1", "governor")
    _choose(page, "stMultiSelect", "Immobilized", f"A col {col}")
    page.keyboard.press("Escape")  # close the multiselect's list
    page.get_by_role("button", name="Apply edits").click()
    wait_idle(page)
    _problems_listed(page, doc).scroll_into_view_if_needed()
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "outlaws_problems_phone.png"))
    page.set_viewport_size({"width": 1366, "height": 768})
    _problems_listed(page, doc).scroll_into_view_if_needed()
    shot(page, "outlaws_problems_laptop")
