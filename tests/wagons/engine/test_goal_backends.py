"""Every goal kind of the catalogue (:mod:`solver.wagons.goal_kinds`) is scored alike by all nine backends: the
bitboard scorer, the reference scorer, the compiled walk, the branch and bound's node bound, the card-set bound,
the CP-SAT model, the Z3 model, the verifier's bound model and the opponent's scores (a kind added to the
catalogue but missed by one backend fails here, and stops that backend's import: ``check_backend``).

Per kind, in a scenario that scores a card of it (:func:`tests.support.builders.wagons.scenario_with_kind`): the
backend's table names the kind; the scorers agree on random towns (score and margin); the CP-SAT and Z3
models and the branch and bound prove the exhaustive oracle's best layout of two cards; the node bound and the
card-set bound are never below that best; the verifier's bound model allows every random town's score (exactly
for a kind that reads counts only) and scores the opponent's pile exactly; the opponent's "as-player" reading
scores a counting kind's total of the pile and refuses a position kind. A counting kind the catalogue does not
list (:data:`tests.support.builders.wagons.TOY_KIND`) is added and goes through the same checks: a counting card is one
catalogue entry. The readings of a card's text (Badlands' Gun boxed in both ways, rule:W12; Happy Cows' Snow at
a corner, rule:W13) are followed by every backend that scores the card: the scorers on hand-worked towns, the
oracle, CP-SAT, Z3 and the branch and bound on card lists whose best depends on the reading, the card-set bound
and the verification's bound model.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from solver.errors import BadInput
from solver.wagons import goal_kinds
from solver.wagons.cards import load_cards
from solver.wagons.optimizer import bounds
from solver.wagons.optimizer.bnb import kernel as bnb_kernel
from solver.wagons.optimizer.bnb.search import Search
from solver.wagons.optimizer.bounds import margin_bound, score_bound
from solver.wagons.optimizer.cpsat import encode as cps_encode
from solver.wagons.optimizer.cpsat import goals as cps_goals
from solver.wagons.optimizer.layout import best_layout
from solver.wagons.optimizer.oracle import exhaustive_best
from solver.wagons.optimizer.walk import scorer as walk_scorer
from solver.wagons.optimizer.walk.scorer import goal_tables
from solver.wagons.optimizer.z3solver import goals as z3_goals
from solver.wagons.readings import WagonsReadings
from solver.wagons.scoring import COMPARING_GOALS, PLAYER_GOALS, final_scores, opponent_goal, pile_counts, score_player
from solver.wagons.scoring import reference as reference_scorer
from solver.wagons.scoring.reference import reference_score_player
from solver.wagons.town import Placement, Town, legal_placements, place
from solver.wagons.verify import scores as verify_scores
from tests.support.builders.wagons import scenario_with_kind, with_toy_counting_kind
from tests.support.builders.walk import compiled_score
from tests.support.paths import ROOT

KINDS = [k.name for k in goal_kinds.KINDS]  # rule:W-goal-unknown: "unknown" is no kind any backend scores
OWN = {  # backend -> the kinds it holds an encoding of itself (the others it scores from the catalogue alone)
    "scorer": PLAYER_GOALS.keys() | COMPARING_GOALS.keys(),
    "reference": reference_scorer.POSITION.keys() | reference_scorer.COMPARING.keys(),
    "walk": walk_scorer._SCALARS.keys(),
    "bnb": set(bnb_kernel.BOUNDED),
    "bounds": bounds.POSITION.keys(),
    "cpsat": cps_goals.PLAYER_GOALS.keys(),
    "z3": z3_goals.PLAYER_GOALS.keys() | z3_goals.COMPARING_GOALS.keys(),
    "verify": verify_scores.POSITION.keys() | verify_scores.COMPARING.keys(),
}
MUST = {"scorer": ("position", "comparing"), "reference": ("position", "comparing"), "walk": ("position", "comparing"),
        "bnb": ("position",), "bounds": ("position",), "cpsat": ("position",), "z3": ("position", "comparing"),
        "verify": ("position", "comparing")}
MODULES = {"scorer": "solver.wagons.scoring.goals", "reference": "solver.wagons.scoring.reference",
           "walk": "solver.wagons.optimizer.walk.scorer", "bnb": "solver.wagons.optimizer.bnb.kernel",
           "bounds": "solver.wagons.optimizer.bounds", "cpsat": "solver.wagons.optimizer.cpsat.goals",
           "z3": "solver.wagons.optimizer.z3solver.goals", "verify": "solver.wagons.verify.scores"}


def test_the_catalogue_names_nine_backends():
    assert set(goal_kinds.BACKENDS) == set(OWN) | {"opponent"}
    for _what, where in goal_kinds.BACKENDS.values():
        assert (ROOT / where).is_file(), where


@pytest.mark.parametrize("kind", KINDS)
def test_every_backend_encodes_the_kind_or_scores_it_from_the_catalogue(kind):
    entry = goal_kinds.kind(kind)
    for backend, families in MUST.items():
        if entry.family in families:
            assert kind in OWN[backend], backend
    if entry.family == "counting":
        assert entry.counts and entry.score is not None
    if entry.family == "comparing":
        assert entry.reads and set(entry.reads) <= set(goal_kinds.SIDE_COUNTS)


def test_a_backend_without_a_kind_refuses_to_load():
    """A position kind added to the catalogue without encodings: every backend that must encode it stops at its
    import, naming itself and the kind (run in a fresh interpreter: the backends are reloaded there)."""
    script = f"""
