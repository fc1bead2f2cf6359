"""The CP-SAT best-layout model (rule:W-opt-layout) against the ordinary scorer and the oracle.

The oracle tests of ``test_wagons_optimize.py`` run the default method (CP-SAT). Here:
- the model is *exact* on whole towns: with every card's position fixed to a random legal town
  (4-9 cards, covers included, every scenario), the model's optimum equals the scorer's value of
  that town, part by part (largest groups and both goal cards) and for the margin; an
  over-count or an under-count (an unsound proof) fails;
- the Z3 loop still agrees with the oracle (it stays available as ``method="incremental"``);
- a town whose first card is turned is normalised (half turn of the whole town) without changing
  its score, as the model states towns.
"""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ortools.sat.python import cp_model

from solver.wagons.data import SCENARIO_IDS, load_data
from solver.wagons.optimizer.cpsat import encode as cps_encode
from solver.wagons.optimizer.cpsat import goals as cps_goals
from solver.wagons.optimizer.cpsat import proof as cps_proof
from solver.wagons.optimizer.cpsat import solve as cps_solve
from solver.wagons.optimizer.cpsat import town as cps_town
from solver.wagons.optimizer.layout import best_layout
from solver.wagons.optimizer.oracle import exhaustive_best
from solver.wagons.optimizer.problem import card_quads, normal_xyr
from solver.wagons.scoring import final_scores, opponent_fixed, pile_counts, score_player
from solver.wagons.town import Placement, Town, load_town, town_to_json
from tests.support.builders.wagons import HARD_CARDS, HARD_PILE, HARD_TOWN, beat_the_hard_town, random_town
from tests.support.depth import deep_after, examples
from tests.support.limits import HANG_GUARD


def _hidden_cards(town: Town) -> set[int]:
    """Indices of the cards none of whose territories shows (every cell covered later)."""
    top = {}
    for i, p in enumerate(town.placements):
        for xy, _ in p.cells():
            top[xy] = i
    return set(range(len(town.placements))) - set(top.values())


def _fixed_model_values(town: Town, scenario: str, pile, speedups: bool = True):
    """The model's values with every card's position fixed to ``town``, and every turn too, except (with
    the symmetry breaking of ``speedups``) the turn of a card that shows nothing: the model puts it
    unturned, which must leave the value unchanged."""
    data = load_data()
    cards = list(town.card_ids)
    quads = card_quads(cards)
    model = cps_encode.encode(quads, speedups=speedups)
    total, parts, theirs = cps_goals.player_score(model, data.scenario(scenario), data, pile_counts(tuple(pile)))
    margin = total - sum(theirs.values()) - opponent_fixed(tuple(pile), scenario)
    hidden = _hidden_cards(town) if speedups else set()
    for i, ((x, y, r), X, Y, R) in enumerate(zip(normal_xyr(town, quads), model.X, model.Y, model.R)):
        model.m.add(X == x)
        model.m.add(Y == y)
        if not isinstance(R, int) and i not in hidden:
            model.m.add(R == (1 if r else 0))
    model.m.maximize(total)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = 60
    status = solver.solve(model.m)
    assert status == cp_model.OPTIMAL, solver.status_name(status)
    value = lambda e: e if isinstance(e, int) else int(solver.value(e))
    return value(total), {k: value(v) for k, v in parts.items()}, value(margin)


@pytest.mark.parametrize("speedups", [True, False], ids=["speedups", "plain"])
@pytest.mark.parametrize("seed", deep_after(range(18), keep=6))
def test_model_is_exact_on_random_whole_towns(seed, speedups):
    """With the redundant bounds and the symmetry breaking (an unsound bound makes a real town
    infeasible or under-counts it) and without them (the bench's baseline)."""
    rng = random.Random(f"cpsat-exact-{seed}")
    scenario = SCENARIO_IDS[seed % 6]
    town, pile = random_town(rng, 4 + seed % 6)
    total, parts, margin = _fixed_model_values(town, scenario, pile, speedups)
    ps = score_player(town, scenario, pile)
    assert {**ps.groups, **ps.goals} == parts, town
    assert total == ps.total
    # the margin: the player's total less the opponent's (its comparing cards depend on this town)
    assert margin == final_scores(town, pile, scenario).margin


