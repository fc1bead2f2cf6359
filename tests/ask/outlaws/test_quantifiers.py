"""Every quantifier of an Outlaws question against brute force, on lines of at most 2 actions enumerated naively
through the game contract (tests/support/ask/outlaws.py), with conditions hypothesis builds over the domain's measures:
is there = some line meets it (the witness does), for every = every line does (and = not (is there one that does
not)), most / least = the brute-force max / min among the lines that meet it, chance = the exact sum of their
chances."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.ask.engine import ask
from solver.ask.question import question_from_doc
from solver.outlaws.line import line_from_json
from tests.support.ask import outlaws as bo
from tests.support.depth import examples

QUICK = ["sheriff-save/1", "sudden-death-near/1", "view-of-A/2", "hitman-view/2"]
SETTINGS = settings(max_examples=examples(5, 10), deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _observed(lines) -> dict[str, list]:
    seen: dict[str, set] = {}
    for *_, values in lines:
        for name, v in values.items():
            seen.setdefault(name, set()).add(v)
    return {name: sorted(vs, key=str) for name, vs in seen.items()}


@st.composite
def compare(draw, measures, observed):
    varying = [n for n, vs in observed.items() if len(vs) > 1]
    name = draw(st.sampled_from(varying if varying and draw(st.integers(0, 3)) else sorted(measures)))
    m = measures[name]
    if m.kind == "number":
        value = draw(st.sampled_from(observed[name]) | st.integers(m.low, m.high))
        return "cmp", name, draw(st.sampled_from(["==", "!=", "<", "<=", ">", ">="])), value
    values = [True, False] if m.kind == "yes/no" else list(m.choices)
    return "cmp", name, draw(st.sampled_from(["==", "!="])), draw(st.sampled_from(values))


@st.composite
def condition(draw, measures, observed, depth=2):
    if depth == 0 or draw(st.integers(0, 2)) == 0:
        return draw(compare(measures, observed))
    kind = draw(st.sampled_from(["and", "or", "not"]))
    if kind == "not":
        return "not", draw(condition(measures, observed, depth - 1))
    return kind, draw(condition(measures, observed, depth - 1)), draw(condition(measures, observed, depth - 1))


def _case(data):
    name = data.draw(st.sampled_from(QUICK), label="domain")
    domain, lines = bo.brute(bo.DOMAINS[name])
    cond = data.draw(condition(domain.measures(), _observed(lines)), label="condition")
    return name, domain, lines, cond


def _ask(name, quantifier, cond, measure=None):
    doc = {"game": "outlaws", "ask": quantifier, "where": bo.text(cond),
           "domain": {"kind": "lines", **bo.domain_doc(bo.DOMAINS[name])}}
    if measure:
        doc["measure"] = measure
    return ask(question_from_doc(doc), time_limit=600)


def _line_values(witness) -> dict:
    _, steps, games = line_from_json(witness)
    return bo.oracle(tuple(games), tuple((s.play, s.outcome) for s in steps))


@SETTINGS
@given(st.data())
def test_is_there_and_for_every_against_brute_force(data):
    name, domain, lines, cond = _case(data)
    some = any(bo.holds(cond, v) for *_, v in lines)
    every = all(bo.holds(cond, v) for *_, v in lines)
    exists = _ask(name, "exists", cond)
    assert exists.proven and exists.verdict == ("yes" if some else "no")
    if some:
        assert bo.holds(cond, _line_values(exists.witness))
    forall = _ask(name, "forall", cond)
    assert forall.proven and forall.verdict == ("yes" if every else "no")
    if not every:
        assert not bo.holds(cond, _line_values(forall.witness))
    negated = _ask(name, "exists", ("not", cond))
    assert (forall.verdict == "yes") == (negated.verdict == "no")


@settings(SETTINGS, max_examples=examples(3, 6))
@given(st.data())
def test_most_and_least_against_brute_force(data):
    name, domain, lines, cond = _case(data)
    numbers = sorted(n for n, m in domain.measures().items() if m.kind == "number")
    measure = data.draw(st.sampled_from([n for n in numbers if len(_observed(lines)[n]) > 1] or numbers))
    met = [v[measure] for *_, v in lines if bo.holds(cond, v)]
    for quantifier, best in (("max", max), ("min", min)):
        got = _ask(name, quantifier, cond, measure)
        if not met:
            assert got.verdict == "no" and got.proven
            continue
        assert got.verdict == "value" and got.proven and got.value == best(met) == got.bound
        shown = _line_values(got.witness)
        assert shown[measure] == best(met) and bo.holds(cond, shown)


@SETTINGS
@given(st.data())
def test_chance_is_the_exact_sum_of_the_lines_chances(data):
    name, domain, lines, cond = _case(data)
    exact = sum((w for w, _, _, v in lines if bo.holds(cond, v)), Fraction(0))
    got = _ask(name, "chance", cond)
    assert got.verdict == "chance" and got.exact and got.proven and got.value == exact
