"""CP-SAT encoding of the towns one ordered list of cards can build, and of their score (rule:W-opt-layout).

The model is built on *slots*: slot ``(i, k)`` is territory ``k`` (0 tl, 1 tr, 2 bl, 3 br as printed)
of the ``i``-th card placed. A slot keeps its territory; turning the card (rule:W-rotation) only
moves it to cell offset ``(1-dx, 1-dy)``. Everything is Boolean except the card positions:

- **Relative placement.** For each pair of cards ``i < j`` exactly one literal holds: ``rel[i,j][c]``
  for ``c = (dx, dy, ri, rj)`` with ``dx = X_j - X_i`` and ``dy = Y_j - Y_i`` in -2..2 and both turns,
  or ``far[i,j]`` (the cards are 3 or more territories apart on some axis: no slot of one can touch,
  cover or neighbour a slot of the other). These literals are tied to integer positions ``X, Y`` and
  turn Booleans ``R``, so they are always consistent. The first card lies at (0, 0) unturned
  (translating or turning a whole town changes no score); a card that looks the same turned is never turned.
- **Offsets per axis** (redundant, up to 10 cards): ``axis[x|y, i, j, d]`` iff ``P_j - P_i == d`` for d in
  -2..2, at most one per pair and axis; for cards ``i < j < k`` two pairs' offsets give the third's
  (``c = a + b``: three clauses per agreeing triple) and, where ``a + b``, ``c - a`` or ``c - b`` lies
  beyond -2..2, the three offsets exclude each other (:func:`_triangles`; the other contradictions follow
  by propagation through the at-most-one).
- **Placement** (rule:W-place): card ``j > 0`` touches or covers an earlier card: some
  ``rel[i,j][c]`` with ``|dx|, |dy| <= 2`` and not both 2 (corner-only contact is illegal).
- **Visibility** (rule:W-cover): slot ``(i, k)`` shows iff no ``rel[i,j][c]`` with ``j > i`` puts card
  ``j``'s footprint over its cell. Two visible slots never share a cell.
- **Cell relations** (adjacent, right of, below) between two slots are ORs of ``rel`` literals (or
  constants inside one card; directions inside a card depend on its turn).
- **Largest group** (rule:W7, rule:W-groups): a selected set of visible slots of the terrain (or icon)
  is connected, stated by *cut* constraints: for every split of the candidate slots into two sides
  with a selected slot on each side, some selected pair across the split is adjacent. With at most a
  dozen candidates per terrain this is exact and small; the spanning-tree count (selected edges >=
  selected slots - 1) is added as a redundant cut. The selection's size is maximised, so at an optimum
  it is the largest group; the objective reads the size as a sum of "size >= k" Booleans.
- **Largest Water group exactly** (Cool Water): every subset of Water slots gets a literal forced true
  when the subset is visible and connected (a connected set always has a slot whose removal leaves it
  connected), and the selected group must be at least as large as every such subset: the selection is
  then exactly a largest group (the player's pick among tied ones, as in the scorer).
- **Goal cards**: the tables of counts -> points come from the ordinary scorer's own functions
  (:func:`solver.wagons.scoring.comparing_goal`, a counting kind's points in :mod:`solver.wagons.goal_kinds`) or
  the card's parameters; position goals
  are reified exactly (so a negative parameter cannot be under-counted).

- **Redundant bounds and symmetry breaking** (``speedups``, default on): the largest groups
  together are at most the visible territories, and with Smalltown Charm, groups and Charm together
  at most their best sum over the visible count (:func:`_groups_with_territory_cards`), and each slot
  of a selected group of two or more has a selected neighbour (``CpTown._neighbours``); Wagon Train's
  row runs and its column runs each score at most :func:`run_partition_best` of the visible Wagons; a
  card showing nothing lies unturned (:func:`_hidden_unturned`). All of them hold for (a twin of) every legal town with the
  same visible grid, so no optimum is lost; they only let propagation refute more.

Solving (:func:`solve`) is measured in ``bench/bench_wagons_optimize.py``: a proof phase, hinted
with the local search's town, asked for a town beating the best one; "infeasible" proves the best one
optimal. The proof phase is CP-SAT's default search without LP (``proof="search"``, the fastest to a
proof measured) or, after a primal phase, its *core-based* search (``proof="core"``), which proves a
falling upper bound while it runs; when that bound falls to the best value the search is stopped:
that bound is the proof. One worker (one core), a fresh
``CpModel`` and ``CpSolver`` per solve, nothing shared between threads: inside :func:`reusing_models` (a
deal search's proof passes) a later solve of the same problem gets a fresh copy of the model built the
first time (``CpModel.clone``), not a new build; the copy is the same model, so the same proof.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from typing import Any

from ortools.sat import sat_parameters_pb2
from ortools.sat.python import cp_model, cp_model_helper

from solver.errors import BadInput
from solver.stopping import capped, watching
from solver.wagons import goal_kinds
from solver.wagons.cards import OFFSETS
from solver.wagons.codes import BEER, GUN, MINE
from solver.wagons.data import GoalSpec, ScenarioSpec, WagonsData
from solver.wagons.optimizer.local import polish
from solver.wagons.optimizer.problem import Incumbent, Problem, normal_xyr
from solver.wagons.optimizer.quads import EncodeTimeout, Quad, QuadSlots, Slot
from solver.wagons.scoring import COMPARING, PileCounts, Side, comparing_goal, run_partition_best

__all__ = ["CpTown", "encode", "decode", "solve", "SolveResult", "EncodeTimeout", "MAX_CUT_SLOTS", "CpSatProof",
           "LOCAL_SHARE"]

MAX_CUT_SLOTS = 12
"""Above this many candidate slots a group's connectivity uses distance labels instead of cuts."""
_ZERO = cp_model.LinearExpr.constant(0) if hasattr(cp_model.LinearExpr, "constant") else 0


def offset(k: int, turned: int) -> tuple[int, int]:
    """Cell offset of territory ``k`` on a card turned (1) or not (0) (rule:W-rotation)."""
    dx, dy = OFFSETS[k]
    return (dx, dy) if not turned else (1 - dx, 1 - dy)


_OFFSET = {(k, r): offset(k, r) for k in range(4) for r in (0, 1)}


def looks_same_turned(quad: Sequence[Quad]) -> bool:
    """A card whose half turn shows the same territories at the same cells."""
    return (quad[0], quad[1]) == (quad[3], quad[2])


