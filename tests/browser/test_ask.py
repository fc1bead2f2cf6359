"""Browser: the "Ask a rules question" page on a phone (390x844). A new three-condition question is built in at most
12 taps (each tap counted), asked, and its witness drawn; saved to My games, it survives a reload and comes back from
My games. Runs the dashboard with the page's made-up domain (tests/apps/ask_app.py), so it tests the page, not a
game's domains. Screenshots: tests/screenshots/ask_*.png."""

from __future__ import annotations

import re

import pytest

from solver import registry
from tests.support.dashboard.browser import (
    BROWSER,
    SHOTS,
    expect,
    pick_option,
    relaid,
    scroll_into_view,
    streamlit_server,
    wait_idle,
)
from tests.support.paths import ROOT

pytestmark = BROWSER

PHONE = {"width": 390, "height": 844}
GAME_TITLE = registry.game("cactus").title
"""The game the made-up domain stands in for (tests/apps/ask_app.py)."""
MOST_TAPS = 12


@pytest.fixture(scope="module")
def ask_server():
    with streamlit_server(ROOT / "tests" / "apps" / "ask_app.py") as url:
        yield url


class Taps:
    """The user's taps, counted: each :meth:`tap` is one touch of the screen, then the page's run is awaited."""

    def __init__(self, page):
        self.page = page
        self.count = 0

    def tap(self, locator, then=None) -> None:
        """One tap on ``locator``; ``then``: what shows once the page has redrawn after it (a change of the question's
        shape draws new widgets in a second run)."""
        locator.click()
        self.count += 1
        if then is not None:
            then.wait_for()
        wait_idle(self.page)

    def option(self, box_label: str, option: str, then=None) -> None:
        """A select box opened (one tap), its list swiped down to the option (swiping is not a tap), and the option
        taken (one tap); ``then``: what shows once the page has taken it. A choice the page never took (a busy machine)
        is made again (:func:`~tests.support.dashboard.browser.pick_option`), and its lost taps are not counted."""
        box = self.page.get_by_test_id("stSelectbox").filter(has_text=box_label).last
        scroll_into_view(self.page, box)
        pick_option(self.page, box, re.compile(f"^{re.escape(option)}$"), took=then)
        self.count += 2


def phone_shot(page, name: str) -> None:
    """The whole page at phone width (the viewport stretched to the content's height, then put back)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    height = page.evaluate("() => { const m = document.querySelector('[data-testid=\"stMain\"]');"
                           " return m ? m.scrollHeight : document.body.scrollHeight; }") or PHONE["height"]
    page.set_viewport_size({"width": PHONE["width"], "height": max(PHONE["height"], min(int(height), 8000))})
    relaid(page)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
    page.set_viewport_size(PHONE)


def no_sideways_scroll(page) -> None:
    wide = page.evaluate("() => document.querySelector('[data-testid=\"stMain\"]').scrollWidth")
    assert wide <= PHONE["width"] + 1, f"the page scrolls sideways ({wide} px)"


def test_a_three_condition_question_in_at_most_12_taps_its_witness_and_a_reload(screens, ask_server):
    with screens.tab(PHONE, is_mobile=True, has_touch=True) as page:
        page.goto(f"{ask_server}/ask")
        page.get_by_role("heading", name="Ask a rules question").first.wait_for()
        wait_idle(page)
        t = Taps(page)
        t.tap(page.get_by_test_id("stButtonGroup").first.get_by_role("radio", name=GAME_TITLE),
              page.get_by_role("radio", name="Pairs of faces"))
        t.tap(page.get_by_role("radio", name="Pairs of faces"), page.get_by_text("Faces on the die"))
        for i, label in enumerate(("the sum of the two faces (rule:X-bad-input)",
                                   "the two faces are the same (rule:X-bad-input)",
                                   "the sum's parity (rule:X-bad-input)")):
            t.option("Add a condition", label, page.locator(f".st-key-ask_cond_{i}"))
        first = page.locator(".st-key-ask_cond_0")
        for _ in range(2):  # 2 -> 4
            t.tap(first.get_by_test_id("stNumberInputStepUp"))
        sentence = ("Is there pairs of faces 1 to 6 where the sum of the two faces is at least 4 and the two faces "
                    "are the same and the sum's parity is even?")
        expect(page.get_by_role("heading", name=sentence)).to_be_visible()
        t.tap(page.get_by_role("button", name=re.compile("^Ask$")))
        assert t.count <= MOST_TAPS, f"{t.count} taps"
        expect(page.get_by_text("The pair that shows it")).to_be_visible()
        expect(page.get_by_test_id("stDataFrame").first).to_be_visible()
        assert page.get_by_test_id("stException").count() == 0
        no_sideways_scroll(page)
        phone_shot(page, "ask_three_conditions_phone")

        page.get_by_role("button", name="Save to My games").click()
        expect(page.get_by_text("to My games.")).to_be_visible()
        page.reload()  # the address and the store keep the question and its answer
        page.get_by_role("heading", name=sentence).wait_for()
        wait_idle(page)
        expect(page.get_by_text("The pair that shows it")).to_be_visible()

        page.goto(f"{ask_server}/my_games")
        page.get_by_role("heading", name="My games").first.wait_for()
        wait_idle(page)
        expect(page.get_by_text("Rules question and its answer").first).to_be_visible()
        phone_shot(page, "ask_my_games_phone")
        page.get_by_role("button", name="Resume").first.click()
        page.get_by_role("heading", name=sentence).wait_for()
        wait_idle(page)
        expect(page.get_by_text("The pair that shows it")).to_be_visible()


def _options(game: str) -> tuple[str, list[str]]:
    """The first domain of ``game`` as a new question has it: its sentence's start and the option texts of three
    measures (as the page lists them)."""
    from dashboard.ask import builder
    from dashboard.ask import draft as dr

    d = dr.new(game)
    domain = builder._domain(game, d["domain"], builder.keep.canonical(d["params"]), "{}")
    measures = domain.measures()
    return (f"Is there {domain.description} where",
            [builder.measure_option(measures[n]) for n in ("player.total", "player.cards", "winner")])


def test_a_lone_cowboy_question_in_taps_draws_its_town(screens, server):
    """The real app: a three-condition question over Lone Cowboy towns, its witness drawn as the sheet draws a town."""
    start, options = _options("wagons")
    with screens.tab(PHONE, is_mobile=True, has_touch=True) as page:
        page.goto(f"{server}/ask")
        page.get_by_role("heading", name="Ask a rules question").first.wait_for()
        wait_idle(page)
        t = Taps(page)  # the game, the domain and "Is there" are a new question's own: no tap
        for i, label in enumerate(options):
            t.option("Add a condition", label, page.locator(f".st-key-ask_cond_{i}"))
        for _ in range(2):  # your total at least 3
            t.tap(page.locator(".st-key-ask_cond_0").get_by_test_id("stNumberInputStepUp"))
        expect(page.get_by_role("heading", name=re.compile(re.escape(start) + ".* your total is at least 3 and "
                                                           "the cards in your town is at least 1 and the winner is "
                                                           "player"))).to_be_visible()
        t.tap(page.get_by_role("button", name=re.compile("^Ask$")))
        assert t.count <= MOST_TAPS, f"{t.count} taps"
        expect(page.get_by_text("The town that shows it")).to_be_visible()
        expect(page.locator("img.wagons-town").first).to_be_visible()
        assert page.get_by_test_id("stException").count() == 0
        no_sideways_scroll(page)
        phone_shot(page, "ask_lone_cowboy_town_phone")
