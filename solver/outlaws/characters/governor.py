"""The Governor (rule:O-governor, rule:O5): "Svela il Governatore per prendere il gettone Elezione se la sua fazione
ha più voti di quella avversaria." With strictly more Votes he claims the token in front of him; it is won only if
it is the Election token (a Good victory, rule:O-victory-good). The Mayor immediately to his left may extend him to
the tokens beside it (rule:O14, reading ``mayor_governor``). He takes only the Election token (rule:O4).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from solver.outlaws.characters.common import (
    Aim,
    Character,
    by_mayor,
    learn_token,
    model_target,
    on_street,
    reveal_token,
    take,
)
from solver.outlaws.position import EMPTY, Position, other


def targets(aim: Aim) -> list:
    """rule:O5: with strictly more Votes, claim the token in front of him; with the Mayor (rule:O14) the token at
    column c-1 or c+1 (``target``)."""
    pos, c = aim.pos, aim.column
    if not pos.votes(aim.side) > pos.votes(aim.opp):
        return []
    out = [aim.make()] if pos.tokens[c] != EMPTY else []
    for m in aim.mayors:
        if m is not None:
            out += [aim.make(target=t, mayor=m) for t in (c - 1, c + 1) if on_street(t) and pos.tokens[t] != EMPTY]
    return out


def resolve(pos: Position, a, readings, d) -> Position:
    """The token is revealed; the Election token is taken (a Good victory), any other is seen by both."""
    side = pos.to_move
    k = a.column if a.target is None else a.target
    pos, tok = reveal_token(pos, k, d)
    if tok == "election":
        return take(pos, side, k, readings, d)
    return learn_token(learn_token(pos, side, k), other(side), k)


def words(a) -> str:
    return f"claims the Election token {a.column if a.target is None else a.target}"


def z3_step(m, pre, s: int):
    """The Governor's ability is a Take of the Election token, in front of him or (the Mayor) beside it."""
    return m.take(pre, s, governor_only=True)


def model_words(p: Mapping[str, Any], side: str) -> str:
    """The model's claim of the token aimed at (the Mayor's reach)."""
    return f"claims the Election token {model_target(p)}{by_mayor(p)}"


CHARACTER = Character("governor", "O-governor", takes=("election",), mayor="mayor_governor", targets=targets,
                      resolve=resolve, words=words, z3_step=z3_step, model_words=model_words)
