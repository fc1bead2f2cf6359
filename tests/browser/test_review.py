"""Browser test of the after-game review (Chromium by Playwright, 1366x768): a finished seeded game's
review renders (best layout, breakdown, chart, proven), "show me" lays the best layout over the
player's town and back, and the BG Stats link carries the play; "Was my deal winnable?" shows the
solver's winning line and its town (the same game: its deal can be won). The page is
tests/apps/wagons_review.py, which calls dashboard.wagons.review.show_review as the play page does."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import parse_qs, urlparse

import pytest

from solver.wagons.review.deal import was_winnable
from solver.wagons.review.town import review
from solver.wagons.simulate import play_game
from tests.support.dashboard.browser import BROWSER, expect, streamlit_server, wait_idle
from tests.support.dashboard.kept import svg_text
from tests.support.paths import ROOT

pytestmark = BROWSER

GAME = ("cattle-drive", "random", 2)


@pytest.fixture(scope="module")
def review_server():
    with streamlit_server(ROOT / "tests" / "apps" / "wagons_review.py") as url:
        yield url


def test_the_review_renders_show_me_toggles_and_the_deal_was_winnable(page, review_server):  # noqa: F811
    """One finished game's page (its deal winnable): the review, "show me" on and off, the BG Stats link, then
    "Was my deal winnable?" (the engine's answers worked out here while the page loads)."""
    scenario, policy, seed = GAME
    with ThreadPoolExecutor(1) as pool:
        state = play_game(*GAME).state
        review_done = pool.submit(review, state, time_limit=30)
        winnable_done = pool.submit(was_winnable, state, time_limit=30)
        page.goto(f"{review_server}/?scenario={scenario}&policy={policy}&seed={seed}")
        page.get_by_role("heading", name="Lone Cowboy: after the game").wait_for()
        wait_idle(page)
        want, (answer, _) = review_done.result(), winnable_done.result()
    _review_and_show_me(page, want)
    page.get_by_role("button", name="Was my deal winnable?").click()
    by = f"{answer.margin} point" + ("" if answer.margin == 1 else "s")
    expect(page.get_by_text(f"Yes: this deal could be won, by {by}")).to_be_visible()
    wait_idle(page)
    expect(page.get_by_text("The winning line's town:")).to_be_visible()
    expect(page.get_by_role("button", name="Download the winning line (game file)")).to_be_visible()
    assert page.locator('[data-testid="stException"]').count() == 0
    page.get_by_text("Your drafts and placements on that line").scroll_into_view_if_needed()
    page.wait_for_timeout(300)
    page.screenshot(path=str(ROOT / "tests" / "screenshots" / "review_was_winnable_viewport.png"))


def _review_and_show_me(page, want) -> None:
    """The review renders (best layout, breakdown, chart, proven), "show me" lays the best layout over the town and
    back, and the BG Stats link carries the play."""
    page.get_by_role("button", name="Review my game").click()
    expect(page.get_by_text("Best layout found and proven optimal")).to_be_visible()
    wait_idle(page)
    metric = page.locator('[data-testid="stMetric"]').filter(has_text="Best layout")
    expect(metric).to_contain_text(str(want.best.player.total))
    expect(page.get_by_text(want.headline())).to_be_visible()
    expect(page.locator('[data-testid="stVegaLiteChart"]').first).to_be_visible()
    expect(page.get_by_text("Best layout:").first).to_be_visible()
    page.get_by_text("Show me: lay the best layout over my town").click()
    wait_idle(page)
    expect(page.get_by_text("Your town, with the best layout laid over it")).to_be_visible()
    overlay = page.get_by_role("img", name="Your town, with the best layout laid over it")
    shown = svg_text(overlay.evaluate("img => img.outerHTML"))
    assert shown.count("best: ") >= 4 * len(want.best_town.placements) // 2  # the best layout's insets
    page.get_by_role("textbox", name="Your name").fill("Ann")
    page.keyboard.press("Enter")
    wait_idle(page)
    href = page.get_by_role("link", name="Open in BG Stats").get_attribute("href")
    play = json.loads(parse_qs(urlparse(href).query)["data"][0])
    assert play["players"][0]["name"] == "Ann" and play["players"][0]["score"] == want.mine.player.total
    page.locator('[data-testid="stMain"]').evaluate("m => m.scrollTo(0, 0)")
    assert page.locator('[data-testid="stException"]').count() == 0
    page.get_by_text("Show me: lay the best layout over my town").scroll_into_view_if_needed()
    page.wait_for_timeout(300)
    page.screenshot(path=str(ROOT / "tests" / "screenshots" / "review_show_me_viewport.png"))
    page.get_by_text("Show me: lay the best layout over my town").click()
    wait_idle(page)
    expect(page.get_by_text("Your town, with the best layout laid over it")).to_have_count(0)
    expect(page.get_by_text("Best layout:").first).to_be_visible()
