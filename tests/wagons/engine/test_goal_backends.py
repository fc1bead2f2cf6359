"""Every goal kind has an encoding in every backend: the scorer, the reference scorer, the compiled walk,
the CP-SAT model and the Z3 model (a kind added to the data but missed by one backend fails here).

Per kind, in the scenario that uses it: the backend's table names the kind, and the backend's value
agrees with the ordinary scorer (reference and compiled scorer on random towns; the CP-SAT and Z3
models through a proven best layout of two cards, equal to the exhaustive oracle's). The readings of a
card's text (Badlands' Gun boxed in both ways, rule:W12; Happy Cows' Snow at a corner, rule:W13) are
followed by every backend that scores the card: the scorers on hand-worked towns, the oracle, CP-SAT, Z3
and the branch and bound on card lists whose best depends on the reading, the card-set bound and the
verification's bound model.
"""

from __future__ import annotations

import random

import pytest

from solver.wagons.data import GOAL_KINDS, SCENARIO_IDS, load_data
from solver.wagons.optimizer import board
from solver.wagons.optimizer.bounds import score_bound
from solver.wagons.optimizer.cpsat import model as cpsat
from solver.wagons.optimizer.layout import best_layout
from solver.wagons.optimizer.oracle import exhaustive_best
from solver.wagons.optimizer.z3solver import goals as z3_goals
from solver.wagons.rules import Rules
from solver.wagons.scoring import COMPARING, COMPARING_GOALS, PLAYER_GOALS, score_player
from solver.wagons.scoring.reference import reference_score_player
from solver.wagons.town import Placement, Town, legal_placements, place

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


# ---- the readings of a card's text (rule:W12, rule:W13): every backend that scores the card follows them
#
# Hand-worked from the card fronts (scenarios/wagons/cards.json), (card, x, y, turned), y growing downward:
# * BOXED: card 4 at (0, 0) shows its Desert/Gun top right at (1, 0) with its own Desert top left at (0, 0);
#   card 16 at (1, 1) puts its top-left Desert/Wagon below the Gun (covering card 4's Mountains there), card 1
#   at (2, -1) its bottom-left Desert/Beer on the Gun's right, card 8 at (0, -2) its bottom-right Desert/Beer
#   above it. No other Gun shows. Badlands (4 per Gun): once 4, twice 4 + 4 = 8.
# * CORNER: card 6 at (0, 0) shows Snow/Mine at (1, 0); card 13 turned at (0, 1) puts its Mountains/Cow at
#   (0, 1) (covering card 6's Forest/Mine), whose edge neighbours are Water (0, 0), Water (1, 1) and Desert
#   (0, 2); the Snow at (1, 0) touches it only at a corner. Happy Cows (2 per Cow): edge 2, corner 0.
BOXED = ((4, 0, 0, 0), (16, 1, 1, 0), (1, 2, -1, 0), (8, 0, -2, 0))
CORNER = ((6, 0, 0, 0), (13, 0, 1, 180))
READING_TOWNS = [
    ("through-the-desert", "Badlands", BOXED, Rules(), 4),
    ("through-the-desert", "Badlands", BOXED, Rules(badlands_both_ways="twice"), 8),
    ("cattle-drive", "Happy Cows", CORNER, Rules(), 2),
    ("cattle-drive", "Happy Cows", CORNER, Rules(happy_cows_snow="corner"), 0),
]


def _town(placements) -> Town:
    town = Town()
    for p in placements:
        town = place(town, Placement(*p))
    return town


@pytest.mark.parametrize("scenario,name,placements,rules,want", READING_TOWNS)
def test_the_scorers_follow_the_cards_reading(scenario, name, placements, rules, want):
    town = _town(placements)
    got = score_player(town, scenario, (), rules)
    assert got.goals[name] == want
    assert reference_score_player(town, scenario, (), rules=rules)["goals"][name] == want
    assert board.compiled_score(town, scenario, (), rules) == got.total


