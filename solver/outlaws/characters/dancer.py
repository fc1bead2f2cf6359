"""The Dancer (rule:O9): "Svela la ballerina per scegliere uno dei due personaggi a sinistra o uno dei due personaggi
a destra del personaggio che le sta di fronte. Posiziona il personaggio di fronte alla Ballerina, facendo scorrere gli
altri di una posizione nella direzione opportuna." An immobilized character is never moved, so no column between
them may hold one (rule:O-immobilized). The Mayor never extends her (rule:O8). She takes Votes (rule:O4).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from solver.outlaws.characters.common import Aim, Character, movable, on_street
from solver.outlaws.position import Position, evolve, other


def targets(aim: Aim) -> list:
    """One of the two opposing characters on either side of the one across, none of them immobilized between."""
    c = aim.column
    return [aim.make(target=j) for j in (c - 2, c - 1, c + 1, c + 2)
            if on_street(j) and all(movable(aim.pos, aim.opp, k) for k in range(min(c, j), max(c, j) + 1))]


def resolve(pos: Position, a, readings, d) -> Position:
    """The opposing character at j moves in front of the Dancer (column c); those between shift."""
    side, c, j = pos.to_move, a.column, a.target
    opp = other(side)
    row = list(pos.street[opp])
    name = row.pop(j)
    row.insert(c, name)
    lo, hi = min(c, j), max(c, j)

    def new_col(col: int) -> int:
        if col == j:
            return c
        if lo <= col <= hi:
            return col + 1 if j > c else col - 1
        return col

    k = pos.knowledge[side]
    knowledge = pos.knowledge.set(side, evolve(k, characters=frozenset(new_col(x) for x in k.characters)))
    return evolve(pos, street=pos.street.set(opp, tuple(row)), knowledge=knowledge)


def _pull(target: Any) -> str:
    return f"pulls the opposing column {target} in front of her"


def words(a) -> str:
    return _pull(a.target)


def z3_step(m, pre, s: int):
    """Pull an opposing character from 1-2 columns beside the one across to the column across, shifting those
    between; immobilized characters are never moved."""
    import z3

    from solver.outlaws.verify.symbolic import DAN, NCOL, Step, immobilized_at, sel, within

    c, t = m.I(f"dan{s}_c"), m.I(f"dan{s}_t")
    o = 1 - s
    g = [m.actor(pre, s, DAN, c), within(t, 0, NCOL - 1), z3.Or(t == c - 2, t == c - 1, t == c + 1, t == c + 2)]
    row = pre.street[o]
    if "dancer_moves_immobilized" not in m.mut:
        for k in range(NCOL):  # every column from c to t (inclusive) is moved
            between = z3.Or(z3.And(k >= t, k <= c), z3.And(k >= c, k <= t))
            g.append(z3.Implies(between, z3.Not(immobilized_at(pre, o, k, m.ctx))))
    pulled = sel(row, t)
    new = []
    for k in range(NCOL):
        left_shift = z3.And(t > c, k > c, k <= t)  # t right of c: c..t-1 move one toward t
        right_shift = z3.And(t < c, k >= t, k < c)
        new.append(z3.If(k == c, pulled,
                         z3.If(left_shift, row[k - 1] if k > 0 else row[k],
                               z3.If(right_shift, row[k + 1] if k < NCOL - 1 else row[k], row[k]))))
    mid = pre.copy()
    mid.street[o] = new
    return Step("dancer", s, z3.And(g), mid, {"c": c, "t": t})


def model_words(p: Mapping[str, Any], side: str) -> str:
    """The model's pull of the opposing column ``t``, as :func:`words` says it."""
    return _pull(p.get("t"))


CHARACTER = Character("dancer", "O9", takes=("vote",), mayor=False, targets=targets, resolve=resolve, words=words,
                      z3_step=z3_step, model_words=model_words)
