"""Z3 encoding of the towns one ordered list of cards can build, and of their score.

One fresh ``z3.Context`` per :func:`encode` call (rule:W-opt-layout); nothing Z3 is cached or shared between solves.

The model is built on *slots*, not on board cells: slot ``(i, k)`` is the territory at table
position ``k`` (0 tl, 1 tr, 2 bl, 3 br) of card ``i``. That keeps the model small (4 slots per
card, independent of how far the town sprawls):

- **Position.** Card ``i`` has integers ``X_i, Y_i`` (its top-left territory) and a Boolean ``R_i``
  (turned 180 degrees, rule:W-rotation). The first card lies at (0, 0), unturned: translating or
  turning a whole town changes no score (every goal is symmetric under a half turn), so this
  loses no town.
- **Placement** (rule:W-place): card ``i > 0`` touches or covers an earlier card ``j``:
  ``|X_i-X_j| <= 2`` and ``|Y_i-Y_j| <= 2`` but not both equal to 2 (corner-only contact).
- **Visibility** (rule:W-cover): a slot shows iff no later card covers its cell. Two visible slots
  never share a cell, so "adjacent visible slots" is exactly "adjacent visible territories".
- **Largest groups** (rule:W7): for each terrain a selected set of visible slots of that terrain,
  connected by a rooted distance labelling (at most one root; every other selected slot has a
  selected neighbour with a smaller label). Every model's value is the size of some connected
  group and the largest group is a model, so the maximum is exact.
- **Exact components** (for Cool Water's "largest Water group"): every visible slot of the terrain
  carries a component label (equal across adjacent slots; reaching the label's root through
  decreasing distances), so label classes are exactly the components and their sizes are exact.
- **Goal cards**: :mod:`solver.wagons.optimizer.z3solver.goals` adds one Z3 integer per goal card.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import z3

from solver.wagons.cards import OFFSETS
from solver.wagons.codes import TERRAINS
from solver.wagons.optimizer.quads import EncodeTimeout, Quad, QuadSlots, Slot


def turned(quads: Sequence[Quad], rot: int) -> tuple[Quad, Quad, Quad, Quad]:
    """The card's territories (tl, tr, bl, br) as they lie after turning by ``rot`` (rule:W-rotation)."""
    tl, tr, bl, br = quads
    return (tl, tr, bl, br) if rot == 0 else (br, bl, tr, tl)


