"""The compiled branch and bound (``method="bnb"``): the best layout proven by a depth-first search over
the placement sequences with an admissible bound at every node (rule:W-opt-layout).

The search is the compiled walk of :mod:`.board` (the cards in the order received, each later card on
top, rule:W-place, rule:W-cover; the first card at the origin unturned, since a half turn of the whole
town changes no score) with a bound (:func:`.kernel.node_bound`, admissibility argued in its
module docstring): at each node every child is put, bounded (the last card: scored exactly) and
taken back, the children whose bound beats the value to beat are visited best bound first, and a
node whose bound does not beat it is never entered. The value to beat starts at the incumbent's
(the greedy town, the floor for best play, polished by the local search of :mod:`.local` first)
and rises with every town found. When the search ends, no town beats the best one found (or, with
a floor, none beats the floor): that is the proof.

The kernel runs in slices of :data:`SLICE` bound evaluations (its state lives in arrays between
calls), so the time limit is checked every few tenths of a second; every town found is replayed
through the engine and re-scored by the ordinary scorer (:meth:`~.problem.Incumbent.offer_xyr`).
Boomtown's round-1 condition (after the first ``m`` cards the player's visible count against the
opponent's territories, rule:W5) prunes a node once the count after ``m`` cards can no longer meet
it (it lies between the count now and the count now + 4 per card still to come before ``m``).
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from solver.wagons.cards import card_codes
from solver.wagons.codes import BEER, COW, GUN, MINE
from solver.wagons.data import load_data
from solver.wagons.optimizer.bnb.kernel import NEG, scratch_arrays, search
from solver.wagons.optimizer.bounds import best_runs, between_cells
from solver.wagons.optimizer.problem import Incumbent, Problem, normal_xyr
from solver.wagons.optimizer.walk.board import WALK, _board_arrays, _put, board_size, card_arrays, walk
from solver.wagons.optimizer.walk.compiled import Warming, ready_by
from solver.wagons.optimizer.walk.local import polish
from solver.wagons.optimizer.walk.scorer import K_BAD, K_COUNT, K_ONE, K_TRAIN, _comparing, goal_tables

__all__ = ["BranchAndBound", "Search", "SLICE", "fixed_tables", "comparing_table", "suffix_counts", "SEARCH",
           "compile_kernels"]

SLICE = 200_000
"""Bound evaluations per kernel call (a few tenths of a second): how often the time limit is checked."""
LOCAL_SHARE = 0.15
"""The share of the time limit the local search may use before the search (as for CP-SAT; it usually stops sooner)."""


def suffix_counts(ids: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
    """``(rem_t[d, T], rem_i[d, I])``: territories of terrain T and icons I on the cards ``d..n-1``."""
    codes = card_codes()
    n = len(ids)
    rem_t = np.zeros((n + 1, 6), np.int64)
    rem_i = np.zeros((n + 1, 6), np.int64)
    for d in range(n - 1, -1, -1):
        rem_t[d] = rem_t[d + 1]
        rem_i[d] = rem_i[d + 1]
        for _dx, _dy, t, i in codes[ids[d]][0]:
            rem_t[d, t] += 1
            rem_i[d, i] += 1
    return rem_t, rem_i


def fixed_tables(tables, rem_t: np.ndarray, rem_i: np.ndarray) -> np.ndarray:
    """``ftab[g, k]``: the best a nonlinear card can score over every count up to ``k`` (Badlands: the
    cells ``k`` Deserts can flank; Wagon Train and a counting kind: their points), for ``k`` up to every
    symbol of the cards (a count never exceeds what the cards hold; a counting kind's total counts a
    territory once per symbol it matches, so up to 4 per card and symbol counted)."""
    kind, scal, tab, tab_len = tables[:4]
    n = rem_t.shape[0] - 1
    most = 4 * n + 1
    counted = [bin(int(scal[g, 0])).count("1") + bin(int(scal[g, 1])).count("1")
               for g, k in enumerate(kind) if k == K_COUNT]
    width = max([most] + [4 * n * c + 1 for c in counted])
    ftab = np.zeros((len(kind), width), np.int64)
    for g, k in enumerate(kind):
        if k == K_BAD:
            ftab[g, :most] = [between_cells(x) for x in range(most)]
            ftab[g, most:] = ftab[g, most - 1]
        elif k == K_TRAIN:
            run_table = tuple(int(v) for v in tab[g, :tab_len[g]])
            wagons = int(rem_i[0, 5])  # Wagons on every card
            ftab[g] = [best_runs(run_table, min(x, wagons)) for x in range(width)]
        elif k == K_COUNT:
            points = [int(tab[g, min(x, tab_len[g] - 1)]) for x in range(width)]
            ftab[g] = np.maximum.accumulate(points)
    return ftab


def comparing_table(tables, n: int, rem_i: np.ndarray, margin: bool) -> np.ndarray:
    """``ctab[g, V, b, m, gu]``: the best (player points - opponent points, or the player's points for the
    score objective) of comparing card ``g`` with ``V`` territories over every Beers <= b, Mines <= m,
    Guns <= gu (0 for the other cards)."""
    kind, scal, _tab, _len, opp, can_lose = tables
    nb, nm, ng = int(rem_i[0, BEER]), int(rem_i[0, MINE]), int(rem_i[0, GUN])
    ctab = np.zeros((len(kind), 4 * n + 1, nb + 1, nm + 1, ng + 1), np.int64)
    for g, k in enumerate(kind):
        if k < K_ONE:
            continue
        for v in range(4 * n + 1):
            for b in range(nb + 1):
                for m in range(nm + 1):
                    for gu in range(ng + 1):
                        mine, theirs = _comparing(k, g, scal, opp, can_lose, v, b, m, gu)
                        ctab[g, v, b, m, gu] = mine - theirs if margin else mine
        for axis in (2, 3, 4):
            ctab[g] = np.maximum.accumulate(ctab[g], axis=axis - 1)
    return ctab


class Search:
    """One branch and bound over the compiled walk: its tables, board and resumable state."""

    def __init__(self, ids: Sequence[int], tables, objective: str, round1=None):
        self.n = n = len(ids)
        self.cc, self.nrot = card_arrays(ids)
        self.B, self.O = B, O = board_size(n)
        self.margin = objective == "margin"
        self.tables = tables
        self.rem_t, self.rem_i = suffix_counts(ids)
        self.ftab = fixed_tables(tables, self.rem_t, self.rem_i)
        self.ctab = comparing_table(tables, n, self.rem_i, self.margin)
        self.r1 = np.array(round1 if round1 is not None else (0, 0, 0), np.int64)
        self.ter_ok = np.ones(6, np.bool_)
        self.cow_ok = np.zeros(6, np.bool_)
        self.cow_ok[COW] = True
        NB = B * B
        self.board = _board_arrays(n, NB)
        self.scratch = scratch_arrays(n, B)
        iv = np.array([1, 1, 0, 0, 0, 0], np.int64)
        self.st = (iv, np.array([NEG], np.int64), np.zeros((n, 2 * NB), np.int64), np.zeros((n, 2 * NB), np.int64),
                   np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(n, np.bool_), np.zeros((n + 1, 4), np.int64),
                   np.zeros(n, np.int64), np.zeros(n, np.int64), np.ones(n, np.bool_), np.zeros(n, np.int64))
        ter, ico, occ, _s, _m, _c, _q, saved_t, saved_i, added = self.board
        first = (O * B + O) * 2
        iv[2] = _put(0, first, self.cc, ter, ico, occ, 0, B, saved_t, saved_i, added)
        self.st[8][0] = first
        self.st[7][1] = (O, O + 1, O, O + 1)
        if not self._round1_possible():
            iv[3] = 1

    def _round1_possible(self) -> bool:
        """Boomtown's round-1 condition can hold at all: after ``m`` cards between 4 and 4 m territories show
        (exactly 4 after one card; the kernel checks every later card)."""
        m, opp, behind = (int(x) for x in self.r1)
        if m <= 0:
            return True
        hi = 4 * min(m, self.n)
        return hi >= opp if behind else 4 < opp

    def _score_one(self) -> None:
        """One card: its only town (at the origin, unturned)."""
        v, _towns, _codes, _ = walk(self.cc, self.nrot, self.B, self.O, np.zeros(1, np.int64), np.ones(1, np.bool_),
                                    -1, self.margin, *self.tables)
        if v > self.beat:
            self.beat = int(v)
            self.st[9][0] = self.st[8][0]
            self.st[0][4] = 1

    @property
    def beat(self) -> int:
        """The compiled value a town must exceed (raised by each town found)."""
        return int(self.st[1][0])

    @beat.setter
    def beat(self, value: int) -> None:
        self.st[1][0] = value

    @property
    def done(self) -> bool:
        return bool(self.st[0][3])

    @property
    def nodes(self) -> int:
        return int(self.st[0][5])

    def run(self, budget: int = SLICE) -> bool:
        """Search on for about ``budget`` bound evaluations; True when the search is complete."""
        if self.done:
            return True
        if self.n == 1:
            self._score_one()
            self.st[0][3] = 1
            return True
        return bool(search(self.cc, self.nrot, self.B, self.O, self.margin, *self.tables, self.rem_t, self.rem_i,
                           self.ftab, self.ctab, self.r1, self.ter_ok, self.cow_ok, self.board, self.scratch, self.st,
                           budget))

    def open_bound(self) -> int:
        """An upper bound on every town (compiled value) while the search is under way: the value to beat,
        or the bound of a child not yet closed at some level of the current path (each level's children
        are sorted by bound, so the one entered bounds those left; every other child was closed or pruned
        below the value to beat)."""
        iv, beat, _cand, cbound, ncand, ptr = self.st[:6]
        d = int(iv[0])
        top = d - 1 if iv[1] else d
        ub = int(beat[0])
        for k in range(1, top + 1):
            if ncand[k] > 0:
                ub = max(ub, int(cbound[k, max(int(ptr[k]) - 1, 0)]))
        return ub

    def take_found(self) -> tuple[int, list[tuple[int, int, int]]] | None:
        """(compiled value, town as (x, y, rot) from the first card) of a town found since the last call."""
        if not self.st[0][4]:
            return None
        self.st[0][4] = 0
        B, O = self.B, self.O
        xyr = [(int(c >> 1) % B - O, int(c >> 1) // B - O, 180 if c & 1 else 0) for c in self.st[9]]
        return self.beat, xyr


def _warm_search() -> None:
    """The search compiled (or loaded from the cache) on a 3-card town, called as :meth:`BranchAndBound.prove` calls it."""
    s = Search((0, 1, 2), goal_tables("boomtown", (3, 4), load_data()), "margin")
    s.run()
    s.take_found()


SEARCH = Warming("branch and bound", _warm_search)
"""The search's compilation: :meth:`BranchAndBound.prove` searches only once it is ready by its deadline."""


