"""CP-SAT encoding of the towns one ordered list of cards can build (rule:W-opt-layout, rule:W-place,
rule:W-cover): :func:`encode` and :func:`decode`.

- **Relative placement.** For each pair of cards ``i < j`` exactly one literal holds: ``rel[i,j][c]``
  for ``c = (dx, dy, ri, rj)`` with ``dx = X_j - X_i`` and ``dy = Y_j - Y_i`` in -2..2 and both turns,
  or ``far[i,j]`` (the cards are 3 or more territories apart on some axis: no slot of one can touch,
  cover or neighbour a slot of the other). These literals are tied to integer positions ``X, Y`` and
  turn Booleans ``R``, so they are always consistent. The first card lies at (0, 0) unturned
  (translating or turning a whole town changes no score); a card that looks the same turned is never turned.
- **Offsets per axis** (redundant, up to 10 cards): ``axis[x|y, i, j, d]`` iff ``P_j - P_i == d`` for d in
  -2..2, at most one per pair and axis; for cards ``i < j < k`` two pairs' offsets give the third's
  (``c = a + b``: three clauses per agreeing triple) and, where ``a + b``, ``c - a`` or ``c - b`` lies
  beyond -2..2, the three offsets exclude each other (:func:`add_triangles`; the other contradictions follow
  by propagation through the at-most-one).
- **Placement** (rule:W-place): card ``j > 0`` touches or covers an earlier card: some
  ``rel[i,j][c]`` with ``|dx|, |dy| <= 2`` and not both 2 (corner-only contact is illegal).
- **Visibility** (rule:W-cover): slot ``(i, k)`` shows iff no ``rel[i,j][c]`` with ``j > i`` puts card
  ``j``'s footprint over its cell. Two visible slots never share a cell.
- **Symmetry breaking** (``speedups``, default on): a card showing nothing lies unturned
  (:func:`_hidden_unturned`); it holds for (a twin of) every legal town with the same visible grid, so no
  optimum is lost.

The score is :mod:`.goals`' (the groups and the goal cards); the solving :mod:`.solve`.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any

from ortools.sat.python import cp_model

from solver.wagons.optimizer.cpsat.town import CpTown, looks_same_turned
from solver.wagons.optimizer.quads import Quad

__all__ = ["encode", "decode", "add_triangles"]

def encode(quads: Sequence[Sequence[Quad]], deadline: float | None = None, speedups: bool = True,
           tightened: bool = True, triangles: Callable[..., None] | None = None) -> CpTown:
    """Positions, relative placements, placement legality and visibility for cards in this order
    (``speedups``: with the redundant bounds and the symmetry breaking of :func:`_hidden_unturned`;
    ``tightened``, with ``speedups``: the group neighbours (``CpTown._neighbours``) and, in
    :func:`player_score`, :func:`_groups_with_territory_cards`; ``triangles(m, n, axis, town)``: what adds the
    redundant offset clauses, :func:`add_triangles` by default; a benchmark passes the build it compares
    against)."""
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
    (triangles or add_triangles)(m, n, axis, town)
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


_OFFSETS = range(-2, 3)
_SUMS = [(a, b, a + b) for a in _OFFSETS for b in _OFFSETS if -2 <= a + b <= 2]
"""Offsets ``(a, b, c)`` of the pairs ``(i, j)``, ``(j, k)``, ``(i, k)`` of three cards that agree (c = a + b)."""
_APART_FAR = [(a, b, c) for a in _OFFSETS for b in _OFFSETS for c in _OFFSETS
              if c != a + b and max(abs(a + b), abs(c - a), abs(c - b)) > 2]
"""Offsets of the three pairs that contradict each other, where two of them put the third pair beyond -2..2 (no
literal to derive)."""


def add_triangles(m, n, axis, town) -> None:
    """Redundant: the offset of a pair of cards follows from the offsets of the two other pairs (on each
    axis, ``c = a + b`` for the pairs ``(i, j)``, ``(j, k)``, ``(i, k)`` of cards ``i < j < k``).

    The offset literals are reified (``axis[name, i, j, d]`` iff ``P_j - P_i == d``), so every clause here
    holds in every town: an at-most-one over each pair's five offset literals, the positive clauses (two
    offsets imply the third, three per agreeing triple) and the contradiction clauses only where two offsets
    put the third pair beyond -2..2; the other contradictions follow by unit propagation (two offsets set the
    third's literal, the at-most-one clears its others; one offset and the third's set the second's candidates
    false through the positive clauses), so propagation is at least as strong as with every contradiction
    clause stated (the build before the encoding round, ``bench/wagons/baselines.py``)."""
    if n > 10:
        return
    for i, j in itertools.combinations(range(n), 2):
        for name in "xy":
            m.add_at_most_one([axis[(name, i, j, d)] for d in _OFFSETS])
    triangle_clauses(m, n, axis, town, _APART_FAR)


def triangle_clauses(m, n, axis, town, apart) -> None:
    """For each triple of cards ``i < j < k`` and axis: the positive clauses (two offsets imply the third) and a
    contradiction clause for each offset triple in ``apart``."""
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


def decode(town: CpTown, value: Callable[[Any], int]) -> list[tuple[int, int, int]]:
    """(x, y, rot) of each card from a solution (``value`` reads a variable)."""
    return [(int(value(x)), int(value(y)), 180 if not isinstance(r, int) and value(r) else 0)
            for x, y, r in zip(town.X, town.Y, town.R)]
