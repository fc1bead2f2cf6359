"""The recorded answers of the shipped town examples, recomputed by a brute force that shares nothing with the
domains but the engine's legal placements: every town (the first card in both turns), the player's side scored by
the plain reference scorer, the opponent's by its own scorer, the quantifier worked out here."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from solver.ask import condition as cond_mod
from solver.ask.examples import examples
from solver.wagons.codes import GUN, ICONS
from solver.wagons.data import load_data
from solver.wagons.game import goal_fronts
from solver.wagons.scoring import pile_counts, placements_features, score_opponent, winner_of
from solver.wagons.scoring.reference import reference_score_player
from solver.wagons.town import Town, legal_placements, visible_grid


def _towns(cards) -> list[Town]:
    layer = [Town()]
    for c in cards:
        layer = [Town(t.placements + (p,)) for t in layer for p in legal_placements(t, c)]
    return layer


def _values(town: Town, pile, scenario: str, readings) -> dict:
    data = load_data().for_readings(readings)
    ref = reference_score_player(town, scenario, pile, data, readings)
    opp = score_opponent(pile, scenario, town, readings, data)
    grid = visible_grid(town)
    out = {"player.total": ref["total"], "opponent.total": opp.total, "margin": ref["total"] - opp.total}
    for g in data.scenario(scenario).goals:
        slug = g.lower().replace(" ", "-")
        out[f"goal.{slug}"] = ref["goals"][g]
        out[f"opponent.goal.{slug}"] = opp.goals[g]
    for icon in ICONS:
        out[f"player.icon.{icon.lower()}"] = sum(1 for t in grid.values() if t.icon == icon)
    guns = placements_features(town.placements).icon[GUN].bit_count()
    out["winner"] = str(winner_of(ref["total"], opp.total, guns, pile_counts(tuple(pile)).icon[GUN], readings)[0])
    return out


def _answer(q, rows: list[dict]) -> tuple[str, object]:
    held = [r for r in rows if cond_mod.holds(q.condition, r)]
    if q.quantifier == "exists":
        return ("yes" if held else "no"), None
    if q.quantifier == "forall":
        return ("yes" if len(held) == len(rows) else "no"), None
    if q.quantifier == "chance":
        return "chance", Fraction(len(held), len(rows))
    pick = max if q.quantifier == "max" else min
    return "value", pick(r[q.measure] for r in held)


def _small(e) -> bool:
    p = e.question.param_map
    return (e.question.domain == "towns" and len(p["cards"]) <= 3) or \
        (e.question.domain == "any-cards" and p["k"] <= 2)


SMALL = [e for e in examples() if e.question.game == "wagons" and _small(e)]


def _card_lists(e):
    p = e.question.param_map
    if e.question.domain == "towns":
        return [tuple(p["cards"])]
    data = load_data()
    removed = goal_fronts(data.scenario(p["scenario"]).goals, data)
    deck = [c for c in range(18) if c not in removed and c not in (p.get("pile") or [])]
    return list(itertools.permutations(deck, p["k"]))


@pytest.mark.parametrize("example", [pytest.param(e, marks=pytest.mark.slow) if e.question.domain == "any-cards"
                                     else e for e in SMALL], ids=[e.name for e in SMALL])
def test_the_recorded_answer_is_the_brute_forces(example):
    q = example.question
    p = q.param_map
    pile = tuple(p.get("pile") or ())
    rows = [_values(t, pile, p["scenario"], q.chosen_readings()) for cards in _card_lists(example) for t in _towns(cards)]
    verdict, value = _answer(q, rows)
    assert verdict == example.expected["verdict"]
    if "value" in example.expected:
        assert str(value) == str(example.expected["value"])


def test_at_least_six_examples_are_recomputed_here():
    assert len(SMALL) >= 6


LARGE = [e for e in examples() if e.question.game == "wagons" and e.question.domain == "towns" and not _small(e)
         and e.expected["verdict"] in ("yes", "value")]


@pytest.mark.slow
@pytest.mark.parametrize("example", LARGE, ids=[e.name for e in LARGE])
def test_the_witness_of_a_large_example_bears_its_answer_out_by_the_reference_scorer(example):
    from solver.ask.engine import ask
    from solver.wagons.town import town_from_dict

    q = example.question
    p = q.param_map
    answer = ask(q, 60)
    town = town_from_dict(answer.witness["town"])
    assert list(town.card_ids) == list(p["cards"])
    values = _values(town, tuple(p.get("pile") or ()), p["scenario"], q.chosen_readings())
    assert cond_mod.holds(q.condition, values)
    if q.measure is not None:
        assert values[q.measure] == example.expected["value"]