@dataclass
class CpTown(QuadSlots):
    """The CP-SAT view of a town: positions, relative placements, visibility, cell relations."""

    m: cp_model.CpModel
    quads: tuple
    X: list
    Y: list
    R: list
    rel: dict = field(default_factory=dict)    # (i, j) -> {(dx, dy, ri, rj): BoolVar}
    vis: dict = field(default_factory=dict)    # slot -> BoolVar
    deadline: float | None = None
    speedups: bool = True  # the redundant (admissible) bounds and symmetry breaking of issue 20
    tightened: bool = True  # with speedups: the territory cap and the group neighbours (issue 20, second round)
    _cache: dict = field(default_factory=dict)


    def terrain_of(self, s: Slot) -> str:
        return self.quads[s[0]][s[1]][0]

    def icon_of(self, s: Slot) -> str:
        return self.quads[s[0]][s[1]][1]

    def tick(self) -> None:
        if self.deadline is not None and time.monotonic() > capped(self.deadline):
            raise EncodeTimeout("time limit reached while building the CP-SAT model")

    # ---- Boolean helpers (exact reification; constants are Python bools)
    def and_(self, lits: Sequence[Any], key=None):
        lits = [x for x in lits if x is not True]
        if any(x is False for x in lits):
            return False
        if not lits:
            return True
        if len(lits) == 1:
            return lits[0]
        key = ("and", key) if key is not None else None
        if key is not None and key in self._cache:
            return self._cache[key]
        v = self.m.new_bool_var("")
        for x in lits:
            self.m.add_implication(v, x)
        self.m.add_bool_or([~x for x in lits] + [v])
        if key is not None:
            self._cache[key] = v
        return v

    def or_(self, lits: Sequence[Any], key=None):
        lits = [x for x in lits if x is not False]
        if any(x is True for x in lits):
            return True
        if not lits:
            return False
        if len(lits) == 1:
            return lits[0]
        key = ("or", key) if key is not None else None
        if key is not None and key in self._cache:
            return self._cache[key]
        v = self.m.new_bool_var("")
        for x in lits:
            self.m.add_implication(x, v)
        self.m.add_bool_or([~v] + list(lits))
        if key is not None:
            self._cache[key] = v
        return v

    @staticmethod
    def not_(x):
        return (not x) if isinstance(x, bool) else ~x

    @staticmethod
    def count(lits: Sequence[Any]):
        """A linear expression counting the true literals."""
        const = sum(1 for x in lits if x is True)
        return sum((x for x in lits if not isinstance(x, bool)), _ZERO) + const

    # ---- geometry
    def cell_is(self, s: Slot, t: Slot, ex: int, ey: int):
        """Cell of ``t`` minus cell of ``s`` equals (ex, ey) (literal or constant)."""
        key = ("cell", s, t, ex, ey)
        if key in self._cache:
            return self._cache[key]
        (i, k), (j, l) = s, t
        if i == j:
            opts = []
            for r in ((0,) if isinstance(self.R[i], int) else (0, 1)):
                a, b = offset(k, r), offset(l, r)
                if (b[0] - a[0], b[1] - a[1]) == (ex, ey):
                    opts.append(r)
            if len(opts) == 2 or (opts and isinstance(self.R[i], int)):
                out = True
            elif not opts:
                out = False
            else:
                out = self.R[i] if opts[0] == 1 else ~self.R[i]
        else:
            out = self.or_(self._cell_differences(s, t).get((ex, ey), []))
        self._cache[key] = out
        return out

    def _cell_differences(self, s: Slot, t: Slot) -> dict:
        """{cell of ``t`` minus cell of ``s``: the ``rel`` literals giving it, in ``rel``'s order} for slots
        of two different cards (built once per pair of slots)."""
        key = ("cells", s, t)
        table = self._cache.get(key)
        if table is None:
            (i, k), (j, l) = s, t
            flip = i > j
            table = {}
            for (dx, dy, ra, rb), v in self.rel[(j, i) if flip else (i, j)].items():
                ri, rj = (rb, ra) if flip else (ra, rb)
                oi, oj = _OFFSET[k, ri], _OFFSET[l, rj]
                # cell t - cell s = (X_j + oj) - (X_i + oi), with X_j - X_i = +-dx
                sx, sy = (-dx, -dy) if flip else (dx, dy)
                table.setdefault((sx + oj[0] - oi[0], sy + oj[1] - oi[1]), []).append(v)
            self._cache[key] = table
        return table

    def adjacent(self, s: Slot, t: Slot):
        """The cells of ``s`` and ``t`` share an edge (visibility not included)."""
        a, b = sorted((s, t))
        key = ("adj", a, b)
        if key not in self._cache:
            self._cache[key] = self.or_([self.cell_is(a, b, 1, 0), self.cell_is(a, b, -1, 0),
                                         self.cell_is(a, b, 0, 1), self.cell_is(a, b, 0, -1)])
        return self._cache[key]

    def linked(self, s: Slot, t: Slot):
        """Both slots visible and edge-adjacent."""
        a, b = sorted((s, t))
        return self.and_([self.adjacent(a, b), self.vis[a], self.vis[b]], key=("linked", a, b))

    def visible_after(self, s: Slot, m_cards: int):
        """Slot ``s`` shows once the first ``m_cards`` cards are placed (rule:W-cover)."""
        i, k = s
        covers = []
        for j in range(i + 1, min(m_cards, self.n)):
            covers += [v for (dx, dy, ri, rj), v in self.rel[(i, j)].items()
                       if 0 <= _OFFSET[k, ri][0] - dx <= 1 and 0 <= _OFFSET[k, ri][1] - dy <= 1]
        return self.not_(self.or_(covers))

    def territories_after(self, m_cards: int):
        return self.count([self.visible_after((i, k), m_cards) for i in range(min(m_cards, self.n)) for k in range(4)])

    # ---- groups
    def largest_group(self, candidates: list[Slot], sizes_at_least: bool = False):
        """(size expression, selection) of a connected set of visible ``candidates`` (rule:W-groups).

        ``sizes_at_least``: also force the selection to be at least as large as every visible
        connected subset of ``candidates``: it is then exactly a largest group.
        """
        m = self.m
        if not candidates:
            return _ZERO, {}
        z = {s: m.new_bool_var("") for s in candidates}
        for s in candidates:
            m.add_implication(z[s], self.vis[s])
        edges = {}
        for a, b in itertools.combinations(candidates, 2):
            adj = self.adjacent(a, b)
            if adj is False:
                continue
            e = m.new_bool_var("")
            m.add_implication(e, z[a])
            m.add_implication(e, z[b])
            if adj is not True:
                m.add_implication(e, adj)
            edges[(a, b)] = e
        size = sum(z.values(), _ZERO)
        if len(candidates) > 1:
            m.add(sum(edges.values(), _ZERO) >= size - 1)  # redundant: a spanning tree
        if self.speedups and self.tightened and len(candidates) > 1:
            self._neighbours(candidates, z, edges, size)
        if len(candidates) <= MAX_CUT_SLOTS:
            self._cuts(candidates, z, edges)
        else:
            self._distances(candidates, z, edges)
        if sizes_at_least:
            self._at_least_every_component(candidates, size)
        # the size as a sum of "at least k" Booleans: core-based search bounds those better than the
        # selection literals (7-card towns: 136 s against 192 s for 6 proofs, bench_wagons_optimize)
        return _table(self, size, 0, len(candidates), lambda v: v), z

    def _neighbours(self, candidates, z, edges, size) -> None:
        """Redundant: in a selection of two or more slots, each selected slot has a selected edge.

        Why it holds: the selection is connected (the cuts), so with two or more slots each one has a
        selected neighbour, and the edge literals (free but for ``edge -> both ends selected and
        adjacent``) can be set true on those pairs; the cuts imply it, but only once a whole side is
        decided, this clause as soon as one slot's neighbours are. Measured: proofs of four seeded
        7-card towns (Gold Rush, Out-Drink, Water the Herd, Cattle Drive) 64.0 s in all against 54.8 s
        (docs/history/wagons-optimizer-2026.md)."""
        m = self.m
        two = m.new_bool_var("")
        m.add(size >= 2).only_enforce_if(two)
        m.add(size <= 1).only_enforce_if(~two)
        for s in candidates:
            near = [e for (a, b), e in edges.items() if s in (a, b)]
            m.add_bool_or(near + [~z[s], ~two])

    def _cuts(self, candidates, z, edges) -> None:
        m = self.m
        first, rest = candidates[0], candidates[1:]
        for r in range(len(rest)):
            for comb in itertools.combinations(rest, r):
                self.tick()
                side = {first, *comb}
                a, b = m.new_bool_var(""), m.new_bool_var("")
                for s in candidates:
                    m.add_implication(z[s], a if s in side else b)
                cross = [e for (u, v), e in edges.items() if (u in side) != (v in side)]
                m.add_bool_or(cross + [~a, ~b])

    def _distances(self, candidates, z, edges) -> None:
        """Connectivity by a root and decreasing distance labels (for very many candidates)."""
        m = self.m
        n = len(candidates)
        root = {s: m.new_bool_var("") for s in candidates}
        dist = {s: m.new_int_var(0, n, "") for s in candidates}
        m.add_at_most_one(root.values())
        for s in candidates:
            m.add_implication(root[s], z[s])
            steps = []
            for (u, v), e in edges.items():
                if s not in (u, v):
                    continue
                t = v if u == s else u
                st = m.new_bool_var("")
                m.add_implication(st, e)
                m.add(dist[t] < dist[s]).only_enforce_if(st)
                steps.append(st)
            m.add_bool_or(steps + [~z[s], root[s]])
        for s in candidates:  # something selected -> some root
            m.add_bool_or(list(root.values()) + [~z[s]])

    def _at_least_every_component(self, candidates, size) -> None:
        m = self.m
        conn: dict[frozenset, Any] = {}
        for r in range(1, len(candidates) + 1):
            for comb in itertools.combinations(candidates, r):
                self.tick()
                u = frozenset(comb)
                if r == 1:
                    conn[u] = self.vis[comb[0]]
                else:
                    c = m.new_bool_var("")
                    for v in comb:
                        rest = u - {v}
                        near = self.or_([self.adjacent(v, w) for w in rest])
                        if near is False:
                            continue
                        lits = [conn[rest], self.vis[v]] + ([] if near is True else [near])
                        m.add_bool_or([~x for x in lits] + [c])
                    conn[u] = c
                m.add(size >= r).only_enforce_if(conn[u])


