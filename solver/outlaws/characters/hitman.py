"""The Hitman (rule:O-hitman): "Svela il Sicario e scarta un gettone Pallottola per scoprire il personaggio
posizionato di fronte a lui. Se è il Governatore sei riuscito ad assassinarlo." A Bad victory (rule:O-victory-bad)
unless the Governor's Sheriff, beside him, saves him by spending Handcuffs (rule:O6: the save arrests the Hitman,
an Ugly victory for the saver, or only stops him), which the Hitman's Reverend may cancel (rule:O7). The Mayor
never extends him (rule:O8). He takes Votes and Bullets (rule:O4).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from solver.outlaws.characters.common import (
    Aim,
    Character,
    cancel,
    cancelled,
    free_target,
    learn_char,
    react,
    reveal_char,
    reverend_can_cancel,
    spend,
)
from solver.outlaws.position import COLUMNS, Position, evolve, other, unknown_characters
from solver.outlaws.victory_names import Way


def targets(aim: Aim) -> list:
    """With a Bullet, the opposing character across."""
    if aim.pos.supply[aim.side].bullet > 0 and free_target(aim.pos, aim.opp, aim.column, aim.readings):
        return [aim.make(target=aim.column)]
    return []


def resolve(pos: Position, a, readings, d) -> Position:
    """The Bullet is spent and the character across revealed; the Governor is shot (:func:`_hits`)."""
    side, c, t = pos.to_move, a.column, a.target
    opp = other(side)
    pos = spend(pos, side, "bullet")
    pos, name = reveal_char(pos, opp, t, d)
    pos = learn_char(pos, side, t)
    return _hits(pos, side, opp, c, t, readings, d) if name == "governor" else pos


def _hits(pos: Position, side: str, opp: str, c: int, t: int, readings, d) -> Position:
    """The Hitman found the opposing Governor: Bad victory (rule:O-victory-bad) unless the owner's
    Sheriff next to the Governor saves him (rule:O6), which the Reverend may cancel (rule:O7)."""
    sheriff_col = None
    if pos.supply[opp].handcuffs > 0 and (opp, "sheriff") not in pos.immobilized:
        for s in (t - 1, t + 1):
            if not 0 <= s < COLUMNS:
                continue
            if pos.street[opp][s] is None and "sheriff" in unknown_characters(pos, opp):
                pos, _ = reveal_char(pos, opp, s, d)
            if pos.street[opp][s] == "sheriff":
                sheriff_col = s
                break
    if sheriff_col is not None and react(d, opp, "saves the Governor with the Sheriff", "does not save the Governor"):
        pos = spend(pos, opp, "handcuffs")
        pos = learn_char(pos, side, sheriff_col)
        if readings.sheriff_save == "stop":
            return pos
        pos, rev, mayor = reverend_can_cancel(pos, side, c, sheriff_col, readings, d)
        if rev is not None and react(d, side, "cancels the arrest with the Reverend", "does not cancel the arrest"):
            return cancel(pos, opp, rev, mayor)
        return evolve(pos, winner=opp, victory=Way.UGLY)
    return evolve(pos, winner=side, victory=Way.BAD)


def words(a) -> str:
    return f"reveals the opposing column {a.target}"


def z3_step(m, pre, s: int):
    """Shoot across; the Sheriff's save and the Reverend's cancellation are free choices of the encoding."""
    import z3

    from solver.outlaws.verify.symbolic import GOV, HIT, SHE, Step, sel

    c, save, cancelled = m.I(f"hit{s}_c"), m.B(f"hit{s}_save"), m.B(f"hit{s}_cancel")
    o = 1 - s
    g = [m.actor(pre, s, HIT, c), pre.supply[s]["bullet"] >= 1, m.free(pre, o, c)]
    mid = pre.copy()
    m.discard(mid, s, "bullet", m.T())
    target_gov = sel(pre.street[o], c) == GOV
    can_save = z3.And(target_gov, pre.supply[o]["handcuffs"] >= 1,
                      z3.Or([m.actor(pre, o, SHE, sc) for sc in (c - 1, c + 1)]))
    g.append(z3.Implies(save, can_save))
    sav_col = m.I(f"hit{s}_savecol")
    g.append(z3.Implies(save, z3.And(z3.Or(sav_col == c - 1, sav_col == c + 1), m.actor(pre, o, SHE, sav_col))))
    g.append(z3.Implies(cancelled, z3.And(save, m.reverend_can(pre, s, c, sav_col))))
    m.discard(mid, o, "handcuffs", save)
    o_wins = z3.And(save, z3.Not(cancelled), z3.BoolVal(m.readings.sheriff_save == "ugly", m.ctx))
    s_wins = z3.And(target_gov, z3.Not(save))
    mid.winner = z3.If(s_wins, s + 1, z3.If(o_wins, o + 1, pre.winner))
    mid.victory = z3.If(s_wins, 2, z3.If(o_wins, 3, pre.victory))
    return Step("hitman", s, z3.And(g), mid, {"c": c, "save": save, "cancel": cancelled})


def model_words(p: Mapping[str, Any], side: str) -> str:
    """Shoot across; the opposing Sheriff's save (rule:O6) and the Reverend's cancellation (rule:O7)."""
    save = f"; {other(side)}'s Sheriff saves his Governor" if p.get("save") else ""
    return f"shoots the opposing column {p.get('c')}{save}{cancelled(p)}"


CHARACTER = Character("hitman", "O-hitman", takes=("vote", "bullet"), mayor=False, targets=targets, resolve=resolve,
                      words=words, z3_step=z3_step, reacts=True, model_words=model_words)
