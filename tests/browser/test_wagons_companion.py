"""The Lone Cowboy pages as a table companion, in Chromium at 1366x768 and at 390x844 (issue 32): a whole game in two
taps a turn (counted; turning a card one more, a quick double tap placing the card once, pointing at a square
previewing it), the opponent's turns playing themselves with their reasons shown, no winner before the end and the
engine's scores and winner at it; a followed game revealed one tap a card, its game file downloaded, resumed after a
new session and a reload, undone and redone (each of these two walks begun at 390 px and taken on at 1366 px); each
page's work kept across another page (a new session); every page fitting a phone (no sideways scroll, no drawing cut
off), with a screenshot per page and width. The engine, played alone on the same actions, is the oracle. The
server-restart test (My games resuming the work) is tests/browser/test_table_companion.py's."""

from __future__ import annotations

import json
import random
import re

import pytest

from dashboard.wagons import town_grid
from solver.register import register
from solver.wagons import game as gm
from solver.wagons.readings import WagonsReadings
from solver.wagons.record.game_record import game_record
from solver.wagons.scoring import final_scores
from solver.wagons.town import town_from_dict
from tests.support.dashboard.browser import BROWSER, PHONE_FIRST, expect, open_page, pick_option, relaid
from tests.support.dashboard.wagons_browser import (
    GRID,
    LAPTOP,
    PHONE,
    actions_shown,
    address_game,
    elsewhere_and_back,
    fits,
    press,
    settle,
    settled,
    shot_at,
    slide_to,
    tap_action,
)

pytestmark = BROWSER
SIZES = {"laptop": LAPTOP, "phone": PHONE}
NO_EXCEPTION = '[data-testid="stException"]'


@pytest.fixture(params=list(SIZES))
def size(request) -> str:
    return request.param


@pytest.fixture
def tab(screens, size):
    """A fresh tab (a new browser: no cookie) at laptop and at phone size."""
    with screens.tab(SIZES[size]) as pg:
        yield pg


def metric(pg, label: str):
    return pg.get_by_test_id("stMetric").filter(has_text=label).first.get_by_test_id("stMetricValue")


def square(pg, x: int, y: int):
    return pg.locator(f".st-key-{town_grid.cell_key(GRID, x, y)} button >> visible=true").first


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


def _opening(pg) -> tuple[gm.GameState, list[int]]:
    """The first card taken (one tap), pointed at (the squares it would cover edged dashed), turned (one tap on the
    hand) and placed (one on the square); then the card the opponent hands over placed by a quick double tap: placed
    once (every later count and the address say so). Returns the state and the taps of each turn so far."""
    state, taps = tap_action(pg, gm.new_game("boomtown", 0, WagonsReadings()), gm.Draft(0))
    turns = [taps]
    p = next(a.placement for a in gm.legal_actions(state) if a.placement.rot == 0)
    covered = square(pg, *[xy for xy, _ in p.cells() if xy != (p.x, p.y)][0])
    plain = covered.evaluate("b => getComputedStyle(b).outlineStyle")
    square(pg, p.x, p.y).hover()
    assert covered.evaluate("b => getComputedStyle(b).outlineStyle") == "dashed" != plain
    turned = next(a for a in gm.legal_actions(state) if a.placement.rot == 180)
    state, taps = tap_action(pg, state, turned)
    assert taps == 2  # one on the hand (Turn the card), one on the square
    turns[-1] += taps - 1  # turning is the one tap more a turn may take
    assert [a["place"]["rot"] for a in address_game(pg)["actions"] if "place" in a] == [180]
    p = next(a.placement for a in gm.legal_actions(state) if a.placement.rot == 0)  # a handed-over card
    square(pg, p.x, p.y).dblclick()
    state = settle(gm.apply(state, gm.Place(p)))
    actions_shown(pg, len(gm.actions_from_log(state)))
    assert address_game(pg) == game_record(state)  # no stop at a preview, no second card
    return state, turns + [1]


def _final_scores_and_winner(pg, state: gm.GameState) -> None:
    """The engine's totals; the winner in words once a Boom or Bust the scores hang on is settled from the card."""
    want = gm.scores(state)
    expect(pg.get_by_role("heading", name="Final scores")).to_be_visible()
    expect(metric(pg, "Your total")).to_have_text(str(want.player.total))
    expect(metric(pg, "Opponent total")).to_have_text(str(want.opponent.total))
    expect(pg.get_by_text("The game is over").first).to_be_visible()
    if pg.get_by_text("Boom or Bust decides these scores").count():  # the readings disagree: the card settles it
        press(pg, "lc_card_say_boom_or_bust_per-mine")
        settled(pg)
    words = {"player": "The player wins", "opponent": "The opponent wins", "tie": "Tie"}[want.winner]
    expect(pg.get_by_text(words).first).to_be_visible()
    expect(pg.get_by_role("heading", name="After the game: the best layout of your cards")).to_be_visible()