import importlib, json
from solver.wagons import goal_kinds
mods = {json.dumps(MODULES)}
for name in mods.values():
    importlib.import_module(name)
goal_kinds.KINDS += (goal_kinds.GoalKind("toy-position", "W-goal-toy", "position", ("per_gun",)),)
goal_kinds.POSITION += ("toy-position",)
out = {{}}
for backend, name in mods.items():
    try:
        importlib.reload(importlib.import_module(name))
        out[backend] = ""
    except goal_kinds.MissingEncoding as exc:
        out[backend] = str(exc)
print(json.dumps(out))
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    said = json.loads(done.stdout.strip().splitlines()[-1])
    for backend in MODULES:
        assert "toy-position" in said[backend] and goal_kinds.BACKENDS[backend][1] in said[backend], backend


def test_check_backend_names_a_kind_outside_the_catalogue():
    with pytest.raises(goal_kinds.MissingEncoding, match="encodes goal kind toy"):
        goal_kinds.check_backend("cpsat", set(cps_goals.PLAYER_GOALS) | {"toy"}, ("position",))


def _towns(kind: str, data, scenario: str, count: int = 20):
    """Random legal towns of 1 to 5 cards with random piles of the cards left."""
    rng = random.Random(kind)
    for _ in range(count):
        cards = rng.sample(range(18), 7)
        town = Town()
        for cid in cards[:rng.randint(1, 5)]:
            town = Town(town.placements + (rng.choice(legal_placements(town, cid)),))
        yield town, tuple(c for c in cards if c not in town.card_ids)


def _scorers_agree(data, scenario: str, name: str, kind: str) -> None:
    assert goal_tables(scenario, (), data) is not None
    for town, pile in _towns(kind, data, scenario):
        want = score_player(town, scenario, pile, data=data)
        assert reference_score_player(town, scenario, pile, data=data)["goals"][name] == want.goals[name]
        assert compiled_score(town, scenario, pile, data=data) == want.total
        margin = final_scores(town, pile, scenario, data=data).margin
        assert compiled_score(town, scenario, pile, objective="margin", data=data) == margin


@pytest.mark.parametrize("kind", KINDS)
def test_the_scorers_agree_on_the_kind(kind):
    """The bitboard scorer, the reference scorer and the compiled walk (the player's score and the margin)."""
    _scorers_agree(*scenario_with_kind(kind), kind)


