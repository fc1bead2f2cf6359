"""Local search for a good town: re-place a few cards at once, exhaustively (rule:W-opt-layout).

The CP-SAT prover (:mod:`solver.wagons.optimizer.cpsat`) proves a town optimal by showing that nothing
beats it, so it needs a good town first. This search starts from a town (the greedy one) and
repeatedly takes a *window* of one, two or three cards (never the first one: moving it is the same as
moving all the others), tries every legal placement of those cards in their turn while every other
card keeps its position and turn, and keeps the best town. It stops at a town no window improves
(or at the deadline).

It reuses the compiled walk's board, moves and scorer
(:mod:`.board`, the exhaustive oracle's): the legal moves are those of rule:W-place (a card
covers or shares an edge with an occupied cell), a kept card is re-checked when its turn comes, and
scoring is the oracle's compiled scorer: a window is the oracle's own walk with the other cards kept
(so with every card but the first free it is the whole walk; ``tests/wagons/optimizer/test_local.py`` also
checks it against the engine-based oracle). Every town it returns is replayed through
the engine and re-scored by the caller.

With ``patience`` it goes on as an *iterated* local search: a *kick* moves a few random cards (never
the first) next to a random earlier card, in a random turn; the kicked town descends by the windows
of one card and, when it is then at least as good as the best, by those of two cards (ten times
cheaper per kick than always using pairs, and on 12 seeded 8-card towns it reached the best known
town as often and sooner); it is kept when it is at least as good (so the search also walks across
towns of equal value). It stops after ``patience`` kicks in a row found nothing better, or at
the deadline. The best town is often in another basin than the one the greedy town descends to (on
the 20 seeded 8-card towns, most cards sit elsewhere), and a kick reaches it: see
``docs/history/wagons-optimizer-2026.md`` for the figures. The kicks come from a seeded generator, so the search
is deterministic when it stops by its patience.
"""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Sequence

import numpy as np

from solver.stopping import capped
from solver.wagons.data import WagonsData
from solver.wagons.optimizer.problem import Incumbent, Problem
from solver.wagons.optimizer.walk.board import WALK, board_size, card_arrays, walk
from solver.wagons.optimizer.walk.scorer import goal_tables

__all__ = ["improve", "polish", "windows", "KICK_CARDS", "PATIENCE"]

KICK_CARDS = 3
"""Cards a kick moves (at most all but the first). On 13 seeded 8-card towns, kicks of three cards
reached the best known town on 12 of them within 30 s, kicks of two on 11 (docs/history/wagons-optimizer-2026.md)."""
PATIENCE = 150
"""Kicks in a row that find nothing better before the iterated search stops (the default for the
prover's first town: about 2 s on an 8-card town)."""
_TRIES = 50  # random kicks tried before one gives a legal town (it counts as one kick either way)
_NEAR = tuple((dx, dy) for dx in range(-2, 3) for dy in range(-2, 3) if not (abs(dx) == 2 and abs(dy) == 2))
"""Offsets of a kicked card from an earlier card: within two cells, not corner to corner (rule:W-place)."""


def _to_codes(xyr: Sequence[tuple[int, int, int]], B: int, O: int) -> np.ndarray:
    """Board codes of a town given with its first card at (0, 0) unturned."""
    return np.array([((y + O) * B + x + O) * 2 + (1 if r else 0) for x, y, r in xyr], np.int64)


