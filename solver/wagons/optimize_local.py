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
scoring is the oracle's compiled scorer. With every card but the first free, a window is the whole
oracle walk (``tests/test_wagons_local.py`` checks that). Every town it returns is replayed through
the engine and re-scored by the caller.
"""

from __future__ import annotations

import itertools
import time
from typing import Sequence

import numpy as np

from solver.wagons.data import WagonsData
from solver.wagons.optimize_exhaustive import _board, _codes, _put, _score, _take, goal_tables, njit

__all__ = ["improve", "window_best", "windows"]


@njit(cache=True)
def _legal_at(ter, B, code) -> bool:
    """A card at board ``code`` covers or shares an edge with an occupied cell (rule:W-place)."""
    pos = code >> 1
    x = pos % B
    y = pos // B
    for dy in range(2):
        for dx in range(2):
            c = (y + dy) * B + x + dx
            if ter[c] >= 0 or ter[c - 1] >= 0 or ter[c + 1] >= 0 or ter[c - B] >= 0 or ter[c + B] >= 0:
                return True
    return False


@njit(cache=True)
def _window(cc, nrot, B, O, codes, free, margin, kind, scal, tab, tab_len, opp, can_lose):
    """The best town whose cards ``d`` with ``free[d]`` take any legal placement and whose other cards
    keep ``codes[d]`` (if still legal in their turn); card 0 stays at (O, O) unturned.

    Returns (best value, its codes, towns scored); best value is very negative when no town is legal."""
    n = cc.shape[0]
    NB = B * B
    ter = np.full(NB, -1, np.int8)
    ico = np.full(NB, -1, np.int8)
    occ = np.zeros(4 * n, np.int64)
    stamp = np.zeros(NB, np.int64)
    mark = np.zeros(NB, np.int64)
    ctr = np.zeros(1, np.int64)
    queue = np.zeros(4 * n + 4, np.int64)
    cand = np.zeros((n, 2 * NB), np.int64)
    ncand = np.zeros(n, np.int64)
    ptr = np.zeros(n, np.int64)
    placed = np.zeros(n, np.bool_)
    saved_t = np.zeros((n, 4), np.int8)
    saved_i = np.zeros((n, 4), np.int8)
    added = np.zeros(n, np.int64)
    box = np.zeros((n + 1, 4), np.int64)
    chosen = np.zeros(n, np.int64)
    best_codes = codes.copy()
    best = np.int64(-(1 << 62))
    towns = 0
    first = (O * B + O) * 2
    nocc = _put(0, first, cc, ter, ico, occ, 0, B, saved_t, saved_i, added)
    chosen[0] = first
    box[1, 0] = O
    box[1, 1] = O + 1
    box[1, 2] = O
    box[1, 3] = O + 1
    if n == 1:
        p, o = _score(ter, ico, occ, nocc, B, stamp, mark, ctr, queue, kind, scal, tab, tab_len, opp, can_lose)
        best_codes[0] = first
        return (p - o if margin else p), best_codes, 1
    d = 1
    fresh = True
    while True:
        if fresh:
            fresh = False
            m = 0
            if free[d]:
                for y in range(box[d, 2] - 2, box[d, 3] + 2):
                    for x in range(box[d, 0] - 2, box[d, 1] + 2):
                        if _legal_at(ter, B, (y * B + x) * 2):
                            for r in range(nrot[d]):
                                cand[d, m] = (y * B + x) * 2 + r
                                m += 1
            elif _legal_at(ter, B, codes[d]):
                cand[d, 0] = codes[d]
                m = 1
            ncand[d] = m
            ptr[d] = 0
            placed[d] = False
        if placed[d]:
            nocc = _take(d, chosen[d], cc, ter, ico, nocc, B, saved_t, saved_i, added)
            placed[d] = False
        if ptr[d] == ncand[d]:
            if d == 1:
                break
            d -= 1
            continue
        code = cand[d, ptr[d]]
        ptr[d] += 1
        nocc = _put(d, code, cc, ter, ico, occ, nocc, B, saved_t, saved_i, added)
        placed[d] = True
        chosen[d] = code
        if d == n - 1:
            towns += 1
            p, o = _score(ter, ico, occ, nocc, B, stamp, mark, ctr, queue, kind, scal, tab, tab_len, opp, can_lose)
            v = p - o if margin else p
            if v > best:
                best = v
                for k in range(n):
                    best_codes[k] = chosen[k]
            continue
        x = (code >> 1) % B
        y = (code >> 1) // B
        box[d + 1, 0] = min(box[d, 0], x)
        box[d + 1, 1] = max(box[d, 1], x + 1)
        box[d + 1, 2] = min(box[d, 2], y)
        box[d + 1, 3] = max(box[d, 3], y + 1)
        d += 1
        fresh = True
    return best, best_codes, towns


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


def window_best(ids: Sequence[int], scenario_id: str, pile: tuple[int, ...], xyr, free: Sequence[int],
                objective: str, data: WagonsData) -> tuple[int, list[tuple[int, int, int]]] | None:
    """(value, town) of the best re-placement of the cards ``free`` in the town ``xyr`` (first card at
    (0, 0) unturned), by the compiled scorer; None when that scorer does not handle the scenario's cards
    (margin: without the opponent's fixed part)."""
    tables = goal_tables(scenario_id, tuple(pile), data)
    if tables is None:
        return None
    cc, nrot = _codes(ids)
    B, O = _board(len(ids))
    mask = np.zeros(len(ids), np.bool_)
    mask[list(free)] = True
    v, codes, _ = _window(cc, nrot, B, O, _to_codes(xyr, B, O), mask, objective == "margin", *tables)
    return int(v), _to_xyr(codes, B, O)


def improve(ids: Sequence[int], scenario_id: str, pile: tuple[int, ...], xyr, objective: str,
            data: WagonsData, deadline: float, on_better=None) -> tuple[int, list[tuple[int, int, int]]] | None:
    """Local search from the legal town ``xyr`` (first card at (0, 0) unturned) over :func:`windows`
    until no window improves it or ``deadline``: (compiled value, town), or None when the compiled
    scorer does not handle the scenario's cards. ``on_better(value, xyr)`` hears each improvement."""
    tables = goal_tables(scenario_id, tuple(pile), data)
    if tables is None:
        return None
    n = len(ids)
    cc, nrot = _codes(ids)
    B, O = _board(n)
    margin = objective == "margin"
    codes = _to_codes(xyr, B, O)
    best, codes, _ = _window(cc, nrot, B, O, codes, np.zeros(n, np.bool_), margin, *tables)
    better = True
    while better:
        better = False
        for free in windows(n):
            if time.monotonic() > deadline:
                return int(best), _to_xyr(codes, B, O)
            mask = np.zeros(n, np.bool_)
            mask[list(free)] = True
            v, found, _ = _window(cc, nrot, B, O, codes, mask, margin, *tables)
            if v > best:
                best, codes, better = v, found, True
                if on_better is not None:
                    on_better(int(best), _to_xyr(codes, B, O))
    return int(best), _to_xyr(codes, B, O)
