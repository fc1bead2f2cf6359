"""Browser test of What if? on the Lone Cowboy game table (Chromium by Playwright, at 390x844, and at 1366x768 with
--deep): a whole Boomtown game played by the advice, each decision's advice on the page checked against
:func:`solver.wagons.advice.advise` on the same decision. The game to the end by taps and the followed game are
tests/browser/test_wagons_companion.py."""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor

import pytest

from solver.wagons import game as gm
from solver.wagons.advice import advise
from solver.wagons.readings import WagonsReadings
from solver.wagons.record.game_record import game_record
from tests.support.dashboard.browser import BROWSER, expect, open_page
from tests.support.dashboard.wagons_browser import (
    LAPTOP,
    PHONE,
    address_game,
    fits,
    settle,
    settled,
    shot_at,
    tap_action,
)

pytestmark = BROWSER


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
    matching :func:`advise` on the same decision (worked out here while the page works out its own)."""
    page.set_viewport_size(size)
    open_page(page, server, "wagons_play", "Lone Cowboy play-along")
    state = gm.new_game("boomtown", 0, WagonsReadings())
    shots: set[str] = set()
    with ThreadPoolExecutor(1) as pool:
        oracle = pool.submit(advise, state, 32)
        page.locator(".st-key-lc_what_if label").first.click()
        while not gm.is_over(state):
            want = oracle.result().best
            expect(page.get_by_text(f"Best: {want.words}", exact=False).first).to_be_visible(timeout=180_000)
            settled(page, changed=True)
            name = _decision_shown(page, want)
            if name and name not in shots:
                shots.add(name)
                shot_at(page, name)
            after = settle(gm.apply(state, want.action))
            if not gm.is_over(after):
                oracle = pool.submit(advise, after, 32)
            state, taps = tap_action(page, state, want.action)
            assert taps == 1 + bool(isinstance(want.action, gm.Place) and want.action.placement.rot)
    assert address_game(page) == game_record(state)
    assert page.locator('[data-testid="stException"]').count() == 0


def _decision_shown(page, want) -> str | None:
    """The checks of one decision's figures on the page (the test's docstring); the screenshot's name it deserves."""
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
        return "wagons_what_if_draft"
    outside = [f for f in figures if f["kind"] == "square" and not f["inside"]]
    assert not outside, " ".join(str(f["box"]) for f in outside[:3])
    fits(page)
    return "wagons_what_if_place" if len(figures) >= 12 else None  # a town with squares to choose from
