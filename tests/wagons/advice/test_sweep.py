"""The compiled greedy valuation (solver/wagons/optimizer/sweep.py) is the Python one, faster: the same best
margin and the same placement (the first in legal_placements' order among equals), so a policy that uses it plays
move for move the game the Python policy plays."""

from __future__ import annotations

import random
import time

import pytest

from solver.wagons.data import load_data
from solver.wagons.game import actions_from_log, apply, legal_actions, new_game
from solver.wagons.optimizer.sweep import SWEEP, best_placement
from solver.wagons.policies import GreedyPolicy, LookaheadPolicy, RandomPolicy, place_value
from solver.wagons.readings import WagonsReadings
from solver.wagons.simulate import play_game
from solver.wagons.town import Town

SCENARIOS = [s.id for s in load_data().scenarios]


@pytest.fixture(scope="module", autouse=True)
def compiled():
    assert SWEEP.ready_by(time.monotonic() + 300), "the sweep did not compile in 5 minutes"


def _states(scenario: str, seed: int):
    """The player's decisions of a game played half randomly, half greedily (varied towns)."""
    s, rng = new_game(scenario, seed), random.Random(seed)
    while s.to_move is not None:
        if s.to_move == "player":
            yield s
        pol = RandomPolicy() if rng.random() < 0.5 else GreedyPolicy()
        s = apply(s, pol.choose(s, legal_actions(s), rng))


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_the_sweep_values_every_card_as_the_python_valuation(scenario):
    checked = 0
    for seed in range(4):
        for s in _states(scenario, seed):
            if not s.town.placements:
                continue
            for k, card in enumerate(s.hand[:1] or s.circle):
                pile = s.pile + (s.circle[:k] if not s.hand else ())
                want = place_value(s, s.town, card, pile)
                assert best_placement(s.town, card, pile, s.scenario, s.readings, s.data) == want, (seed, s.town, card)
                checked += 1
    assert checked > 50


@pytest.mark.parametrize("readings", [WagonsReadings(), WagonsReadings(edition="later"), WagonsReadings(boom_or_bust="flat", tie_break="guns")])
@pytest.mark.parametrize("policy", ["greedy", "lookahead"])
def test_compiled_policies_play_the_same_games(policy, readings):
    """Whole games of every scenario: the compiled policy's actions are the Python policy's, move for move."""
    make = {"greedy": GreedyPolicy, "lookahead": LookaheadPolicy}[policy]
    for scenario in SCENARIOS:
        for seed in (1, 2):
            slow = play_game(scenario, make(), seed, readings)
            fast = play_game(scenario, make(compiled=True), seed, readings)
            assert actions_from_log(fast.state) == actions_from_log(slow.state), (scenario, seed)
            assert fast.scores == slow.scores


def test_the_sweep_leaves_what_it_cannot_answer_to_python():
    """An empty town (the first card's canonical spots) is not the sweep's: None, and the policy still places."""
    s = new_game("gold-rush", 3)
    assert best_placement(Town(), s.circle[0], (), s.scenario, s.readings, s.data) is None
    assert place_value(s, Town(), s.circle[0], (), compiled=True)[1].x == 0
