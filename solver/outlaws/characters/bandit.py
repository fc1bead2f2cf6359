"""The Bandit (rule:O-bandit): "Svela il Bandito e Chiama il Sicario o lo Sceriffo per scoprire il personaggio di
fronte a lui. Se Chiami correttamente il Sicario, prendi un gettone Pallottola dalla riserva del tuo avversario. Se
Chiami correttamente lo Sceriffo, prendi un gettone Manette dalla riserva del tuo avversario." When the opposing
supply lacks the token, the call is allowed and gains nothing, or not allowed (rule:O10, ``bandit_empty_supply``).
The Mayor never extends him (rule:O8). He takes Votes (rule:O4).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from solver.outlaws.characters.common import Aim, Character, free_target, learn_char, model_char, reveal_char
from solver.outlaws.position import Position, evolve, other

LOOT = {"hitman": "bullet", "sheriff": "handcuffs"}
"""What a correct call takes from the opposing supply."""


def targets(aim: Aim) -> list:
    """The opposing character across, calling Hitman or Sheriff (rule:O10: not for a token the opposing supply
    lacks under ``bandit_empty_supply="forbidden"``)."""
    if not free_target(aim.pos, aim.opp, aim.column, aim.readings):
        return []
    forbidden = aim.readings.bandit_empty_supply == "forbidden"
    return [aim.make(call=call, target=aim.column) for call, token in LOOT.items()
            if not (forbidden and getattr(aim.pos.supply[aim.opp], token) == 0)]


def resolve(pos: Position, a, readings, d) -> Position:
    """A correct call moves one such token from the opposing supply to his owner's (none there: nothing)."""
    side = pos.to_move
    opp = other(side)
    pos, name = reveal_char(pos, opp, a.target, d)
    pos = learn_char(pos, side, a.target)
    token = LOOT[a.call]
    if name == a.call and getattr(pos.supply[opp], token) > 0:
        sup = pos.supply.set(opp, pos.supply[opp].add(token, -1))
        pos = evolve(pos, supply=sup.set(side, sup[side].add(token)))
    return pos


def words(a) -> str:
    return f"reveals the opposing column {a.target} calling {a.call}"


def z3_step(m, pre, s: int):
    """Call the Hitman (take a Bullet) or the Sheriff (take Handcuffs) from the opposing supply."""
    import z3

    from solver.outlaws.verify.symbolic import BAN, HIT, SHE, Step, sel

    c, call = m.I(f"ban{s}_c"), m.I(f"ban{s}_call")
    o = 1 - s
    g = [m.actor(pre, s, BAN, c), z3.Or(call == HIT, call == SHE), m.free(pre, o, c)]
    if m.readings.bandit_empty_supply == "forbidden":
        g.append(z3.Implies(call == HIT, pre.supply[o]["bullet"] >= 1))
        g.append(z3.Implies(call == SHE, pre.supply[o]["handcuffs"] >= 1))
    target = sel(pre.street[o], c)
    mid = pre.copy()
    for who, key in ((HIT, "bullet"), (SHE, "handcuffs")):
        gain = z3.And(call == who, target == who, pre.supply[o][key] >= 1)
        mid.supply[o][key] = z3.If(gain, pre.supply[o][key] - 1, pre.supply[o][key])
        mid.supply[s][key] = z3.If(gain, pre.supply[s][key] + 1, pre.supply[s][key])
    return Step("bandit", s, z3.And(g), mid, {"c": c, "call": call})


def model_words(p: Mapping[str, Any], side: str) -> str:
    """The model's call on the column across."""
    return f"reveals the opposing column {p.get('c')} calling {model_char(p.get('call'))}"


CHARACTER = Character("bandit", "O-bandit", takes=("vote",), mayor=False, targets=targets, resolve=resolve,
                      words=words, z3_step=z3_step, model_words=model_words)