def _cpsat_part(town: Town, scenario: str, name: str, rules: Rules) -> int:
    """The CP-SAT model's value of goal card ``name`` with every card fixed where ``town`` has it."""
    from ortools.sat.python import cp_model

    from solver.wagons.data import load_data
    from solver.wagons.optimizer.problem import card_quads, normal_xyr
    from solver.wagons.scoring import pile_counts

    data = load_data().for_rules(rules)
    quads = card_quads(list(town.card_ids))
    model = cpsat.encode(quads)
    total, parts, _ = cpsat.player_score(model, data.scenario(scenario), data, pile_counts(()))
    for (x, y, r), X, Y, R in zip(normal_xyr(town, quads), model.X, model.Y, model.R):
        model.m.add(X == x)
        model.m.add(Y == y)
        if not isinstance(R, int):
            model.m.add(R == (1 if r else 0))
    model.m.maximize(total)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = 60
    assert solver.solve(model.m) == cp_model.OPTIMAL
    part = parts[name]
    return part if isinstance(part, int) else int(solver.value(part))


def _z3_part(town: Town, scenario: str, name: str, rules: Rules) -> int:
    """The Z3 model's value of goal card ``name`` with every card fixed where ``town`` has it (the first card
    at (0, 0), unturned, as the model states towns)."""
    import z3

    from solver.wagons.data import load_data
    from solver.wagons.optimizer.problem import card_quads
    from solver.wagons.optimizer.z3solver.model import encode
    from solver.wagons.scoring import pile_counts

    data = load_data().for_rules(rules)
    ctx = z3.Context()
    callback, _ = z3_goals.goal_terms(data.scenario(scenario), data, pile_counts(()))
    ztown, _, parts = encode(card_quads(list(town.card_ids)), callback, ctx)
    first = town.placements[0]
    assert first.rot == 0
    solver = z3.Solver(ctx=ctx)
    solver.add(*ztown.constraints)
    for p, X, Y, R in zip(town.placements, ztown.X, ztown.Y, ztown.R):
        solver.add(X == p.x - first.x, Y == p.y - first.y, R == z3.BoolVal(p.rot == 180, ctx))
    assert solver.check() == z3.sat
    return solver.model().eval(parts[name], model_completion=True).as_long()


@pytest.mark.parametrize("scenario,name,placements,rules,want", READING_TOWNS)
def test_the_models_score_the_fixed_town_by_the_reading(scenario, name, placements, rules, want):
    """The CP-SAT and Z3 models, every card fixed where the hand-worked town has it, value the card as the
    reading says (a model that ignored the reading could still prove a best found by the local search)."""
    town = _town(placements)
    assert _cpsat_part(town, scenario, name, rules) == want
    assert _z3_part(town, scenario, name, rules) == want


# The smallest card lists (found by the exhaustive oracle, checked by hand above for the towns) whose best
# score changes with the reading: Badlands' best town of 4, 16, 1, 8 scores 22 once and 24 twice (the boxed
# town above); Happy Cows' best town of 10 then 15 scores 13 with edge and 11 with corner.
READING_BESTS = [
    ("through-the-desert", (4, 16, 1, 8), {"badlands_both_ways": "once"}, 22),
    ("through-the-desert", (4, 16, 1, 8), {"badlands_both_ways": "twice"}, 24),
    ("cattle-drive", (10, 15), {"happy_cows_snow": "edge"}, 13),
    ("cattle-drive", (10, 15), {"happy_cows_snow": "corner"}, 11),
]


@pytest.mark.parametrize("scenario,cards,reading,best", READING_BESTS)
def test_the_oracle_finds_a_best_that_depends_on_the_reading(scenario, cards, reading, best):
    assert exhaustive_best(list(cards), scenario, (), Rules(**reading)).value == best


@pytest.mark.parametrize("scenario,cards,reading,best", READING_BESTS)
@pytest.mark.parametrize("method", ["cpsat", "incremental", "bnb"])
def test_the_models_prove_the_readings_best(scenario, cards, reading, best, method):
    res = best_layout(list(cards), scenario, (), Rules(**reading), method=method, time_limit=120)
    assert res.proven_optimal and res.value == best


@pytest.mark.parametrize("scenario,cards,reading,best", READING_BESTS)
def test_the_card_bound_stays_admissible_under_the_reading(scenario, cards, reading, best):
    assert score_bound(list(cards), scenario, (), Rules(**reading)) >= best