# Seeds of random towns where some terrain shows a 2x2 block (a cycle) and a second, separate group:
# counting edges (selected edges >= selected slots - 1) cannot tell those apart, only a real
# connectivity constraint stops the model from adding the two groups up (found by a search over seeds).
CYCLE_TOWNS = [48, 153, 206, 241, 243, 332, 466, 707]


@pytest.mark.parametrize("cut_slots", [cps_town.MAX_CUT_SLOTS, 1], ids=["cuts", "distance-labels"])
@pytest.mark.parametrize("seed", deep_after(CYCLE_TOWNS, keep=4))
def test_groups_with_cycles_are_not_merged(seed, cut_slots, monkeypatch):
    """Both connectivity encodings (cuts; distance labels above MAX_CUT_SLOTS candidates, i.e. towns
    of 12+ cards, forced here on small towns) must give the scorer's largest groups."""
    monkeypatch.setattr(cps_town, "MAX_CUT_SLOTS", cut_slots)
    town, pile = random_town(random.Random(f"cycle-{seed}"), 5 + seed % 5)
    scenario = SCENARIO_IDS[seed % 6]
    total, parts, _ = _fixed_model_values(town, scenario, pile)
    ps = score_player(town, scenario, pile)
    assert {**ps.groups, **ps.goals} == parts, town
    assert total == ps.total


def test_model_is_exact_on_the_rulebook_example():
    """The rulebook's six-card example town: Desert 4, Forest 1, Mountains 6, Plains 5, Snow 1, Water 3."""
    town = Town(tuple(Placement(c, x, y) for c, x, y in ((13, 1, 1), (4, 0, 1), (14, 3, 1), (0, 4, 0), (2, 0, 3), (1, 2, 3))))
    _, parts, _ = _fixed_model_values(town, "gold-rush", ())
    assert {k: parts[k] for k in ("Desert", "Forest", "Mountains", "Plains", "Snow", "Water")} == \
        {"Desert": 4, "Forest": 1, "Mountains": 6, "Plains": 5, "Snow": 1, "Water": 3}


def test_half_turn_normalisation_keeps_the_score():
    rng = random.Random(5)
    for _ in range(20):
        town, pile = random_town(rng, 5)
        quads = card_quads(town.card_ids)
        xyr = normal_xyr(town, quads)
        assert xyr[0] == (0, 0, 0)
        turned = load_town({"placements": [{"card": c, "x": x, "y": y, "rot": r}
                                           for c, (x, y, r) in zip(town.card_ids, xyr)]})
        for sc in SCENARIO_IDS:
            assert final_scores(turned, pile, sc).to_dict() == final_scores(town, pile, sc).to_dict()


@pytest.mark.parametrize("seed", [40, 41, 42, 45])
def test_z3_loop_still_matches_the_oracle(seed):
    rng = random.Random(seed)
    deck = rng.sample(range(18), 18)
    cards, pile, scenario = deck[:3], deck[3:3 + seed % 4], SCENARIO_IDS[seed % 6]
    z = best_layout(cards, scenario, pile, method="incremental")
    c = best_layout(cards, scenario, pile)
    oracle = exhaustive_best(cards, scenario, pile)
    assert z.proven_optimal and c.proven_optimal
    assert z.value == c.value == oracle.value
    assert c.method == "cpsat-bound" and z.method == "incremental"  # the default method (LAYOUT_METHOD)


def test_cpsat_reports_bounds_and_a_legal_town_when_time_runs_out():
    """Ten cards, a short limit: a legal, re-scored town, not proven, any bound at least its value."""
    rng = random.Random(3)
    cards = rng.sample(range(18), 10)
    seen = []
    res = best_layout(cards, "water-the-herd", (), time_limit=2, progress=seen.append)
    town = load_town(town_to_json(Town(res.placements)))
    assert town.card_ids == tuple(cards)
    assert score_player(town, "water-the-herd", ()).total == res.score == res.value
    if not res.proven_optimal:
        assert res.bound is None or res.bound > res.value
    assert all(p.bound is None or p.bound >= p.best for p in seen)
    assert res.elapsed < HANG_GUARD  # a hang guard only; bench/wagons/bench_wagons_limits.py measures the overshoot


