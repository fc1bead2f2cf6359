"""The advice's figures against the game tree (rule:W-advice): exact where every order is played, sampled
figures whose intervals hold the exact value, and the last placement valued by the scorer itself."""

from __future__ import annotations

from fractions import Fraction
from itertools import permutations

import pytest

from solver.wagons.advice.engine import advise
from solver.wagons.advice.information import information_state
from solver.wagons.advice.orders import deal_orders
from solver.wagons.game import OpponentTurn, apply, legal_actions
from solver.wagons.policies import GreedyPolicy, LookaheadPolicy
from solver.wagons.scoring import final_scores
from solver.wagons.town import Town
from tests.support.builders.advice import endgame, greedy_state, tree_best, tree_expectation
from tests.support.depth import deep_after

POLICIES = {"greedy": GreedyPolicy(), "lookahead": LookaheadPolicy()}
CHANCE_STATE = ("gold-rush", 17, 7)
"""A round-1 draft with 3 choices and 5 cards unseen (120 orders), each choice's win chance strictly between 0 and
1 (about 0.83, 0.78, 0.58 with the greedy policy): the greedy game of seed 17 after 7 actions."""


@pytest.mark.parametrize("scenario,seed,left", [("cattle-drive", 4, 1), ("water-the-herd", 2, 2),
                                                ("out-drink-the-competition", 7, 3), ("boomtown", 11, 2)])
@pytest.mark.parametrize("policy", ["greedy", "lookahead"])
def test_endgame_figures_equal_the_game_tree(scenario, seed, left, policy):
    """The last one to three decisions: every action's expected margin and win chance are exact and equal the tree's."""
    state = endgame(scenario, seed, left)
    advice = advise(state, samples=8, policy=policy, bound=False)
    assert advice.complete and advice.every_order and not advice.unseen
    info = information_state(state)
    assert len(advice.actions) == len(legal_actions(info))
    for row in advice.actions:
        assert row.exact and row.samples == 1
        assert (row.mean, row.win) == tree_expectation(apply(info, row.action), POLICIES[policy]), row.words
    means = [r.mean for r in advice.actions]
    assert means == sorted(means, reverse=True)


@pytest.mark.parametrize("scenario,seed,left", deep_after([("cattle-drive", 4, 1), ("boomtown", 11, 2),
                                                           ("gold-rush", 8, 1), ("water-the-herd", 2, 2)], keep=2))
def test_endgame_advice_against_the_best_play_by_brute_force(scenario, seed, left):
    """Brute force over every action of the last decisions (the best at each): no action's figure is above the best
    play after it (a continuation policy cannot beat it), the advised one equals the best play at the game's last
    decision (nothing is left to a policy), and the deal search's proven bound is never below the best play."""
    state = endgame(scenario, seed, left)
    info = information_state(state)
    advice = advise(state, samples=8, policy="lookahead")
    assert advice.complete and advice.bound is not None and advice.bound.upper is not None
    best = {row.action: tree_best(apply(info, row.action)) for row in advice.actions}
    for row in advice.actions:
        assert row.mean <= best[row.action], row.words
        assert row.bound is not None and row.bound >= best[row.action], row.words
    assert advice.bound.upper >= max(best.values())
    if left == 1:
        assert advice.best.mean == max(best.values())


@pytest.mark.parametrize("policy", ["greedy", "lookahead"])
def test_figures_over_every_order_equal_the_game_tree_with_chance(policy):
    """With 5 cards unseen, every one of the 120 orders played: each action's figures are the exact expectation over
    the tree's chance nodes (the engine's uniform reveals)."""
    state = greedy_state(*CHANCE_STATE)
    advice = advise(state, samples=120, policy=policy, full=True, bound=False)
    assert len(advice.unseen) == 5 and advice.samples == 120 and advice.every_order
    info = information_state(state)
    for row in advice.actions:
        assert row.exact and isinstance(row.mean, Fraction)
        assert (row.mean, row.win) == tree_expectation(apply(info, row.action), POLICIES[policy]), row.words


def test_the_last_placement_is_valued_by_the_scorer():
    """The game's last decision: each placement's figure is the final margin of the town it makes, against the pile
    the opponent ends with (its last draft, if any, by its rules: nothing is left to chance or to a policy)."""
    state = endgame("gold-rush", 8, 1)
    assert state.hand and len(state.hand) == 1
    advice = advise(state, samples=4, bound=False)
    assert len(advice.actions) == len(legal_actions(state)) > 1
    margins = set()
    for row in advice.actions:
        end = apply(state, row.action)
        while end.to_move == "opponent":
            end = apply(end, OpponentTurn())
        assert end.to_move is None
        f = final_scores(Town(state.town.placements + (row.action.placement,)), end.pile, state.scenario,
                         state.readings, state.data)
        assert row.exact and row.mean == f.margin and row.win == int(f.winner == "player")
        margins.add(f.margin)
    assert len(margins) > 1  # the placements differ: the test tells a right figure from a wrong one


def test_sampled_intervals_hold_the_exact_value():
    """8 sampled orders of the 120 (the fewest with an interval), 30 draws of orders, the race and the close calls
    off: the 95% intervals hold the exact expected margin (and win chance) at least 80% of the time, and the sample
    means scatter on both sides of it. From 6 orders no interval is given."""
    state = greedy_state(*CHANCE_STATE)
    exact = {r.action: r for r in advise(state, samples=120, policy="greedy", full=True, bound=False).actions}
    assert all(0 < r.win < 1 for r in exact.values())
    held = won = total = above = 0
    for seed in range(30):
        for row in advise(state, samples=8, policy="greedy", full=True, bound=False, seed=seed,
                          resolve=False).actions:
            assert not row.exact and row.samples == 8
            true = exact[row.action]
            total += 1
            held += row.interval[0] <= true.mean <= row.interval[1]
            won += row.win_interval[0] <= true.win <= row.win_interval[1]
            above += row.mean > true.mean
    assert held >= 0.8 * total and won >= 0.8 * total
    assert 0.2 * total <= above <= 0.8 * total
    few = advise(state, samples=6, policy="greedy", full=True, bound=False, resolve=False).actions
    assert all(r.too_few and r.interval is None and r.win_interval is None and "too few" in r.how for r in few)


def test_the_orders_are_uniform_and_shared():
    """Every order listed once when they fit; sampled orders are permutations of the unseen cards; the same inputs
    give the same orders (common random numbers across actions and runs)."""
    every, exact = deal_orders((3, 8, 11), 6)
    assert exact and sorted(every) == sorted(permutations((3, 8, 11)))
    some, exact = deal_orders((1, 2, 3, 4, 5), 10, seed=2)
    assert not exact and len(some) == 10 and all(sorted(o) == [1, 2, 3, 4, 5] for o in some)
    assert deal_orders((5, 4, 3, 2, 1), 10, seed=2)[0] == some
    assert deal_orders(tuple(range(6)), 3000)[1] and len(deal_orders(tuple(range(6)), 3000)[0]) == 720
    drawn, exact = deal_orders(tuple(range(8)), 4000, seed=1)  # 40320 orders: sampled
    assert not exact and len(drawn) == 4000
    for place in (0, 7):
        counts = [sum(o[place] == c for o in drawn) for c in range(8)]
        assert min(counts) > 380 and max(counts) < 620, counts  # 500 expected each


def test_a_random_policy_is_not_a_continuation():
    """Only deterministic policies continue a play-out (orders share their play): anything else is refused."""
    from solver.errors import BadInput

    with pytest.raises(BadInput, match="not one of"):
        advise(greedy_state("gold-rush", 1, 0), policy="random")