def _widen(pg, name: str) -> None:
    """The screen turned from the phone's 390 px to the laptop's 1366 px in the middle of a walk (as a tablet turned
    on its side, or the game taken to a bigger screen): the page pictured at both widths and fitting each."""
    fits(pg)
    shot_at(pg, name)
    pg.set_viewport_size(LAPTOP)
    relaid(pg)
    fits(pg)
    shot_at(pg, name)


def test_a_game_played_to_the_end_in_two_taps_a_turn(screens, server):
    """Begun on a phone, finished on a laptop: the screen is widened once the town has two cards and a card is in
    hand (:func:`_widen`), so every turn of the one game is counted, the first ones at 390 px and the rest at
    1366 px; the end and its review are then seen at both widths."""
    with screens.tab(PHONE) as tab:
        _two_taps_a_turn(tab, server)


def _two_taps_a_turn(tab, server) -> None:
    open_page(tab, server, "wagons_play", "Lone Cowboy play-along")
    state, turns = _opening(tab)
    rng = random.Random(5)
    drafted, widened = None, False  # turns: taps per turn: a draft and its card's placement; a handed-over card's alone
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
        if not gm.is_over(state):
            expect(tab.get_by_text(re.compile(r"wins \d+ to \d+"))).to_have_count(0)  # no winner mid-game
        if state.hand and not widened and len(state.town.placements) >= 2:
            _widen(tab, "wagons_play_card_in_hand")
            widened = True
    assert widened and turns and max(turns) == 2 and all(t <= 2 for t in turns), turns
    assert address_game(tab) == game_record(state)
    _final_scores_and_winner(tab, state)
    slide_to(tab, "lc_review_limit", 0)  # the after-game review, a one-second search
    press(tab, "lc_review_run")
    expect(metric(tab, "Best layout")).to_be_visible(timeout=90_000)
    settled(tab, changed=True)
    fits(tab)
    shot_at(tab, "wagons_play_game_over")
    tab.set_viewport_size(PHONE)  # the end opened again on the phone: the game and its review kept
    tab.reload()
    actions_shown(tab, len(gm.actions_from_log(state)))
    expect(metric(tab, "Best layout")).to_be_visible()
    fits(tab)
    shot_at(tab, "wagons_play_game_over")

    def home(pg) -> None:  # another page: Home, which fits the screen too
        fits(pg)
        shot_at(pg, "home")

    elsewhere_and_back(tab, server, "Lone Cowboy play-along", "", "Ruleslinger", home)  # game and review kept
    expect(tab.get_by_text(f"Action {len(gm.actions_from_log(state))} of", exact=False)).to_be_visible()
    expect(metric(tab, "Best layout")).to_be_visible()
    assert address_game(tab) == game_record(state)
    assert tab.locator(NO_EXCEPTION).count() == 0


def _follow(pg) -> gm.GameState:
    """A new game in follow mode (the panel closes on Start); the engine's followed game."""
    pg.get_by_text("New game", exact=True).click()
    pg.get_by_role("radiogroup", name="Mode").get_by_text("Follow a game at the table").click()
    settled(pg)
    press(pg, "lc_start")
    expect(pg.get_by_text("Following a game at the table").first).to_be_visible()
    settled(pg, changed=True)
    expect(pg.get_by_role("button", name="Start")).to_be_hidden()
    expect(pg.get_by_text("Reveal circle card 1 of 8")).to_be_visible()
    return gm.new_followed_game("boomtown", WagonsReadings())


def _reveal_circle_and_deck_top(pg, state: gm.GameState, rng: random.Random) -> gm.GameState:
    """The circle revealed one tap a card, each card's button gone once it is revealed; the deck's top card typed
    by its number."""
    keys = pg.locator("[class*='st-key-lc_reveal_'] button >> visible=true")
    assert [int(t.split()[0]) for t in keys.all_inner_texts()] == sorted(gm.unseen_cards(state))  # in order
    fits(pg)
    shot_at(pg, "wagons_play_follow_reveal")
    order = list(gm.unseen_cards(state))
    rng.shuffle(order)
    for c in order[:8]:
        state, taps = tap_action(pg, state, gm.Reveal(c))
        assert taps == 1
        expect(pg.locator(f".st-key-lc_reveal_{c}")).to_have_count(0)  # a card is revealed once
    box = pg.get_by_label("Or type its number and press Enter")
    box.fill(str(order[8]))
    box.press("Enter")
    state = settle(gm.apply(state, gm.Reveal(order[8])))
    actions_shown(pg, len(gm.actions_from_log(state)))
    assert state.to_move == "player"
    return state


def _undo_and_redo(pg, state: gm.GameState, k: int) -> None:
    """Undo ``k`` steps by taps (past the opponent's own turns; the address holds the engine's shorter game each
    time), then redo them (each tap awaited by the count it changes)."""
    def tap(key: str) -> int:
        n = len(address_game(pg)["actions"])
        press(pg, key)
        expect(pg.get_by_text(re.compile(rf"^Action {n} of \d+$"))).to_have_count(0)
        settled(pg, changed=True)
        return n

    for _ in range(k):
        before = tap("lc_undo")
        assert len(address_game(pg)["actions"]) < before
    for _ in range(k):
        tap("lc_redo")
    assert address_game(pg) == game_record(state)