def encode(quads: Sequence[Sequence[Quad]], deadline: float | None = None, speedups: bool = True,
           tightened: bool = True, triangles: str = "reduced") -> CpTown:
    """Positions, relative placements, placement legality and visibility for cards in this order
    (``speedups``: with the redundant bounds and the symmetry breaking of :func:`_hidden_unturned`;
    ``tightened``, with ``speedups``: the group neighbours (``CpTown._neighbours``) and, in
    :func:`player_score`, :func:`_groups_with_territory_cards`; ``triangles``: which redundant
    offset clauses, :data:`TRIANGLES`)."""
    if triangles not in TRIANGLES:
        raise ValueError(f"triangles: expected one of {TRIANGLES}, got {triangles!r}")
    m = cp_model.CpModel()
    n = len(quads)
    X = [m.new_int_var(-2 * i, 2 * i, f"x{i}") for i in range(n)]
    Y = [m.new_int_var(-2 * i, 2 * i, f"y{i}") for i in range(n)]
    R: list[Any] = [0 if i == 0 or looks_same_turned(quads[i]) else m.new_bool_var(f"r{i}") for i in range(n)]
    town = CpTown(m, tuple(tuple(tuple(t) for t in q) for q in quads), X, Y, R, deadline=deadline,
                  speedups=speedups, tightened=tightened)
    if n:
        m.add(X[0] == 0)
        m.add(Y[0] == 0)
    axis: dict = {}
    for i in range(n):
        for j in range(i + 1, n):
            town.tick()
            _pair(town, i, j, axis)
    _triangles(m, n, axis, town, triangles)
    # rule:W-place: every later card touches (an edge) or covers an earlier one; corner-only is illegal
    for j in range(1, n):
        m.add_bool_or([v for i in range(j) for (dx, dy, _, _), v in town.rel[(i, j)].items()
                       if not (abs(dx) == 2 and abs(dy) == 2)])
    # rule:W-cover: a slot shows unless a later card's footprint lies on its cell
    for i in range(n):
        for k in range(4):
            town.vis[(i, k)] = town.visible_after((i, k), n)
            if town.vis[(i, k)] is True:
                v = m.new_bool_var("")
                m.add(v == 1)
                town.vis[(i, k)] = v
    if speedups:
        _hidden_unturned(town)
    return town


def _pair(town: CpTown, i: int, j: int, axis: dict) -> None:
    """The relative placement of cards ``i < j``: ``town.rel[i, j]``, its ``far`` literal, and the offset
    literals ``axis[name, i, j, d]`` (``name`` "x" or "y"), each equivalent to ``P_j - P_i == d``."""
    m, X, Y, R = town.m, town.X, town.Y, town.R
    turns = lambda c: (0,) if isinstance(R[c], int) else (0, 1)
    turned = lambda c, r: None if isinstance(R[c], int) else (R[c] if r else ~R[c])
    diff = (X[j] - X[i], Y[j] - Y[i])
    equal = [{d: diff[at] == d for d in range(-2, 3)} for at in (0, 1)]  # built once, added many times
    vs = {}
    for dx in range(-2, 3):
        for dy in range(-2, 3):
            for ri in turns(i):
                for rj in turns(j):
                    v = m.new_bool_var("")
                    m.add(equal[0][dx]).only_enforce_if(v)
                    m.add(equal[1][dy]).only_enforce_if(v)
                    for lit in (turned(i, ri), turned(j, rj)):
                        if lit is not None:
                            m.add_implication(v, lit)
                    vs[(dx, dy, ri, rj)] = v
    far = m.new_bool_var("")
    apart = [m.new_bool_var("") for _ in range(4)]
    m.add(diff[0] >= 3).only_enforce_if(apart[0])
    m.add(diff[0] <= -3).only_enforce_if(apart[1])
    m.add(diff[1] >= 3).only_enforce_if(apart[2])
    m.add(diff[1] <= -3).only_enforce_if(apart[3])
    m.add_bool_or(apart).only_enforce_if(far)
    m.add_exactly_one(list(vs.values()) + [far])
    town.rel[(i, j)] = vs
    for name, at in (("x", 0), ("y", 1)):
        by_offset: dict[int, list] = {}
        for c, v in vs.items():
            by_offset.setdefault(c[at], []).append(v)
        for d in range(-2, 3):
            a = m.new_bool_var("")
            m.add(equal[at][d]).only_enforce_if(a)
            m.add(diff[at] != d).only_enforce_if(~a)
            for v in by_offset[d]:
                m.add_implication(v, a)
            axis[(name, i, j, d)] = a


