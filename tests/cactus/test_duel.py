"""Exact duel odds (C8) against brute-force enumeration of the dice."""

from fractions import Fraction
from itertools import product

import pytest

from solver.cactus.duel import duel_odds
from solver.cactus.readings import CactusReadings
from solver.errors import BadInput


def brute(a_add, d_add, dice=1, sides=6):
    win = lose = tie = 0
    for a in product(range(1, sides + 1), repeat=dice):
        for d in product(range(1, sides + 1), repeat=dice):
            x, y = sum(a) + a_add, sum(d) + d_add
            win += x > y
            lose += x < y
            tie += x == y
    n = win + lose + tie
    return Fraction(win, n), Fraction(lose, n), Fraction(tie, n)


def test_plain_duel_is_fair():
    r = duel_odds(0, 0)
    assert (r["win"], r["lose"], r["tie"]) == ("1/2", "1/2", "0")
    assert r["single_roll"] == {"win": "5/12", "lose": "5/12", "tie": "1/6"}


def test_second_shot_values_and_tie_readings():
    w, l, t = brute(1, 0)
    r = duel_odds(1, 0, readings=CactusReadings(duel_ties="tie"))
    assert (Fraction(r["win"]), Fraction(r["lose"]), Fraction(r["tie"])) == (w, l, t)
    assert Fraction(duel_odds(1, 0)["win"]) == w / (w + l)
    assert Fraction(duel_odds(1, 0, readings=CactusReadings(duel_ties="initiator_wins"))["win"]) == w + t
    assert Fraction(duel_odds(1, 0, readings=CactusReadings(duel_ties="defender_wins"))["lose"]) == l + t


def test_sandstorm_cancels_second_shot():
    assert duel_odds(5, 0, ["sandstorm"])["win"] == "1/2"


def test_distraction_penalises_initiator():
    w, l, _ = brute(-1, 0)
    assert Fraction(duel_odds(0, 0, ["distraction"])["win"]) == w / (w + l)
    assert duel_odds(1, 0, ["distraction"])["win"] == "1/2"


def test_shootout_early_duel_bonus():
    w, l, t = brute(2, 0)
    r = duel_odds(0, 0, ["shootout"], shootout_duel=True, readings=CactusReadings(duel_ties="tie"))
    assert Fraction(r["win"]) == w
    with pytest.raises(BadInput, match="Shootout"):
        duel_odds(0, 0, shootout_duel=True)


def test_fast_draw_two_dice_modifiers_each_die():
    w, l, t = brute(2 * (3 + 1), 2 * 1, dice=2)
    r = duel_odds(3, 1, ["fast-draw"], initiator_bonus=1, readings=CactusReadings(duel_ties="tie"))
    assert (Fraction(r["win"]), Fraction(r["tie"])) == (w, t) and r["dice_per_roll"] == 2
    w2, _, t2 = brute(3 + 2 * 1, 1, dice=2)
    r2 = duel_odds(3, 1, ["fast-draw"], initiator_bonus=1,
                   readings=CactusReadings(duel_ties="tie", fast_draw_modifiers="tokens_buildings_only"))
    assert (Fraction(r2["win"]), Fraction(r2["tie"])) == (w2, t2)


def test_die_sides_parameter():
    w, l, _ = brute(1, 0, sides=4)
    assert Fraction(duel_odds(1, 0, readings=CactusReadings(die_sides=4))["win"]) == w / (w + l)


@pytest.mark.parametrize("args", [(-1, 0), (0, 100), (True, 0)])
def test_bad_duel_input(args):
    with pytest.raises(BadInput):
        duel_odds(*args)
