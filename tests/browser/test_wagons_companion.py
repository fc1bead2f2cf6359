"""The Lone Cowboy pages as a table companion, in Chromium at 1366x768 and at 390x844 (issue 32): a whole game in
two taps a turn (counted), the opponent's turns playing themselves with their reasons shown, a quick double tap
placing the card once, a followed game revealed one tap a card; each page's work kept across a reload on another
page; every page fitting a phone (no sideways scroll, no drawing cut off), with a screenshot per page and width.
The server-restart test (My games resuming the work) is tests/browser/test_wagons_restart.py."""

from __future__ import annotations

import random

import pytest

from dashboard.wagons import town_grid
from solver.register import register
from solver.wagons import game as gm
from solver.wagons.readings import WagonsReadings
from solver.wagons.record.game_record import game_record
from solver.wagons.scoring import final_scores
from solver.wagons.town import town_from_dict
from tests.support.dashboard.browser import BROWSER, PHONE_FIRST, expect, open_page
from tests.support.dashboard.wagons_browser import (
    LAPTOP,
    PHONE,
    actions_shown,
    address_game,
    fits,
    press,
    reload_elsewhere_and_back,
    settle,
    settled,
    shot_at,
    slide_to,
    tap_action,
)

pytestmark = BROWSER
SIZES = {"laptop": LAPTOP, "phone": PHONE}


@pytest.fixture(params=list(SIZES))
def size(request) -> str:
    return request.param




@pytest.fixture
def tab(browser, size):
    """A fresh tab (a new browser: no cookie) at laptop and at phone size."""
    ctx = browser.new_context(viewport=SIZES[size])
    pg = ctx.new_page()
    pg.set_default_timeout(45_000)
    try:
        yield pg
    finally:
        ctx.close()


def metric(pg, label: str):
    return pg.get_by_test_id("stMetric").filter(has_text=label).first.get_by_test_id("stMetricValue")


def _player_action(state: gm.GameState, rng: random.Random) -> gm.Action:
    """A random draft, or a random upright placement (turning is checked on its own)."""
    acts = gm.legal_actions(state)
    upright = [a for a in acts if isinstance(a, gm.Place) and a.placement.rot == 0]
    return rng.choice(upright or acts)


def _opponent_reason_shown(pg, before: gm.GameState, after: gm.GameState) -> None:
    new = [e for e in after.log[len(before.log):] if e.what == "opponent-draft"]
    if new:
        box = pg.get_by_test_id("stAlert").filter(has_text="the opponent took")
        expect(box).to_contain_text(f"card {new[-1].card}")
        expect(box).to_contain_text(f"{new[-1].rule} ({register().get(new[-1].rule).title})")


def test_a_game_played_to_the_end_in_two_taps_a_turn(tab, server):
    open_page(tab, server, "wagons_play", "Lone Cowboy play-along")
    state, rng = gm.new_game("boomtown", 0, WagonsReadings()), random.Random(5)
    turns: list[int] = []  # taps per turn: a draft and its card's placement; a handed-over card's placement alone
    drafted = None
    shots = 0
    while not gm.is_over(state):
        action = _player_action(state, rng)
        before = state
        state, taps = tap_action(tab, state, action)
        if isinstance(action, gm.Draft):
            drafted, turns = state.hand[0], turns + [taps]
        elif action.placement.card == drafted:
            turns[-1] += taps
        else:
            turns.append(taps)
        _opponent_reason_shown(tab, before, state)  # it played by itself: no tap, its reason on screen
        if state.hand and shots == 0 and len(state.town.placements) >= 2:
            fits(tab)
            shot_at(tab, "wagons_play_card_in_hand")
            shots += 1
    assert turns and max(turns) == 2 and all(t <= 2 for t in turns), turns
    assert address_game(tab) == game_record(state)
    want = gm.scores(state)
    expect(tab.get_by_role("heading", name="Final scores")).to_be_visible()
    expect(metric(tab, "Your total")).to_have_text(str(want.player.total))
    expect(metric(tab, "Opponent total")).to_have_text(str(want.opponent.total))
    expect(tab.get_by_text("The game is over").first).to_be_visible()
    _review(tab)
    fits(tab)
    shot_at(tab, "wagons_play_game_over")
    reload_elsewhere_and_back(tab, server, "Lone Cowboy play-along")  # the game and its review are kept
    expect(tab.get_by_text(f"Action {len(gm.actions_from_log(state))} of", exact=False)).to_be_visible()
    expect(metric(tab, "Best layout")).to_be_visible()
    assert address_game(tab) == game_record(state)
    assert tab.locator('[data-testid="stException"]').count() == 0


