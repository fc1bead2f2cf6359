"""Player policies for whole games: random, greedy and scripted (replays a recorded game).

A policy is a small frozen object with ``choose(state, actions, rng) -> action``; it never sees
the future deal. Policies are picklable so batches can run in other processes.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from solver.errors import BadInput
from solver.wagons.game import Draft, GameState, Place, action_from_dict, draft_mismatch
from solver.wagons.scoring import features_plus, frame_features, growth_frame, margin_scorer
from solver.wagons.town import Town, legal_placements

__all__ = ["RandomPolicy", "GreedyPolicy", "ScriptedPolicy", "policy_by_name", "POLICIES"]


@dataclass(frozen=True)
class RandomPolicy:
    """Uniformly random among the legal actions."""
    name: str = "random"

    def choose(self, state: GameState, actions, rng: random.Random):
        return actions[rng.randrange(len(actions))]


_LAST_DRAFTS: dict[tuple, tuple] = {}
"""GreedyPolicy's last draft valuation: (town, card, pile, scenario, rules, id of the game's data) -> (best margin, placement)
for every card it considered, so placing the card it drafted does not redo the work."""


@dataclass(frozen=True)
class GreedyPolicy:
    """Maximises the immediate gain in score margin (player total - opponent total).

    A placement is valued by the margin right after it; a draft of circle card k by the margin
    after placing that card at its best position with the k skipped cards on the opponent's pile.
    ``max_skip`` bounds the drafts considered (None = all). Ties: the first in the listed order.
    """
    name: str = "greedy"
    max_skip: int | None = None

    def _best_place(self, state: GameState, town: Town, card: int, pile, grid=None) -> tuple[int, object]:
        """(best margin, its placement) for ``card``; ``grid`` = (frame, features) of ``town`` if known."""
        frame, base = grid or _grid(town)
        margin = margin_scorer(pile, state.scenario, state.rules, state.data, near=base)
        best, best_p = None, None
        for p in legal_placements(town, card):
            v = margin(features_plus(base, frame, p))
            if best is None or v > best:
                best, best_p = v, p
        return best, best_p

    def choose(self, state: GameState, actions, rng: random.Random):
        if isinstance(actions[0], Place):
            card = state.hand[0]
            hit = _LAST_DRAFTS.get((state.town, card, state.pile, state.scenario, state.rules, id(state.data)))
            _, p = hit or self._best_place(state, state.town, card, state.pile)
            return Place(p)
        if isinstance(actions[0], Draft):
            grid = _grid(state.town)  # the same town for every draft considered
            best, best_a, seen = None, None, {}
            for a in actions:
                if self.max_skip is not None and a.index > self.max_skip:
                    break
                pile = state.pile + state.circle[:a.index]
                card = state.circle[a.index]
                v, _ = seen[(state.town, card, pile, state.scenario, state.rules, id(state.data))] = \
                    self._best_place(state, state.town, card, pile, grid)
                if best is None or v > best:
                    best, best_a = v, a
            _LAST_DRAFTS.clear()
            _LAST_DRAFTS.update(seen)
            return best_a
        return actions[0]


def _grid(town: Town):
    frame = growth_frame(town)
    return frame, frame_features(town, frame)


@dataclass(frozen=True)
class ScriptedPolicy:
    """Replays recorded player actions (``{"draft": k}`` / ``{"place": {...}}``) in order."""
    actions: tuple = ()
    name: str = "scripted"

    def choose(self, state: GameState, actions, rng: random.Random):
        n = sum(1 for e in state.log if e.who == "player")
        if n >= len(self.actions):
            raise BadInput(f"script: ran out of recorded actions after {n}")
        a = self.actions[n]
        if isinstance(a, dict):
            recorded, a = a, action_from_dict(a, f"script action {n}")
            why = draft_mismatch(state, recorded) if isinstance(a, Draft) else ""
            if why:
                raise BadInput(f"script action {n}: {why}")
        if a not in actions:
            raise BadInput(f"script action {n}: {a} is not legal now")
        return a


POLICIES = ("random", "greedy")


def policy_by_name(name: str, script=None):
    """A policy from its name ("random", "greedy", "scripted" with ``script`` actions)."""
    if name == "random":
        return RandomPolicy()
    if name == "greedy":
        return GreedyPolicy()
    if name == "scripted":
        if script is None:
            raise BadInput("policy 'scripted' needs a recorded game (--script FILE)")
        return ScriptedPolicy(tuple(script))
    raise BadInput(f"unknown policy '{name}' (one of: random, greedy, scripted)")
