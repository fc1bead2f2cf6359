"""Builders for constructed Outlaws positions, imported by the other tests/outlaws/ files."""

from __future__ import annotations

from solver.outlaws.position import CHARACTERS, TOKEN_TOTALS
from solver.outlaws.position_json import load_position

BASE_A = ["governor", "hitman", "sheriff", "indian", "merchant", "dancer", "journalist", "bandit"]
BASE_B = ["bandit", "reverend", "mayor", "governor", "hitman", "sheriff", "merchant", "dancer"]


def build(A=None, B=None, tokens=None, reserve=None, supply=None, discard=None, **extra):
    """A position dict (god view) whose Saloons hold the 2 characters missing from each street and
    whose reserve (unless given) holds exactly the tokens missing from the totals."""
    A = list(A or BASE_A)
    B = list(B or BASE_B)
    tokens = list(tokens or ["vote", "x", "bullet", "vote", "election", "vote", "handcuffs", "x"])
    sup = {"A": {"vote": 0, "bullet": 1, "handcuffs": 1, "front_page": 3},
           "B": {"vote": 0, "bullet": 1, "handcuffs": 1, "front_page": 3}}
    for side, vals in (supply or {}).items():
        sup[side] = {**sup[side], **vals}
    disc = {"bullet": 0, "handcuffs": 0, **(discard or {})}
    if reserve is None:
        counts = dict.fromkeys(TOKEN_TOTALS, 0)
        for t in tokens:
            if t in counts:
                counts[t] += 1
        for s in sup.values():
            for k in ("vote", "bullet", "handcuffs", "election"):
                counts[k] += s.get(k, 0)
        for k, n in disc.items():
            if k in counts:
                counts[k] += n
        reserve = [k for k in TOKEN_TOTALS for _ in range(TOKEN_TOTALS[k] - counts[k])]
    data = {"to_move": "A", "actions_left": 2,
            "street": {"A": A, "B": B},
            "saloon": {"A": [c for c in CHARACTERS if c not in A][:2],
                       "B": [c for c in CHARACTERS if c not in B][:2]},
            "tokens": tokens, "reserve": reserve, "supply": sup, "discard": disc,
            "immobilized": [], "front_page": [], "sudden_death": False}
    data.update(extra)
    return data


def pos(**kw):
    return load_position(build(**kw))


def test_builder_balances_the_token_totals():
    p = pos()
    assert p.reserve == ("vote", "vote", "vote", "x", "x")
    assert p.saloon.A == ("mayor", "reverend") and p.saloon.B == ("indian", "journalist")
