"""The most / least of a town's part by the CP-SAT town model equals the best over every town listed (3 cards,
forced onto the model by a domain that lists none)."""

from __future__ import annotations

import time
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from solver.ask.condition import OPS, All, Any_, Compare, Not, holds, measures_named
from solver.ask.engine import ask
from solver.ask.model import Goal
from solver.ask.question import Question
from solver.wagons.data import SCENARIO_IDS
from solver.wagons.questions.measures import slug
from solver.wagons.questions.search import town_search
from solver.wagons.questions.towns import build_towns
from solver.wagons.readings import WagonsReadings
from tests.support.depth import deep_after

CASES = [("through-the-desert", (4, 11, 12), ()), ("gold-rush", (1, 6, 15), (10,)),
         pytest.param("cattle-drive", (10, 3, 14), (), marks=pytest.mark.slow),
         pytest.param("water-the-herd", (2, 13, 9), (1,), marks=pytest.mark.slow),
         ("out-drink-the-competition", (17, 12, 5), ()), ("boomtown", (1, 15, 6), (9,))]


WINNERS = ("player", "opponent", "tie")


def _listed(domain, name: str) -> list:
    return [domain.values(e, frozenset({name}))[name] for _w, e in domain.elements()]


@pytest.mark.parametrize("scenario, cards, pile", CASES)
def test_the_model_finds_the_listed_best_of_each_part(scenario, cards, pile):
    domain = build_towns({"cards": list(cards), "scenario": scenario, "pile": list(pile)}, WagonsReadings())
    forced = replace(domain, most=0)
    goals = domain.data.scenario(scenario).goals
    names = ["group.desert", "group.water", "player.icon.gun", "player.terrain.snow", "player.territories"] + \
        [f"goal.{slug(g)}" for g in goals] + [f"opponent.goal.{slug(g)}" for g in goals]
    asked = 0
    for name in names:
        listed = _listed(domain, name)
        for quantifier, pick in (("max", max), ("min", min)):
            found = town_search(forced, Goal(quantifier, None, name, time.monotonic() + 60))
            if found is None:
                continue
            asked += 1
            assert found.proven and found.value == pick(listed), (name, quantifier)
            assert forced.values(found.element, frozenset({name}))[name] == found.value
    assert asked >= 9


def test_a_small_domain_or_an_unstated_part_is_left_to_the_listing():
    domain = build_towns({"cards": [4, 11, 12], "scenario": "through-the-desert", "pile": []}, WagonsReadings())
    assert town_search(domain, Goal("max", None, "goal.badlands", time.monotonic() + 60)) is None
    forced = replace(domain, most=0)
    assert town_search(forced, Goal("min", None, "group.desert", time.monotonic() + 60)) is None
    assert town_search(forced, Goal("forall", None, None, time.monotonic() + 60)) is None
    assert town_search(domain, Goal("chance", None, None, time.monotonic() + 60)) is None


@pytest.mark.slow
@pytest.mark.parametrize("reference", deep_after(["bnb", "oracle"]))
def test_the_total_of_five_cards_is_the_optimizers_best_layout(reference):
    """The answer is the best layout's value: the branch and bound's proof in every run, the exhaustive walk's
    (about 16 million towns) with ``--deep``."""
    q = Question("wagons", "towns", (("cards", [1, 6, 15, 3, 7]), ("scenario", "gold-rush"), ("pile", [10])), "max",
                 None, "player.total")
    a = ask(q, 60)
    assert a.verdict == "value" and a.proven and "best layout" in a.method
    if reference == "oracle":
        from solver.wagons.optimizer.oracle import exhaustive_best

        assert a.value == exhaustive_best([1, 6, 15, 3, 7], "gold-rush", (10,)).value
    else:
        from solver.wagons.optimizer.layout import best_layout

        proof = best_layout([1, 6, 15, 3, 7], "gold-rush", (10,), method="bnb")
        assert proof.proven_optimal and a.value == proof.value


MEASURES = ["player.total", "opponent.total", "margin", "group.desert", "group.snow", "player.icon.gun",
            "player.terrain.water", "player.territories", "opponent.common", "opponent.icon.mine"]


@st.composite
def _condition(draw, goals: list[str], depth: int = 2):
    if depth == 0 or draw(st.booleans()):
        name = draw(st.sampled_from(MEASURES + goals + ["winner", "card.5"]))
        if name == "winner":
            return Compare("winner", draw(st.sampled_from(("==", "!="))), draw(st.sampled_from(WINNERS)))
        if name == "card.5":
            return Compare(name, "==", draw(st.sampled_from(("player", "opponent", "neither"))))
        return Compare(name, draw(st.sampled_from(OPS)), draw(st.integers(-5, 25)))
    kind = draw(st.sampled_from(("and", "or", "not")))
    if kind == "not":
        return Not(draw(_condition(goals, depth - 1)))
    parts = tuple(draw(st.lists(_condition(goals, depth - 1), min_size=2, max_size=3)))
    return All(parts) if kind == "and" else Any_(parts)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), scenario=st.sampled_from(SCENARIO_IDS),
       order=st.permutations(range(18)), n=st.integers(2, 3), tie_break=st.sampled_from(("tie", "guns")))
def test_the_exact_model_decides_conditions_as_the_listing(data, scenario, order, n, tie_break):
    cards, pile = order[:n], order[n:n + data.draw(st.integers(0, 3))]
    domain = build_towns({"cards": list(cards), "scenario": scenario, "pile": list(pile)}, WagonsReadings(tie_break=tie_break))
    goals = [f"goal.{slug(g)}" for g in domain.data.scenario(scenario).goals] + \
        [f"opponent.goal.{slug(g)}" for g in domain.data.scenario(scenario).goals]
    cond = data.draw(_condition(goals))
    quantifier = data.draw(st.sampled_from(("exists", "forall", "max", "min")))
    measure = data.draw(st.sampled_from(MEASURES[:8] + goals)) if quantifier in ("max", "min") else None
    found = town_search(replace(domain, most=0), Goal(quantifier, cond, measure, time.monotonic() + 60))
    assume(found is not None)  # a Cool Water tie read the other way: listed instead
    names = measures_named(cond) | ({measure} if measure else set())
    rows = [domain.values(e, frozenset(names)) for _w, e in domain.elements()]
    held = [r for r in rows if holds(cond, r)]
    assert found.proven
    if quantifier == "exists":
        assert found.holds == bool(held)
    elif quantifier == "forall":
        assert found.holds == (len(held) == len(rows))
    else:
        pick = max if quantifier == "max" else min
        assert found.value == (pick(r[measure] for r in held) if held else None)