@pytest.mark.parametrize("reading,points", [("once", 4), ("twice", 8)])
def test_the_card_bound_of_badlands_allows_the_boxed_gun(reading, points):
    """Cards 4, 16, 1, 8 hold one Gun; the boxed town scores it ``points`` (hand-worked above), so the card-set
    bound of Badlands must be at least that (and is exactly that: one Gun)."""
    from solver.wagons.data import load_data
    from solver.wagons.optimizer.bounds import card_counts, goal_bound

    goal = load_data().for_rules(Rules(badlands_both_ways=reading)).goal("Badlands")
    assert goal_bound(goal, card_counts([4, 16, 1, 8])) == points


@pytest.mark.parametrize("flag,points", [(0, 4), (1, 8)])
def test_the_branch_and_bounds_badlands_term_allows_the_boxed_gun(flag, points):
    """The node bound's Badlands term (bnb_kernel._goals_fixed) at the boxed town's counts: 1 Gun, placed between
    Deserts, 4 Deserts (which flank at most between_cells(4) = 4 (cell, way) pairs): at least the Gun's score
    under the reading (``flag`` = twice_when_boxed, the compiled tables' second slot)."""
    import numpy as np

    from solver.wagons.codes import DESERT, GUN
    from solver.wagons.optimizer.bnb.kernel import _goals_fixed
    from solver.wagons.optimizer.board import K_BAD
    from solver.wagons.optimizer.bounds import between_cells

    tot_t, tot_i = np.zeros(6, np.int64), np.zeros(6, np.int64)
    tot_t[DESERT], tot_i[GUN] = 4, 1
    ftab = np.array([[between_cells(k) for k in range(17)]], np.int64)
    got = _goals_fixed(np.array([K_BAD], np.int64), np.array([[4, flag, 0, 0]], np.int64), tot_t, tot_i, 0,
                       np.array([1], np.int64), ftab)
    assert got == points


@pytest.mark.parametrize("reading,points", [("once", 4), ("twice", 8)])
def test_the_verification_bound_model_scores_a_boxed_gun_by_the_reading(reading, points):
    """One visible Gun and four visible Deserts (the boxed town's counts): the relaxation allows the Gun
    boxed in both ways, so its Badlands bound is the reading's score of that Gun."""
    import z3

    from solver.wagons.verify.scores import BoundModel

    m = BoundModel(z3.Context(), "through-the-desert", Rules(badlands_both_ways=reading))
    m.opt.add(m.vi["Gun"] == 1, m.vt["Desert"] == 4)
    assert m.opt.check() == z3.sat
    assert m.opt.model().eval(m.player_goals["Badlands"]).as_long() == points


@pytest.mark.parametrize("name,param,flag", [("Badlands", "twice_when_boxed", "--badlands-both-ways"),
                                             ("Happy Cows", "snow_corners", "--happy-cows-snow")])
def test_a_reading_is_not_a_number_of_the_goals_file(name, param, flag):
    """The reading is chosen with its flag (rule:W12, rule:W13); a goals file that sets it is refused, naming it."""
    from solver.errors import BadInput
    from solver.io.read import read_toml
    from solver.wagons.data import GOALS_FILE, parse_goals

    doc = read_toml(GOALS_FILE)
    for g in doc["goal"]:
        if g["name"] == name:
            g["params"][param] = True
    with pytest.raises(BadInput, match=f"{param}.*{flag}"):
        parse_goals(doc)


def test_the_command_line_flags_choose_the_readings(tmp_path):
    import contextlib
    import io
    import json

    from solver import cli

    town = tmp_path / "town.json"
    town.write_text(json.dumps({"placements": [{"card": c, "x": x, "y": y, "rot": r} for c, x, y, r in BOXED]}))
    opp = tmp_path / "opp.json"
    opp.write_text(json.dumps({"pile": []}))

    def badlands(*flags):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            assert cli.main(["wagons", "score", str(town), "--scenario", "through-the-desert", "--opponent", str(opp),
                             "--json", *flags]) == 0
        doc = json.loads(out.getvalue())
        return doc["player"]["goals"]["Badlands"], doc["rules"]["badlands_both_ways"]

    assert badlands() == (4, "once")
    assert badlands("--badlands-both-ways", "twice") == (8, "twice")