def _best_two_cards(kind: str, data, scenario: str, methods=("cpsat", "incremental", "bnb")) -> None:
    rng = random.Random(f"{kind} best")
    deck = rng.sample(range(18), 6)
    cards, pile = deck[:2], deck[2:]
    for objective in ("score", "margin"):
        best = exhaustive_best(cards, scenario, pile, objective=objective, data=data).value
        if objective == "margin":  # (score_bound is the player's total less the opponent's comparing points)
            assert margin_bound(cards, scenario, pile, data=data) >= best, "card-set bound"
        s = Search(cards, goal_tables(scenario, pile, data), objective)
        compiled_best = best + _fixed(pile, scenario, data) if objective == "margin" else best
        assert _root_bound(s) >= compiled_best, "node bound"
        for method in methods:
            res = best_layout(cards, scenario, pile, method=method, objective=objective, time_limit=60, data=data)
            assert res.proven_optimal and res.value == best, method


def _fixed(pile, scenario: str, data) -> int:
    from solver.wagons.scoring import opponent_fixed

    return opponent_fixed(tuple(pile), scenario, data=data)


def _root_bound(s: Search) -> int:
    """The node bound after the first card (the search's compiled value: the margin plus the opponent's fixed
    points)."""
    ter, ico, occ, stamp, _mark, ctr, queue, *_ = s.board
    return int(bnb_kernel.node_bound(ter, ico, occ, int(s.st[0][2]), s.B, stamp, ctr, queue, s.scratch, 0, s.n, s.rem_t,
                                     s.rem_i, s.tables[0], s.tables[1], s.ftab, s.ctab, s.ter_ok, s.cow_ok))


@pytest.mark.parametrize("kind", KINDS)
def test_the_models_and_bounds_meet_the_oracles_best_with_the_kind(kind):
    """CP-SAT, Z3 and the branch and bound prove the exhaustive oracle's best of two cards; the card-set bound
    and the node bound are not below it."""
    _best_two_cards(kind, *scenario_with_kind(kind)[:2])


def _visible_pairs(town: Town) -> dict:
    from solver.wagons.town import visible_grid

    out: dict = {}
    for v in visible_grid(town).values():
        out[(v.terrain, v.icon)] = out.get((v.terrain, v.icon), 0) + 1
    return out


def _verify_allows(kind: str, data, scenario: str, name: str, count: int = 4) -> None:
    """Each random town of the scenario's cards, its pile the cards left: the bound model with that town's cards
    and visible counts allows its score of the card (exactly that score when the kind reads counts only) and
    scores the opponent's pile as the scorer does."""
    import z3

    from solver.wagons.verify.model import scenario_cards

    ids = scenario_cards(scenario)
    rng = random.Random(f"{kind} verify")
    exact = goal_kinds.kind(kind).family != "position"
    for _ in range(count):
        cards = rng.sample(ids, rng.randint(2, 4))
        town = Town()
        for cid in cards:
            town = place(town, rng.choice(legal_placements(town, cid)))
        pile = tuple(c for c in ids if c not in cards)
        scores = final_scores(town, pile, scenario, data=data)
        m = verify_scores.BoundModel(z3.Context(), scenario, data=data)
        shown = _visible_pairs(town)
        m.opt.add(m.pin(cards), *[v == shown.get(p, 0) for p, v in m.vis.items()])
        player = m.player_goals[name]
        m.opt.add(player == scores.player.goals[name] if exact else player >= scores.player.goals[name])
        assert m.opt.check() == z3.sat, (cards, scores.player.goals[name])
        model = m.opt.model()
        assert model.eval(m.opp_goals[name], model_completion=True).as_long() == scores.opponent.goals[name]


@pytest.mark.parametrize("kind", KINDS)
def test_the_verifiers_bound_model_allows_every_towns_score_of_the_kind(kind):
    _verify_allows(kind, *scenario_with_kind(kind))


