"""Player policies for whole games: random, greedy, lookahead and scripted (replays a recorded game).

A policy is a small frozen object with ``choose(state, actions, rng) -> action``; it never sees
the future deal (the greedy and lookahead policies read the circle, the preference deck's top card
in round 1, which shows (rule:W-reveal), the town and the opponent's pile; never the cards below the
deck's top). Policies are picklable so batches can run in other processes.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from solver.errors import BadInput
from solver.wagons.game import Draft, GameState, Place, action_from_dict, draft_mismatch
from solver.wagons.opponent import add_to_pile, round1_decision, round2_decision
from solver.wagons.scoring import features_plus, frame_features, growth_frame, margin_scorer
from solver.wagons.town import Town, legal_placements

__all__ = ["RandomPolicy", "GreedyPolicy", "LookaheadPolicy", "ScriptedPolicy", "policy_by_name", "place_value",
           "POLICIES"]


@dataclass(frozen=True)
class RandomPolicy:
    """Uniformly random among the legal actions."""
    name: str = "random"

    def choose(self, state: GameState, actions, rng: random.Random):
        return actions[rng.randrange(len(actions))]


_LAST_DRAFTS: dict[tuple, tuple] = {}
"""GreedyPolicy's last draft valuation: (town, card, pile, scenario, rules, id of the game's data) -> (best margin, placement)
for every card it considered, so placing the card it drafted does not score it again."""


@dataclass(frozen=True)
class GreedyPolicy:
    """Maximises the immediate gain in score margin (player total - opponent total).

    A placement is valued by the margin right after it; a draft of circle card k by the margin
    after placing that card at its best position with the k skipped cards on the opponent's pile.
    ``max_skip`` bounds the drafts considered (None = all). Ties: the first in the listed order.
    ``compiled``: the valuation by the compiled sweep (:mod:`solver.wagons.optimizer.sweep`) once it is
    ready, the same placements and values, faster.
    """
    name: str = "greedy"
    max_skip: int | None = None
    compiled: bool = False

    def _best_place(self, state: GameState, town: Town, card: int, pile, grid=None) -> tuple[int, object]:
        """(best margin, its placement) for ``card``; ``grid`` = (frame, features) of ``town`` if known."""
        return place_value(state, town, card, pile, grid, self.compiled)

    def choose(self, state: GameState, actions, rng: random.Random):
        if isinstance(actions[0], Place):
            card = state.hand[0]
            hit = _LAST_DRAFTS.get((state.town, card, state.pile, state.scenario, state.readings, id(state.data)))
            _, p = hit or self._best_place(state, state.town, card, state.pile)
            return Place(p)
        if isinstance(actions[0], Draft):
            grid = _Grid(state.town)  # the same town for every draft considered
            best, best_a, seen = None, None, {}
            for a in actions:
                if self.max_skip is not None and a.index > self.max_skip:
                    break
                pile = state.pile + state.circle[:a.index]
                card = state.circle[a.index]
                v, _ = seen[(state.town, card, pile, state.scenario, state.readings, id(state.data))] = \
                    self._best_place(state, state.town, card, pile, grid)
                if best is None or v > best:
                    best, best_a = v, a
            _LAST_DRAFTS.clear()
            _LAST_DRAFTS.update(seen)
            return best_a
        return actions[0]


def place_value(state: GameState, town: Town, card: int, pile, grid=None, compiled: bool = False
                ) -> tuple[int, object]:
    """(highest margin against ``pile`` after placing ``card`` on ``town``, the first placement reaching it in
    :func:`legal_placements`' order): the greedy valuation. ``grid``: a :class:`_Grid` of ``town`` (or its
    (frame, features)); ``compiled``: by the compiled sweep when it can answer (the same result)."""
    if compiled:
        from solver.wagons.optimizer.sweep import best_placement

        hit = best_placement(town, card, tuple(pile), state.scenario, state.readings, state.data)
        if hit is not None:
            return hit
    frame, base = grid.get() if isinstance(grid, _Grid) else grid or _grid(town)
    margin = margin_scorer(pile, state.scenario, state.readings, state.data, near=base)
    best, best_p = None, None
    for p in legal_placements(town, card):
        v = margin(features_plus(base, frame, p))
        if best is None or v > best:
            best, best_p = v, p
    return best, best_p


class _Grid:
    """A town's (frame, features), worked out at the first use (the compiled sweep needs neither)."""

    def __init__(self, town: Town) -> None:
        self.town, self._value = town, None

    def get(self):
        if self._value is None:
            self._value = _grid(self.town)
        return self._value


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