def _hidden_unturned(town: CpTown) -> None:
    """Symmetry breaking: a card all of whose territories end up covered lies unturned.

    Sound: which cells a card occupies does not depend on its turn (a 2x2 footprint either way,
    rule:W-rotation), so turning a card changes no placement's legality (rule:W-place), no slot's
    visibility at any moment (rule:W-cover; also Boomtown's round-1 count), and only that card's
    visible territories; a card showing none can be unturned and the town keeps its visible grid
    and so its score (``tests/wagons/optimizer/test_optimize_cpsat.py`` checks the optimum against the oracle)."""
    for i, r in enumerate(town.R):
        if not isinstance(r, int):
            town.m.add_bool_or([town.vis[(i, k)] for k in range(4)] + [~r])


TRIANGLES = ("reduced", "unique", "full")
"""The redundant clauses of :func:`_triangles`: ``"reduced"`` (default), ``"unique"`` or ``"full"`` (as
built before issue 20's encoding round: every clause three times; the benches' baseline; measured in
docs/history/wagons-canwin.md)."""

_OFFSETS = range(-2, 3)
_SUMS = [(a, b, a + b) for a in _OFFSETS for b in _OFFSETS if -2 <= a + b <= 2]
"""Offsets ``(a, b, c)`` of the pairs ``(i, j)``, ``(j, k)``, ``(i, k)`` of three cards that agree (c = a + b)."""
_APART = [(a, b, c) for a in _OFFSETS for b in _OFFSETS for c in _OFFSETS if c != a + b]
"""Offsets of the three pairs that contradict each other."""
_APART_FAR = [(a, b, c) for a, b, c in _APART if max(abs(a + b), abs(c - a), abs(c - b)) > 2]
"""Of those, the ones where two of the offsets put the third pair beyond -2..2 (no literal to derive)."""


def _triangles(m, n, axis, town, mode: str = "reduced") -> None:
    """Redundant: the offset of a pair of cards follows from the offsets of the two other pairs (on each
    axis, ``c = a + b`` for the pairs ``(i, j)``, ``(j, k)``, ``(i, k)`` of cards ``i < j < k``).

    The offset literals are reified (``axis[name, i, j, d]`` iff ``P_j - P_i == d``), so every clause here
    holds in every town. ``"full"``: for each pair playing the derived part and every (a, b, c), the
    clause "two offsets imply the third's literal, or its negation", so each contradiction clause is
    stated three times. ``"unique"``: the same clauses once. ``"reduced"``: an at-most-one over each
    pair's five offset literals, the positive clauses (two offsets imply the third, three per
    agreeing triple) and the contradiction clauses only where two offsets put the third pair beyond
    -2..2; the other contradictions follow by unit propagation (two offsets set the third's literal,
    the at-most-one clears its others; one offset and the third's set the second's candidates false
    through the positive clauses), so propagation is at least as strong as with ``"full"``."""
    if n > 10:
        return
    if mode == "full":
        return _triangles_full(m, n, axis, town)
    if mode == "reduced":
        for i, j in itertools.combinations(range(n), 2):
            for name in "xy":
                m.add_at_most_one([axis[(name, i, j, d)] for d in _OFFSETS])
    apart = _APART_FAR if mode == "reduced" else _APART
    for i, j, k in itertools.combinations(range(n), 3):
        town.tick()
        for name in "xy":
            ij, jk, ik = ([axis[(name, p, q, d)] for d in _OFFSETS] for p, q in ((i, j), (j, k), (i, k)))
            nij, njk, nik = ([~x for x in lits] for lits in (ij, jk, ik))
            for a, b, c in _SUMS:
                a, b, c = a + 2, b + 2, c + 2
                m.add_bool_or([nij[a], njk[b], ik[c]])
                m.add_bool_or([nij[a], nik[c], jk[b]])
                m.add_bool_or([njk[b], nik[c], ij[a]])
            for a, b, c in apart:
                m.add_bool_or([nij[a + 2], njk[b + 2], nik[c + 2]])


def _triangles_full(m, n, axis, town) -> None:
    """:func:`_triangles` as built before (``"full"``): the benches' baseline."""

    def lit(name, i, j, d):
        return axis.get((name, i, j, d)) if i < j else axis.get((name, j, i, -d))

    for i, j, k in itertools.combinations(range(n), 3):
        town.tick()
        for name in "xy":
            for p, q, r in (((i, j), (j, k), (i, k)), ((j, i), (i, k), (j, k)), ((i, k), (k, j), (i, j))):
                for d1 in range(-2, 3):
                    for d2 in range(-2, 3):
                        l1, l2 = lit(name, *p, d1), lit(name, *q, d2)
                        for d3 in range(-2, 3):
                            l3 = lit(name, *r, d3)
                            m.add_bool_or([~l1, ~l2, l3 if d3 == d1 + d2 else ~l3])


def decode(town: CpTown, value: Callable[[Any], int]) -> list[tuple[int, int, int]]:
    """(x, y, rot) of each card from a solution (``value`` reads a variable)."""
    return [(int(value(x)), int(value(y)), 180 if not isinstance(r, int) and value(r) else 0)
            for x, y, r in zip(town.X, town.Y, town.R)]


# ---------------------------------------------------------------- goal cards

def _slots_with(town: CpTown, what: str, name: str) -> list[Slot]:
    get = town.terrain_of if what == "terrain" else town.icon_of
    return [s for s in town.slots if get(s) == name]


def _count(town: CpTown, slots: list[Slot]):
    return town.count([town.vis[s] for s in slots])


def _near_terrain(town: CpTown, s: Slot, terrain: str):
    """``s`` (visible) shows ``terrain`` itself or has a visible edge-neighbour showing it."""
    if town.terrain_of(s) == terrain:
        return True
    return town.or_([town.linked(s, t) for t in _slots_with(town, "terrain", terrain)])


def _table(town: CpTown, expr, lo: int, hi: int, fn: Callable[[int], int]):
    """``fn(expr)`` for ``lo <= expr <= hi`` as ``fn(lo) + sum((fn(k) - fn(k-1)) * [expr >= k])``: a
    weighted sum of Booleans (what core-based search bounds best, and what the search proof needs:
    reading a group's size as a plain sum instead, a proof taking 65 s ran out at 120 s)."""
    m = town.m
    out = [fn(lo)]
    prev = None
    for k in range(lo + 1, hi + 1):
        step = fn(k) - fn(k - 1)
        b = m.new_bool_var("")
        m.add(expr >= k).only_enforce_if(b)
        m.add(expr <= k - 1).only_enforce_if(~b)
        if prev is not None:
            m.add_implication(b, prev)
        prev = b
        if step:
            out.append(step * b)
    return sum(out[1:], _ZERO) + out[0]


def cool_water(town: CpTown, goal: GoalSpec, water=None):
    """rule:W-goal-cool-water: per Wagon on or next to the largest Water group (best of tied ones)."""
    cands = _slots_with(town, "terrain", "Water")
    if not cands:
        return 0
    _, z = water if water is not None else town.largest_group(cands, sizes_at_least=True)
    hits = []
    for w in _slots_with(town, "icon", "Wagon"):
        near = [z[w]] if w in z else []
        near += [town.and_([town.adjacent(w, t), z[t]]) for t in cands if t != w]
        hits.append(town.and_([town.vis[w], town.or_(near)]))
    return goal.param("per_wagon") * town.count(hits)