def _pile_total(entry, pile) -> int:
    cards = load_cards()
    return sum(s in (t.terrain, t.icon) for c in pile for t in cards[c].territories for s in entry.counts)


@pytest.mark.parametrize("kind", KINDS)
def test_the_opponents_as_player_reading_of_the_kind(kind):
    """The opponent's pile has no positions (rule:W6): "as-player" scores a counting kind's total of the pile,
    a comparing kind through its comparison, and refuses a position kind, naming the card."""
    from solver.wagons.data import OpponentReading

    data, _, name = scenario_with_kind(kind)
    goal, entry = data.goal(name), goal_kinds.kind(kind)
    reading = OpponentReading(name, "as-player")
    pile = (0, 4, 10, 15)
    if entry.family == "counting":
        assert opponent_goal(goal, reading, pile_counts(pile), data, pile=pile) == entry.points(goal, _pile_total(entry, pile))
    elif entry.family == "position":
        with pytest.raises(BadInput, match=f"'{name}'.*no positions"):
            opponent_goal(goal, reading, pile_counts(pile), data, pile=pile)


def test_a_counting_kind_is_one_catalogue_entry(monkeypatch):
    """A counting kind the catalogue did not list, added there alone (and a card of it to the data): every backend
    scores it, and they agree (as the checks above do for the listed kinds)."""
    data, scenario, name = with_toy_counting_kind(monkeypatch)
    kind = data.goal(name).kind
    _scorers_agree(data, scenario, name, kind)
    _best_two_cards(kind, data, scenario)
    _verify_allows(kind, data, scenario, name)
    entry = goal_kinds.kind(kind)
    from solver.wagons.data import OpponentReading

    pile = (4, 11, 12)
    got = opponent_goal(data.goal(name), OpponentReading(name, "as-player"), pile_counts(pile), data, pile=pile)
    assert got == entry.points(data.goal(name), _pile_total(entry, pile)) > 0


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
    ("through-the-desert", "Badlands", BOXED, WagonsReadings(), 4),
    ("through-the-desert", "Badlands", BOXED, WagonsReadings(badlands_both_ways="twice"), 8),
    ("cattle-drive", "Happy Cows", CORNER, WagonsReadings(), 2),
    ("cattle-drive", "Happy Cows", CORNER, WagonsReadings(happy_cows_snow="corner"), 0),
]


def _town(placements) -> Town:
    town = Town()
    for p in placements:
        town = place(town, Placement(*p))
    return town


@pytest.mark.parametrize("scenario,name,placements,readings,want", READING_TOWNS)
def test_the_scorers_follow_the_cards_reading(scenario, name, placements, readings, want):
    town = _town(placements)
    got = score_player(town, scenario, (), readings)
    assert got.goals[name] == want
    assert reference_score_player(town, scenario, (), readings=readings)["goals"][name] == want
    assert compiled_score(town, scenario, (), readings) == got.total


def _cpsat_part(town: Town, scenario: str, name: str, readings: WagonsReadings) -> int:
    """The CP-SAT model's value of goal card ``name`` with every card fixed where ``town`` has it."""
    from ortools.sat.python import cp_model

    from solver.wagons.data import load_data
    from solver.wagons.optimizer.problem import card_quads, normal_xyr
    from solver.wagons.scoring import pile_counts

    data = load_data().for_readings(readings)
    quads = card_quads(list(town.card_ids))
    model = cps_encode.encode(quads)
    total, parts, _ = cps_goals.player_score(model, data.scenario(scenario), data, pile_counts(()))
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


def _z3_part(town: Town, scenario: str, name: str, readings: WagonsReadings) -> int:
    """The Z3 model's value of goal card ``name`` with every card fixed where ``town`` has it (the first card
    at (0, 0), unturned, as the model states towns)."""
    import z3

    from solver.wagons.data import load_data
    from solver.wagons.optimizer.problem import card_quads
    from solver.wagons.optimizer.z3solver.model import encode
    from solver.wagons.scoring import pile_counts

    data = load_data().for_readings(readings)
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