def compile_kernels() -> None:
    """Every compiled kernel of the optimizer ready (compiled, or loaded from the cache), however long it takes:
    the install's warm-up (run.py), the proof workers' zygote, the test session."""
    ready_by(math.inf, WALK, SEARCH)


@dataclass(frozen=True)
class BranchAndBound:
    """``prove(problem, incumbent)``: the local search from the incumbent's town (``local``), then the
    compiled branch and bound (module docstring) until it ends (proven) or the time limit. Not proven,
    without searching, when the compiled scorer does not handle the scenario's goal cards."""

    name: str = "bnb"
    local: bool = True

    def prove(self, problem: Problem, incumbent: Incumbent) -> bool:
        tables = goal_tables(problem.scenario_id, problem.pile, problem.data)
        if tables is None or not ready_by(problem.deadline, WALK, SEARCH):  # compiling counts in the limit
            return False
        fixed = problem.opponent_fixed
        if self.local and incumbent.town is not None and len(problem.cards) > 2:
            polish(problem, incumbent, normal_xyr(incumbent.town, problem.quads), LOCAL_SHARE)
        s = Search(problem.cards, tables, problem.objective, problem.round1)
        beat = incumbent.to_beat()
        if beat is not None:
            s.beat = beat + fixed
        while True:
            done = s.run()
            found = s.take_found()
            if found is not None:
                incumbent.offer_xyr(found[1], found[0] - fixed)
            if done:
                incumbent.iterations += s.nodes
                return True
            if time.monotonic() >= problem.deadline:
                incumbent.iterations += s.nodes
                if s.open_bound() > NEG:
                    incumbent.tighten(s.open_bound() - fixed)
                return False