_PLACES: dict[tuple, tuple] = {}
"""LookaheadPolicy's valuations: (town, card, pile, scenario, rules, id of the game's data) -> (best margin, placement);
a game asks the same ones again (its next turn is the turn it looked at), and so do the rollouts of the advice."""


def _best_place(state: GameState, town: Town, card: int, pile, grid=None, compiled: bool = False
                ) -> tuple[int, object]:
    """GreedyPolicy's valuation of placing ``card`` on ``town`` against ``pile`` (:func:`place_value`), remembered
    in :data:`_PLACES`."""
    key = (town, card, pile, state.scenario, state.readings, id(state.data))
    hit = _PLACES.get(key)
    if hit is None:
        if len(_PLACES) > 200_000:
            _PLACES.clear()
        hit = _PLACES[key] = place_value(state, town, card, pile, grid, compiled)
    return hit


@dataclass(frozen=True)
class LookaheadPolicy:
    """Drafts one turn ahead; places greedily.

    The ``top`` drafts the greedy policy values most (margin after placing the card at its best spot,
    ties: the first) are looked at further: the card placed at that spot, then the opponent's reply by its
    rules (rule:W1 with the preference deck's top card, which shows; rule:W5 / rule:W4 in round 2), the
    cards it skips handed to the player and placed greedily (rule:W-player-draft), then the player's best
    next draft by the greedy valuation. The draft whose look-ahead margin is highest is taken (ties: the
    greedier). Where the round ends before the player's next draft (the round-2 circle is not seen yet,
    or the game ends), the margin then is the value. Placements: as :class:`GreedyPolicy`. ``compiled``: the
    greedy valuation by the compiled sweep once it is ready (the same decisions, faster).
    """
    name: str = "lookahead"
    top: int = 3
    compiled: bool = False

    def choose(self, state: GameState, actions, rng: random.Random):
        if not isinstance(actions[0], Draft):
            if isinstance(actions[0], Place):
                return Place(_best_place(state, state.town, state.hand[0], state.pile, None, self.compiled)[1])
            return actions[0]
        grid = _Grid(state.town)
        valued = []
        for a in actions:
            v, p = _best_place(state, state.town, state.circle[a.index], state.pile + state.circle[:a.index], grid,
                               self.compiled)
            valued.append((v, a.index, p))
        valued.sort(key=lambda t: (-t[0], t[1]))
        best = max(valued[:self.top], key=lambda t: (self.ahead(state, t[1], t[2]), t[0], -t[1]))
        return Draft(best[1])

    def ahead(self, state: GameState, k: int, p) -> int:
        """The margin once circle card ``k`` is drafted and placed at ``p``, the opponent has replied and the
        player has placed what it skipped and made the greedy policy's best next draft (class docstring)."""
        town = Town(state.town.placements + (p,))
        circle, pile = state.circle[k + 1:], state.pile + state.circle[:k]
        if circle:
            if state.round == 1:  # rule:W1: the deck's top card shows (rule:W-reveal)
                d = round1_decision(circle, state.deck[0] if state.deck else None, state.readings)
            else:
                d = round2_decision(circle, pile, state.scenario, state.readings, state.after_round_1, state.data)
            pile, circle = add_to_pile(pile, d, state.readings), circle[len(d.skipped) + 1:]
            for c in d.skipped:  # rule:W-player-draft: placed before the next draft
                town = Town(town.placements + (_best_place(state, town, c, pile, None, self.compiled)[1],))
        if not circle:
            return margin_scorer(pile, state.scenario, state.readings, state.data)(_grid(town)[1])
        grid = _Grid(town)
        return max(_best_place(state, town, c, pile + circle[:j], grid, self.compiled)[0]
                   for j, c in enumerate(circle))


POLICIES = ("random", "greedy", "lookahead")


def policy_by_name(name: str, script=None):
    """A policy from its name ("random", "greedy", "lookahead", "scripted" with ``script`` actions)."""
    if name == "random":
        return RandomPolicy()
    if name == "greedy":
        return GreedyPolicy()
    if name == "lookahead":
        return LookaheadPolicy()
    if name == "scripted":
        if script is None:
            raise BadInput("policy 'scripted' needs a recorded game (--script FILE)")
        return ScriptedPolicy(tuple(script))
    raise BadInput(f"unknown policy '{name}' (one of: random, greedy, lookahead, scripted)")