def _to_xyr(codes: np.ndarray, B: int, O: int) -> list[tuple[int, int, int]]:
    return [(int(c >> 1) % B - O, int(c >> 1) // B - O, 180 if c & 1 else 0) for c in codes]


def windows(n: int, runs_of_three: bool = True) -> list[tuple[int, ...]]:
    """The windows tried in each pass: every single card, every pair, and (``runs_of_three``) every
    run of three cards in a row (never the first card)."""
    cards = range(1, n)
    out: list[tuple[int, ...]] = [(d,) for d in cards]
    out += list(itertools.combinations(cards, 2))
    if runs_of_three:
        out += [(d, d + 1, d + 2) for d in range(1, n - 2)]
    return out


class _Walker:
    """The compiled walk's arrays for one list of cards in one scenario."""

    def __init__(self, ids: Sequence[int], tables, objective: str):
        self.n = len(ids)
        self.cc, self.nrot = card_arrays(ids)
        self.B, self.O = board_size(self.n)
        self.margin = objective == "margin"
        self.tables = tables

    def _walked(self, codes: np.ndarray, free: Sequence[int]) -> tuple[int, int, np.ndarray]:
        mask = np.zeros(self.n, np.bool_)
        mask[list(free)] = True
        v, towns, found, _ = walk(self.cc, self.nrot, self.B, self.O, codes, mask, -1, self.margin, *self.tables)
        return int(v), towns, found

    def best(self, codes: np.ndarray, free: Sequence[int]) -> tuple[int, np.ndarray]:
        """(value, codes) of the best town with the cards ``free`` re-placed and the others kept (the town
        ``codes`` is legal, so it is one of the candidates)."""
        v, _, found = self._walked(codes, free)
        return v, found

    def value_of(self, codes: np.ndarray) -> int | None:
        """The value of the town ``codes`` itself, or None when some card does not touch the town in its
        turn (rule:W-place): the walk with every card kept scores one town or none."""
        v, towns, _ = self._walked(codes, ())
        return v if towns else None


def _walker(ids: Sequence[int], scenario_id: str, pile: tuple[int, ...], objective: str, data: WagonsData):
    tables = goal_tables(scenario_id, tuple(pile), data)
    return None if tables is None else _Walker(ids, tables, objective)


def _kick(w: _Walker, codes: np.ndarray, rng: random.Random) -> tuple[int, np.ndarray] | None:
    """(value, codes) of the town with :data:`KICK_CARDS` random cards (never the first) moved within
    two cells of a random earlier card (not corner to corner, rule:W-place) in a random turn; None when
    :data:`_TRIES` tries give no legal town (a kept card left touching nothing)."""
    for _ in range(_TRIES):
        trial = codes.copy()
        for d in rng.sample(range(1, w.n), min(KICK_CARDS, w.n - 1)):
            pos = trial[rng.randrange(d)] >> 1
            dx, dy = rng.choice(_NEAR)
            turn = rng.randrange(2) if w.nrot[d] == 2 else 0
            trial[d] = ((pos // w.B + dy) * w.B + pos % w.B + dx) * 2 + turn
        value = w.value_of(trial)
        if value is not None:
            return value, trial
    return None


def _descend(w: _Walker, value: int, codes: np.ndarray, wins, deadline: float, on_better=None):
    """Re-place each window's cards at their best until no window improves the town (or ``deadline``)."""
    better = True
    while better:
        better = False
        for free in wins:
            if time.monotonic() > capped(deadline):
                return value, codes
            v, found = w.best(codes, free)
            if v > value:
                value, codes, better = v, found, True
                if on_better is not None:
                    on_better(value, _to_xyr(codes, w.B, w.O))
    return value, codes


def improve(ids: Sequence[int], scenario_id: str, pile: tuple[int, ...], xyr, objective: str,
            data: WagonsData, deadline: float, on_better=None, patience: int = 0,
            seed: int = 0) -> tuple[int, list[tuple[int, int, int]]] | None:
    """Local search from the legal town ``xyr`` (first card at (0, 0) unturned) until no window
    improves it or ``deadline``: (compiled value, town), or None when the compiled scorer does not
    handle the scenario's cards or the walk is not compiled by ``deadline`` (compiled.py: compiling counts
    in the time limit). ``on_better(value, xyr)`` hears each improvement.

    ``patience == 0``: the windows of :func:`windows` to a local optimum. ``patience > 0``: the
    iterated search (module docstring): windows of one and two cards, then kicks (seeded by ``seed``)
    until ``patience`` kicks in a row find nothing better."""
    w = _walker(ids, scenario_id, pile, objective, data)
    if w is None or not WALK.ready_by(deadline):
        return None
    start = _to_codes(xyr, w.B, w.O)
    best, codes = _descend(w, w.value_of(start), start, windows(w.n, runs_of_three=not patience), deadline, on_better)
    rng = random.Random(seed)
    small = windows(w.n, runs_of_three=False)
    singles = [free for free in small if len(free) == 1]
    idle = 0
    while w.n > 1 and idle < patience and time.monotonic() <= capped(deadline):
        idle += 1
        kicked = _kick(w, codes, rng)
        if kicked is None:
            continue
        value, found = _descend(w, *kicked, singles, deadline)
        if value >= best:  # only a promising town pays for the windows of two cards
            value, found = _descend(w, value, found, small, deadline)
        if value > best:
            idle = 0
            if on_better is not None:
                on_better(value, _to_xyr(found, w.B, w.O))
        if value >= best:
            best, codes = value, found
    return best, _to_xyr(codes, w.B, w.O)


def polish(problem: Problem, incumbent: Incumbent, xyr, share: float):
    """The local search from the town ``xyr`` for ``share`` of the time left before ``problem``'s deadline
    (it usually stops sooner, after :data:`PATIENCE` kicks without a better town); the town it ends at is
    re-scored by the engine and offered to ``incumbent``. Returns (town, value) or None; None with
    Boomtown's round-1 condition (the local search does not know it)."""
    if problem.round1 is not None:
        return None
    now = time.monotonic()
    got = improve(problem.cards, problem.scenario_id, problem.pile, xyr, problem.objective, problem.data,
                  now + share * max(0.0, problem.deadline - now), patience=PATIENCE)
    if got is None:
        return None
    value, town_xyr = got[0] - problem.opponent_fixed, tuple(got[1])
    incumbent.offer_xyr(town_xyr, value)
    return town_xyr, value
