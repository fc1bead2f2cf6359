"""Browser tests of the Lone Cowboy game table (Chromium by Playwright, 1366x768, the server and
browser fixtures of test_browser_pages): a whole seeded game played by clicks only and scored, and a
followed game revealed card by card, reloaded and resumed, three actions undone and redone by clicks,
its game file downloaded. The engine, played alone on the same actions, is the oracle."""

from __future__ import annotations

import json
import random
import re

from dashboard.shared import addresses, urlstate
from dashboard.wagons import town_grid
from solver.register import register
from solver.wagons import game as gm
from solver.wagons.record.game_record import game_record
from solver.wagons.rules import Rules
from tests.support.browser import BROWSER, expect, open_page, shot, wait_idle

pytestmark = BROWSER

GRID = "lc_town"


def settled(pg) -> None:
    """Wait until the script run is over: no status widget and no stale (fading) element left."""
    pg.wait_for_timeout(80)
    expect(pg.locator('[data-stale="true"]')).to_have_count(0)
    expect(pg.locator('[data-testid="stStatusWidget"]')).to_have_count(0)


def steps_done(pg, n: int) -> None:
    """Wait until the page shows that ``n`` actions are applied (the history bar's count)."""
    expect(pg.get_by_text(f"Action {n} of {n}", exact=True)).to_be_visible()
    settled(pg)


def press(pg, key: str) -> None:
    pg.locator(f".st-key-{key}:not([data-stale='true']) button").first.click()  # a button with help has a second, hidden copy


def place_by_clicks(pg, state: gm.GameState, p, shot_name: str | None = None) -> None:
    """The card's way up, then its square twice: a preview, then the placement."""
    if len({a.placement.rot for a in gm.legal_actions(state)}) > 1:
        pg.get_by_role("radiogroup", name="Which way up").get_by_text(town_grid.ROTATION_NAMES[p.rot]).click()
        settled(pg)
    key = town_grid.cell_key(GRID, p.x, p.y)
    press(pg, key)
    expect(pg.get_by_text(f"Preview: card {p.card} at ({p.x}, {p.y}), {town_grid.ROTATION_NAMES[p.rot]}")).to_be_visible()
    settled(pg)
    if shot_name:
        shot(pg, shot_name)
    press(pg, key)


def click(pg, state: gm.GameState, action: gm.Action, shot_name: str | None = None) -> gm.GameState:
    """Do ``action`` on the page by clicks; returns the engine's state after it."""
    if isinstance(action, gm.Reveal):
        press(pg, f"lc_reveal_{action.card}")
    elif isinstance(action, gm.Draft):
        press(pg, f"lc_draft_{action.index}")
    elif isinstance(action, gm.OpponentTurn):
        pg.get_by_role("button", name="Opponent's turn").click()
    else:
        place_by_clicks(pg, state, action.placement, shot_name)
    after = gm.apply(state, action)
    steps_done(pg, len(gm.actions_from_log(after)))
    return after


def address_record(pg) -> dict:
    text = re.search(r"[?&]lc=([^&]+)", pg.url).group(1)
    g = urlstate.decode(text, addresses.LC)
    return {**g["record"], "actions": g["record"]["actions"][:g["at"]]}


def metric(pg, label: str):
    return pg.get_by_test_id("stMetric").filter(has_text=label).first.get_by_test_id("stMetricValue")