def badlands(town: CpTown, goal: GoalSpec):
    """rule:W-goal-badlands: per Gun with Desert left and right, or above and below; a Gun boxed in both ways
    once, or once per way with ``twice_when_boxed`` (rule:W12)."""
    deserts = _slots_with(town, "terrain", "Desert")
    hits = []
    for g in _slots_with(town, "icon", "Gun"):
        side = lambda ex, ey, g=g: town.or_([town.and_([town.cell_is(g, t, ex, ey), town.vis[t]]) for t in deserts if t != g])
        across = town.and_([side(-1, 0), side(1, 0)])
        down = town.and_([side(0, -1), side(0, 1)])
        if dict(goal.params).get("twice_when_boxed"):
            hits += [town.and_([town.vis[g], across]), town.and_([town.vis[g], down])]
        else:
            hits.append(town.and_([town.vis[g], town.or_([across, down])]))
    return goal.param("per_gun") * town.count(hits)


_CORNERS = ((1, 1), (1, -1), (-1, 1), (-1, -1))


def _snow_near(town: CpTown, c: Slot, corners: bool):
    """Cow slot ``c`` (visible) is on Snow or has a visible Snow next to it; with ``corners`` (rule:W13) also one
    touching its cell at a corner."""
    near = _near_terrain(town, c, "Snow")
    if not corners:
        return near
    at_corner = [town.and_([town.or_([town.cell_is(c, t, ex, ey) for ex, ey in _CORNERS]), town.vis[t]])
                 for t in _slots_with(town, "terrain", "Snow") if t != c]
    return town.or_([near] + at_corner)


def happy_cows(town: CpTown, goal: GoalSpec):
    """rule:W-goal-happy-cows: per Cow neither on nor next to Snow (a Snow at a corner counting as next to it
    with ``snow_corners``, rule:W13)."""
    corners = bool(dict(goal.params).get("snow_corners"))
    hits = [town.and_([town.vis[c], town.not_(_snow_near(town, c, corners))]) for c in _slots_with(town, "icon", "Cow")]
    return goal.param("per_cow") * town.count(hits)


def bootleggers(town: CpTown, goal: GoalSpec):
    """rule:W-goal-bootleggers: per Beer next to a Wagon, and per Beer not next to one."""
    wagons = _slots_with(town, "icon", "Wagon")
    beers = _slots_with(town, "icon", "Beer")
    near = [town.and_([town.vis[b], town.or_([town.linked(b, w) for w in wagons])]) for b in beers]
    n_near, n_all = town.count(near), _count(town, beers)
    return goal.param("per_beer_adjacent") * n_near + goal.param("per_beer_alone") * (n_all - n_near)


def gold_country(town: CpTown, goal: GoalSpec):
    """rule:W-goal-gold-country: per Mine on or next to Mountains."""
    hits = [town.and_([town.vis[s], _near_terrain(town, s, "Mountains")]) for s in _slots_with(town, "icon", "Mine")]
    return goal.param("per_mine") * town.count(hits)


def the_herd(town: CpTown, goal: GoalSpec):
    """rule:W-goal-the-herd: per Cow in the largest edge-connected group of Cow icons (a card that
    subtracts, per_cow < 0, needs the exact largest group: maximising would pick a smaller one)."""
    size, _ = town.largest_group(_slots_with(town, "icon", "Cow"), sizes_at_least=goal.param("per_cow") < 0)
    return goal.param("per_cow") * size


def wagon_train(town: CpTown, goal: GoalSpec):
    """rule:W-goal-wagon-train: each maximal row run and column run of Wagons scores by the table.

    ``ge[s, k]``: visible Wagon ``s`` has at least ``k - 1`` Wagons straight before it (left, or
    above), so exactly ``ge[s, k] - ge[s, k + 1]`` says it is the ``k``-th of its run. A run of length
    L has exactly one k-th Wagon for each k <= L, so with ``inc(k) = table[k] - table[k - 1]`` it
    scores ``table[0] + sum(inc(k), k <= min(L, K))`` = ``table[min(L, K)]`` (K = the table's last
    index: longer runs score its last entry), and ``table[0]`` once per run start (``k = 1``).
    """
    table = tuple(goal.param("run_points"))
    K = len(table) - 1
    slots = _slots_with(town, "icon", "Wagon")
    terms = []
    for ex, ey in ((1, 0), (0, 1)):
        ge = {(s, 1): town.vis[s] for s in slots}
        for k in range(2, K + 2):
            for s in slots:
                ge[(s, k)] = town.or_([town.and_([town.cell_is(t, s, ex, ey), town.vis[s], ge[(t, k - 1)]])
                                       for t in slots if t != s])
        exactly = lambda k, ge=ge: town.count([town.and_([ge[(s, k)], town.not_(ge[(s, k + 1)])]) for s in slots])
        line = []
        if table[0]:
            line.append(table[0] * exactly(1))
        for k in range(1, K + 1):
            if table[k] - table[k - 1]:
                line.append((table[k] - table[k - 1]) * exactly(k))
        terms.append(sum(line, _ZERO))
    if town.speedups and slots:
        # redundant (admissible): the row runs partition the visible Wagons, and so do the column runs
        best = run_partition_best(table, len(slots))
        cap = _table(town, _count(town, slots), 0, len(slots), lambda w: best[w])
        for line_total in terms:
            town.m.add(line_total <= cap)
    return sum(terms, _ZERO)


def counting(town: CpTown, goal: GoalSpec):
    """A counting kind (:mod:`solver.wagons.goal_kinds`: Prairie Life, Boom or Bust, ...): the catalogue's points
    of the total of the visible symbols it counts, as a table over that total."""
    entry = goal_kinds.kind(goal.kind)
    groups = [_slots_with(town, "terrain" if lane == 0 else "icon", name)
              for (lane, _code), name in zip(goal_kinds.symbol_lanes(entry.counts), entry.counts)]
    total = _count(town, groups[0])
    for slots in groups[1:]:
        total = total + _count(town, slots)
    return _table(town, total, 0, sum(len(slots) for slots in groups), lambda v: entry.points(goal, v))


PLAYER_GOALS = {"cool-water": cool_water, "badlands": badlands, "happy-cows": happy_cows,
                "bootleggers": bootleggers, "gold-country": gold_country, "the-herd": the_herd,
                "wagon-train": wagon_train}
"""Position kind -> ``encode(town, goal)``; the counting kinds are :func:`counting`, the comparing ones
:func:`comparing` (a table of the scorer's own comparing card over the counts the catalogue says it reads)."""
goal_kinds.check_backend("cpsat", PLAYER_GOALS, ("position",))
_ICON_COUNTED = {"beers": "Beer", "mines": "Mine", "guns": "Gun"}


def _counted_slots(town: CpTown, name: str) -> list[Slot]:
    """The slots a :class:`Side` count reads: every slot (territories) or those of one icon."""
    return town.slots if name == "territories" else _slots_with(town, "icon", _ICON_COUNTED[name])