def test_a_followed_game_reveals_one_tap_a_card(screens, server, tmp_path):
    """Revealed and played on a phone, then the screen widened (:func:`_widen`) and the game taken on at 1366 px:
    another page and back, a reload, undo and redo, one more turn."""
    with screens.tab(PHONE) as tab:
        _followed_game(tab, server, tmp_path)


def _followed_game(tab, server, tmp_path) -> None:
    open_page(tab, server, "wagons_play", "Lone Cowboy play-along")
    rng = random.Random(4)
    state = _reveal_circle_and_deck_top(tab, _follow(tab), rng)
    for _ in range(6):  # a few turns: drafts, placements, the opponent, reveals when the engine asks
        state, taps = tap_action(tab, state, _player_action(state, rng))
        assert taps <= 2
    assert address_game(tab) == game_record(state)
    with tab.expect_download() as got:
        tab.get_by_role("button", name="Download the game file").click()
    got.value.save_as(tmp_path / "game.json")
    assert json.loads((tmp_path / "game.json").read_text()) == game_record(state)
    _widen(tab, "wagons_play_followed")
    elsewhere_and_back(tab, server, "Lone Cowboy play-along")  # a new session, no address: the kept game
    assert address_game(tab) == game_record(state)
    tab.reload()  # a reload of the page: its address
    n = len(gm.actions_from_log(state))
    actions_shown(tab, n)
    assert address_game(tab) == game_record(state)
    expect(tab.get_by_text("Following a game at the table").first).to_be_visible()
    for c in state.circle:  # the same circle, drawn as cards
        expect(tab.get_by_text(f"Card {c}", exact=True).first).to_be_visible()
    _undo_and_redo(tab, state, 3)
    state, _ = tap_action(tab, state, _player_action(state, rng))  # the game goes on from where it was
    assert address_game(tab) == game_record(state)
    assert tab.locator(NO_EXCEPTION).count() == 0


@PHONE_FIRST
def test_the_sheet_and_its_best_layout_are_kept_and_fit(tab, server):
    rows = [{"card": c, "x": x, "y": y, "rot": 0} for c, x, y in
            [(13, 1, 1), (4, 0, 1), (14, 3, 1), (0, 4, 0), (2, 0, 3), (1, 2, 3)]]
    open_page(tab, server, "wagons_sheet", "Lone Cowboy score sheet")
    fits(tab)
    pick_option(tab, tab.get_by_label("Card", exact=True), "5:")
    settled(tab)
    fits(tab)
    shot_at(tab, "wagons_sheet_picking")
    press(tab, town_grid.cell_key("wg_grid", 6, 1))  # one tap places it
    expect(tab.get_by_text("Your town: 7 cards")).to_be_visible()
    settled(tab, changed=True)
    slide_to(tab, "wg_opt_limit", 1)
    press(tab, "wg_best")
    expect(tab.get_by_text("Best layout found:").first).to_be_visible(timeout=90_000)
    settled(tab, changed=True)
    expect(tab.get_by_text("Placement order of the best layout")).to_be_visible()
    fits(tab)
    shot_at(tab, "wagons_sheet")
    want = final_scores(town_from_dict({"placements": rows + [{"card": 5, "x": 6, "y": 1, "rot": 0}]}),
                        (3, 7, 11), "boomtown")
    elsewhere_and_back(tab, server, "Lone Cowboy score sheet")
    expect(tab.get_by_text("Your town: 7 cards")).to_be_visible()
    expect(metric(tab, "Player total")).to_have_text(str(want.player.total))
    expect(tab.get_by_text("Best layout found:").first).to_be_visible()  # the last answer, kept
    assert tab.locator(NO_EXCEPTION).count() == 0


@PHONE_FIRST
def test_the_scenarios_page_and_its_inputs_are_kept_and_fit(tab, server):
    open_page(tab, server, "wagons_scenarios", "Lone Cowboy scenarios")
    expect(tab.get_by_role("heading", name="Difficulty table", exact=True)).to_be_visible()  # stored rows, at once
    fits(tab)
    shot_at(tab, "wagons_scenarios")
    games = tab.get_by_role("textbox", name="Games each")
    games.fill("99999999")
    games.press("Enter")
    expect(tab.get_by_text("Fix the box 'Games each'").first).to_be_visible()
    settled(tab, changed=True)
    expect(tab.get_by_role("heading", name="Difficulty table", exact=True)).to_have_count(0)  # no stale table
    games.fill("7")
    games.press("Enter")
    expect(tab.get_by_text("7 games per scenario and policy from seed 0").first).to_be_visible()
    settled(tab, changed=True)
    expect(tab.get_by_role("heading", name="Difficulty table", exact=True)).to_be_visible()
    elsewhere_and_back(tab, server, "Lone Cowboy scenarios")
    expect(tab.get_by_role("textbox", name="Games each")).to_have_value("7")
    expect(tab.get_by_text("7 games per scenario and policy from seed 0").first).to_be_visible()
    assert tab.locator(NO_EXCEPTION).count() == 0
