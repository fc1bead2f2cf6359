"""The Reverend (rule:O-reverend): "Dopo aver svelato il Reverendo, se c'è un Bandito immobilizzato immediatamente
alla sua sinistra, cancella l'effetto Immobilizzato." With the Mayor immediately to his left he reaches the Bandit
two places to his left (rule:O14-reverend, reading ``mayor_reverend``). His other power, cancelling an arrest or an
immobilization by the Sheriff (rule:O7), is a reaction resolved with the Sheriff's action and the Hitman's shot
(:func:`solver.outlaws.characters.common.reverend_can_cancel`). He takes Votes (rule:O4).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from solver.outlaws.characters.common import Aim, Character, by_mayor, learn_char, on_street
from solver.outlaws.position import Position, evolve, left_of, other


def targets(aim: Aim) -> list:
    """His own immobilized Bandit immediately to his left, or (with the Mayor) two places to his left."""
    pos, side = aim.pos, aim.side
    out = []
    for m in aim.mayors:
        b = left_of(side, aim.column if m is None else m)
        if on_street(b) and pos.street[side][b] == "bandit" and (side, "bandit") in pos.immobilized:
            out.append(aim.make(target=b, mayor=m))
    return out


def resolve(pos: Position, a, readings, d) -> Position:
    """The Bandit is free again: face down, but the opponent saw where."""
    side = pos.to_move
    pos = evolve(pos, immobilized=pos.immobilized - {(side, "bandit")})
    return learn_char(pos, other(side), a.target)


def words(a) -> str:
    return f"frees the bandit at column {a.target}"


def z3_step(m, pre, s: int):
    """Free one's immobilized Bandit immediately to his left, or (the Mayor immediately to his left,
    rule:O14-reverend "extended") two places to his left."""
    import z3

    from solver.outlaws.verify.symbolic import BAN, MAY, NCOL, REV, Step, left, sel, within

    c, ext = m.I(f"rev{s}_c"), m.I(f"rev{s}_ext")
    far = left(s, left(s, c))
    lc = z3.If(ext == 1, far, left(s, c))
    reach = z3.Or(ext == 0, z3.And(ext == 1, z3.BoolVal(m.readings.mayor_reverend == "extended", m.ctx),
                                   m.actor(pre, s, MAY, left(s, c))))
    freed = z3.And(within(lc, 0, NCOL - 1), sel(pre.street[s], lc) == BAN, pre.imm[s][BAN])
    g = z3.And(m.actor(pre, s, REV, c), within(ext, 0, 1), reach, freed)
    mid = pre.copy()
    mid.imm[s] = [z3.If(freed, m.F(), pre.imm[s][n]) if n == BAN else pre.imm[s][n] for n in range(len(pre.imm[s]))]
    return Step("reverend", s, g, mid, {"c": c, "ext": ext})


def model_words(p: Mapping[str, Any], side: str) -> str:
    """The model's freeing of the Bandit beside him."""
    return f"frees the immobilized bandit beside him{by_mayor(p)}"


CHARACTER = Character("reverend", "O-reverend", takes=("vote",), mayor="mayor_reverend", targets=targets,
                      resolve=resolve, words=words, z3_step=z3_step, model_words=model_words)
