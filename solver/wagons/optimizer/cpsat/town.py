"""The CP-SAT view of a town of one ordered list of cards (rule:W-opt-layout): :class:`CpTown`.

The model is built on *slots*: slot ``(i, k)`` is territory ``k`` (0 tl, 1 tr, 2 bl, 3 br as printed)
of the ``i``-th card placed. A slot keeps its territory; turning the card (rule:W-rotation) only
moves it to cell offset ``(1-dx, 1-dy)``. Everything is Boolean except the card positions (the literals
are built by :func:`.encode.encode`); a :class:`CpTown` states, over those literals:

- **Cell relations** (adjacent, right of, below) between two slots: ORs of ``rel`` literals (or
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
- ``exact``: every group is stated exactly that way (a question's condition may bound a group from above).
- With ``speedups`` and ``tightened``, each slot of a selected group of two or more has a selected
  neighbour (``CpTown._neighbours``): redundant, it holds in every legal town.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ortools.sat.python import cp_model

from solver.stopping import capped
from solver.wagons.cards import OFFSETS
from solver.wagons.optimizer.quads import EncodeTimeout, Quad, QuadSlots, Slot

__all__ = ["CpTown", "MAX_CUT_SLOTS", "ZERO", "offset", "looks_same_turned", "table_expr"]

MAX_CUT_SLOTS = 12
"""Above this many candidate slots a group's connectivity uses distance labels instead of cuts."""
ZERO = cp_model.LinearExpr.constant(0) if hasattr(cp_model.LinearExpr, "constant") else 0
"""The constant 0 as a linear expression (the start of a sum of model terms)."""


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
    speedups: bool = True  # the redundant (admissible) bounds and symmetry breaking
    tightened: bool = True  # with speedups: the territory cap and the group neighbours (the second round of the bound work)
    exact: bool = False  # every group (terrains, The Herd's Cows) exactly a largest one, not only at a maximum
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
        return sum((x for x in lits if not isinstance(x, bool)), ZERO) + const

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

        ``sizes_at_least`` (or the town's ``exact``): also force the selection to be at least as large as every
        visible connected subset of ``candidates``: it is then exactly a largest group, so a condition may bound it
        from above too (the question engine's town search sets ``exact``).
        """
        m = self.m
        if not candidates:
            return ZERO, {}
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
        size = sum(z.values(), ZERO)
        if len(candidates) > 1:
            m.add(sum(edges.values(), ZERO) >= size - 1)  # redundant: a spanning tree
        if self.speedups and self.tightened and len(candidates) > 1:
            self._neighbours(candidates, z, edges, size)
        if len(candidates) <= MAX_CUT_SLOTS:
            self._cuts(candidates, z, edges)
        else:
            self._distances(candidates, z, edges)
        if sizes_at_least or self.exact:
            self._at_least_every_component(candidates, size)
        # the size as a sum of "at least k" Booleans: core-based search bounds those better than the
        # selection literals (7-card towns: 136 s against 192 s for 6 proofs, bench_wagons_optimize)
        return table_expr(self, size, 0, len(candidates), lambda v: v), z

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


def table_expr(town: CpTown, expr, lo: int, hi: int, fn: Callable[[int], int]):
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
    return sum(out[1:], ZERO) + out[0]