def _review(pg) -> None:
    """The after-game review with a two-second search."""
    slide_to(pg, "lc_review_limit", 1)
    press(pg, "lc_review_run")
    expect(metric(pg, "Best layout")).to_be_visible(timeout=90_000)
    settled(pg)


@PHONE_FIRST
def test_turning_the_card_is_one_tap_and_a_quick_double_tap_places_it_once(tab, server):
    open_page(tab, server, "wagons_play", "Lone Cowboy play-along")
    state = gm.new_game("boomtown", 0, WagonsReadings())
    state, taps = tap_action(tab, state, gm.Draft(0))
    turned = next(a for a in gm.legal_actions(state) if a.placement.rot == 180)
    state, taps = tap_action(tab, state, turned)
    assert taps == 2  # one on the hand (Turn the card), one on the square
    assert [a["place"]["rot"] for a in address_game(tab)["actions"] if "place" in a] == [180]
    p = next(a.placement for a in gm.legal_actions(state) if a.placement.rot == 0)  # a handed-over card
    before = len(gm.actions_from_log(state))
    tab.locator(f".st-key-{town_grid.cell_key('lc_town', p.x, p.y)} button >> visible=true").first.dblclick()
    state = settle(gm.apply(state, gm.Place(p)))
    actions_shown(tab, len(gm.actions_from_log(state)))
    tab.wait_for_timeout(1500)
    settled(tab)
    assert address_game(tab) == game_record(state)  # placed once: no stop at a preview, no second card
    assert len(gm.actions_from_log(state)) > before


def test_pointing_at_a_green_square_previews_the_card(browser, server):
    ctx = browser.new_context(viewport=LAPTOP)
    pg = ctx.new_page()
    open_page(pg, server, "wagons_play", "Lone Cowboy play-along")
    state, _ = tap_action(pg, gm.new_game("boomtown", 0, WagonsReadings()), gm.Draft(0))
    p = next(a.placement for a in gm.legal_actions(state) if a.placement.rot == 0)
    covered = [xy for xy, _ in p.cells() if xy != (p.x, p.y)][0]
    other = pg.locator(f".st-key-{town_grid.cell_key('lc_town', *covered)} button >> visible=true").first
    plain = other.evaluate("b => getComputedStyle(b).outlineStyle")
    pg.locator(f".st-key-{town_grid.cell_key('lc_town', p.x, p.y)} button >> visible=true").first.hover()
    assert other.evaluate("b => getComputedStyle(b).outlineStyle") == "dashed" != plain
    ctx.close()


def test_a_followed_game_reveals_one_tap_a_card(tab, server):
    open_page(tab, server, "wagons_play", "Lone Cowboy play-along")
    tab.get_by_text("New game", exact=True).click()
    tab.get_by_role("radiogroup", name="Mode").get_by_text("Follow a game at the table").click()
    settled(tab)
    press(tab, "lc_start")
    expect(tab.get_by_text("Following a game at the table").first).to_be_visible()
    settled(tab)
    state, rng = gm.new_followed_game("boomtown", WagonsReadings()), random.Random(4)
    keys = tab.locator("[class*='st-key-lc_reveal_'] button >> visible=true")
    assert [int(t.split()[0]) for t in keys.all_inner_texts()] == sorted(gm.unseen_cards(state))  # in order
    fits(tab)
    shot_at(tab, "wagons_play_follow_reveal")
    order = list(gm.unseen_cards(state))
    rng.shuffle(order)
    for c in order[:8]:  # the circle: one tap each
        state, taps = tap_action(tab, state, gm.Reveal(c))
        assert taps == 1
    typed = order[8]  # the deck's top card, typed by its number
    box = tab.get_by_label("Or type its number and press Enter")
    box.fill(str(typed))
    box.press("Enter")
    state = settle(gm.apply(state, gm.Reveal(typed)))
    actions_shown(tab, len(gm.actions_from_log(state)))
    for _ in range(6):
        action = _player_action(state, rng)
        state, taps = tap_action(tab, state, action)
        assert taps <= 2
    assert address_game(tab) == game_record(state)
    reload_elsewhere_and_back(tab, server, "Lone Cowboy play-along")
    assert address_game(tab) == game_record(state)
    expect(tab.get_by_text("Following a game at the table").first).to_be_visible()
    assert tab.locator('[data-testid="stException"]').count() == 0