@pytest.mark.parametrize("method", ["cpsat", "cpsat-core", "cpsat-bound"])
def test_a_solve_cut_short_before_its_search_never_claims_a_proof(method):
    """A time limit shorter than CP-SAT's presolve (0.5-1 s on this 8-card model) leaves it no bound at
    all: it reports 0 then, and read as a bound that "proved" a 30-point town optimal at 1 s (fixed
    2026-12-02). A town proven optimal must score at least the 32 the engine gives the known town."""
    known = Town(tuple(Placement(c, x, y, r) for c, x, y, r in HARD_TOWN))
    assert score_player(known, "through-the-desert", HARD_PILE).total == 32
    for limit in (0.4, 1.0):
        res = best_layout(HARD_CARDS, "through-the-desert", HARD_PILE, time_limit=limit, method=method)
        assert not res.proven_optimal or res.score >= 32, (limit, res.score, res.bound)
        assert res.bound is None or res.bound >= 32, (limit, res.bound)


def test_a_phase_stopped_before_its_search_reports_no_bound():
    """:func:`cpsat.stopped_bound` of a solve stopped during presolve is None (CP-SAT's own number is 0),
    and a bound at or below the floor (no real bound of "more than the floor" is) is None too."""
    model, solver = beat_the_hard_town(0.01)
    assert solver.solve(model.m) == cp_model.UNKNOWN
    assert solver.best_objective_bound == 0  # what CP-SAT reports: no bound, but a number
    assert cps_solve.stopped_bound(solver, 32) is None and cps_solve.stopped_bound(solver, None) is None
    solver.parameters.max_time_in_seconds = 600.0  # a search of 2,000 conflicts, however loaded the machine
    solver.parameters.max_number_of_conflicts = 2000
    assert solver.solve(model.m) == cp_model.UNKNOWN
    assert solver.response_proto.num_conflicts >= 2000
    assert cps_solve.stopped_bound(solver, 32) >= 33  # after a search has run, its bound stands
    assert cps_solve.stopped_bound(solver, 10 ** 6) is None


@pytest.mark.parametrize("proof", cps_solve.PROOFS)
@pytest.mark.parametrize("seed", [50, 52, 53])
def test_proof_phase_alone_proves_the_oracle_optimum(seed, proof):
    """The proof phase (what proves large towns: CP-SAT's search without LP, or core-based search) on
    its own, from the greedy value: it must find the oracle's optimum or prove that nothing beats the
    incumbent when that is already optimal."""
    import time

    from solver.wagons.optimizer.problem import greedy_layout

    rng = random.Random(seed)
    deck = rng.sample(range(18), 18)
    cards, pile, scenario = deck[:4], deck[4:4 + seed % 5], SCENARIO_IDS[seed % 6]
    data = load_data()
    model = cps_encode.encode(card_quads(cards))
    total, _, _ = cps_goals.player_score(model, data.scenario(scenario), data, pile_counts(tuple(pile)))
    _, greedy = greedy_layout(cards, scenario, pile)
    bounds = []
    res = cps_solve.solve(model, total, greedy, time.monotonic() + 60, primal_share=1e-6, on_bound=bounds.append,
                    proof=proof)
    oracle = exhaustive_best(cards, scenario, pile).value
    assert res.proven
    assert (res.value if res.xyr is not None else greedy) == oracle
    assert all(b >= oracle for b in bounds)
    if proof in ("core", "bound"):
        assert bounds  # the bound-proving phase ran and reported bounds


def test_an_unknown_proof_phase_is_refused():
    model = cps_encode.encode(card_quads([1, 2]))
    with pytest.raises(ValueError, match="proof"):
        cps_solve.solve(model, 0, None, 0.0, proof="guess")


