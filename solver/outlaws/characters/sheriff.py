"""The Sheriff (rule:O-sheriff): "Rivela lo Sceriffo, scarta un gettone Manette, e Chiama il Sicario o il Bandito per
scoprire il personaggio di fronte a lui. Se Chiami correttamente il Sicario, lo arresti. Se Chiami correttamente il
Bandito, allora lo puoi immobilizzare e recuperare le Manette." Arresting the Hitman is an Ugly victory
(rule:O-victory-ugly); immobilizing the Bandit (rule:O-immobilized) is the Sheriff's player's choice (rule:O16) and
gives the Handcuffs back; the target's Reverend may cancel either (rule:O7). The Mayor extends him to the opposing
columns beside the one across (rule:O8). His save of the Governor is resolved with the Hitman's shot
(:mod:`solver.outlaws.characters.hitman`, rule:O6). He takes Votes and Handcuffs (rule:O4).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from solver.outlaws.characters.common import (
    Aim,
    Character,
    across,
    by_mayor,
    cancel,
    cancelled,
    learn_char,
    model_char,
    model_target,
    react,
    reveal_char,
    reverend_can_cancel,
    spend,
)
from solver.outlaws.position import Position, evolve, other
from solver.outlaws.victory_names import Way


def targets(aim: Aim) -> list:
    """With Handcuffs: the opposing character across (or, with the Mayor, beside it), calling Hitman or Bandit."""
    if aim.pos.supply[aim.side].handcuffs <= 0:
        return []
    return [aim.make(call=call, target=t, mayor=m) for m in aim.mayors for t in across(aim, m)
            for call in ("hitman", "bandit")]


def resolve(pos: Position, a, readings, d) -> Position:
    """Correct call: arrest the Hitman (rule:O-victory-ugly) or immobilize the Bandit and recover the
    Handcuffs (rule:O-immobilized), which the Sheriff's player may decline ('lo puoi immobilizzare',
    rule:O16); the target's Reverend may cancel either (rule:O7)."""
    side, c, t, call = pos.to_move, a.column, a.target, a.call
    opp = other(side)
    pos = spend(pos, side, "handcuffs")
    pos, name = reveal_char(pos, opp, t, d)
    pos = learn_char(pos, side, t)
    if name != call:
        return pos
    if call == "bandit" and readings.optional_effects == "choice" and not react(
            d, side, "immobilizes the Bandit", "lets the Bandit go"):
        return pos
    pos, rev, mayor = reverend_can_cancel(pos, opp, t, c, readings, d)
    what = "arrest" if call == "hitman" else "immobilization"
    if rev is not None and react(d, opp, f"cancels the {what} with the Reverend", f"does not cancel the {what}"):
        return cancel(pos, side, rev, mayor)
    if call == "hitman":
        return evolve(pos, winner=side, victory=Way.UGLY)
    pos = evolve(pos, immobilized=pos.immobilized | {(opp, "bandit")})
    return evolve(pos, discard=pos.discard.add("handcuffs", -1),
                  supply=pos.supply.set(side, pos.supply[side].add("handcuffs")))


def words(a) -> str:
    return f"reveals the opposing column {a.target} calling {a.call}"


def z3_step(m, pre, s: int):
    """Call the Hitman (arrest: Ugly) or the Bandit (immobilize, Handcuffs back); the Reverend's cancellation
    and declining to immobilize are free choices of the encoding."""
    import z3

    from solver.outlaws.verify.symbolic import BAN, HIT, NCOL, SHE, Step, sel, within

    c, call, ext, cancelled = (m.I(f"she{s}_c"), m.I(f"she{s}_call"), m.I(f"she{s}_ext"), m.B(f"she{s}_cancel"))
    apply_it = m.optional(f"she{s}_immobilize")  # rule:O16: 'lo puoi immobilizzare'
    o = 1 - s
    t = c + ext
    g = [m.actor(pre, s, SHE, c), pre.supply[s]["handcuffs"] >= 1, z3.Or(call == HIT, call == BAN),
         within(ext, -1, 1), within(t, 0, NCOL - 1), m.mayor_reach(pre, s, c, ext), m.free(pre, o, t)]
    target = sel(pre.street[o], t)
    mid = pre.copy()
    m.discard(mid, s, "handcuffs", m.T())
    hit = z3.And(call == HIT, target == HIT)
    ban = z3.And(call == BAN, target == BAN, apply_it)
    g.append(z3.Implies(cancelled, z3.And(z3.Or(hit, ban), m.reverend_can(pre, o, t, c))))
    arrest = z3.And(hit, z3.Not(cancelled))
    immob = z3.And(ban, z3.Not(cancelled))
    mid.winner = z3.If(arrest, s + 1, pre.winner)
    mid.victory = z3.If(arrest, 3, pre.victory)
    mid.imm[o] = [z3.If(immob, m.T(), pre.imm[o][n]) if n == BAN else pre.imm[o][n] for n in range(len(pre.imm[o]))]
    # Handcuffs come back from the discard when the Bandit is caught (and not cancelled)
    mid.supply[s]["handcuffs"] = z3.If(immob, mid.supply[s]["handcuffs"] + 1, mid.supply[s]["handcuffs"])
    mid.discard["handcuffs"] = z3.If(immob, mid.discard["handcuffs"] - 1, mid.discard["handcuffs"])
    params = {"c": c, "call": call, "ext": ext, "cancel": cancelled}
    if m.readings.optional_effects == "choice":
        params["immobilize"] = apply_it
    return Step("sheriff", s, z3.And(g), mid, params)


def model_words(p: Mapping[str, Any], side: str) -> str:
    """The model's call on the column aimed at (the Mayor's reach, the Reverend's cancellation)."""
    call = model_char(p.get("call"))
    return f"reveals the opposing column {model_target(p)} calling {call}{by_mayor(p)}{cancelled(p)}"


CHARACTER = Character("sheriff", "O-sheriff", takes=("vote", "handcuffs"), mayor=True, targets=targets,
                      resolve=resolve, words=words, z3_step=z3_step, reacts=True, model_words=model_words)
