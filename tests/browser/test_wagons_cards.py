"""The player settles the low-confidence goal cards from the cards' pictures, in Chromium at 390x844 (and at 1366x768
with --deep):
on the score sheet of a Boomtown game whose winner depends on how Boom or Bust is read, the headline gives the score
under each reading and names no winner; one tap on the Smalltown Charm card and one on the Boom or Bust card settle
both, the tags read "from your card" and the headline names the winner of the settled scores. Every step fits."""

from __future__ import annotations

import re

import pytest

from dashboard.shared.work import urldoc
from solver.wagons.readings import WagonsReadings
from solver.wagons.scoring import final_scores, scores_by_reading
from solver.wagons.simulate import play_game
from tests.support.dashboard.browser import BROWSER, PHONE_FIRST, expect, open_page
from tests.support.dashboard.wagons_browser import LAPTOP, PHONE, fits, press, settled, shot_at

pytestmark = BROWSER
SIZES = {"laptop": LAPTOP, "phone": PHONE}


@pytest.fixture
def tab(screens, size):
    """A fresh tab (a new browser: no cookie, no card read yet) of the given size."""
    with screens.tab(SIZES[size]) as pg:
        yield pg


def disputed_game():
    """A finished Boomtown game (greedy policy) whose winner depends on the Boom or Bust reading."""
    for seed in range(40):
        state = play_game("boomtown", "greedy", seed).state
        if len({c["winner"] for c in scores_by_reading(state.town, state.pile, "boomtown")["scores"]}) > 1:
            return state
    raise AssertionError("no disputed Boomtown game among 40")


@PHONE_FIRST
def test_the_player_settles_boom_or_bust_and_smalltown_charm_from_the_cards_and_the_headline_follows(tab, server):
    state = disputed_game()
    per_mine, flat = (final_scores(state.town, state.pile, "boomtown", WagonsReadings(boom_or_bust=v)) for v in ("per-mine", "flat"))
    sheet = {"scenario": "boomtown", "rows": [p.to_dict() for p in state.town.placements], "pile": list(state.pile)}
    open_page(tab, server, "wagons_sheet?sheet=" + urldoc.encode(sheet), "Lone Cowboy score sheet")
    headline = (f"Score: You {per_mine.player.total}, the opponent {per_mine.opponent.total}; or "
                f"{flat.player.total}-{flat.opponent.total} if your Boom or Bust card counts its points once.")
    expect(tab.get_by_text(headline)).to_be_visible()
    expect(tab.get_by_text(re.compile(r"The (player|opponent) wins \d+ to \d+"))).to_have_count(0)  # no winner
    fits(tab)  # the page, its drawings and every text (the shared check)
    shot_at(tab, "wagons_cards_unsettled")
    press(tab, "wg_cards_smalltown_charm_same")  # one tap on the Smalltown Charm card
    expect(tab.get_by_text("goal: Smalltown Charm (from your card)").first).to_be_visible()
    settled(tab, changed=True)
    press(tab, "wg_cards_boom_or_bust_says_flat")  # one tap on the Boom or Bust card: its points count once
    expect(tab.get_by_text("goal: Boom or Bust (from your card)").first).to_be_visible()
    settled(tab, changed=True)
    expect(tab.get_by_text(headline)).to_have_count(0)
    won = {"player": f"The player wins {flat.player.total} to {flat.opponent.total}",
           "opponent": f"The opponent wins {flat.opponent.total} to {flat.player.total}"}.get(flat.winner, "Tie")
    expect(tab.get_by_text(won).first).to_be_visible()
    expect(tab.get_by_text("(low confidence")).to_have_count(0)
    fits(tab)  # the page, its drawings and every text (the shared check)
    shot_at(tab, "wagons_cards_settled")
    assert tab.locator('[data-testid="stException"]').count() == 0
