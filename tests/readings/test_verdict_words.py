"""Each verdict says its value in words (its ``words``, set by the game's own verdicts room): no wording guesses a
verdict's shape from its keys."""

from __future__ import annotations

from solver import registry
from solver.cactus.verify.verdicts import ends_words, odds_words
from solver.outlaws.verify.verdicts import dead_words, status_words
from solver.readings.verdicts import check_words, json_words
from solver.wagons.verify.verdicts import greedy_words, per_scenario_words


def test_every_verdict_value_is_said_in_words():
    assert check_words({"holds": True, "earliest": 6, "latest": 11, "bound": [6, 11]}) == "holds (rounds 6 to 11)"
    assert check_words({"holds": False}) == "fails"
    assert check_words({"holds": None, "undecided": "time limit"}) == "undecided (a time limit ran out)"
    assert odds_words({"rounds": {"6": "1/3", "7": "1/4"}, "never": "0"}) == \
        "the marshal arrives in round 6 to 7; in round 6 with chance 1/3"
    assert ends_words({"row": "visible", "ends": {"[0, 2]": "1/2", "[3, 1]": "1/2"}}) == \
        "he follows the row with a visible target and ends on x0 y2 (1/2), x3 y1 (1/2)"
    assert dead_words({"found": True}) == "a dead position is reachable"
    assert dead_words({"found": False, "within_depth": 80}) == "no dead position within 80 actions"
    assert status_words({"winner": "B", "sudden_death_trigger": False, "win_possible": {"A": False, "B": True}}) == \
        "B has won, A cannot win, B can still win"
    assert greedy_words({"wins": 2, "ties": 0, "games": 100}) == "the greedy policy wins 2 of 100 games (0 ties)"
    assert per_scenario_words({"playability/boomtown": True, "playability/gold-rush": False}) == \
        "fails in gold-rush; holds in 1"


def test_every_registered_verdict_has_words_of_its_own():
    """No verdict of any game falls back to its JSON: each room gives every verdict its wording."""
    plain = [v.id for g in registry.GAMES for v in g.verdicts() if v.words is json_words]
    assert plain == []
