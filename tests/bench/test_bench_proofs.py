"""bench/wagons/bench_wagons_proofs.py: the instance sets, the sample, the summary rows and the same-run check."""

from __future__ import annotations

import importlib.util
import sys

import pytest

from solver.paths import REPO
from solver.wagons.data import SCENARIO_IDS
from solver.wagons.simulate import play_game


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bench_wagons_proofs_under_test", REPO / "bench" / "wagons" / "bench_wagons_proofs.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks its module up there
    spec.loader.exec_module(module)
    yield module
    del sys.modules[spec.name]


def test_greedy_instances_are_the_greedy_games_towns(bench):
    insts = bench.greedy_instances([100, 101])
    assert [i.scenario for i in insts] == [sc for sc in SCENARIO_IDS for _ in (100, 101)]
    first = play_game(SCENARIO_IDS[0], "greedy", 100).state
    assert insts[0].cards == first.town.card_ids and insts[0].pile == tuple(first.pile)
    for i in insts:
        assert not set(i.cards) & set(i.pile) and f"({len(i.cards)} cards)" in i.label


def test_seeded_instances_are_the_optimize_bench_ones(bench):
    sys.path.insert(0, str(REPO / "bench" / "wagons"))
    from bench_wagons_optimize import _instance

    insts = bench.seeded_instances(8, 3)
    assert [(list(i.cards), list(i.pile), i.scenario) for i in insts] == [_instance(s, 8) for s in range(3)]


def test_sample_spreads_over_the_set(bench):
    items = list(range(60))
    assert bench.sample(items, 20) == list(range(0, 60, 3))
    assert bench.sample(items, None) == items and bench.sample(items, 99) == items
    assert bench._seeds("100-103") == [100, 101, 102, 103] and bench._seeds("7,9") == [7, 9]


def test_summary_rows_count_unproven_as_the_limit(bench):
    runs = {"baseline": [(2.0, 30, 28), (None, 31, 28), (None, 40, 35)],
            "cpsat": [(1.0, 30, 28), (10.0, 31, 28), (None, 40, 35)]}
    rows = {r["name"]: r for r in bench.summary_rows("s", runs, 60.0, "baseline", "cpsat")}
    assert rows["proofs_s_baseline_median_s"]["value"] == 60.0
    new = rows["proofs_s_cpsat_median_s"]
    assert new["value"] == 10.0 and new["baseline"] == 60.0 and new["ratio"] == 6.0
    assert rows["proofs_s_cpsat_proven_share"]["value"] == round(2 / 3, 3)
    assert rows["proofs_s_baseline_proven_share"]["value"] == round(1 / 3, 3)
    assert rows["proofs_s_cpsat_total_s"]["value"] == 71.0 and rows["proofs_s_cpsat_total_s"]["baseline"] == 122.0


def test_summary_rows_give_the_gap_left_on_unproven_towns(bench):
    """bound - best value over the unproven instances only (a proven one's bound is its value)."""
    runs = {"cpsat": [(1.0, 30, 28, 30), (None, 31, 28, 41), (None, 40, 35, 49), (None, 20, 20, None)],
            "cpsat-bound": [(1.0, 30, 28, 30), (None, 31, 28, 33), (5.0, 40, 35, 40), (None, 20, 20, 22)]}
    rows = {r["name"]: r for r in bench.summary_rows("s", runs, 60.0, "cpsat", "cpsat-bound")}
    assert rows["proofs_s_cpsat_open_gap_median"]["value"] == 9.5
    gap = rows["proofs_s_cpsat-bound_open_gap_median"]
    assert gap["value"] == 2 and gap["baseline"] == 9.5


def test_both_methods_prove_the_same_value_in_one_run(bench):
    inst = bench.Instance("three cards", (3, 7, 11), (1, 2), "gold-rush")
    lines = []
    runs = bench.solve_all([inst], ("baseline", "cpsat"), 30.0, lines.append)
    assert all(t is not None for t, _, _, _, _ in runs["baseline"] + runs["cpsat"])
    assert all(cost["det"] > 0 for *_, cost in runs["baseline"] + runs["cpsat"])  # CP-SAT's work, measured
    assert runs["baseline"][0][1] == runs["cpsat"][0][1]
    assert runs["cpsat"][0][3] == runs["cpsat"][0][1]  # a proven town's bound is its value
    assert "baseline" in lines[0] and "cpsat" in lines[0]


def test_a_sampled_baseline_compares_on_its_sample_only(bench):
    runs = {"baseline": [(30.0, 30, 28), None, (None, 40, 35), None],
            "cpsat": [(3.0, 30, 28), (59.0, 31, 28), (7.0, 40, 35), (50.0, 9, 9)]}
    rows = {r["name"]: r for r in bench.summary_rows("s", runs, 60.0, "baseline", "cpsat")}
    base = rows["proofs_s_baseline_median_s"]
    assert base["value"] == 45.0 and "2 instances" in base["notes"]
    new = rows["proofs_s_cpsat_median_s"]
    assert new["value"] == 28.5  # over all 4 instances
    assert new["baseline"] == 45.0 and new["ratio"] == 9.0  # 45 / 5: over the sample's instances 0 and 2
    assert rows["proofs_s_cpsat_proven_share"]["value"] == 1.0 and "baseline on 2 of 4" in new["notes"]
    assert rows["proofs_s_cpsat_total_s"]["value"] == 119.0 and rows["proofs_s_cpsat_total_s"]["ratio"] == 9.0


def test_solve_all_runs_the_baseline_on_every_kth_instance(bench):
    inst = bench.Instance("three cards", (3, 7, 11), (1, 2), "gold-rush")
    runs = bench.solve_all([inst, inst, inst], ("baseline", "cpsat"), 30.0, lambda _: None, baseline_every=2)
    assert runs["baseline"][1] is None and runs["baseline"][0] is not None and runs["baseline"][2] is not None
    assert all(r is not None for r in runs["cpsat"])


def test_current_is_the_prover_before_the_second_round(bench):
    assert bench.strategy("current").tightened is False and bench.strategy("current").speedups is True
    assert bench.strategy("baseline").speedups is False and bench.strategy("cpsat").tightened is True
    from bench.wagons.baselines import full_triangles

    assert bench.strategy("full-triangles").triangles is full_triangles and bench.strategy("cpsat").triangles is None


def test_the_ratios_read_the_deterministic_time_when_it_was_measured(bench):
    """Measured runs carry CP-SAT's cost (bench/effort.py): the ratio is the deterministic time's, whatever the wall
    clock said (here the new method's wall time is no better, its work a third)."""
    cost = lambda det: {"det": det, "cpu": det, "wall": 5.0}  # noqa: E731
    runs = {"baseline": [(5.0, 30, 28, None, cost(3.0)), (5.0, 31, 28, None, cost(3.0))],
            "cpsat": [(5.0, 30, 28, None, cost(1.0)), (5.0, 31, 28, None, cost(1.0))]}
    rows = {r["name"]: r for r in bench.summary_rows("s", runs, 60.0, "baseline", "cpsat")}
    new = rows["proofs_s_cpsat_median_s"]
    assert new["value"] == new["baseline"] == 5.0 and new["ratio"] == 3.0
    assert new["det"] == [1.0, 3.0] and new["wall"] == [5.0, 5.0]
    assert rows["proofs_s_cpsat_total_s"]["ratio"] == 3.0