def test_a_seeded_game_played_by_clicks_to_the_end(page, server):  # noqa: F811
    open_page(page, server, "wagons_play", "Lone Cowboy play-along")
    state = gm.new_game("boomtown", 0, Rules())  # the page's default deal
    rng = random.Random(1)
    shots = {"placement": False, "opponent": False}
    while not gm.is_over(state):
        actions = gm.legal_actions(state)
        action = rng.choice(actions)
        preview = None
        if isinstance(action, gm.Place) and not shots["placement"] and len(state.town.placements) >= 3:
            preview, shots["placement"] = "wagons_table_preview", True
        state = click(page, state, action, preview)
        if isinstance(action, gm.OpponentTurn):
            e = next(e for e in reversed(state.log) if e.what == "opponent-draft")
            box = page.get_by_test_id("stAlert").filter(has_text="the opponent took")
            expect(box).to_contain_text(f"card {e.card}")
            expect(box).to_contain_text(f"{e.rule} ({register().get(e.rule).title})")
            if not shots["opponent"]:
                shot(page, "wagons_table_opponent_turn")
                shots["opponent"] = True
            expect(page.get_by_text(re.compile(r"wins \d+ to \d+"))).to_have_count(0)  # no winner mid-game
    want = gm.scores(state)
    expect(page.get_by_role("heading", name="Final scores")).to_be_visible()
    expect(metric(page, "Your total")).to_have_text(str(want.player.total))
    expect(metric(page, "Opponent total")).to_have_text(str(want.opponent.total))
    words = {"player": "The player wins", "opponent": "The opponent wins", "tie": "Tie"}[want.winner]
    expect(page.get_by_text(words).first).to_be_visible()
    expect(page.get_by_role("heading", name="After the game: the best layout of your cards")).to_be_visible()
    assert address_record(page) == game_record(state)
    assert page.locator('[data-testid="stException"]').count() == 0
    shot(page, "wagons_table_game_over")


def undo_and_redo(pg, state: gm.GameState, k: int) -> None:
    """Undo ``k`` actions by clicks (the address holds the engine's shorter game each time), then redo them."""
    actions = gm.actions_from_log(state)
    n = len(actions)
    start = gm.new_followed_game(state.scenario, state.rules) if state.seed is None else \
        gm.new_game(state.scenario, state.seed, state.rules)
    for i in range(1, k + 1):
        press(pg, "lc_undo")
        expect(pg.get_by_text(f"Action {n - i} of {n}", exact=True)).to_be_visible()
        settled(pg)
        assert address_record(pg) == game_record(gm.replay(start, actions[:n - i]))
    for i in range(k - 1, -1, -1):
        press(pg, "lc_redo")
        expect(pg.get_by_text(f"Action {n - i} of {n}", exact=True)).to_be_visible()
        settled(pg)
    assert address_record(pg) == game_record(state)


def follow_mode(pg) -> None:
    pg.get_by_text("New game", exact=True).click()
    pg.get_by_role("radiogroup", name="Mode").get_by_text("Follow a game at the table").click()
    wait_idle(pg)
    press(pg, "lc_start")
    expect(pg.get_by_text("Following a game at the table").first).to_be_visible()
    wait_idle(pg)
    expect(pg.get_by_role("button", name="Start")).to_be_hidden()  # the panel closes on Start (it stayed open)


def test_a_followed_game_is_revealed_reloaded_and_resumed(page, server, tmp_path):  # noqa: F811
    open_page(page, server, "wagons_play", "Lone Cowboy play-along")
    follow_mode(page)
    state = gm.new_followed_game("boomtown", Rules())
    expect(page.get_by_text("Reveal circle card 1 of 8")).to_be_visible()
    shot(page, "wagons_table_follow_reveal")
    rng = random.Random(4)
    order = list(gm.unseen_cards(state))
    rng.shuffle(order)
    for c in order[:9]:  # the circle, then the preference deck's top card
        state = click(page, state, gm.Reveal(c))
        expect(page.locator(f".st-key-lc_reveal_{c}")).to_have_count(0)  # a card is revealed once
    assert state.to_move == "player"
    for _ in range(8):  # a few turns: drafts, placements, the opponent, reveals when the engine asks
        state = click(page, state, rng.choice(gm.legal_actions(state)))
    before = address_record(page)
    assert before == game_record(state)
    with page.expect_download() as got:
        page.get_by_role("button", name="Download the game file").click()
    path = tmp_path / "game.json"
    got.value.save_as(path)
    assert json.loads(path.read_text()) == game_record(state)
    page.reload()
    page.get_by_role("heading", name="Lone Cowboy play-along").first.wait_for()
    n = len(gm.actions_from_log(state))
    steps_done(page, n)
    assert address_record(page) == before
    expect(page.get_by_text("Following a game at the table").first).to_be_visible()
    for c in state.circle:  # the same circle, drawn as cards
        expect(page.get_by_text(f"Card {c}", exact=True).first).to_be_visible()
    shot(page, "wagons_table_follow_resumed")
    undo_and_redo(page, state, 3)
    state = click(page, state, gm.legal_actions(state)[0])  # the game goes on from where it was
    assert address_record(page) == game_record(state)
    assert page.locator('[data-testid="stException"]').count() == 0