@dataclass
class Town(QuadSlots):
    """The Z3 view of a town: positions, visibility and what each slot shows (one context only)."""

    ctx: z3.Context
    quads: tuple
    X: list
    Y: list
    R: list
    constraints: list = field(default_factory=list)
    _cache: dict = field(default_factory=dict)
    deadline: float | None = None  # time.monotonic() after which building stops (EncodeTimeout)
    reach: bool = False  # layered Boolean reachability instead of distances: measured 2-3x slower
    closed: bool = False  # force full components: measured slower (38 s vs 10-15 s on a 6-card proof)
    cuts: bool = False  # redundant group-size bounds: measured 2-3x slower
    bfs: bool = False  # exact BFS labels: measured slower (26.7 s vs 18.3 s on a 6-card unsat proof)

    # ---- basics

    def val(self, v: int):
        return z3.IntVal(v, self.ctx)

    def true(self):
        return z3.BoolVal(True, self.ctx)

    def false(self):
        return z3.BoolVal(False, self.ctx)

    def define(self, key, name: str, expr):
        """A named Boolean equal to ``expr`` (shared sub-formula), cached under ``key``."""
        if key in self._cache:
            return self._cache[key]
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise EncodeTimeout("time limit reached while building the Z3 model")
        expr = z3.simplify(expr)
        if z3.is_true(expr) or z3.is_false(expr):
            v = expr
        else:
            v = z3.Bool(name, self.ctx)
            self.constraints.append(v == expr)
        self._cache[key] = v
        return v

    def count(self, bools) -> Any:
        bools = [b for b in bools if not z3.is_false(b)]
        if not bools:
            return self.val(0)
        return z3.Sum([z3.If(b, self.val(1), self.val(0)) for b in bools])

    # ---- geometry
    def offset_is(self, s: Slot, t: Slot, ex: int, ey: int):
        """Cell of ``t`` minus cell of ``s`` equals (ex, ey)."""
        (i, k), (j, l) = s, t
        (dxs, dys), (dxt, dyt) = OFFSETS[k], OFFSETS[l]
        if i == j:
            return z3.BoolVal((dxt - dxs, dyt - dys) == (ex, ey), self.ctx)
        a, b = (i, j) if i < j else (j, i)
        sign = 1 if i < j else -1
        # X_j - X_i == ex + dxs - dxt  (written with the smaller index first)
        want_x, want_y = sign * (ex + dxs - dxt), sign * (ey + dys - dyt)
        return z3.And(self.rel(a, b, "x", want_x), self.rel(a, b, "y", want_y))

    def rel(self, a: int, b: int, axis: str, d: int):
        """``X_b - X_a == d`` (or Y) as a shared Boolean; a < b."""
        if abs(d) > 4 * self.n:
            return self.false()
        P = self.X if axis == "x" else self.Y
        return self.define(("rel", a, b, axis, d), f"{axis}{a}_{b}_{d}", P[b] - P[a] == d)

    def right_of(self, s: Slot, t: Slot):
        """``t`` is the cell immediately right of ``s``."""
        return self.define(("right", s, t), f"right_{s[0]}{s[1]}_{t[0]}{t[1]}", self.offset_is(s, t, 1, 0))

    def below(self, s: Slot, t: Slot):
        """``t`` is the cell immediately below ``s``."""
        return self.define(("below", s, t), f"below_{s[0]}{s[1]}_{t[0]}{t[1]}", self.offset_is(s, t, 0, 1))

    def adjacent(self, s: Slot, t: Slot):
        """``s`` and ``t`` share an edge (as cells; visibility not included)."""
        if s == t:
            return self.false()
        key = ("adj",) + tuple(sorted((s, t)))
        return self.define(key, f"adj_{s[0]}{s[1]}_{t[0]}{t[1]}",
                           z3.Or(self.right_of(s, t), self.right_of(t, s), self.below(s, t), self.below(t, s)))

    def visible(self, s: Slot):
        """No later card covers the cell of ``s`` (rule:W-cover)."""
        i, k = s
        dx, dy = OFFSETS[k]
        covers = []
        for j in range(i + 1, self.n):
            # card j covers cell (X_i+dx, Y_i+dy) iff X_j - X_i in {dx-1, dx} and same for y
            covers.append(z3.And(z3.Or(self.rel(i, j, "x", dx - 1), self.rel(i, j, "x", dx)),
                                 z3.Or(self.rel(i, j, "y", dy - 1), self.rel(i, j, "y", dy))))
        return self.define(("vis", s), f"vis_{i}_{k}", z3.Not(z3.Or(*covers)) if covers else self.true())

    def visible_after(self, s: Slot, m: int):
        """Slot ``s`` (of one of the first ``m`` cards) shows once those ``m`` cards are placed."""
        i, k = s
        dx, dy = OFFSETS[k]
        covers = [z3.And(z3.Or(self.rel(i, j, "x", dx - 1), self.rel(i, j, "x", dx)),
                         z3.Or(self.rel(i, j, "y", dy - 1), self.rel(i, j, "y", dy))) for j in range(i + 1, m)]
        return z3.Not(z3.Or(*covers)) if covers else self.true()

    def territories_after(self, m: int):
        """The number of visible territories once the first ``m`` cards are placed."""
        return self.count([self.visible_after((i, k), m) for i in range(min(m, self.n)) for k in range(4)])

    # ---- contents
    def _shows(self, s: Slot, what: int, name: str):
        i, k = s
        on0 = turned(self.quads[i], 0)[k][what] == name
        on180 = turned(self.quads[i], 180)[k][what] == name
        rot = self.true() if on0 and on180 else (z3.Not(self.R[i]) if on0 else (self.R[i] if on180 else None))
        if rot is None:
            return self.false()
        return self.define(("shows", s, what, name), f"{'ti'[what]}{name}_{i}_{k}", z3.And(self.visible(s), rot))

    def terrain(self, s: Slot, name: str):
        """Slot ``s`` is visible and shows terrain ``name``."""
        return self._shows(s, 0, name)

    def icon(self, s: Slot, name: str):
        """Slot ``s`` is visible and shows icon ``name``."""
        return self._shows(s, 1, name)

    def may_show(self, s: Slot, what: int, name: str) -> bool:
        i, k = s
        return turned(self.quads[i], 0)[k][what] == name or turned(self.quads[i], 180)[k][what] == name

    def slots_showing(self, what: int, name: str) -> list[Slot]:
        return [s for s in self.slots if self.may_show(s, what, name)]

    def near(self, s: Slot, member: Callable[[Slot], Any], candidates: list[Slot]):
        """``member`` holds on ``s`` itself or on a slot adjacent to it."""
        terms = [member(s)] + [z3.And(self.adjacent(s, t), member(t)) for t in candidates if t != s]
        return z3.Or(*terms)

    # ---- groups
    def largest_group(self, tag: str, candidates: list[Slot], member: Callable[[Slot], Any]):
        """Size of a connected selected set of ``member`` slots; maximised it is the largest group (rule:W-groups, rule:W7)."""
        ctx = self.ctx
        if not candidates:
            return self.val(0)
        sel = {s: z3.Bool(f"sel_{tag}_{s[0]}_{s[1]}", ctx) for s in candidates}
        root = {s: z3.Bool(f"root_{tag}_{s[0]}_{s[1]}", ctx) for s in candidates}
        dist = {s: z3.Int(f"d_{tag}_{s[0]}_{s[1]}", ctx) for s in candidates}
        cs = self.constraints
        cs.append(z3.AtMost(*root.values(), 1))
        order = list(candidates)
        for n_, s in enumerate(order):
            cs.append(z3.Implies(sel[s], member(s)))
            cs.append(z3.Implies(root[s], sel[s]))
            # symmetry breaking: the root is the first selected slot
            cs.append(z3.Implies(root[s], z3.And(*[z3.Not(sel[t]) for t in order[:n_]], ctx)))
            if self.reach:
                continue
            cs.append(dist[s] >= 0)
            cs.append(dist[s] < len(candidates))
            steps = [z3.And(sel[t], self.adjacent(s, t), dist[t] < dist[s]) for t in candidates if t != s]
            cs.append(z3.Implies(z3.And(sel[s], z3.Not(root[s])), z3.Or(*steps) if steps else self.false()))
            if self.closed:
                for t in candidates:
                    if t != s:
                        cs.append(z3.Implies(z3.And(sel[s], self.adjacent(s, t), member(t)), sel[t]))
            if self.bfs:
                cs.append(z3.Implies(root[s], dist[s] == 0))
                cs.append(z3.Implies(z3.Not(sel[s]), dist[s] == 0))
                for t in candidates:
                    if t != s:
                        cs.append(z3.Implies(z3.And(sel[s], sel[t], self.adjacent(s, t)), dist[s] <= dist[t] + 1))
        if self.reach:
            # layered reachability from the root inside the selection (pure Boolean)
            layer = dict(root)
            for k in range(1, len(candidates)):
                nxt = {}
                for s_ in candidates:
                    grow = [z3.And(self.adjacent(s_, t), layer[t]) for t in candidates if t != s_]
                    v = z3.Bool(f"reach_{tag}_{k}_{s_[0]}_{s_[1]}", ctx)
                    cs.append(v == z3.Or(layer[s_], z3.And(sel[s_], z3.Or(self.false(), *grow))))
                    nxt[s_] = v
                layer = nxt
            for s_ in candidates:
                cs.append(z3.Implies(sel[s_], layer[s_]))
        size = self.count(sel.values())
        if self.cuts:
            cs.append(size <= self.count([member(s) for s in candidates]))  # redundant: helps proofs
        return size

    def components(self, tag: str, candidates: list[Slot], member: Callable[[Slot], Any]):
        """Exact connected components of ``member`` slots: returns (label, is_root, size_of_root).

        ``label[s]`` is the index (in ``candidates``) of the root of the component of ``s``; equal
        across adjacent members; every member reaches its root through decreasing distances, so a
        label class is exactly one component and ``size[r]`` (for a root ``r``) its size.
        """
        ctx, cs = self.ctx, self.constraints
        idx = {s: n for n, s in enumerate(candidates)}
        lab = {s: z3.Int(f"lab_{tag}_{s[0]}_{s[1]}", ctx) for s in candidates}
        dist = {s: z3.Int(f"cd_{tag}_{s[0]}_{s[1]}", ctx) for s in candidates}
        is_root = {}
        for s in candidates:
            m = member(s)
            is_root[s] = self.define(("croot", tag, s), f"croot_{tag}_{s[0]}_{s[1]}", z3.And(m, lab[s] == idx[s]))
            cs.append(z3.And(lab[s] >= 0, lab[s] < len(candidates), dist[s] >= 0, dist[s] < len(candidates)))
            for t in candidates:
                if idx[t] > idx[s]:
                    cs.append(z3.Implies(z3.And(m, member(t), self.adjacent(s, t)), lab[s] == lab[t]))
            steps = [z3.And(member(t), self.adjacent(s, t), lab[t] == lab[s], dist[t] < dist[s])
                     for t in candidates if t != s]
            cs.append(z3.Implies(z3.And(m, z3.Not(is_root[s])), z3.Or(*steps) if steps else self.false()))
        size = {r: self.count([z3.And(member(s), lab[s] == idx[r]) for s in candidates]) for r in candidates}
        return lab, is_root, size, idx


