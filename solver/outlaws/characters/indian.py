"""The Indian (rule:O-indian): "Svela l'Indiano per scoprire il personaggio di fronte a lui." The reveal is the whole
effect: his owner learns the opposing character across, or (the Mayor immediately to his left, rule:O8) one beside
it. He takes Votes (rule:O4).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from solver.outlaws.characters.common import Aim, Character, across, by_mayor, learn_char, model_target, reveal_char
from solver.outlaws.position import Position, other


def targets(aim: Aim) -> list:
    """The opposing character across (or, with the Mayor, beside it)."""
    return [aim.make(target=t, mayor=m) for m in aim.mayors for t in across(aim, m)]


def resolve(pos: Position, a, readings, d) -> Position:
    """The character aimed at is revealed to the Indian's owner; nothing moves."""
    side = pos.to_move
    pos, _ = reveal_char(pos, other(side), a.target, d)
    return learn_char(pos, side, a.target)


def words(a) -> str:
    return f"reveals the opposing column {a.target}"


def z3_step(m, pre, s: int):
    """A reveal: nothing on the table changes."""
    import z3

    from solver.outlaws.verify.symbolic import IND, NCOL, Step, within

    c, ext = m.I(f"ind{s}_c"), m.I(f"ind{s}_ext")
    g = z3.And(m.actor(pre, s, IND, c), within(ext, -1, 1), within(c + ext, 0, NCOL - 1),
               m.mayor_reach(pre, s, c, ext), m.free(pre, 1 - s, c + ext))
    return Step("indian", s, g, pre.copy(), {"c": c, "ext": ext})


def model_words(p: Mapping[str, Any], side: str) -> str:
    """The model's reveal of the column aimed at (the Mayor's reach)."""
    return f"reveals the opposing column {model_target(p)}{by_mayor(p)}"


CHARACTER = Character("indian", "O-indian", takes=("vote",), mayor=True, targets=targets, resolve=resolve,
                      words=words, z3_step=z3_step, model_words=model_words)
