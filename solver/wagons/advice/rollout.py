"""Playing a decision out to the end of the game (rule:W-advice): the continuation policy for the player's later
decisions, the opponent by its rules (rule:W1, rule:W4, rule:W5), and the unseen cards revealed in a given order
through the engine's own chance nodes (rule:W-reveal).

:class:`Rollouts` plays the state after each action on each deal order. Two orders that agree on the cards
revealed so far reach the same position (the policy and the opponent are deterministic), so the position at each
chance node is remembered per action and revealed prefix: the orders of one action share the play up to their
first difference. ``rollouts`` counts (action, order) pairs played out, ``decisions`` the continuation policy's
decisions actually computed (the effort).
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from dataclasses import dataclass

from solver.errors import BadInput
from solver.wagons.game import CHANCE, GameState, OpponentTurn, Place, Reveal, apply, legal_actions, scores
from solver.wagons.policies import GreedyPolicy, LookaheadPolicy

__all__ = ["Outcome", "Rollouts", "continuation", "CONTINUATIONS", "score_parts"]

CONTINUATIONS = ("lookahead", "greedy")
"""The continuation policies the advice can play the rest of the game with (deterministic ones only: the orders
of one action share their play, and a rerun gives the same figures). The first is the default (docs/wagons.md,
*What if?*: it wins more games than greedy, bench/wagons/bench_wagons_advice.py)."""

_MEMO_CAP = 400_000
"""Positions remembered at chance nodes before the memo starts over (memory)."""


def continuation(name: str, compiled: bool = True):
    """The continuation policy called ``name`` (:data:`CONTINUATIONS`); ``compiled``: valuing placements with the
    compiled sweep once it is ready (the same decisions as the policy of :mod:`solver.wagons.policies`, faster;
    its compilation starts now, in the background). BadInput for another name."""
    if compiled:
        from solver.wagons.optimizer.sweep import SWEEP

        SWEEP.start()
    if name == "greedy":
        return GreedyPolicy(compiled=compiled)
    if name == "lookahead":
        return LookaheadPolicy(compiled=compiled)
    raise BadInput(f"unknown continuation policy '{name}' (one of: {', '.join(CONTINUATIONS)})")


_PLACING = (Place(None),)
"""What the continuation policies are shown at a placement: its kind only (they value every legal placement
themselves, the compiled sweep without listing them; listing them is most of a play-out's time otherwise)."""


def _choices(s: GameState) -> tuple:
    """The legal actions as the continuation policies read them: the drafts, or a placement's kind."""
    return _PLACING if s.hand else legal_actions(s)


def score_parts(f) -> tuple[tuple[str, int], ...]:
    """The final margin of :class:`~solver.wagons.scoring.totals.FinalScores` ``f`` by part of the score (they sum
    to it): "territories" (the player's territory groups minus the opponent's common points, rule:W-common), then
    each goal card (the player's points minus the opponent's)."""
    goals = dict.fromkeys([*f.player.goals, *f.opponent.goals])
    return (("territories", sum(f.player.groups.values()) - f.opponent.common),
            *((g, f.player.goals.get(g, 0) - f.opponent.goals.get(g, 0)) for g in goals))


@dataclass(frozen=True)
class Outcome:
    """The end of one play-out: the final margin (player total - opponent total), the winner (rule:W8) and the
    margin by part of the score (:func:`score_parts`)."""

    margin: int
    winner: str
    parts: tuple[tuple[str, int], ...] = ()


class Rollouts:
    """Play-outs of positions on deal orders with one continuation policy (module docstring)."""

    def __init__(self, policy) -> None:
        self.policy = policy
        self.memo: dict[tuple, GameState | Outcome] = {}
        self.rollouts = 0
        self.decisions = 0
        self._rng = random.Random(0)  # the continuation policies are deterministic; the contract asks for one

    def advance(self, s: GameState) -> GameState | Outcome:
        """``s`` played on until a card must be revealed (the state) or the game is over (its outcome)."""
        while True:
            if s.to_move is None:
                f = scores(s)
                return Outcome(f.margin, f.winner, score_parts(f))
            if s.to_move == CHANCE:
                return s
            if s.to_move == "opponent":
                s = apply(s, OpponentTurn())
            else:
                self.decisions += 1
                s = apply(s, self.policy.choose(s, _choices(s), self._rng))

    def outcome(self, key: Hashable, start: GameState, order: tuple[int, ...]) -> Outcome:
        """The end of the game from ``start`` (the state after the action ``key``) when the unseen cards come in
        ``order``: the k-th card revealed is ``order[k]``."""
        self.rollouts += 1
        if len(self.memo) > _MEMO_CAP:
            self.memo.clear()
        node = self.memo.get((key, ()))
        if node is None:
            node = self.memo[(key, ())] = self.advance(start)
        depth = 0
        while not isinstance(node, Outcome):
            depth += 1
            prefix = order[:depth]
            hit = self.memo.get((key, prefix))
            if hit is None:
                hit = self.advance(apply(node, Reveal(order[depth - 1])))
                if depth < len(order):  # a whole order is played once per action: no need to keep its end
                    self.memo[(key, prefix)] = hit
            node = hit
        return node
