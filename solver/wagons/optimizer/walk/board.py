"""The compiled walk: every legal placement sequence of an ordered list of cards, depth first, scored by the
walk's own scorer (:mod:`.scorer`; rule:W-place, rule:W-cover), compiled with numba.

The exhaustive oracle (:mod:`solver.wagons.optimizer.oracle`) frees every card; the local search (:mod:`.local`)
keeps some cards where they are and re-places the others; the branch and bound (:mod:`~solver.wagons.optimizer.bnb`)
bounds each node. A town lies on a B x B board of cell codes (:func:`board_size`): a card at board position
(x, y), turned or not, is the code ``(y * B + x) * 2 + turned``.

Exactness of the walk: the legal moves are those of rule:W-place: the first card at (O, O)
unturned (translating or half-turning a whole town changes no score), every later card at each
position where one of its 4 cells is occupied or shares an edge with an occupied cell, turned 0
or 180 degrees (rule:W-rotation), a card whose turned face looks the same once (exactly as
:func:`solver.wagons.town.legal_placements`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from solver.wagons.cards import card_codes
from solver.wagons.data import load_data
from solver.wagons.optimizer.walk.compiled import Warming, njit  # numba's, with a cache that never fails
from solver.wagons.optimizer.walk.scorer import goal_tables, score_town

__all__ = ["card_arrays", "board_size", "walk", "WALK"]


def card_arrays(ids: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
    """``cc[k, r, cell] = (dx, dy, terrain, icon)`` of the k-th card turned 0 (r=0) or 180 degrees,
    and ``nrot[k]`` = 1 when the turned face looks the same (listed once, as ``legal_placements``)."""
    codes = card_codes()
    cc = np.zeros((len(ids), 2, 4, 4), np.int64)
    nrot = np.zeros(len(ids), np.int64)
    for k, cid in enumerate(ids):
        for r in range(2):
            cc[k, r] = codes[cid][r]
        same = sorted(codes[cid][0]) == sorted(codes[cid][1])
        nrot[k] = 1 if same else 2
    return cc, nrot


def board_size(n: int) -> tuple[int, int]:
    """(B, O): a B x B board with the first card's top-left cell at (O, O). After k cards every
    occupied cell lies within 2(k - 1) cells of the first card, and candidate positions one card
    further, so a 2-cell margin keeps every neighbour look-up on the board and off the wrap-around."""
    return 4 * n + 6, 2 * n + 2


@njit(cache=True)
def _put(d, code, ids_cc, ter, ico, occ, nocc, B, saved_t, saved_i, added):
    """Place the d-th card at ``code`` = (y * B + x) * 2 + turned; returns the new cell count."""
    pos = code >> 1
    r = code & 1
    x = pos % B
    y = pos // B
    added[d] = 0
    for k in range(4):
        c = (y + ids_cc[d, r, k, 1]) * B + x + ids_cc[d, r, k, 0]
        saved_t[d, k] = ter[c]
        saved_i[d, k] = ico[c]
        if ter[c] < 0:
            occ[nocc] = c
            nocc += 1
            added[d] += 1
        ter[c] = ids_cc[d, r, k, 2]
        ico[c] = ids_cc[d, r, k, 3]
    return nocc


@njit(cache=True)
def _take(d, code, ids_cc, ter, ico, nocc, B, saved_t, saved_i, added):
    """Undo :func:`_put`; returns the cell count before it."""
    pos = code >> 1
    r = code & 1
    x = pos % B
    y = pos // B
    for k in range(3, -1, -1):
        c = (y + ids_cc[d, r, k, 1]) * B + x + ids_cc[d, r, k, 0]
        ter[c] = saved_t[d, k]
        ico[c] = saved_i[d, k]
    return nocc - added[d]


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
def _board_arrays(n, NB):
    """The empty board (terrain and icon codes, -1 = no territory), the occupied-cell list, the flood
    fill's visit marks, counter and queue, and what each card covered (:func:`_put`)."""
    return (np.full(NB, -1, np.int8), np.full(NB, -1, np.int8), np.zeros(4 * n, np.int64), np.zeros(NB, np.int64),
            np.zeros(NB, np.int64), np.zeros(1, np.int64), np.zeros(4 * n + 4, np.int64),
            np.zeros((n, 4), np.int8), np.zeros((n, 4), np.int8), np.zeros(n, np.int64))


@njit(cache=True)
def _candidates(d, free, codes, nrot, ter, B, box, cand) -> int:
    """List in ``cand[d]`` the d-th card's legal board codes on the town of cards 0..d-1 (rule:W-place):
    every position and turn when ``free[d]``, else its kept code when that is legal; returns how many."""
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
    return m


@njit(cache=True)
def walk(cc, nrot, B, O, codes, free, pick, margin, kind, scal, tab, tab_len, opp, can_lose):
    """Every legal placement sequence of the cards (first one at (O, O) unturned), depth first.

    A card ``d`` with ``free[d]`` takes each of its legal placements; any other card keeps board code
    ``codes[d]`` if that is legal in its turn, else the branch ends (the oracle frees every card; the
    local search of :mod:`.local` keeps some). ``pick`` >= 0: only the pick-th placement of the
    second card (the caller loops over them, to check its time limit between parts). Returns (best
    value, towns scored, best codes, number of the second card's placements)."""
    n = cc.shape[0]
    NB = B * B
    ter, ico, occ, stamp, mark, ctr, queue, saved_t, saved_i, added = _board_arrays(n, NB)
    cand = np.zeros((n, 2 * NB), np.int64)
    ncand = np.zeros(n, np.int64)
    ptr = np.zeros(n, np.int64)
    placed = np.zeros(n, np.bool_)
    box = np.zeros((n + 1, 4), np.int64)  # min x, max x, min y, max y of occupied cells after d cards
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
        p, o = score_town(ter, ico, occ, nocc, B, stamp, mark, ctr, queue, kind, scal, tab, tab_len, opp, can_lose)
        best_codes[0] = first
        return (p - o if margin else p), 1, best_codes, 0
    n_second = 0
    d = 1
    fresh = True
    while True:
        if fresh:  # list the d-th card's legal positions on the town of cards 0..d-1 (rule:W-place)
            fresh = False
            m = _candidates(d, free, codes, nrot, ter, B, box, cand)
            if d == 1:
                n_second = m
                if pick >= 0:
                    if pick < m:
                        cand[1, 0] = cand[1, pick]
                        m = 1
                    else:
                        m = 0
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
            p, o = score_town(ter, ico, occ, nocc, B, stamp, mark, ctr, queue, kind, scal, tab, tab_len, opp, can_lose)
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
    return best, towns, best_codes, n_second


def _warm_walk() -> None:
    """The walk compiled (or loaded from the cache) on a 3-card town, called as the local search and the oracle call it."""
    tables = goal_tables("boomtown", (3, 4), load_data())
    cc, nrot = card_arrays((0, 1, 2))
    B, O = board_size(3)
    walk(cc, nrot, B, O, np.zeros(3, np.int64), np.ones(3, np.bool_), 0, True, *tables)


WALK = Warming("walk", _warm_walk)
"""The walk's compilation: a search calls :func:`walk` only once ``WALK.ready_by(its deadline)`` (compiled.py)."""