def encode(quads: Sequence[Sequence[Quad]], goal_terms: Callable[[Town], dict[str, Any]] | None = None,
           ctx: z3.Context | None = None, deadline: float | None = None):
    """Encode the towns buildable from ``quads`` (cards in placement order) and their player score.

    ``goal_terms(town)`` returns ``{goal card name: Z3 Int}`` and may add constraints to
    ``town.constraints``. Returns ``(town, objective, parts)`` where ``parts`` maps each terrain
    and each goal card to its Z3 Int and ``objective`` is their sum.
    """
    ctx = ctx or z3.Context()
    n = len(quads)
    X = [z3.Int(f"x{i}", ctx) for i in range(n)]
    Y = [z3.Int(f"y{i}", ctx) for i in range(n)]
    R = [z3.Bool(f"r{i}", ctx) for i in range(n)]
    town = Town(ctx, tuple(tuple(tuple(q) for q in c) for c in quads), X, Y, R, deadline=deadline)
    cs = town.constraints
    if n:
        cs += [X[0] == 0, Y[0] == 0, z3.Not(R[0])]
    for i in range(1, n):
        cs += [X[i] >= -2 * i, X[i] <= 2 * i, Y[i] >= -2 * i, Y[i] <= 2 * i]
    # rule:W-place - each later card touches (edge) or covers an earlier one; corner-only is illegal
    for i in range(1, n):
        near = []
        for j in range(i):
            dx, dy = X[i] - X[j], Y[i] - Y[j]
            near.append(z3.And(dx <= 2, dx >= -2, dy <= 2, dy >= -2,
                               z3.Not(z3.And(z3.Or(dx == 2, dx == -2), z3.Or(dy == 2, dy == -2)))))
        cs.append(z3.Or(*near))
    parts: dict[str, Any] = {}
    for terr in TERRAINS:
        cand = town.slots_showing(0, terr)
        parts[terr] = town.largest_group(terr, cand, lambda s, terr=terr: town.terrain(s, terr))
    if goal_terms is not None:
        parts.update(goal_terms(town))
    objective = z3.Sum(list(parts.values())) if parts else town.val(0)
    return town, objective, parts


def decode(town: Town, model: z3.ModelRef) -> list[tuple[int, int, int]]:
    """(x, y, rot) of each card in a model."""
    out = []
    for x, y, r in zip(town.X, town.Y, town.R):
        rv = model.eval(r, model_completion=True)
        out.append((model.eval(x, model_completion=True).as_long(), model.eval(y, model_completion=True).as_long(),
                    180 if z3.is_true(rv) else 0))
    return out
