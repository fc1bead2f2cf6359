"""Every quantifier of the Lone Cowboy town domains against a brute force over small domains (towns of 2 to 4
cards), with conditions hypothesis writes over the domain's measures.

The brute force lists the towns its own way: from the empty town, every placement the engine allows, the first card
in both turns (the domain lays it unturned only, taking a town and its half turn as one), and reads each town's
measures; the player's groups and goal points are checked against the plain reference scorer on the way."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.ask import condition as cond_mod
from solver.ask.engine import ask, prepare, wilson
from solver.ask.question import Question
from solver.wagons.data import load_data
from solver.wagons.questions.measures import Position, position_values, slug
from solver.wagons.readings import WagonsReadings
from solver.wagons.scoring import placements_features
from solver.wagons.scoring.reference import reference_score_player
from solver.wagons.town import Town, legal_placements
from tests.support.depth import examples

SCENARIOS = ("gold-rush", "through-the-desert", "cattle-drive", "boomtown", "water-the-herd",
             "out-drink-the-competition")
_TOWNS: dict = {}


def brute_towns(cards: tuple[int, ...]) -> list[Town]:
    """Every legal town of ``cards`` in order, the first card in both turns (the engine's placements only)."""
    if cards not in _TOWNS:
        layer = [Town()]
        for c in cards:
            layer = [Town(t.placements + (p,)) for t in layer for p in legal_placements(t, c)]
        _TOWNS[cards] = layer
    return _TOWNS[cards]


def brute_values(cards, scenario, pile, names) -> list[dict]:
    data = load_data().for_readings(WagonsReadings())
    out = []
    for town in brute_towns(cards):
        pos = Position(town, placements_features(town.placements), pile)
        values = dict(position_values(pos, scenario, WagonsReadings(), data, frozenset(names)))
        out.append(values)
    return out


def measure_names(scenario: str) -> list[str]:
    goals = load_data().scenario(scenario).goals
    return (["player.total", "opponent.total", "margin", "group.desert", "group.water", "player.icon.gun",
             "player.terrain.snow", "player.territories", "card.3"]
            + [f"goal.{slug(g)}" for g in goals] + [f"opponent.goal.{slug(g)}" for g in goals])


@st.composite
def compares(draw, scenario: str):
    name = draw(st.sampled_from(measure_names(scenario) + ["winner"]))
    if name == "winner":
        return cond_mod.Compare(name, draw(st.sampled_from(("==", "!="))),
                                draw(st.sampled_from(("player", "opponent", "tie"))))
    if name == "card.3":
        return cond_mod.Compare(name, "==", draw(st.sampled_from(("player", "opponent", "neither"))))
    return cond_mod.Compare(name, draw(st.sampled_from(cond_mod.OPS)), draw(st.integers(-10, 30)))


@st.composite
def conditions(draw, scenario: str, depth: int = 2):
    if depth == 0 or draw(st.booleans()):
        return draw(compares(scenario))
    kind = draw(st.sampled_from(("and", "or", "not")))
    if kind == "not":
        return cond_mod.Not(draw(conditions(scenario, depth - 1)))
    parts = tuple(draw(st.lists(conditions(scenario, depth - 1), min_size=2, max_size=3)))
    return cond_mod.All(parts) if kind == "and" else cond_mod.Any_(parts)


@st.composite
def small_towns(draw, most: int = 3):
    scenario = draw(st.sampled_from(SCENARIOS))
    n = draw(st.integers(2, most))
    deck = list(range(18))
    cards = tuple(draw(st.permutations(deck))[:n])
    rest = [c for c in deck if c not in cards]
    pile = tuple(draw(st.lists(st.sampled_from(rest), max_size=4, unique=True)))
    return scenario, cards, pile


def question(scenario, cards, pile, quantifier, cond=None, measure=None) -> Question:
    params = (("cards", list(cards)), ("scenario", scenario), ("pile", list(pile)))
    return Question("wagons", "towns", params, quantifier, cond, measure)


SETTINGS = settings(max_examples=examples(8, 15), deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(data=st.data(), town=small_towns())
def test_exists_forall_and_chance_equal_the_brute_force(data, town):
    scenario, cards, pile = town
    cond = data.draw(conditions(scenario))
    values = brute_values(cards, scenario, pile, cond_mod.measures_named(cond))
    held = [cond_mod.holds(cond, v) for v in values]
    exists = ask(question(scenario, cards, pile, "exists", cond))
    forall = ask(question(scenario, cards, pile, "forall", cond))
    negated = ask(question(scenario, cards, pile, "exists", cond_mod.Not(cond)))
    chance = ask(question(scenario, cards, pile, "chance", cond))
    assert exists.verdict == ("yes" if any(held) else "no") and exists.proven
    assert forall.verdict == ("yes" if all(held) else "no") and forall.proven
    assert (forall.verdict == "yes") == (negated.verdict == "no")  # for every = not (is there the negation)
    assert chance.value == Fraction(sum(held), len(held))  # the half-turn twins keep the fraction
    if exists.verdict == "yes":  # the witness meets the condition
        assert cond_mod.holds(cond, exists.witness_values)


@SETTINGS
@given(data=st.data(), town=small_towns())
def test_most_and_least_equal_the_brute_force_max_and_min(data, town):
    scenario, cards, pile = town
    cond = data.draw(st.one_of(st.none(), conditions(scenario, 1)))
    measure = data.draw(st.sampled_from([m for m in measure_names(scenario) if m != "card.3"]))
    names = cond_mod.measures_named(cond) | {measure}
    values = [v for v in brute_values(cards, scenario, pile, names) if cond_mod.holds(cond, v)]
    for quantifier, pick in (("max", max), ("min", min)):
        a = ask(question(scenario, cards, pile, quantifier, cond, measure))
        if not values:
            assert a.verdict == "no"
            continue
        assert a.verdict == "value" and a.proven and a.value == pick(v[measure] for v in values)
        assert a.witness_values[measure] == a.value


def test_the_measures_agree_with_the_reference_scorer_on_every_town():
    data = load_data()
    for scenario, cards in (("through-the-desert", (4, 8, 9)), ("water-the-herd", (2, 13, 16)),
                            ("cattle-drive", (10, 3, 14))):
        goals = data.scenario(scenario).goals
        names = [f"group.{slug(t)}" for t in ("Desert", "Forest", "Mountains", "Plains", "Snow", "Water")] + \
            [f"goal.{slug(g)}" for g in goals]
        for town, values in zip(brute_towns(cards), brute_values(cards, scenario, (), names)):
            ref = reference_score_player(town, scenario, ())
            assert values == {**{f"group.{slug(t)}": v for t, v in ref["groups"].items()},
                              **{f"goal.{slug(g)}": v for g, v in ref["goals"].items()}}


@pytest.mark.deep
def test_a_four_card_domain_answers_as_the_brute_force():
    scenario, cards, pile = "through-the-desert", (4, 8, 1, 9), ()
    values = brute_values(cards, scenario, pile, {"goal.badlands", "winner"})
    cond = cond_mod.parse("goal.badlands >= 4")
    a = ask(question(scenario, cards, pile, "chance", cond))
    assert a.value == Fraction(sum(v["goal.badlands"] >= 4 for v in values), len(values))
    most = ask(question(scenario, cards, pile, "max", None, "goal.badlands"))
    assert most.value == max(v["goal.badlands"] for v in values) == 4


def test_a_seeded_estimate_of_any_two_cards_agrees_with_the_exact_chance():
    q = Question("wagons", "any-cards", (("k", 2), ("scenario", "gold-rush"), ("pile", [])), "chance",
                 cond_mod.parse("goal.gold-country >= 4 or group.plains >= 3"))
    exact = ask(q)
    assert exact.exact and exact.proven
    run = prepare(q, 60)
    rng = random.Random(7)
    hits = 0
    draws = 3000
    for _ in range(draws):
        _w, element = run.domain.sample(rng)
        hits += cond_mod.holds(q.condition, run.values(element))
    lo, hi = wilson(hits, draws, z=3.29)  # 99.9%: seeded, so this never flickers
    assert lo <= float(exact.value) <= hi
