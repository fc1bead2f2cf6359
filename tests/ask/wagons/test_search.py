"""The most / least of a town's part by the CP-SAT town model equals the best over every town listed (3 cards,
forced onto the model by a domain that lists none)."""

from __future__ import annotations

import time
from dataclasses import replace

import pytest

from solver.ask.engine import ask
from solver.ask.model import Goal
from solver.ask.question import Question
from solver.wagons.questions.measures import slug
from solver.wagons.questions.search import town_search
from solver.wagons.questions.towns import build_towns
from solver.wagons.rules import Rules

CASES = [("through-the-desert", (4, 11, 12), ()), ("gold-rush", (1, 6, 15), (10,)),
         pytest.param("cattle-drive", (10, 3, 14), (), marks=pytest.mark.slow),
         pytest.param("water-the-herd", (2, 13, 9), (1,), marks=pytest.mark.slow),
         ("out-drink-the-competition", (17, 12, 5), ()), ("boomtown", (1, 15, 6), (9,))]


def _listed(domain, name: str) -> list:
    return [domain.values(e, frozenset({name}))[name] for _w, e in domain.elements()]


@pytest.mark.parametrize("scenario, cards, pile", CASES)
def test_the_model_finds_the_listed_best_of_each_part(scenario, cards, pile):
    domain = build_towns({"cards": list(cards), "scenario": scenario, "pile": list(pile)}, Rules())
    forced = replace(domain, most=0)
    goals = domain.data.scenario(scenario).goals
    names = ["group.desert", "group.water", "player.icon.gun", "player.terrain.snow", "player.territories"] + \
        [f"goal.{slug(g)}" for g in goals] + [f"opponent.goal.{slug(g)}" for g in goals]
    asked = 0
    for name in names:
        listed = _listed(domain, name)
        for quantifier, pick in (("most", max), ("least", min)):
            found = town_search(forced, Goal(quantifier, None, name, time.monotonic() + 60))
            if found is None:
                continue
            asked += 1
            assert found.proven and found.value == pick(listed), (name, quantifier)
            assert forced.values(found.element, frozenset({name}))[name] == found.value
    assert asked >= 9


def test_a_condition_or_a_small_domain_is_left_to_the_listing():
    domain = build_towns({"cards": [4, 11, 12], "scenario": "through-the-desert", "pile": []}, Rules())
    assert town_search(domain, Goal("most", None, "goal.badlands", time.monotonic() + 60)) is None
    forced = replace(domain, most=0)
    from solver.ask.condition import parse

    assert town_search(forced, Goal("most", parse("winner == player"), "goal.badlands", time.monotonic() + 60)) is None
    assert town_search(forced, Goal("least", None, "group.desert", time.monotonic() + 60)) is None


@pytest.mark.slow
def test_the_total_of_five_cards_is_the_optimizers_best_layout():
    q = Question("wagons", "towns", (("cards", [1, 6, 15, 3, 7]), ("scenario", "gold-rush"), ("pile", [10])), "most",
                 None, "player.total")
    a = ask(q, 60)
    assert a.verdict == "value" and a.proven and "best layout" in a.method
    from solver.wagons.optimizer.oracle import exhaustive_best

    assert a.value == exhaustive_best([1, 6, 15, 3, 7], "gold-rush", (10,)).value
