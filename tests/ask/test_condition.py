"""The condition language of a question (solver.ask.condition): what is written is what is read, its meaning is
Python's own and/or/not over the comparisons, and a bad condition is one line naming its bad part."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.ask import condition as c
from solver.ask.model import Measure
from solver.errors import BadInput

MEASURES = {
    "player.total": Measure("player.total", "your total", low=-50, high=200),
    "goal.gold-country": Measure("goal.gold-country", "Gold Country's points", low=0, high=30),
    "round.marshal": Measure("round.marshal", "the round the marshal arrives", low=1, high=14),
    "sudden-death": Measure("sudden-death", "sudden death was triggered", kind="yes/no"),
    "winner": Measure("winner", "the winner", kind="choice", choices=("player", "opponent", "tie")),
}
NUMBERS = [m for m in MEASURES.values() if m.kind == "number"]


@st.composite
def compares(draw: st.DrawFn) -> c.Compare:
    m = draw(st.sampled_from(list(MEASURES.values())))
    if m.kind == "yes/no":
        return c.Compare(m.name, draw(st.sampled_from(["==", "!="])), draw(st.booleans()))
    if m.kind == "choice":
        return c.Compare(m.name, draw(st.sampled_from(["==", "!="])), draw(st.sampled_from(m.choices)))
    value = draw(st.one_of(st.integers(-60, 220), st.fractions(min_value=-5, max_value=5, max_denominator=7)))
    value = int(value) if isinstance(value, Fraction) and value.denominator == 1 else value
    return c.Compare(m.name, draw(st.sampled_from(c.OPS)), value)


conditions = st.recursive(compares(), lambda inner: st.one_of(
    st.builds(lambda ps: c.All(tuple(ps)), st.lists(inner, min_size=2, max_size=3)),
    st.builds(lambda ps: c.Any_(tuple(ps)), st.lists(inner, min_size=2, max_size=3)),
    st.builds(c.Not, inner)), max_leaves=8)


@st.composite
def values(draw: st.DrawFn) -> dict:
    out = {m.name: draw(st.integers(m.low, m.high)) for m in NUMBERS}
    out["sudden-death"] = draw(st.booleans())
    out["winner"] = draw(st.sampled_from(MEASURES["winner"].choices))
    return out


def _python(cond: c.Condition, v: dict) -> bool:
    """The meaning, said directly in Python: an independent reading of the tree."""
    if isinstance(cond, c.Compare):
        a, b = v[cond.measure], cond.value
        return eval(f"a {cond.op} b", {"a": a, "b": b})  # noqa: S307 - the test's own operators only
    if isinstance(cond, c.Not):
        return not _python(cond.part, v)
    results = [_python(p, v) for p in cond.parts]
    return all(results) if isinstance(cond, c.All) else any(results)


@settings(max_examples=120, deadline=None)
@given(conditions)
def test_what_is_written_is_what_is_read(cond):
    assert c.parse(c.text(cond)) == cond
    c.check(cond, MEASURES)  # every generated condition is well-typed


@settings(max_examples=120, deadline=None)
@given(conditions, values())
def test_a_condition_means_its_comparisons_joined_as_python_joins_them(cond, v):
    assert c.holds(cond, v) == _python(cond, v)
    assert c.holds(c.Not(cond), v) == (not c.holds(cond, v))


def test_text_reads_as_a_player_writes_it():
    cond = c.parse("goal.gold-country >= 8 and (winner == player or not sudden-death) and player.total > -3")
    assert cond == c.All((c.Compare("goal.gold-country", ">=", 8),
                          c.Any_((c.Compare("winner", "==", "player"), c.Not(c.Compare("sudden-death", "==", True)))),
                          c.Compare("player.total", ">", -3)))
    assert c.parse("round.marshal = 6") == c.Compare("round.marshal", "==", 6)
    assert c.parse("player.total <= 7/2") == c.Compare("player.total", "<=", Fraction(7, 2))
    assert c.words(cond, MEASURES) == ("Gold Country's points is at least 8 and (the winner is player or not "
                                       "sudden death was triggered) and your total is more than -3")
    assert c.measures_named(cond) == {"goal.gold-country", "winner", "sudden-death", "player.total"}


@pytest.mark.parametrize(("text", "says"), [
    ("", "expected text"),
    ("total >=", "ends too soon"),
    ("(total > 3", "ends too soon"),
    ("total > 3)", "unexpected"),
    ("total > 3 total", "unexpected"),
    ("and total > 3", "expected a measure"),
    ("total > and", "expected a number"),
    ("total $ 3", "cannot read"),
    ("x" * 3000, "longer than"),
    (" or ".join(["a"] * 100), "more than 64 parts"),
])
def test_a_condition_that_cannot_be_read_is_one_line_naming_its_bad_part(text, says):
    with pytest.raises(BadInput, match=says) as exc:
        c.parse(text)
    assert "\n" not in str(exc.value)


@pytest.mark.parametrize(("text", "says"), [
    ("player.totl > 3", "unknown measure 'player.totl' \\(nearest: player.total"),
    ("player.total > yes", "is a number"),
    ("sudden-death > 2", "yes or no"),
    ("winner == banker", "one of player, opponent, tie"),
    ("winner >= player", "compare it with == or !="),
])
def test_a_condition_the_domain_cannot_answer_is_one_line(text, says):
    with pytest.raises(BadInput, match=says):
        c.check(c.parse(text), MEASURES)
