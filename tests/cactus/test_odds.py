"""Exact marshal odds (solver.cactus.odds and solo_deck) against hand figures and a Monte Carlo run."""

import math
import pickle
from fractions import Fraction

import pytest

from solver.cactus import odds, solo_deck
from solver.cactus.readings import CactusReadings
from solver.errors import BadInput
from tests.support.depth import examples


def fr(d):
    return {k: Fraction(v) for k, v in d.items()}


def test_solo_default_matches_hand_computation():
    # deck sizes 9, 8, 7, 6, 5, 4, 3 in rounds 6..12; 3 programmed; fresh shuffle each round
    alive, expected = Fraction(1), {}
    for rnd, size in zip(range(6, 13), (9, 8, 7, 6, 5, 4, 3)):
        expected[str(rnd)] = alive * Fraction(3, size)
        alive *= 1 - Fraction(3, size)
    result = odds.marshal_odds(None)
    assert fr(result["rounds"]) == expected
    assert result["rounds"]["6"] == "1/3" and result["rounds"]["12"] == "1/84"
    assert result["never"] == "0" and result["earliest"] == 6 and result["latest"] == 12
    assert result["by_round"]["12"] == "1"


def test_solo_c2_alternatives_change_the_tail():
    keep = odds.marshal_odds(None, CactusReadings(short_deck="keep_second_shot"))["rounds"]
    assert keep["12"] == "1/126" and keep["13"] == "1/504" and keep["14"] == "1/504"
    stop = odds.marshal_odds(None, CactusReadings(short_deck="stop_archiving"))
    assert Fraction(stop["rounds"]["12"]) == Fraction(1, 84) * Fraction(3, 4)
    assert stop["never"] != "0" and stop["expected_round"] is None


def test_solo_schedule_sizes():
    sizes = [solo_deck.deck_size(r) for r in range(1, 15)]
    assert sizes == [4, 5, 6, 7, 8, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    assert all(solo_deck.planning_split(solo_deck.deck_size(r)) == (3, True) for r in range(1, 12))
    assert solo_deck.planning_split(3) == (3, False)
    assert solo_deck.planning_split(3, CactusReadings(short_deck="keep_second_shot")) == (2, True)


def test_solo_c3_added_cards():
    outs = solo_deck.contents_outcomes(3)
    assert len(outs) == 6 and sum(p for p, _ in outs) == 1  # 2 of the 4 unmarked cards
    assert all(len(d) == 6 and {1, 2, 3, 4} <= d for _, d in outs)
    (p, deck), = solo_deck.contents_outcomes(3, CactusReadings(added_card="lowest_number"))
    assert deck == frozenset({1, 2, 3, 4, 5, 6})
    (p, deck), = solo_deck.contents_outcomes(8)
    assert deck == frozenset({3, 4, 5, 6, 7, 8, "M"})


def test_planning_draw_second_shot_marshal_does_not_end():
    d = solo_deck.planning_draw([1, 2, 3, "M", 5])
    assert d.programmed == (1, 2, 3) and d.second_shot == "M" and not d.marshal_programmed
    assert solo_deck.planning_draw([1, "M", 3, 4]).marshal_programmed


@pytest.mark.parametrize("players, lo, hi", [(2, 6, 11), (3, 8, 13), (4, 8, 13), (5, 8, 13)])
def test_event_distribution_is_a_distribution_within_bounds(players, lo, hi):
    r = odds.marshal_odds(players)
    dist = fr(r["rounds"])
    assert sum(dist.values()) == 1 and r["never"] == "0"
    assert min(map(int, dist)) == lo and max(map(int, dist)) == hi
    assert all(p > 0 for p in dist.values())


def test_three_to_five_players_share_the_deck_size():
    assert odds.marshal_odds(3)["rounds"] == odds.marshal_odds(5)["rounds"]


def test_without_train_and_stagecoach_marshal_is_uniform_over_last_three():
    # a deck of placeholders only: the end round is the marshal's position, 1/3 each
    from solver.cactus import events as ev
    out = {}
    for slot in range(3):
        deck = ev.build_deck(["tumbleweed"] * 8, 8, slot)
        (rnd, p), = odds._end_from(ev.EventsInPlay(deck), CactusReadings())
        out[rnd] = p
    assert out == {7: 1, 8: 1, 9: 1}


def _close(exact: dict, counts: dict, n: int):
    keys = set(exact) | set(counts)
    for k in keys:
        p = float(Fraction(exact.get(k, "0")))
        f = counts.get(k, 0) / n
        sigma = math.sqrt(max(p * (1 - p), 1e-9) / n)
        assert abs(f - p) < 5 * sigma + 2 / n, (k, p, f)


@pytest.mark.parametrize("players, readings", [
    (None, CactusReadings()),
    (2, CactusReadings()),
    (3, CactusReadings()),
    (2, CactusReadings(duel_win_chance=Fraction(1, 3))),
    (2, CactusReadings(duel_win_chance=Fraction(1, 2), marshal_discard="discarded")),
    (2, CactusReadings(duel_win_chance=Fraction(1, 2), duels_per_round=2)),
    (3, CactusReadings(duel_win_chance=Fraction(1, 2), duels_per_round=3, duel_discards="one_per_round")),
    (3, CactusReadings(stagecoach_short="none")),
    (None, CactusReadings(short_deck="keep_second_shot")),
    (None, CactusReadings(solo_events=True)),
])
def test_exact_matches_monte_carlo(players, readings):
    n = examples(2000, 6000)  # games simulated: each reading's exact odds against as many random games
    exact = odds.marshal_odds(players, readings)
    table = dict(exact["rounds"])
    if exact["never"] != "0":
        table["never"] = exact["never"]
    counts = odds.simulate_chunk(n, 12345, odds.MarshalQuery(players, readings))
    assert sum(counts.values()) == n
    _close(table, counts, n)


def test_duel_discards_bring_the_marshal_earlier():
    base = odds.marshal_odds(2)
    duel = odds.marshal_odds(2, CactusReadings.from_json({"duel_win_chance": "1/2"}))
    assert Fraction(duel["expected_round"]) < Fraction(base["expected_round"])
    assert duel["earliest"] == 3
    lost = odds.marshal_odds(2, CactusReadings.from_json({"duel_win_chance": "1/2", "marshal_discard": "discarded"}))
    assert Fraction(lost["never"]) > 0


def test_solo_with_events_ends_no_later_than_solo_alone():
    both = odds.marshal_odds(None, CactusReadings(solo_events=True))
    alone = odds.marshal_odds(None)
    assert sum(fr(both["rounds"]).values()) == 1
    assert Fraction(both["expected_round"]) < Fraction(alone["expected_round"])


def test_simulate_chunk_is_picklable_and_deterministic():
    q = odds.MarshalQuery(2, CactusReadings())
    fn, q2 = pickle.loads(pickle.dumps((odds.simulate_chunk, q)))
    assert fn(300, 7, q2) == odds.simulate_chunk(300, 7, q)
    assert odds.simulate_chunk(0, 1, q) == {}
    with pytest.raises(BadInput):
        odds.simulate_chunk(-1, 1, q)
    with pytest.raises(BadInput):
        odds.MarshalQuery(6)