@pytest.mark.parametrize("seed", deep_after([60, 61, 62]))
def test_both_proof_phases_give_the_oracle_optimum_through_best_layout(seed):
    """``method="cpsat"`` (search proof) and ``"cpsat-core"`` prove the same optimum as the oracle on
    random 4-card towns, and say which method ran."""
    rng = random.Random(seed)
    deck = rng.sample(range(18), 18)
    cards, pile, scenario = deck[:4], deck[4:4 + seed % 4], SCENARIO_IDS[seed % 6]
    oracle = exhaustive_best(cards, scenario, pile).value
    for method in ("cpsat", "cpsat-core", "cpsat-bound"):
        res = best_layout(cards, scenario, pile, method=method)
        assert res.proven_optimal and res.value == oracle and res.method == method


@pytest.mark.parametrize("method", ["cpsat", "cpsat-core", "cpsat-bound", "incremental"])
def test_both_models_refuse_a_goal_card_no_source_gives(method):
    """A goal card whose text no source gives is never invented: both models refuse it by name."""
    import dataclasses

    from solver.errors import BadInput

    data = load_data()
    changed = dataclasses.replace(data.scenario("gold-rush"), goals=("The Clearing", "Gold Country"))
    data = dataclasses.replace(data, scenarios=tuple(changed if s.id == "gold-rush" else s for s in data.scenarios))
    with pytest.raises(BadInput, match="'The Clearing'.*cannot optimise it"):
        best_layout([1, 2], "gold-rush", data=data, method=method, seed_greedy=False, floor=0)


@pytest.mark.parametrize("reference", deep_after(["bnb", "oracle"]))
def test_a_bound_at_the_best_value_stops_the_search_as_a_proof(monkeypatch, reference):
    """CP-SAT's core search can go on after its bound falls to the best value; the solver stops it
    there and calls that a proof. On this 5-card town (seed 51, found by a scan) the greedy town is
    optimal and the stop is what proves it: the branch and bound's proof must agree, and with ``--deep``
    the exhaustive walk (about 16 million towns)."""
    import time

    from solver.wagons.optimizer.problem import greedy_layout

    stops = []
    original = cp_model.CpSolver.stop_search
    monkeypatch.setattr(cp_model.CpSolver, "stop_search", lambda self: (stops.append(1), original(self)))
    rng = random.Random(51)
    deck = rng.sample(range(18), 18)
    cards, pile, scenario = deck[:5], deck[5:6], SCENARIO_IDS[51 % 6]
    data = load_data()
    model = cps_encode.encode(card_quads(cards))
    total, _, _ = cps_goals.player_score(model, data.scenario(scenario), data, pile_counts(tuple(pile)))
    _, greedy = greedy_layout(cards, scenario, pile)
    res = cps_solve.solve(model, total, greedy, time.monotonic() + 60, primal_share=1e-6, proof="core")
    assert stops and res.proven and res.bound == greedy
    if reference == "oracle":
        assert exhaustive_best(cards, scenario, pile).value == greedy
    else:
        other = best_layout(cards, scenario, pile, method="bnb")
        assert other.proven_optimal and other.value == greedy


def test_hidden_cards_are_found_and_covered_towns_stay_exact():
    """Towns where a card is covered whole (placed on top of it exactly, turned): the symmetry
    breaking puts the hidden card unturned and the model still gives the scorer's value."""
    seen = 0
    for seed in range(200):
        town, pile = random_town(random.Random(f"hidden-{seed}"), 6)
        hidden = _hidden_cards(town)
        if not hidden or not any(town.placements[i].rot for i in hidden):
            continue
        seen += 1
        scenario = SCENARIO_IDS[seed % 6]
        total, parts, _ = _fixed_model_values(town, scenario, pile)
        ps = score_player(town, scenario, pile)
        assert {**ps.groups, **ps.goals} == parts and total == ps.total, town
        if seen == 6:
            break
    assert seen == 6