@PHONE_FIRST
def test_the_sheet_and_its_best_layout_are_kept_and_fit(tab, server):
    rows = [{"card": c, "x": x, "y": y, "rot": 0} for c, x, y in
            [(13, 1, 1), (4, 0, 1), (14, 3, 1), (0, 4, 0), (2, 0, 3), (1, 2, 3)]]
    open_page(tab, server, "wagons_sheet", "Lone Cowboy score sheet")
    fits(tab)
    tab.get_by_label("Card", exact=True).click()
    tab.get_by_role("option", name="5:").first.click()
    settled(tab)
    fits(tab)
    shot_at(tab, "wagons_sheet_picking")
    press(tab, town_grid.cell_key("wg_grid", 6, 1))  # one tap places it
    expect(tab.get_by_text("Your town: 7 cards")).to_be_visible()
    settled(tab)
    slide_to(tab, "wg_opt_limit", 1)
    press(tab, "wg_best")
    expect(tab.get_by_text("Best layout found:").first).to_be_visible(timeout=90_000)
    settled(tab)
    expect(tab.get_by_text("Placement order of the best layout")).to_be_visible()
    fits(tab)
    shot_at(tab, "wagons_sheet")
    want = final_scores(town_from_dict({"placements": rows + [{"card": 5, "x": 6, "y": 1, "rot": 0}]}),
                        (3, 7, 11), "boomtown")
    reload_elsewhere_and_back(tab, server, "Lone Cowboy score sheet")
    expect(tab.get_by_text("Your town: 7 cards")).to_be_visible()
    expect(metric(tab, "Player total")).to_have_text(str(want.player.total))
    expect(tab.get_by_text("Best layout found:").first).to_be_visible()  # the last answer, kept
    assert tab.locator('[data-testid="stException"]').count() == 0


@PHONE_FIRST
def test_the_scenarios_page_and_its_inputs_are_kept_and_fit(tab, server):
    open_page(tab, server, "wagons_scenarios", "Lone Cowboy scenarios")
    expect(tab.get_by_role("heading", name="Difficulty table", exact=True)).to_be_visible()  # stored rows, at once
    fits(tab)
    shot_at(tab, "wagons_scenarios")
    games = tab.get_by_role("textbox", name="Games each")
    games.fill("99999999")
    games.press("Enter")
    settled(tab)
    expect(tab.get_by_text("Fix the box 'Games each'").first).to_be_visible()
    expect(tab.get_by_role("heading", name="Difficulty table", exact=True)).to_have_count(0)  # no stale table
    games.fill("7")
    games.press("Enter")
    settled(tab)
    expect(tab.get_by_role("heading", name="Difficulty table", exact=True)).to_be_visible()
    expect(tab.get_by_text("7 games per scenario and policy from seed 0").first).to_be_visible()
    reload_elsewhere_and_back(tab, server, "Lone Cowboy scenarios")
    expect(tab.get_by_role("textbox", name="Games each")).to_have_value("7")
    expect(tab.get_by_text("7 games per scenario and policy from seed 0").first).to_be_visible()
    assert tab.locator('[data-testid="stException"]').count() == 0


def test_my_games_and_home_fit(tab, server):
    open_page(tab, server, "my_games", "My games")
    fits(tab)
    shot_at(tab, "my_games")
    open_page(tab, server, "", "Ruleslinger")
    fits(tab)
    shot_at(tab, "home")