@pytest.mark.parametrize("scenario,name,placements,readings,want", READING_TOWNS)
def test_the_models_score_the_fixed_town_by_the_reading(scenario, name, placements, readings, want):
    """The CP-SAT and Z3 models, every card fixed where the hand-worked town has it, value the card as the
    reading says (a model that ignored the reading could still prove a best found by the local search)."""
    town = _town(placements)
    assert _cpsat_part(town, scenario, name, readings) == want
    assert _z3_part(town, scenario, name, readings) == want


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
    assert exhaustive_best(list(cards), scenario, (), WagonsReadings(**reading)).value == best


def _prover_cases() -> list:
    """Each prover on each reading's best; the incremental prover's Through the Desert cases (a minute or more
    each) only with ``--deep``: its Cattle Drive cases keep it in every run."""
    return [pytest.param(method, *case, marks=pytest.mark.deep if method == "incremental" and case[0] ==
                         "through-the-desert" else ()) for method in ("cpsat", "incremental", "bnb") for case in READING_BESTS]


@pytest.mark.parametrize("method,scenario,cards,reading,best", _prover_cases())
def test_the_models_prove_the_readings_best(method, scenario, cards, reading, best):
    res = best_layout(list(cards), scenario, (), WagonsReadings(**reading), method=method, time_limit=120)
    assert res.proven_optimal and res.value == best


@pytest.mark.parametrize("scenario,cards,reading,best", READING_BESTS)
def test_the_card_bound_stays_admissible_under_the_reading(scenario, cards, reading, best):
    assert score_bound(list(cards), scenario, (), WagonsReadings(**reading)) >= best


@pytest.mark.parametrize("reading,points", [("once", 4), ("twice", 8)])
def test_the_card_bound_of_badlands_allows_the_boxed_gun(reading, points):
    """Cards 4, 16, 1, 8 hold one Gun; the boxed town scores it ``points`` (hand-worked above), so the card-set
    bound of Badlands must be at least that (and is exactly that: one Gun)."""
    from solver.wagons.data import load_data
    from solver.wagons.optimizer.bounds import card_counts, goal_bound

    goal = load_data().for_readings(WagonsReadings(badlands_both_ways=reading)).goal("Badlands")
    assert goal_bound(goal, card_counts([4, 16, 1, 8])) == points


@pytest.mark.parametrize("flag,points", [(0, 4), (1, 8)])
def test_the_branch_and_bounds_badlands_term_allows_the_boxed_gun(flag, points):
    """The node bound's Badlands term (bnb_kernel._goals_fixed) at the boxed town's counts: 1 Gun, placed between
    Deserts, 4 Deserts (which flank at most between_cells(4) = 4 (cell, way) pairs): at least the Gun's score
    under the reading (``flag`` = twice_when_boxed, the compiled tables' second slot)."""
    import numpy as np

    from solver.wagons.codes import DESERT, GUN
    from solver.wagons.optimizer.bnb.kernel import _goals_fixed
    from solver.wagons.optimizer.bounds import between_cells
    from solver.wagons.optimizer.walk.scorer import K_BAD

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

    m = BoundModel(z3.Context(), "through-the-desert", WagonsReadings(badlands_both_ways=reading))
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


@pytest.mark.parametrize("entry", [dict(family="shape"), dict(family="counting"), dict(counts=("Gold",)),
                                   dict(family="comparing", reads=("wagons",)), dict(family="comparing"),
                                   dict(reads=("beers",))])
def test_the_catalogue_refuses_a_malformed_kind(entry):
    with pytest.raises(ValueError, match="goal kind 'toy'"):
        goal_kinds.GoalKind(**{"name": "toy", "rule": "W-goal-toy", "family": "position", **entry})
