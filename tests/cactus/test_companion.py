"""The round companion's live marshal odds (solver.cactus.companion) against independent oracles:
the closed-form odds with no history, hand-worked posteriors from the rulebook's deck rules, and a
Monte Carlo that deals the real 17 event cards and keeps the games whose table history matches."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from fractions import Fraction

import pytest

from solver.cactus import companion as cp
from solver.cactus import events as ev
from solver.cactus import odds
from solver.cactus.readings import CactusReadings
from solver.errors import BadInput

R = CactusReadings()


@pytest.mark.parametrize("players", [None, 2, 4])
def test_no_history_is_the_exact_odds(players):
    """Before any card is seen the companion's forecast is the closed-form distribution."""
    assert cp.arrival(cp.prior(players, R)) == odds.distribution(odds.MarshalQuery(players, R))


def test_solo_events_reading_is_the_combined_distribution():
    readings = replace(R, solo_events=True)
    assert cp.arrival(cp.prior(None, readings)) == odds.distribution(odds.MarshalQuery(None, readings))


def test_two_players_after_seven_plain_events_hand_worked():
    """8 cards + the marshal: after 7 plain draws the marshal is 8th or 9th (1/2 each, he was among the
    bottom 3 and not 7th); the other card is one of the 10 unseen (Train 1/10, Stagecoach 1/10).
    Round 8: marshal (1/2), or the Train discarding him (1/2 * 1/10) -> 11/20; a plain card -> round 9
    (1/2 * 8/10 = 2/5); the Stagecoach puts 2 discards on top -> round 11 (1/20)."""
    h = [cp.Record(event=k) for k in ("tumbleweed", "tumbleweed", "tumbleweed", "sandstorm", "sandstorm",
                                      "shootout", "shootout")]
    b = cp.follow(2, R, h)[-1]
    assert cp.arrival(b) == {8: Fraction(11, 20), 9: Fraction(2, 5), 11: Fraction(1, 20)}


def test_a_train_seen_discarding_a_plain_card_moves_the_marshal_closer():
    """After a Train (round 1) discarding a plain card, 6 cards are left before the bottom three."""
    h = [cp.Record(event="train", train_discard="tumbleweed")]
    dist = cp.arrival(cp.follow(2, R, h)[-1])
    assert sum(dist.values()) == 1 and min(dist) >= 5
    before = cp.arrival(cp.prior(2, R))
    mean = lambda d: sum(k * p for k, p in d.items())  # noqa: E731
    assert mean(dist) < mean(before)


def test_solo_contents_follow_the_cards_seen():
    """Round 2 adds one of #5-#8 at random (rule C3); seeing #6 in round 2 fixes it; round 3 adds one
    of the other three."""
    rep = cp.report(None, R, [cp.Record(programmed=(1, 2, 3), second_shot=4), cp.Record(programmed=(6, 1, 2))])
    assert rep["steps"][1]["solo_deck"]["card_chance"] == {"1": "1", "2": "1", "3": "1", "4": "1", "5": "1/4",
                                                          "6": "1/4", "7": "1/4", "8": "1/4", "M": "0"}
    after2 = rep["steps"][2]["solo_deck"]
    assert after2["card_chance"]["6"] == "1" and after2["card_chance"]["7"] == "1/3"
    assert {tuple(c["cards"]) for c in after2["contents"]} == {tuple(sorted(("1", "2", "3", "4", "6", x))) for x in "578"}
    # the deck sizes are fixed by the schedule, so the marshal's odds are the unconditioned ones
    assert rep["steps"][2]["rounds"] == {k: v for k, v in rep["steps"][0]["rounds"].items()}


def test_solo_marshal_programmed_ends_and_second_shot_does_not():
    rounds = [cp.Record(programmed=(1, 2, 3))] * 5
    b5 = cp.follow(None, R, rounds)[-1]
    won = cp.follow(None, R, rounds + [cp.Record(programmed=(7, "M"))])[-1]
    assert {g.end_cause for g in won} == {"solo-deck"} and {g.round for g in won} == {6}
    shot = cp.follow(None, R, rounds + [cp.Record(programmed=(7, 1, 2), second_shot="M")])[-1]
    assert cp.arrival(shot) == cp.arrival(cp.follow(None, R, rounds + [cp.Record(programmed=(1, 2, 3))])[-1])
    assert cp.arrival(b5)[6] == Fraction(1, 3)


SIX_PLAIN = [cp.Record(event=k) for k in ("tumbleweed", "tumbleweed", "tumbleweed", "sandstorm", "sandstorm",
                                          "shootout")]


def test_impossible_histories_are_refused_in_one_line():
    with pytest.raises(BadInput, match="round 1"):
        cp.follow(None, R, [cp.Record(programmed=(7,))])  # #7 is not among the 4 marked cards
    with pytest.raises(BadInput, match="three|3 times|seen 3"):
        cp.follow(2, R, [cp.Record(event="sandstorm")] * 3)
    with pytest.raises(BadInput, match="game is over"):
        cp.follow(2, R, SIX_PLAIN + [cp.Record(event=ev.MARSHAL), cp.Record(event="disorder")])
    with pytest.raises(BadInput, match="no event deck"):
        cp.follow(None, R, [cp.Record(event="train")])
    with pytest.raises(BadInput, match="solo card"):
        cp.record_from_json({"programmed": [9]})
    with pytest.raises(BadInput, match="round 4"):  # the marshal is among the last 3 of 9 cards
        cp.follow(2, R, [cp.Record(event="tumbleweed")] * 3 + [cp.Record(event=ev.MARSHAL)])


def test_record_json_round_trip():
    rec = cp.Record(event="train", train_discard="sandstorm", duel_discards=("tumbleweed", None),
                    programmed=(3, 1), second_shot=2)
    assert cp.record_from_json(cp.record_to_json(rec)) == rec


# ---------------------------------------------------------------- Monte Carlo with the real cards


def _real_game(players: int, readings: CactusReadings, rng: random.Random, rounds: int):
    """A real deal: (the events drawn in the first ``rounds`` rounds, the round the marshal ends it)."""
    order = list(ev.table().cards())
    rng.shuffle(order)
    state = ev.EventsInPlay(ev.build_deck(order, ev.deck_size(players), rng.randrange(3)))
    seen = []
    while not state.ended and state.deck:
        outs = ev.start_round(state, readings)
        state = outs[0][1] if len(outs) == 1 else rng.choices([s for _, s in outs], [float(p) for p, _ in outs])[0]
        if len(seen) < rounds:
            seen.append(state.current)
            if seen != HISTORY[:len(seen)]:
                return seen, None
    return seen, state.end_round if state.ended else None


HISTORY = ["tumbleweed", "stagecoach"]


@pytest.mark.slow
def test_posterior_matches_monte_carlo_with_real_cards():
    rng = random.Random(20261201)
    counts: Counter = Counter()
    for _ in range(200_000):
        seen, end = _real_game(3, R, rng, len(HISTORY))
        if seen == HISTORY:
            counts[end] += 1
    n = sum(counts.values())
    assert n > 1500
    exact = cp.arrival(cp.follow(3, R, [cp.Record(event=k) for k in HISTORY])[-1])
    for rnd, p in exact.items():
        assert abs(counts[rnd] / n - float(p)) < 4 * (float(p) * (1 - float(p)) / n) ** 0.5 + 0.005, rnd
    assert set(counts) <= set(exact)
