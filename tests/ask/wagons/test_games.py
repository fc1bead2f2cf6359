"""Whole-game questions: the automaton's skips and matches per round, read against the game at the end of round 1,
and a seeded estimate that covers the win rate of other deals."""

from __future__ import annotations

import random

import pytest

from solver.ask import condition as cond_mod
from solver.ask.engine import prepare, wilson
from solver.ask.question import Question
from solver.wagons.game import apply, is_over, legal_actions, new_game
from solver.wagons.policies import GreedyPolicy
from solver.wagons.questions.games import round_counts
from solver.wagons.simulate import play_game, policy_rng
from tests.support.depth import examples


def _end_of_round_1(scenario: str, seed: int):
    """The game of ``seed`` played greedily, stopped as round 2 begins, and the whole game."""
    state = new_game(scenario, seed)
    deck = set(state.deck)
    policy, rng = GreedyPolicy(), policy_rng(seed)
    at_round_2 = None
    while not is_over(state):
        if state.round == 2 and at_round_2 is None:
            at_round_2 = state
        actions = legal_actions(state)
        state = apply(state, actions[0] if state.to_move == "opponent" else policy.choose(state, actions, rng))
    return at_round_2, state, deck


@pytest.mark.parametrize("scenario, seed", [("gold-rush", 0), ("boomtown", 1), ("cattle-drive", 2),
                                            ("water-the-herd", 3)])
def test_round_one_matches_are_the_deck_cards_in_the_pile_and_skips_the_cards_handed_over(scenario, seed):
    mid, end, deck = _end_of_round_1(scenario, seed)
    counts = round_counts(end)
    assert counts == round_counts(play_game(scenario, "greedy", seed).state)
    # a round-1 match puts the preference deck's top card into the pile, nothing else does before round 2
    assert counts["round1.matches"] == len(deck & set(mid.pile))
    # every card the player holds after round 1 was drafted by the player or skipped by the automaton
    drafted = sum(1 for e in mid.log if e.who == "player" and e.what == "draft" and e.round == 1)
    assert counts["round1.skips"] == len(mid.town.placements) + len(mid.hand) - drafted
    assert 0 <= counts["round2.matches"] <= 8 and counts["round2.skips"] >= 0


@pytest.mark.slow
def test_the_estimate_of_the_greedy_win_chance_covers_other_seeds():
    q = Question("wagons", "games", (("scenario", "gold-rush"), ("policy", "greedy")), "chance",
                 cond_mod.parse("winner == player"))
    run = prepare(q, 600)
    rng = random.Random(0)
    n = examples(60, 150)  # seeded games each side
    hits = sum(cond_mod.holds(q.condition, run.values(run.domain.sample(rng)[1])) for _ in range(n))
    lo, hi = wilson(hits, n, z=3.29)
    wins = sum(play_game("gold-rush", "greedy", seed).scores.winner == "player" for seed in range(n))
    assert lo <= wins / n <= hi


@pytest.mark.slow
def test_every_line_of_a_winnable_deal_failing_to_win_is_refuted_by_a_replayed_winning_line():
    from solver.ask.engine import ask

    q = Question("wagons", "deal", (("scenario", "gold-rush"), ("seed", 1)), "forall",
                 cond_mod.parse("winner != player"))
    a = ask(q, 60)
    assert a.verdict == "no" and a.proven
    assert a.witness["kind"] == "game" and a.witness["scores"]["winner"] == "player"
    assert a.witness["record"]["seed"] == 1
