"""Builders the advice tests share: states along greedy games, and the expectation over the game tree by brute force."""

from __future__ import annotations

import random
from fractions import Fraction

from solver.wagons.game import (
    GameState,
    OpponentTurn,
    Reveal,
    actions_from_log,
    apply,
    chance_outcomes,
    is_chance_node,
    is_over,
    legal_actions,
    new_followed_game,
    new_game,
    scores,
)
from solver.wagons.policies import GreedyPolicy


def greedy_state(scenario: str, seed: int, steps: int) -> GameState:
    """The seeded game after ``steps`` actions (the player's by the greedy policy, the opponent's by its rules)."""
    s = new_game(scenario, seed)
    for _ in range(steps):
        s = apply(s, OpponentTurn() if s.to_move == "opponent" else GreedyPolicy().choose(s, legal_actions(s),
                                                                                           random.Random(0)))
    return s


def player_decisions_left(s: GameState) -> int:
    """The player's decisions still to come when everything goes on greedily (this one included)."""
    n = 0
    while not is_over(s):
        if s.to_move == "player":
            n += 1
        s = apply(s, OpponentTurn() if s.to_move == "opponent" else GreedyPolicy().choose(s, legal_actions(s),
                                                                                           random.Random(0)))
    return n


def endgame(scenario: str, seed: int, left: int) -> GameState:
    """The greedy game's state with ``left`` player decisions to go."""
    s, steps = new_game(scenario, seed), 0
    while not (s.to_move == "player" and player_decisions_left(s) == left):
        s = apply(s, OpponentTurn() if s.to_move == "opponent" else GreedyPolicy().choose(s, legal_actions(s),
                                                                                           random.Random(0)))
        steps += 1
    return s


def tree_expectation(state: GameState, policy) -> tuple[Fraction, Fraction]:
    """(expected final margin, chance the player wins) from ``state`` by walking the whole game tree: every chance
    node's outcomes with their exact chances (the engine's ``chance_outcomes``), the player's decisions by
    ``policy``, the opponent's by its rules. Independent of the advice's orders, memo and race."""
    if is_over(state):
        f = scores(state)
        return Fraction(f.margin), Fraction(int(f.winner == "player"))
    if is_chance_node(state):
        margin = win = Fraction(0)
        for p, reveal in chance_outcomes(state):
            m, w = tree_expectation(apply(state, reveal), policy)
            margin, win = margin + p * m, win + p * w
        return margin, win
    if state.to_move == "opponent":
        return tree_expectation(apply(state, OpponentTurn()), policy)
    return tree_expectation(apply(state, policy.choose(state, legal_actions(state), random.Random(0))), policy)


def tree_best(state: GameState) -> Fraction:
    """The best expected final margin from ``state`` by brute force over the whole game tree: every one of the
    player's legal actions tried at each decision (the best taken), every chance outcome with its exact chance,
    the opponent by its rules. What no continuation policy can beat."""
    if is_over(state):
        return Fraction(scores(state).margin)
    if is_chance_node(state):
        return sum((p * tree_best(apply(state, reveal)) for p, reveal in chance_outcomes(state)), Fraction(0))
    if state.to_move == "opponent":
        return tree_best(apply(state, OpponentTurn()))
    return max(tree_best(apply(state, a)) for a in legal_actions(state))


def followed_twin(seeded: GameState) -> GameState:
    """The followed game (its deal unknown, rule:W-reveal) in which the seeded game's cards are revealed as they
    are seen (the circle, then the preference deck from its top) and the same actions are taken."""
    start = new_game(seeded.scenario, seeded.seed, seeded.readings, seeded.data)
    deal = iter(start.circle + start.deck)
    s = new_followed_game(seeded.scenario, seeded.readings, seeded.data)
    for action in actions_from_log(seeded):
        while is_chance_node(s):
            s = apply(s, Reveal(next(deal)))
        s = apply(s, action)
    while is_chance_node(s):
        s = apply(s, Reveal(next(deal)))
    return s
