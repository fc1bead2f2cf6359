"""Local search for a good town: re-place a few cards at once, exhaustively (rule:W-opt-layout).

The CP-SAT prover (:mod:`solver.wagons.optimize_cpsat`) proves a town optimal by showing that nothing
beats it, so it needs a good town first. This search starts from a town (the greedy one) and
repeatedly takes a *window* of one, two or three cards (never the first one: moving it is the same as
moving all the others), tries every legal placement of those cards in their turn while every other
card keeps its position and turn, and keeps the best town. It stops at a town no window improves
(or at the deadline).

It reuses the compiled exhaustive oracle's board, moves and scorer
(:mod:`solver.wagons.optimize_exhaustive`): the legal moves are those of rule:W-place (a card
covers or shares an edge with an occupied cell), a kept card is re-checked when its turn comes, and
scoring is the oracle's compiled scorer: a window is the oracle's own walk with the other cards kept
(so with every card but the first free it is the whole walk; ``tests/test_wagons_local.py`` also
checks it against the engine-based oracle). Every town it returns is replayed through
the engine and re-scored by the caller.
"""

from __future__ import annotations

import itertools
import time
from typing import Sequence

import numpy as np

from solver.wagons.data import WagonsData
from solver.wagons.optimize_exhaustive import _board, _codes, _walk, goal_tables

__all__ = ["improve", "window_best", "windows"]


def _to_codes(xyr: Sequence[tuple[int, int, int]], B: int, O: int) -> np.ndarray:
    """Board codes of a town given with its first card at (0, 0) unturned."""
    return np.array([((y + O) * B + x + O) * 2 + (1 if r else 0) for x, y, r in xyr], np.int64)


def _to_xyr(codes: np.ndarray, B: int, O: int) -> list[tuple[int, int, int]]:
    return [(int(c >> 1) % B - O, int(c >> 1) // B - O, 180 if c & 1 else 0) for c in codes]


def windows(n: int) -> list[tuple[int, ...]]:
    """The windows tried in each pass: every single card, every pair, and every run of three cards in
    a row (never the first card)."""
    cards = range(1, n)
    out: list[tuple[int, ...]] = [(d,) for d in cards]
    out += list(itertools.combinations(cards, 2))
    out += [(d, d + 1, d + 2) for d in range(1, n - 2)]
    return out


class _Walker:
    """The compiled walk's arrays for one list of cards in one scenario."""

    def __init__(self, ids: Sequence[int], tables, objective: str):
        self.n = len(ids)
        self.cc, self.nrot = _codes(ids)
        self.B, self.O = _board(self.n)
        self.margin = objective == "margin"
        self.tables = tables

    def best(self, codes: np.ndarray, free: Sequence[int]) -> tuple[int, np.ndarray]:
        """(value, codes) of the best town with the cards ``free`` re-placed and the others kept."""
        mask = np.zeros(self.n, np.bool_)
        mask[list(free)] = True
        v, _, found, _ = _walk(self.cc, self.nrot, self.B, self.O, codes, mask, -1, self.margin, *self.tables)
        return int(v), found


def _walker(ids: Sequence[int], scenario_id: str, pile: tuple[int, ...], objective: str, data: WagonsData):
    tables = goal_tables(scenario_id, tuple(pile), data)
    return None if tables is None else _Walker(ids, tables, objective)


def window_best(ids: Sequence[int], scenario_id: str, pile: tuple[int, ...], xyr, free: Sequence[int],
                objective: str, data: WagonsData) -> tuple[int, list[tuple[int, int, int]]] | None:
    """(value, town) of the best re-placement of the cards ``free`` in the town ``xyr`` (first card at
    (0, 0) unturned), by the compiled scorer; None when that scorer does not handle the scenario's cards
    (margin: without the opponent's fixed part)."""
    w = _walker(ids, scenario_id, pile, objective, data)
    if w is None:
        return None
    v, codes = w.best(_to_codes(xyr, w.B, w.O), free)
    return v, _to_xyr(codes, w.B, w.O)


def improve(ids: Sequence[int], scenario_id: str, pile: tuple[int, ...], xyr, objective: str,
            data: WagonsData, deadline: float, on_better=None) -> tuple[int, list[tuple[int, int, int]]] | None:
    """Local search from the legal town ``xyr`` (first card at (0, 0) unturned) over :func:`windows`
    until no window improves it or ``deadline``: (compiled value, town), or None when the compiled
    scorer does not handle the scenario's cards. ``on_better(value, xyr)`` hears each improvement."""
    w = _walker(ids, scenario_id, pile, objective, data)
    if w is None:
        return None
    best, codes = w.best(_to_codes(xyr, w.B, w.O), ())
    better = True
    while better:
        better = False
        for free in windows(w.n):
            if time.monotonic() > deadline:
                return best, _to_xyr(codes, w.B, w.O)
            v, found = w.best(codes, free)
            if v > best:
                best, codes, better = v, found, True
                if on_better is not None:
                    on_better(best, _to_xyr(codes, w.B, w.O))
    return best, _to_xyr(codes, w.B, w.O)