def comparing(town: CpTown, goal: GoalSpec, scenario: ScenarioSpec, pc: PileCounts):
    """(player points, opponent points) of a card comparing both towns (rule:W6, rule:W7): a table of
    the ordinary scorer's :func:`comparing_goal` over the counts the card reads."""
    entry = goal_kinds.kind(goal.kind)
    if entry is None or entry.family != "comparing":
        raise BadInput(f"goal card '{goal.name}' is not a comparing card")
    reads = entry.reads
    reading = scenario.reading(goal.name)
    opp = Side(pc.territories, pc.icon[BEER], pc.icon[MINE], pc.icon[GUN] + reading.extra_guns)
    m = town.m
    ks, most = [], []
    for name in reads:
        slots = _counted_slots(town, name)
        k = m.new_int_var(0, len(slots), "")
        m.add(k == _count(town, slots))
        ks.append(k)
        most.append(len(slots))
    rows = []
    for combo in itertools.product(*[range(top + 1) for top in most]):
        side = {"territories": 0, "beers": 0, "mines": 0, "guns": 0}
        side.update(zip(reads, combo))
        mine, theirs = comparing_goal(goal, Side(**side), opp, reading.can_lose)
        rows.append((*combo, mine, theirs))
    lo = min(min(r[-2], r[-1]) for r in rows)
    hi = max(max(r[-2], r[-1]) for r in rows)
    mine_v, theirs_v = m.new_int_var(lo, hi, ""), m.new_int_var(lo, hi, "")
    m.add_allowed_assignments(ks + [mine_v, theirs_v], rows)
    return mine_v, theirs_v


def goal_terms(town: CpTown, scenario: ScenarioSpec, data: WagonsData, pc: PileCounts,
               water=None) -> tuple[dict[str, Any], dict[str, Any]]:
    """({goal card: player points}, {comparing card: opponent points}) for the scenario's two cards."""
    mine, theirs = {}, {}
    for name in scenario.goals:
        goal = data.scorable_goal(name, "optimise")
        if goal.kind in COMPARING:
            mine[name], theirs[name] = comparing(town, goal, scenario, pc)
        elif goal.kind == "cool-water":
            mine[name] = cool_water(town, goal, water)
        elif goal.kind in goal_kinds.COUNTING:
            mine[name] = counting(town, goal)
        else:
            mine[name] = PLAYER_GOALS[goal.kind](town, goal)
    return mine, theirs


def player_score(town: CpTown, scenario: ScenarioSpec, data: WagonsData, pc: PileCounts):
    """(player total, {part: expression}, {comparing card: opponent points}): the six largest groups
    (rule:W7) plus the two goal cards."""
    parts: dict[str, Any] = {}
    water = None
    uses_cool_water = any(data.goal(g).kind == "cool-water" for g in scenario.goals)
    for terrain in ("Desert", "Forest", "Mountains", "Plains", "Snow", "Water"):
        cands = _slots_with(town, "terrain", terrain)
        if terrain == "Water" and uses_cool_water and cands:
            water = town.largest_group(cands, sizes_at_least=True)
            parts[terrain] = water[0]
        else:
            parts[terrain] = town.largest_group(cands)[0]
    if town.speedups:
        # redundant (admissible): the largest groups are disjoint sets of visible territories
        town.m.add(sum(parts.values(), _ZERO) <= _count(town, town.slots))
    mine, theirs = goal_terms(town, scenario, data, pc, water)
    if town.speedups and town.tightened:
        _groups_with_territory_cards(town, scenario, data, pc, parts, mine)
    parts.update(mine)
    return sum(parts.values(), _ZERO), parts, theirs


def _groups_with_territory_cards(town: CpTown, scenario: ScenarioSpec, data: WagonsData, pc: PileCounts,
                                 groups: dict, mine: dict) -> None:
    """Redundant (admissible): the largest groups and the comparing cards that read only the visible
    territories ``V`` (Smalltown Charm, rule:W-goal-smalltown-charm) together score at most
    ``max over V of (V + those cards' player points at V)``.

    Why it holds for every legal town: the groups are disjoint sets of visible territories, so at most
    ``V`` (rule:W-groups), and such a card's points are a function of ``V`` alone (the opponent's count
    is the pile's, fixed), so the sum is at most ``V + points(V)`` for the town's own ``V``. The model
    knows both facts apart (``groups <= V``; the card's table over ``V``), but propagation without LP
    does not add them up: with the cap, Boomtown's proofs (fewer territories score the difference, so
    covering trades groups for Charm) fall from 6-30 s or more to under a second on most greedy towns
    (``bench/bench_wagons_proofs.py``, docs/history/wagons-optimizer-2026.md)."""
    names = [g for g in scenario.goals if data.goal(g).kind in goal_kinds.COMPARING
             and goal_kinds.kind(data.goal(g).kind).reads == ("territories",)]
    if not names:
        return
    n = town.n
    best = None
    for v in range(4 if n else 0, 4 * n + 1):
        total = v
        for name in names:
            goal, reading = data.goal(name), scenario.reading(name)
            opp = Side(pc.territories, pc.icon[BEER], pc.icon[MINE], pc.icon[GUN] + reading.extra_guns)
            total += comparing_goal(goal, Side(v, 0, 0, 0), opp, reading.can_lose)[0]
        best = total if best is None else max(best, total)
    town.m.add(sum(groups.values(), _ZERO) + sum((mine[g] for g in names), _ZERO) <= best)


# ---------------------------------------------------------------- solving

@dataclass(frozen=True)
class SolveResult:
    xyr: tuple | None  # positions of the best town found by CP-SAT (None: none beat the incumbent)
    value: int | None  # the model's value of that town
    proven: bool
    bound: int | None  # upper bound on the objective (None: nothing proven)


def _no_stratification(params) -> None:
    """Core-based search takes the objective's terms in one stratum (newer OR-Tools bind an enum type)."""
    kind = type(params.max_sat_stratification)
    params.max_sat_stratification = getattr(kind, "STRATIFICATION_NONE",
                                            sat_parameters_pb2.SatParameters.STRATIFICATION_NONE)


def _ceil(b: float) -> int:
    """An integer objective's upper bound from CP-SAT's float bound."""
    return math.ceil(b - 1e-6)


def _at_least(b: int, floor: int | None) -> int:
    """The original problem's bound from the bound of the problem restricted to values > floor."""
    return b if floor is None else max(b, floor)


def _best_of(*values: int | None) -> int | None:
    """The largest of the known values (None if none is known)."""
    known = [v for v in values if v is not None]
    return max(known) if known else None


PROOFS = ("search", "core", "bound")
"""How the second phase proves a town optimal: ``"search"`` (default), CP-SAT's default search without
LP asked for a town beating the best one (infeasible = proven); ``"core"``, core-based search, which
also proves an upper bound while it runs; ``"bound"``, CP-SAT's objective lower-bound search: the
search asked for the highest value the bound allows first, the bound lowered one proven step at a time
(as tight a bound as the core search, measured; alone it proved 10-30% slower than the search proof and
found lower towns on 2 of 20 greedy towns, and after half the time of the search it lost 3 of 32 proofs
that took the search 35-60 s, so by default it runs after three quarters: :data:`PRIMAL_SHARE`)."""


PRIMAL_SHARE = {"core": 0.25, "bound": 0.75}
"""The default share of the time for the primal phase (CP-SAT's default search, which can itself end in a
proof) before each proof phase; none before the search proof."""


