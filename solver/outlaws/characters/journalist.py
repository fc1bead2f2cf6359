"""The Journalist (rule:O-journalist): "Svela il Giornalista e Chiama un personaggio per scoprire il personaggio di
fronte a lui. Se hai Chiamato correttamente il personaggio scoperto, prendi un segnalino In Prima Pagina e segna la
carta di quel personaggio. Per il resto del gioco il personaggio deve restare scoperto. Se la Chiamata è sbagliata,
scarta un segnalino In Prima Pagina. Non puoi tentare questa azione se non hai più segnalini In Prima Pagina. Il
Giornalista non può mai Chiamare il Governatore." A marked character is not marked again. The Mayor extends him to
the opposing columns beside the one across (rule:O8). He takes Votes (rule:O4).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from solver.outlaws.characters.common import (
    Aim,
    Character,
    across,
    by_mayor,
    cancelled,
    learn_char,
    model_char,
    model_target,
    reveal_char,
)
from solver.outlaws.position import CHARACTERS, Position, evolve, other

CALLS = tuple(c for c in CHARACTERS if c != "governor")
"""Whom he may call: anyone but the Governor."""


def targets(aim: Aim) -> list:
    """With a Front Page marker: an unmarked opposing character across (or, with the Mayor, beside it), calling
    anyone but the Governor."""
    pos = aim.pos
    if pos.supply[aim.side].front_page <= 0:
        return []
    return [aim.make(call=call, target=t, mayor=m) for m in aim.mayors for t in across(aim, m)
            if (aim.opp, pos.street[aim.opp][t]) not in pos.front_page for call in CALLS]


def resolve(pos: Position, a, readings, d) -> Position:
    """The marker is spent; a correct call marks the character (face up for the rest of the game), a wrong one
    discards the marker."""
    side = pos.to_move
    opp = other(side)
    pos, name = reveal_char(pos, opp, a.target, d)
    pos = learn_char(pos, side, a.target)
    pos = evolve(pos, supply=pos.supply.set(side, pos.supply[side].add("front_page", -1)))
    if name == a.call:
        return evolve(pos, front_page=pos.front_page | {(opp, name)})
    return evolve(pos, discard=pos.discard.add("front_page"))


def words(a) -> str:
    return f"reveals the opposing column {a.target} calling {a.call}"


def z3_step(m, pre, s: int):
    """Call a character (never the Governor); a Front Page marker is spent, kept on the character when right."""
    import z3

    from solver.outlaws.verify.symbolic import JOU, NCHAR, NCOL, Step, sel, within

    c, call, ext = m.I(f"jou{s}_c"), m.I(f"jou{s}_call"), m.I(f"jou{s}_ext")
    o = 1 - s
    t = c + ext
    target = sel(pre.street[o], t)
    marked = z3.Or([z3.And(target == n, pre.fp[o][n]) for n in range(NCHAR)])
    g = z3.And(m.actor(pre, s, JOU, c), within(call, 1, NCHAR - 1), pre.supply[s]["front_page"] >= 1,
               within(ext, -1, 1), within(t, 0, NCOL - 1), m.mayor_reach(pre, s, c, ext), m.free(pre, o, t),
               z3.Not(marked))
    mid = pre.copy()
    ok = target == call
    mid.fp[o] = [z3.Or(pre.fp[o][n], z3.And(ok, target == n)) for n in range(NCHAR)]
    mid.supply[s]["front_page"] = pre.supply[s]["front_page"] - 1
    if "journalist_keeps_marker" in m.mut:
        mid.supply[s]["front_page"] = z3.If(ok, pre.supply[s]["front_page"], pre.supply[s]["front_page"] - 1)
    mid.discard["front_page"] = z3.If(ok, pre.discard["front_page"], pre.discard["front_page"] + 1)
    return Step("journalist", s, g, mid, {"c": c, "call": call, "ext": ext})


def model_words(p: Mapping[str, Any], side: str) -> str:
    """The model's call on the column aimed at (the Mayor's reach, the Reverend's cancellation)."""
    call = model_char(p.get("call"))
    return f"reveals the opposing column {model_target(p)} calling {call}{by_mayor(p)}{cancelled(p)}"


CHARACTER = Character("journalist", "O-journalist", takes=("vote",), mayor=True, targets=targets, resolve=resolve,
                      words=words, z3_step=z3_step, model_words=model_words)
