"""The Merchant (rule:O-merchant): "Svela il Commerciante per scambiare di posizione due dei tre gettoni adiacenti a
lui (di fronte e in diagonale), oppure scambia uno dei gettoni adiacenti a lui con uno della scorta." Two of the
tokens at columns c-1..c+1 swap places, or one of them is swapped with a random token of the face-down reserve (the
"scorta", register O-merchant). The Mayor immediately to his left extends him to two of the five tokens c-2..c+2
(rule:O8). Empty columns are not tokens. He takes Votes (rule:O4).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from solver.outlaws.characters.common import Aim, Character, draw_reserve, map_tokens_knowledge, model_token, on_street
from solver.outlaws.position import EMPTY, Position, evolve, sorted_reserve


def targets(aim: Aim) -> list:
    """Two of the tokens c-1..c+1 (Mayor: c-2..c+2, one of them at distance 2), or one of them with the reserve."""
    pos, c = aim.pos, aim.column
    out: list = []
    for m in aim.mayors:
        reach = 1 if m is None else 2
        cols = [t for t in range(c - reach, c + reach + 1) if on_street(t) and pos.tokens[t] != EMPTY]
        extended = (lambda t: abs(t - c) == 2) if m is not None else (lambda t: True)
        for n, i in enumerate(cols):
            for j in cols[n + 1:]:
                if extended(i) or extended(j):
                    out.append(aim.make(mayor=m, token_columns=(i, j)))
        if pos.reserve:
            out += [aim.make(mayor=m, token_columns=(t,), reserve=True) for t in cols if extended(t)]
    return out


def resolve(pos: Position, a, readings, d) -> Position:
    """Swap two tokens within reach, or one with a reserve token (unseen by both after)."""
    toks = list(pos.tokens)
    if not a.reserve:
        i, j = a.token_columns
        toks[i], toks[j] = toks[j], toks[i]
        pos = evolve(pos, tokens=tuple(toks))
        return map_tokens_knowledge(pos, lambda col: j if col == i else (i if col == j else col))
    (i,) = a.token_columns
    pos, new = draw_reserve(pos, d)
    old = toks[i]
    toks[i] = new
    pos = evolve(pos, tokens=tuple(toks), reserve=sorted_reserve(pos.reserve + (old,)))
    return map_tokens_knowledge(pos, lambda col: None if col == i else col)


def words(a) -> str:
    if a.reserve:
        return f"swaps token {a.token_columns[0]} with the reserve"
    return f"swaps tokens {a.token_columns[0]} and {a.token_columns[1]}"


def z3_step(m, pre, s: int):
    """Two tokens within reach (w = 1, or 2 with the Mayor) swap, or one with a reserve token of type d."""
    import z3

    from solver.outlaws.verify.symbolic import EMPTY as NONE
    from solver.outlaws.verify.symbolic import MAY, MER, NCOL, TYPES, Step, left, sel, within

    c, w, a, b, d, mode = (m.I(f"mer{s}_{n}") for n in ("c", "w", "a", "b", "d", "mode"))
    g = [m.actor(pre, s, MER, c), z3.Or(w == 1, w == 2), z3.Implies(w == 2, m.actor(pre, s, MAY, left(s, c))),
         within(a, 0, NCOL - 1), within(a, c - w, c + w), within(mode, 0, 1)]
    toks = pre.tokens
    ta, tb = sel(toks, a), sel(toks, b)
    mid = pre.copy()
    # mode 0: two row tokens a < b
    g.append(z3.Implies(mode == 0, z3.And(within(b, 0, NCOL - 1), within(b, c - w, c + w), a < b,
                                          ta != NONE, tb != NONE)))
    swapped = [z3.If(k == a, tb, z3.If(k == b, ta, toks[k])) for k in range(NCOL)]
    # mode 1: row token a for a reserve token of type d
    g.append(z3.Implies(mode == 1, z3.And(ta != NONE, z3.Or([z3.And(d == t, pre.reserve[t] >= 1) for t in TYPES]))))
    from_res = [z3.If(k == a, d, toks[k]) for k in range(NCOL)]
    mid.tokens = [z3.If(mode == 0, swapped[k], from_res[k]) for k in range(NCOL)]
    for t in TYPES:
        mid.reserve[t] = z3.If(mode == 1, pre.reserve[t] - z3.If(d == t, 1, 0) + z3.If(ta == t, 1, 0), pre.reserve[t])
    return Step("merchant", s, z3.And(g), mid, {"c": c, "w": w, "a": a, "b": b, "d": d, "mode": mode},
                cases=_cases(NCOL))


def _cases(columns: int) -> tuple:
    """Every (column, mode, token columns) the guard allows: two of the tokens within two columns (a < b, the
    widest reach, with the Mayor), or one of them with the reserve (``b`` unused, left free)."""
    out = []
    for c in range(columns):
        reach = [x for x in range(c - 2, c + 3) if 0 <= x < columns]
        for n, a in enumerate(reach):
            out += [(("c", c), ("mode", 0), ("a", a), ("b", b)) for b in reach[n + 1:]]
            out.append((("c", c), ("mode", 1), ("a", a)))
    return tuple(out)


def model_words(p: Mapping[str, Any], side: str) -> str:
    """Two tokens swapped, or (``mode`` 1) one with the reserve's token ``d``."""
    if p.get("mode") == 1:
        return f"swaps token {p.get('a')} with {model_token(p.get('d'))} from the reserve"
    return f"swaps tokens {p.get('a')} and {p.get('b')}"


CHARACTER = Character("merchant", "O-merchant", takes=("vote",), mayor=True, targets=targets, resolve=resolve,
                      words=words, z3_step=z3_step, model_words=model_words)