class _Phases:
    """The solve's state: the best town CP-SAT found (``xyr``, ``value``) and whether the proven bound
    of the core or bound phase fell to it (``closed``)."""

    def __init__(self, town: CpTown, target, on_bound, on_solution):
        self.town, self.target = town, target
        self.on_bound, self.on_solution = on_bound, on_solution
        self.xyr, self.value = None, None
        self.closed = False  # the core or bound phase's bound fell to the best value: nothing beats it

    def hint(self, hint) -> None:
        m = self.town.m
        for (x, y, r), X, Y, R in zip(hint, self.town.X, self.town.Y, self.town.R):
            m.add_hint(X, x)
            m.add_hint(Y, y)
            if not isinstance(R, int):
                m.add_hint(R, 1 if r else 0)

    def _callback(self):
        phases = self

        class Found(cp_model.CpSolverSolutionCallback):
            def on_solution_callback(self):
                v = int(self.value(phases.target))
                if phases.value is None or v > phases.value:
                    phases.xyr, phases.value = tuple(decode(phases.town, self.value)), v
                    if phases.on_solution is not None:
                        phases.on_solution(phases.xyr, v)

        return Found()

    def _bound_callback(self, solver, floor: int | None):
        def bound(b: float) -> None:
            b = _at_least(_ceil(b), floor)
            if self.on_bound is not None:
                self.on_bound(b)
            # CP-SAT keeps searching after its proven bound falls below ``floor + 1`` (measured: an
            # idle half minute on a 7-card town); the bound is the proof, so stop there.
            best = _best_of(floor, self.value)
            if best is not None and b <= best:
                self.closed = True
                solver.stop_search()

        return bound

    def run(self, proof: str, seconds: float, floor: int | None):
        """One phase: maximise the target above ``floor`` for ``seconds`` by ``proof`` (:data:`PROOFS`)."""
        m = self.town.m
        if floor is not None:
            m.add(self.target >= floor + 1)
        m.maximize(self.target)
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        solver.parameters.max_time_in_seconds = max(0.01, seconds)
        solver.parameters.random_seed = 1
        # no LP relaxation (weak here; without it the search makes more conflicts per second), no
        # probing and no SAT inprocessing (costly here): proofs of three 8-card towns from their best
        # value took 17-23 s instead of 34-74 s (docs/history/wagons-optimizer-2026.md)
        solver.parameters.linearization_level = 0
        solver.parameters.cp_model_probing_level = 0
        solver.parameters.use_sat_inprocessing = False
        if proof == "bound":
            solver.parameters.use_objective_lb_search = True
        if proof == "core":
            solver.parameters.optimize_with_core = True
            # no stratification by weight: on 12 seeded 8-card towns it proved 4 within 60 s against 2
            # with the default, and its bounds were tighter on 10 of them (bench_wagons_optimize)
            _no_stratification(solver.parameters)
        if proof in ("core", "bound"):  # the searches that prove a falling bound
            solver.best_bound_callback = self._bound_callback(solver, floor)
        with watching(solver) as go:  # the page's Stop ends the search (stopping.StopSignal)
            if not go:
                solver.parameters.max_time_in_seconds = 0.01
            status = solver.solve(m, self._callback())
        if status == cp_model.MODEL_INVALID:
            raise AssertionError(f"CP-SAT model invalid: {m.validate()}")
        return solver, status

    def settled(self, status, floor: int | None) -> SolveResult | None:
        """The proven result of a phase (its best town, or nothing beats ``floor``), else None."""
        if self.closed:
            return SolveResult(self.xyr, self.value, True, _best_of(floor, self.value))
        if status == cp_model.OPTIMAL:
            return SolveResult(self.xyr, self.value, True, self.value)
        if status == cp_model.INFEASIBLE:
            return SolveResult(self.xyr, self.value, True, floor)  # nothing beats the best found (or the incumbent)
        return None


def solve(town: CpTown, target, incumbent: int | None, deadline: float, hint=None,
          on_bound: Callable[[int], None] | None = None, on_solution: Callable[[tuple, int], None] | None = None,
          primal_share: float | None = None, polish: Callable[[tuple], tuple | None] | None = None,
          proof: str = "search") -> SolveResult:
    """Maximise ``target`` above ``incumbent``: a primal phase (default search, hinted) for a share of
    the time, then a proof phase (``proof``, see :data:`PROOFS`) asked for a town beating the best;
    infeasible = proven.

    ``primal_share``: the primal phase's share of the time; by default none before the search proof
    (that search is hinted and finds towns itself: on the 20 seeded 8-card towns, 5 proofs within
    60 s against 4 after a quarter of primal search, and the proofs came sooner), a quarter before
    the core proof (core-based search finds few towns) and three quarters before the bound proof (the
    search proof, which proves most towns that are proven at all within that time, then the bound
    search for a tight bound on the rest: :data:`PRIMAL_SHARE`).
    ``polish(xyr)``: called between the phases with the primal phase's best town, returns a
    better ``(xyr, value)`` or None (the local search of :mod:`solver.wagons.optimizer.local`)."""
    if proof not in PROOFS:
        raise ValueError(f"proof: expected one of {PROOFS}, got {proof!r}")
    if primal_share is None:
        primal_share = PRIMAL_SHARE.get(proof, 0.0)
    phases = _Phases(town, target, on_bound, on_solution)
    if hint is not None:
        phases.hint(hint)
    floor = incumbent
    left = capped(deadline) - time.monotonic()
    if left <= 0:
        return SolveResult(None, None, False, None)
    primal_bound = None
    if primal_share > 0:
        primal, status = phases.run("search", left * primal_share, floor)
        done = phases.settled(status, floor)
        if done is not None:
            return done
        primal_bound = stopped_bound(primal, floor)  # bounds every town: those at or below floor trivially
        if phases.value is not None:
            floor = phases.value
        if polish is not None and phases.xyr is not None and time.monotonic() < capped(deadline):
            better = polish(phases.xyr)  # (the hint, when there is one, is already the local search's)
            if better is not None and (floor is None or better[1] > floor):
                phases.xyr, phases.value = better
                floor = phases.value
    left = capped(deadline) - time.monotonic()
    if left <= 0:
        return SolveResult(phases.xyr, phases.value, False, primal_bound)
    solver, status = phases.run(proof, left, floor)
    done = phases.settled(status, floor)
    if done is not None:
        return done
    bounds = [b for b in (primal_bound, stopped_bound(solver, floor)) if b is not None]
    return SolveResult(phases.xyr, phases.value, False, min(bounds) if bounds else None)


def stopped_bound(solver: cp_model.CpSolver, floor: int | None) -> int | None:
    """The upper bound that a phase stopped by its time limit has proven, or None when it proved none.

    CP-SAT reports a bound of 0 when the limit struck before its search began (its presolve and loading
    take 0.5-1 s on an 8-card town's model): that number is no bound, and read as one it "proved" every
    town optimal. So: no bound unless the search ran (``num_booleans`` of the loaded model), and none at
    or below ``floor``: the model asks for more than ``floor``, so a real bound of at most ``floor`` would
    have ended the solve as infeasible. A bound above ``floor`` bounds the original problem as well."""
    if solver.response_proto.num_booleans == 0:
        return None
    try:
        bound = _ceil(solver.best_objective_bound)
    except (TypeError, ValueError, OverflowError):
        return None
    if floor is not None and bound <= floor:
        return None
    return bound


