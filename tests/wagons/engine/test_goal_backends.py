"""Every goal kind has an encoding in every backend: the scorer, the reference scorer, the compiled walk,
the CP-SAT model and the Z3 model (a kind added to the data but missed by one backend fails here).

Per kind, in the scenario that uses it: the backend's table names the kind, and the backend's value
agrees with the ordinary scorer (reference and compiled scorer on random towns; the CP-SAT and Z3
models through a proven best layout of two cards, equal to the exhaustive oracle's).
"""

from __future__ import annotations

import random

import pytest

from solver.wagons.data import GOAL_KINDS, SCENARIO_IDS, load_data
from solver.wagons.optimizer import board
from solver.wagons.optimizer.cpsat import model as cpsat
from solver.wagons.optimizer.layout import best_layout
from solver.wagons.optimizer.oracle import exhaustive_best
from solver.wagons.optimizer.z3solver import goals as z3_goals
from solver.wagons.scoring import COMPARING, COMPARING_GOALS, PLAYER_GOALS, score_player
from solver.wagons.scoring.reference import reference_score_player
from solver.wagons.town import Town, legal_placements

KINDS = [k for k in GOAL_KINDS if k != "unknown"]  # rule:W-goal-unknown: never scored by any backend


def _scenario_with(kind: str) -> tuple[str, str]:
    data = load_data()
    for s in SCENARIO_IDS:
        for name in data.scenario(s).goals:
            if data.goal(name).kind == kind:
                return s, name
    raise AssertionError(f"no scenario uses a {kind} card")


@pytest.mark.parametrize("kind", KINDS)
def test_every_backend_names_the_kind(kind):
    comparing = kind in COMPARING
    assert kind in (COMPARING_GOALS if comparing else PLAYER_GOALS), "scorer"
    assert kind in board.KINDS, "compiled walk"
    assert kind in (cpsat.COMPARING_READS if comparing else cpsat.PLAYER_GOALS), "CP-SAT"
    assert kind in (z3_goals.COMPARING_GOALS if comparing else z3_goals.PLAYER_GOALS), "Z3"


@pytest.mark.parametrize("kind", KINDS)
def test_reference_and_compiled_scorers_agree_on_the_kind(kind):
    scenario, name = _scenario_with(kind)
    data = load_data()
    assert board.goal_tables(scenario, (), data) is not None
    rng = random.Random(kind)
    for _ in range(30):
        cards = rng.sample(range(18), 7)
        town = Town()
        for cid in cards[:rng.randint(1, 5)]:
            town = Town(town.placements + (rng.choice(legal_placements(town, cid)),))
        pile = tuple(c for c in cards if c not in town.card_ids)
        want = score_player(town, scenario, pile)
        assert reference_score_player(town, scenario, pile)["goals"][name] == want.goals[name]
        assert board.compiled_score(town, scenario, pile) == want.total


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("method", ["cpsat", "incremental"])
def test_models_prove_the_oracles_optimum_with_the_kind(kind, method):
    scenario, _ = _scenario_with(kind)
    rng = random.Random(f"{kind} {method}")
    deck = rng.sample(range(18), 6)
    cards, pile = deck[:2], deck[2:]
    for objective in ("score", "margin"):
        res = best_layout(cards, scenario, pile, method=method, objective=objective, time_limit=60)
        assert res.proven_optimal
        assert res.value == exhaustive_best(cards, scenario, pile, objective=objective).value