def test_run_partition_best_by_hand():
    """Wagon Train's table (2 long = 1, 3 = 2, 4 = 4, 5 = 7, 6+ = 10): 6 Wagons in one run score 10;
    7 score 10 (6+) or 7 + 1 (5 and 2): 10; 8: 10 + 1 (6 and 2) or 7 + 2 (5 and 3): 11; 4: one run, 4."""
    best = cps_goals.run_partition_best((0, 0, 1, 2, 4, 7, 10), 12)
    assert best[:9] == [0, 0, 1, 2, 4, 7, 10, 10, 11]
    assert best[12] == 20  # two runs of six
    assert cps_goals.run_partition_best((0, 5, -1), 3) == [0, 5, 10, 15]  # singles pay: every run of one


@given(st.lists(st.integers(-3, 8), min_size=1, max_size=7), st.sets(st.tuples(st.integers(0, 4), st.integers(0, 4))))
@settings(max_examples=200, deadline=None)
def test_run_partition_best_bounds_every_set_of_wagons(table, cells):
    """Any set of Wagon cells: the row runs' score and the column runs' score are each at most
    ``run_partition_best`` of the number of Wagons (what the model adds as a redundant bound)."""
    K = len(table) - 1
    best = cps_goals.run_partition_best(tuple(table), 25)

    def runs(axis):
        total = 0
        for c in cells:
            before = (c[0] - 1, c[1]) if axis == 0 else (c[0], c[1] - 1)
            if before in cells:
                continue
            length = 1
            while ((c[0] + length, c[1]) if axis == 0 else (c[0], c[1] + length)) in cells:
                length += 1
            total += table[min(length, K)]
        return total

    assert runs(0) <= best[len(cells)] and runs(1) <= best[len(cells)]


# ---- issue 20, second round: the territory cap (groups + Smalltown Charm) and the group neighbours


@settings(max_examples=examples(8, 24), deadline=None)
@given(st.sampled_from(SCENARIO_IDS), st.integers(4, 9), st.randoms(use_true_random=False))
def test_tightened_model_keeps_every_whole_town(scenario, n, rng):
    """Every legal town stays feasible at its own value under the second round's constraints (an unsound
    one makes it infeasible or under-counts it), all six scenarios, piles smaller and larger than the town."""
    town, pile = random_town(rng, n)
    total, parts, margin = _fixed_model_values(town, scenario, pile)
    ps = score_player(town, scenario, pile)
    assert {**ps.groups, **ps.goals} == parts
    assert total == ps.total and margin == final_scores(town, pile, scenario).margin


@settings(max_examples=examples(6, 18), deadline=None)
@given(st.sampled_from(SCENARIO_IDS), st.integers(2, 4), st.sampled_from(["score", "margin"]),
       st.randoms(use_true_random=False))
def test_tightened_prover_proves_the_oracle_optimum(scenario, n, objective, rng):
    """The default prover (with the second round) and the one before it prove the exhaustive oracle's
    optimum on small towns of all six scenarios, for the score and the margin."""
    from solver.wagons.optimizer.layout import layout_with

    deck = rng.sample(range(18), 18)
    cards, pile = deck[:n], deck[n:n + rng.randint(0, 10)]
    oracle = exhaustive_best(cards, scenario, pile, objective=objective).value
    for strategy in (cps_proof.CpSatProof("search"), cps_proof.CpSatProof("search", tightened=False)):
        res = layout_with(strategy, "cpsat", cards, scenario, pile, time_limit=60, objective=objective)
        assert res.proven_optimal and res.value == oracle


def test_territory_cap_is_the_best_sum_over_the_visible_count():
    """Boomtown with a pile of 9 cards (36 territories) and 2 cards (at most 8 visible): the groups and
    Smalltown Charm together at most max over V of (V + (36 - V)) = 36, a constant the model states;
    Gold Rush has no card reading the territories alone: no cap."""
    data = load_data()
    for scenario, pile, most in (("boomtown", tuple(range(2, 11)), 36), ("gold-rush", (), 100)):
        town = cps_encode.encode(card_quads([0, 1]))
        g, c = town.m.new_int_var(0, 50, ""), town.m.new_int_var(0, 50, "")
        cps_goals._groups_with_territory_cards(town, data.scenario(scenario), data, pile_counts(pile),
                                         {"Desert": g}, {"Smalltown Charm": c})
        town.m.maximize(g + c)
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        assert solver.solve(town.m) == cp_model.OPTIMAL and solver.objective_value == most