# ---------------------------------------------------------------- the method

LOCAL_SHARE = 0.15
"""The share of the time left that each local search (before CP-SAT, and after the core method's primal
phase) may use; it usually stops sooner, after ``local.PATIENCE`` kicks without a better town."""


def _polisher(problem: Problem, incumbent: Incumbent):
    """``polish(xyr)``: :func:`.local.polish` with this method's :data:`LOCAL_SHARE` of the time left."""
    return lambda xyr: polish(problem, incumbent, xyr, LOCAL_SHARE)


@dataclass(frozen=True)
class CpSatProof:
    """``prove(problem, incumbent)``: the iterated local search's town, then this model: CP-SAT's search
    without LP (``proof="search"``, ``method="cpsat"``, the field's default and a deal search's) or a
    primal phase, the local search again and core-based search (``proof="core"``, ``method="cpsat-core"``)
    or the objective lower-bound search (``proof="bound"``, ``method="cpsat-bound"``, best-layout's
    default :data:`~.problem.LAYOUT_METHOD`) for a town beating the best one until infeasible (the
    proof) or the time limit. ``speedups``: the model with its redundant bounds
    and symmetry breaking (default; ``False`` is the baseline of ``bench/bench_wagons_proofs.py``);
    ``tightened``: with them, issue 20's second round (the territory cap and the group neighbours;
    default; ``False`` is the benches' ``current``, the prover before it); ``triangles``: the redundant
    offset clauses (:data:`TRIANGLES`; ``"full"`` is the build before the encoding round)."""

    proof: str = "search"
    speedups: bool = True
    tightened: bool = True
    triangles: str = "reduced"

    @property
    def name(self) -> str:
        return {"search": "cpsat", "core": "cpsat-core", "bound": "cpsat-bound"}[self.proof]

    def prove(self, problem: Problem, incumbent: Incumbent) -> bool:
        try:
            town, target = self.model(problem)
        except EncodeTimeout:
            return False
        polish = _polisher(problem, incumbent)
        floor = incumbent.to_beat()
        hint = normal_xyr(incumbent.town, problem.quads) if incumbent.town is not None else None
        if hint is not None:
            better = polish(hint)
            if better is not None:
                hint = list(better[0])
                floor = max(floor, better[1]) if floor is not None else better[1]
        res = solve(town, target, floor, problem.deadline, hint=hint, on_bound=incumbent.tighten,
                    on_solution=incumbent.offer_xyr, polish=polish, proof=self.proof)
        if res.bound is not None:
            incumbent.bound = res.bound if incumbent.bound is None else min(incumbent.bound, res.bound)
        bound, best = incumbent.bound, incumbent.value
        # the bound of "beat the best" fell to the best: nothing beats it
        proven = res.proven or (bound is not None and best is not None and bound <= best)
        if proven and _MODELS.get() is not None:
            _MODELS.get().pop(self._key(problem), None)  # a proven problem is not asked again
        return proven

    def build(self, problem: Problem) -> tuple[CpTown, Any]:
        """(town, target): the model of ``problem`` built afresh (raises :class:`EncodeTimeout`)."""
        town = encode(problem.quads, deadline=problem.deadline, speedups=self.speedups,
                      tightened=self.tightened, triangles=self.triangles)
        total, _parts, theirs = player_score(town, problem.scenario, problem.data, problem.pile_counts)
        target = total if problem.objective != "margin" else total - sum(theirs.values()) - problem.opponent_fixed
        if problem.round1 is not None:
            m_cards, opp_terr, behind = problem.round1
            have = town.territories_after(m_cards)
            town.m.add(have >= opp_terr) if behind else town.m.add(have < opp_terr)
        return town, target

    def model(self, problem: Problem) -> tuple[CpTown, Any]:
        """(town, target) to solve ``problem`` with: inside :func:`reusing_models`, a copy of the model
        built for the same problem earlier in the block (a later proof pass on the same line), else
        :meth:`build` (keeping a copy for later when inside the block)."""
        store = _MODELS.get()
        if store is None:
            return self.build(problem)
        key = self._key(problem)
        hit = store.get(key)
        if hit is not None and hit[0] is problem.data:
            return hit[1].copy()
        town, target = self.build(problem)
        if len(store) < MAX_MODELS:  # when full, the first ones stay: a deal search's passes revisit them first
            store[key] = (problem.data, BuiltModel.keep(town, target))
        return town, target

    def _key(self, problem: Problem) -> tuple:
        return (self, problem.cards, problem.scenario_id, problem.pile, problem.rules, problem.objective,
                problem.round1, id(problem.data))


MAX_MODELS = 32
"""Models kept per :func:`reusing_models` block (a few MB each: an 8-card town's model has some 30,000
constraints); a proven problem's model is dropped."""

_MODELS: ContextVar[dict | None] = ContextVar("cpsat_models", default=None)


@contextmanager
def reusing_models(store: dict) -> Iterator[dict]:
    """Within the block (in this thread or task), :meth:`CpSatProof.prove` keeps in ``store`` a copy of
    each model it builds, before any solve adds to it, and solves a later proof of the same problem (same
    cards in order, pile, scenario, readings, data, objective, round-1 condition and prover) on a fresh
    copy of it instead of building it again: the copy is the very model a fresh build gives, so the
    proof is the same. The store holds model copies, never a solver; a deal search owns one per search."""
    token = _MODELS.set(store)
    try:
        yield store
    finally:
        _MODELS.reset(token)


@dataclass(frozen=True)
class BuiltModel:
    """A pristine copy of a built model (nothing solved on it, no hint, no floor) with the positions, turns
    and target bound to it; :meth:`copy` gives a town and target to solve on a fresh copy of it."""

    town: CpTown
    coeffs: tuple[int, ...]
    indices: tuple[int, ...]
    offset: int

    @staticmethod
    def keep(town: CpTown, target) -> BuiltModel:
        m = town.m.clone()
        flat = cp_model_helper.FlatIntExpr(target) if not isinstance(target, int) else None
        slim = _rebound(town, m)
        if flat is None:
            return BuiltModel(slim, (), (), int(target))
        return BuiltModel(slim, tuple(flat.coeffs), tuple(v.index for v in flat.vars), flat.offset)

    def copy(self) -> tuple[CpTown, Any]:
        m = self.town.m.clone()
        target = sum((c * m.get_int_var_from_proto_index(i) for c, i in zip(self.coeffs, self.indices)), _ZERO)
        return _rebound(self.town, m), target + self.offset


def _rebound(town: CpTown, m: cp_model.CpModel) -> CpTown:
    """``town``'s positions and turns as variables of ``m`` (a clone of its model), without the literal
    tables of the build (a solve reads only the positions and turns)."""
    var = m.get_int_var_from_proto_index
    return replace(town, m=m, X=[var(x.index) for x in town.X], Y=[var(y.index) for y in town.Y],
                   R=[r if isinstance(r, int) else var(r.index) for r in town.R], rel={}, vis={}, _cache={})
