"""Browser tests of the Lone Cowboy game table (Chromium by Playwright, 1366x768, the server and
browser fixtures of test_browser_pages): a whole seeded game played by clicks only and scored, and a
followed game revealed card by card, reloaded and resumed, three actions undone and redone by clicks,
its game file downloaded. The engine, played alone on the same actions, is the oracle."""

from __future__ import annotations

import json
import random
import re

import pytest

from solver.register import register
from solver.wagons import game as gm
from solver.wagons.readings import WagonsReadings
from solver.wagons.record.game_record import game_record
from tests.support.dashboard.browser import BROWSER, expect, open_page, shot, wait_idle
from tests.support.dashboard.wagons_browser import (
    LAPTOP,
    PHONE,
    fits,
    press,
    settle,
    settled,
    shot_at,
    tap_action,
)
from tests.support.dashboard.wagons_browser import address_game as address_record

pytestmark = BROWSER

def click(pg, state: gm.GameState, action: gm.Action, shot_name: str | None = None) -> gm.GameState:
    """Do ``action`` on the page by taps (the opponent's turns play themselves); the engine's state after it."""
    if shot_name:
        shot(pg, shot_name)
    return tap_action(pg, state, action)[0]


def metric(pg, label: str):
    return pg.get_by_test_id("stMetric").filter(has_text=label).first.get_by_test_id("stMetricValue")


def test_a_seeded_game_played_by_clicks_to_the_end(page, server):  # noqa: F811
    open_page(page, server, "wagons_play", "Lone Cowboy play-along")
    state = gm.new_game("boomtown", 0, WagonsReadings())  # the page's default deal
    rng = random.Random(1)
    shots = {"placement": False, "opponent": False}
    while not gm.is_over(state):
        action = rng.choice(gm.legal_actions(state))
        before = state
        preview = None
        if isinstance(action, gm.Place) and not shots["placement"] and len(state.town.placements) >= 3:
            preview, shots["placement"] = "wagons_table_card_in_hand", True
        state = click(page, state, action, preview)
        drafts = [e for e in state.log[len(before.log):] if e.what == "opponent-draft"]
        if drafts:  # the opponent played by itself: its draft and rule on screen
            e = drafts[-1]
            box = page.get_by_test_id("stAlert").filter(has_text="the opponent took")
            expect(box).to_contain_text(f"card {e.card}")
            expect(box).to_contain_text(f"{e.rule} ({register().get(e.rule).title})")
            if not shots["opponent"]:
                shot(page, "wagons_table_opponent_turn")
                shots["opponent"] = True
        if not gm.is_over(state):
            expect(page.get_by_text(re.compile(r"wins \d+ to \d+"))).to_have_count(0)  # no winner mid-game
    want = gm.scores(state)
    expect(page.get_by_role("heading", name="Final scores")).to_be_visible()
    expect(metric(page, "Your total")).to_have_text(str(want.player.total))
    expect(metric(page, "Opponent total")).to_have_text(str(want.opponent.total))
    if page.get_by_text("Boom or Bust decides these scores").count():  # the readings disagree: the card settles it
        press(page, "lc_card_say_boom_or_bust_per-mine")
        settled(page)
    words = {"player": "The player wins", "opponent": "The opponent wins", "tie": "Tie"}[want.winner]
    expect(page.get_by_text(words).first).to_be_visible()
    expect(page.get_by_role("heading", name="After the game: the best layout of your cards")).to_be_visible()
    assert address_record(page) == game_record(state)
    assert page.locator('[data-testid="stException"]').count() == 0
    shot(page, "wagons_table_game_over")


def undo_and_redo(pg, state: gm.GameState, k: int) -> None:
    """Undo ``k`` steps by taps (past the opponent's own turns; the address holds the engine's shorter game each
    time), then redo them."""
    seen = []
    for _ in range(k):
        n = len(address_record(pg)["actions"])
        press(pg, "lc_undo")
        settled(pg)
        seen.append(address_record(pg))
        assert len(seen[-1]["actions"]) < n
    for _ in range(k):
        press(pg, "lc_redo")
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
    state = gm.new_followed_game("boomtown", WagonsReadings())
    expect(page.get_by_text("Reveal circle card 1 of 8")).to_be_visible()
    shot(page, "wagons_table_follow_reveal")
    rng = random.Random(4)
    order = list(gm.unseen_cards(state))
    rng.shuffle(order)
    for c in order[:9]:  # the circle, then the preference deck's top card
        state = click(page, state, gm.Reveal(c))
        expect(page.locator(f".st-key-lc_reveal_{c}")).to_have_count(0)  # a card is revealed once
    state = settle(state)
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
    expect(page.get_by_text(f"Action {n} of {n}", exact=True)).to_be_visible()
    settled(page)
    assert address_record(page) == before
    expect(page.get_by_text("Following a game at the table").first).to_be_visible()
    for c in state.circle:  # the same circle, drawn as cards
        expect(page.get_by_text(f"Card {c}", exact=True).first).to_be_visible()
    shot(page, "wagons_table_follow_resumed")
    undo_and_redo(page, state, 3)
    state = click(page, state, gm.legal_actions(state)[0])  # the game goes on from where it was
    assert address_record(page) == game_record(state)
    assert page.locator('[data-testid="stException"]').count() == 0


