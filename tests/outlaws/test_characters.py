"""The character table (solver.outlaws.characters): one record per character, its ability's legal actions and
resolution side by side; the engine, the words of an action, the game contract and the Z3 model reach an ability
only through it."""

from __future__ import annotations

import dataclasses

from solver.outlaws import game as gm
from solver.outlaws.actions import legal_actions
from solver.outlaws.apply import outcomes
from solver.outlaws.characters import TABLE
from solver.outlaws.characters.common import Aim, Character, learn_token, reveal_token
from solver.outlaws.position import CHARACTERS, other
from solver.outlaws.readings import OutlawsReadings
from solver.outlaws.verify.checks import check_invariant, cross_check
from solver.register import load_register
from tests.support.builders.outlaws import pos


def test_the_table_is_the_box_in_the_rulebooks_order():
    assert tuple(TABLE) == CHARACTERS
    ids = load_register().ids()
    for name, who in TABLE.items():
        assert who.name == name and who.rule in ids
        assert (who.z3_step is None) == (name == "mayor")  # the Mayor only extends the others (rule:O8)
        assert (who.model_words is None) == (who.z3_step is None)  # a model's step is worded by its own module
    assert [n for n, who in TABLE.items() if who.reacts] == ["hitman", "sheriff"]
    assert {n: who.takes for n, who in TABLE.items() if who.takes != ("vote",)} == {
        "governor": ("election",), "hitman": ("vote", "bullet"), "sheriff": ("vote", "handcuffs")}


# ---------------------------------------------------------------- a toy ability, given through the table alone


def _toy_targets(aim: Aim) -> list:
    return [aim.make(target=aim.column)]


def _toy_resolve(p, a, readings, d):
    """The toy: the token in front of the character across is shown to both players."""
    p, _ = reveal_token(p, a.target, d)
    return learn_token(learn_token(p, p.to_move, a.target), other(p.to_move), a.target)


def _toy_words(a) -> str:
    return f"shows token {a.target} to everyone"


def _toy_z3_step(m, pre, s):
    """Nothing on the table changes (what the players know is not modelled)."""
    import z3

    from solver.outlaws.verify.symbolic import IND, Step

    c = m.I(f"toy{s}_c")
    return Step("toy", s, z3.And(m.actor(pre, s, IND, c)), pre.copy(), {"c": c})


TOY = Character("indian", "O-indian", takes=("vote",), mayor=False, targets=_toy_targets, resolve=_toy_resolve,
                words=_toy_words, z3_step=_toy_z3_step)


def test_a_toy_ability_in_the_table_is_the_ability_everywhere(monkeypatch):
    """Put a toy in the Indian's place (only in this test): the legal actions, their words, the resolution,
    the game contract's plays and the Z3 transitions (checked against the engine) all follow it."""
    p = pos(tokens=["vote", "x", "bullet", "vote", "election", "vote", "handcuffs", "x"])
    col = p.street.A.index("indian")
    plain = [a for a in legal_actions(p) if a.actor == "indian" and a.kind == "ability"]
    assert plain and all(a.target is not None for a in plain)
    monkeypatch.setitem(TABLE, "indian", TOY)
    mine = [a for a in legal_actions(p) if a.actor == "indian" and a.kind == "ability"]
    assert mine == [dataclasses.replace(plain[0], target=col, mayor=None)]
    assert mine[0].describe("A") == f"A: the indian (column {col}) shows token {col} to everyone"
    (out,) = outcomes(p, mine[0])
    assert col in out.position.knowledge.A.tokens and col in out.position.knowledge.B.tokens
    assert col not in out.position.knowledge.A.characters  # the Indian's own ability would show A a character
    assert gm.Play(mine[0]) in gm.legal_actions(gm.Game(p, OutlawsReadings()))
    agreement = cross_check(p)
    assert agreement.agree, agreement
    steps = check_invariant("governor-not-in-saloon", time_limit=600).extra["per_kind_elapsed"]
    assert steps.keys() >= {"toy/A", "toy/B"}
