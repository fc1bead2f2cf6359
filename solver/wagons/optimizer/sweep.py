"""The greedy valuation compiled: every legal placement of one card on a town, valued by the final margin
against a pile, and the best (rule:W-place, rule:W-cover, rule:W-groups, the goal cards).

:func:`best_placement` gives exactly what :class:`solver.wagons.policies.GreedyPolicy` computes in Python (the
highest margin over :func:`~solver.wagons.town.legal_placements`, the first in their order among equals), with
the compiled walk's scorer (:mod:`.board`, checked against the Python scorers): the candidates are visited row
by row (y, then x, then the turn), the order ``legal_placements`` lists them in, and only a strictly higher
value replaces the best. The policies use it for speed only, so a game played with it is move for move the
game played without it (``tests/wagons/advice/test_sweep.py``).

It answers None (the caller then computes in Python) for an empty town, for goal cards outside what the
compiled scorer handles (:func:`~.board.goal_tables`), and while the kernel is still compiling
(:data:`SWEEP`: compiled once per process in the background, loaded from numba's cache after the first run).
"""

from __future__ import annotations

from functools import cache

import numpy as np

from solver.wagons.cards import card_codes
from solver.wagons.data import WagonsData, load_data
from solver.wagons.optimizer.walk.board import _legal_at, _put, _take, card_arrays, goal_tables
from solver.wagons.optimizer.walk.compiled import Warming, njit
from solver.wagons.optimizer.walk.scorer import score_town
from solver.wagons.readings import WagonsReadings
from solver.wagons.scoring import opponent_fixed
from solver.wagons.town import Placement, Town

__all__ = ["best_placement", "SWEEP", "MARGIN"]

MARGIN = 4
"""Empty cells around the town's cells on the board: a candidate card lies at most 2 cells out, and its
neighbours one further, so every look-up stays on the board."""

_CELLS: dict[Town, tuple] = {}
"""The board cells of the towns swept lately (:func:`_town_cells`)."""
_TABLES: dict[tuple, tuple] = {}
"""Goal tables and the opponent's fixed points per (scenario, pile, rules, id of the data)."""


@njit(cache=True)
def _sweep(cells, B, card, nrot, kind, scal, tab, tab_len, opp, can_lose):
    """(best player total - opponent's comparing points, its x, y, turn, candidates) of placing ``card`` on the
    town whose cells (x, y, terrain, icon; later ones on top) are ``cells``, on a B x B board."""
    NB = B * B
    ter = np.full(NB, -1, np.int8)
    ico = np.full(NB, -1, np.int8)
    occ = np.zeros(NB, np.int64)
    nocc = 0
    x0, x1, y0, y1 = B, 0, B, 0
    for j in range(cells.shape[0]):
        x, y = cells[j, 0], cells[j, 1]
        c = y * B + x
        if ter[c] < 0:
            occ[nocc] = c
            nocc += 1
        ter[c] = cells[j, 2]
        ico[c] = cells[j, 3]
        x0, x1, y0, y1 = min(x0, x), max(x1, x), min(y0, y), max(y1, y)
    stamp = np.zeros(NB, np.int64)
    mark = np.zeros(NB, np.int64)
    ctr = np.zeros(1, np.int64)
    queue = np.zeros(NB, np.int64)
    saved_t = np.zeros((1, 4), np.int8)
    saved_i = np.zeros((1, 4), np.int8)
    added = np.zeros(1, np.int64)
    best, bx, by, br, count = np.int64(-(1 << 62)), -1, -1, -1, 0
    for y in range(y0 - 2, y1 + 2):
        for x in range(x0 - 2, x1 + 2):
            code = (y * B + x) * 2
            if not _legal_at(ter, B, code):
                continue
            for r in range(nrot):
                n2 = _put(0, code + r, card, ter, ico, occ, nocc, B, saved_t, saved_i, added)
                p, o = score_town(ter, ico, occ, n2, B, stamp, mark, ctr, queue, kind, scal, tab, tab_len, opp, can_lose)
                _take(0, code + r, card, ter, ico, n2, B, saved_t, saved_i, added)
                count += 1
                if p - o > best:
                    best, bx, by, br = p - o, x, y, r
    return best, bx, by, br, count


@cache
def _codes() -> tuple:
    return card_codes()


@cache
def _card(card: int) -> tuple[np.ndarray, int]:
    """The card's arrays for the kernel (:func:`~.board.card_arrays`) and its number of distinct turns."""
    cc, nrot = card_arrays((card,))
    return cc, int(nrot[0])


def _town_cells(town: Town) -> tuple[np.ndarray, int, int, int]:
    """(cells shifted onto the board, B, x shift, y shift) of ``town``'s placements, in order (remembered: a
    draft values every circle card on the same town)."""
    hit = _CELLS.get(town)
    if hit is None:
        if len(_CELLS) > 20_000:
            _CELLS.clear()
        hit = _CELLS[town] = _cells_of(town)
    return hit


def _cells_of(town: Town) -> tuple[np.ndarray, int, int, int]:
    codes = _codes()
    rows = [(p.x + dx, p.y + dy, t, i) for p in town.placements for dx, dy, t, i in codes[p.card][p.rot != 0]]
    xs = [r[0] for r in rows]
    ys = [r[1] for r in rows]
    sx, sy = MARGIN - min(xs), MARGIN - min(ys)
    B = max(max(xs) - min(xs), max(ys) - min(ys)) + 1 + 2 * MARGIN
    cells = np.array([(x + sx, y + sy, t, i) for x, y, t, i in rows], np.int64)
    return cells, B, sx, sy


def _tables(scenario: str, pile: tuple[int, ...], readings: WagonsReadings, data: WagonsData | None):
    key = (scenario, pile, readings, id(data))
    hit = _TABLES.get(key)
    if hit is None:
        if len(_TABLES) > 20_000:
            _TABLES.clear()
        d = (data or load_data()).for_readings(readings)  # rule:W11
        tables = goal_tables(scenario, pile, d)
        hit = _TABLES[key] = (tables, None if tables is None else opponent_fixed(pile, scenario, readings, d))
    return hit


def best_placement(town: Town, card: int, pile: tuple[int, ...], scenario: str, readings: WagonsReadings,
                   data: WagonsData | None) -> tuple[int, Placement] | None:
    """(highest final margin against ``pile``, the first placement reaching it) of ``card`` on ``town`` (module
    docstring); None when the compiled path cannot answer (then the caller computes it in Python)."""
    if not town.placements or not SWEEP.ready_by(0.0):
        return None
    tables, fixed = _tables(scenario, tuple(pile), readings, data)
    if tables is None:
        return None
    cells, B, sx, sy = _town_cells(town)
    cc, nrot = _card(card)
    best, x, y, r, count = _sweep(cells, B, cc, nrot, *tables)
    if count == 0:
        return None
    return int(best) - fixed, Placement(card, int(x) - sx, int(y) - sy, 180 if r else 0)


def _warm() -> None:
    """The kernel compiled (or loaded from the cache) on a 2-card town, as :func:`best_placement` calls it."""
    cells = np.array([(MARGIN, MARGIN, 0, 0), (MARGIN + 1, MARGIN, 1, 1)], np.int64)
    cc, nrot = card_arrays((1,))
    _sweep(cells, 2 + 2 * MARGIN, cc, int(nrot[0]), *goal_tables("boomtown", (3, 4), load_data()))


SWEEP = Warming("sweep", _warm)
"""The kernel's compilation: :func:`best_placement` answers None until it is ready (``SWEEP.start()`` begins it)."""