FIGURES = """() => {
  // every What if? figure on the page: the bands under the circle cards and the squares of the town grid, with
  // whether it is the gold (advised) one, edged dotted (shown above it, named in the note), and whether its text
  // lies inside its square
  const out = [];
  for (const b of document.querySelectorAll('[data-testid=stMain] .lc-what-if-band')) {
    const m = b.textContent.match(/([+-]\\d+\\.\\d) pts/);
    if (!m) continue;
    out.push({kind: 'band', value: parseFloat(m[1]), gold: b.textContent.includes('best'),
              dotted: b.style.border.includes('dotted'), words: b.title, text: b.textContent, inside: true});
  }
  for (const btn of document.querySelectorAll('.st-key-lc_town_grid button')) {
    const t = btn.innerText.trim();
    const m = t.match(/^([+-]\\d+\\.\\d)/);
    if (!m) continue;
    const cs = getComputedStyle(btn);
    const p = btn.querySelector('p');
    const range = document.createRange();
    range.selectNodeContents(p);
    const tr = range.getBoundingClientRect(), br = btn.getBoundingClientRect();
    const inside = tr.left >= br.left - 0.5 && tr.right <= br.right + 0.5 && tr.top >= br.top - 0.5
                   && tr.bottom <= br.bottom + 0.5;
    const key = [...btn.closest('[class*="st-key-lc_town_x"]').classList].find(c => c.startsWith('st-key-'));
    out.push({kind: 'square', value: parseFloat(m[1]), gold: cs.borderTopStyle === 'solid'
              && cs.borderTopColor === 'rgb(249, 168, 37)', dotted: cs.borderTopStyle === 'dotted',
              words: key, text: t, inside: inside,
              box: [tr.left, tr.right, tr.top, tr.bottom, br.left, br.right, br.top, br.bottom].map(Math.round)});
  }
  return out;
}"""


def gold_is_defended(pg) -> list[dict]:
    """The gold figure (named in the summary; drawn with a gold edge unless it lies the other way up than the hand
    shows) is the highest shown, or each figure above it is edged dotted and the note under the summary says it is
    not surely better (within its interval); every band says how its figure was made; returns the figures."""
    alerts = " ".join(pg.get_by_test_id("stAlert").all_inner_texts())
    top = float(re.search(r"Best: .*?, ([+-]\d+\.\d) points expected", alerts).group(1))
    figures = pg.evaluate(FIGURES)
    gold = [f for f in figures if f["gold"]]
    assert len(gold) <= 1 and all(f["value"] == top for f in gold), (gold, top)
    for f in figures:
        if f["value"] > top:
            assert f["dotted"] and "yet not surely better" in alerts, (f, top, alerts)
    for f in figures:
        if f["kind"] == "band":
            assert re.search(r"exact|\d+ orders", f["text"]), f
    return figures


@pytest.mark.parametrize("size", [pytest.param(PHONE, id="phone"), pytest.param(LAPTOP, id="laptop", marks=pytest.mark.deep)])
def test_what_if_gold_is_the_best_shown_through_a_boomtown_game(page, server, size):  # noqa: F811
    """What if? at 390x844 and 1366x768, a whole Boomtown game: one tap turns it on (once; it is remembered); at
    every decision the gold choice is never below a figure shown beside it without the note that they overlap,
    every figure says how it was made, the highlighted Take button is the advised card, the win chances stay inside
    their squares; a turn is a tap on the advised circle card and a tap on the gold square, the page's advice
    matching :func:`advise` on the same decision."""
    from solver.wagons.advice import advise

    page.set_viewport_size(size)
    open_page(page, server, "wagons_play", "Lone Cowboy play-along")
    state = gm.new_game("boomtown", 0, WagonsReadings())
    page.locator(".st-key-lc_what_if label").first.click()
    shots = set()
    while not gm.is_over(state):
        want = advise(state, 32).best
        expect(page.get_by_text(f"Best: {want.words}", exact=False).first).to_be_visible(timeout=180_000)
        settled(page)
        figures = gold_is_defended(page)
        expect(page.get_by_text(re.compile(r"\d+ orders of the \d+ unseen cards sampled|exact over every order"))
               .first).to_be_visible()
        if isinstance(want.action, gm.Draft):
            band = page.locator(".st-key-lc_circle [data-testid='stColumn']").nth(want.action.index)
            expect(band).to_contain_text("best")
            expect(band).to_contain_text(f"{float(want.mean):+.1f} pts")
            primary = page.locator(".st-key-lc_circle button[kind='primary'] >> visible=true")
            expect(primary).to_have_count(1)
            expect(primary).to_have_text(f"Take {want.card}")
            name = "wagons_what_if_draft"
        else:
            outside = [f for f in figures if f["kind"] == "square" and not f["inside"]]
            assert not outside, " ".join(str(f["box"]) for f in outside[:3])
            fits(page)
            name = "wagons_what_if_place" if len(figures) >= 12 else None  # a town with squares to choose from
        if name and name not in shots:
            shots.add(name)
            shot_at(page, name)
        state, taps = tap_action(page, state, want.action)
        assert taps == 1 + bool(isinstance(want.action, gm.Place) and want.action.placement.rot)
    assert address_record(page) == game_record(state)
    assert page.locator('[data-testid="stException"]').count() == 0
