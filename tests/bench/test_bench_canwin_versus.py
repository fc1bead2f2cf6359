"""bench/wagons/bench_wagons_canwin_versus.py (can-win now against before the second round): the swap to the method before the
layout-aware bound is undone after the block, and the summary rows count what they say."""

from __future__ import annotations

import importlib.util
import sys

import pytest

from solver.paths import REPO
from solver.wagons.optimizer import dealsearch, layout
from solver.wagons.optimizer.bounds import margin_bound


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bench_wagons_canwin_versus_under_test", REPO / "bench" / "wagons" / "bench_wagons_canwin_versus.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    yield module
    del sys.modules[spec.name]


def test_the_second_round_baseline_is_the_counts_only_bound_and_the_prover_without_the_cap(bench):
    """The method before is given to can-win as arguments (nothing of the product is swapped): its line bound is the
    counts-only one, its prover the one without the territory cap."""
    before = dealsearch.margin_bound, dict(layout.STRATEGIES)
    options = bench.BEFORE["second-round"]()
    cards, pile = (4, 1, 7, 9, 11, 12), (0, 2)
    assert options["prover"].tightened is False and options["prover"].name == "cpsat"
    old = options["line_bound"](cards, "through-the-desert", pile)
    assert old == margin_bound(cards, "through-the-desert", pile, layouts=False)
    assert old > margin_bound(cards, "through-the-desert", pile)  # card 4's Deserts side by side: fewer flanked
    assert (dealsearch.margin_bound, layout.STRATEGIES) == before


def test_the_encoding_baseline_builds_every_model_afresh_with_the_full_triangle_clauses(bench):
    from bench.wagons.baselines import FreshModels, full_triangles
    from solver.wagons.optimizer.cpsat.proof import reusing_models
    from solver.wagons.optimizer.problem import make_problem

    prover = bench.BEFORE["encoding"]()["prover"]
    assert isinstance(prover, FreshModels) and prover.triangles is full_triangles
    store = {}
    with reusing_models(store):
        prover.model(make_problem((4, 1, 7), "gold-rush", (0, 2), time_limit=30.0))
    assert store == {}  # nothing kept: every pass builds its model
    assert layout.STRATEGIES["cpsat"].triangles is None


def test_versus_rows_count_decided_deals_per_scenario(bench):
    row = lambda sc, new, old: {"scenario": sc, "canwin_decided": new, "current_decided": old, "canwin_seconds": 1.0,
                                "current_seconds": 2.0, "canwin_solves": 1, "current_solves": 3}
    rows = [row("boomtown", True, True), row("boomtown", True, False), row("gold-rush", False, False)]
    out = {r["name"]: r for r in bench.versus_rows(rows, 30.0)}
    assert out["all: can-win decided within 30s (now vs before)"]["value"] == round(2 / 3, 3)
    assert out["all: can-win decided within 30s (now vs before)"]["baseline"] == round(1 / 3, 3)
    assert out["boomtown: can-win decided within 30s (now vs before)"]["value"] == 1.0
    assert out["gold-rush: layout solves per deal, mean (now vs before)"]["baseline"] == 3


def test_a_killed_run_resumes_and_the_before_sample_is_every_kth_seed(bench, tmp_path, monkeypatch):
    calls = []

    def fake(scenario, seed, reading, readings_json, limit, before=True, **_):
        calls.append((scenario, seed, reading, before))
        row = {"scenario": scenario, "seed": seed, "reading": reading, "canwin_decided": seed % 3 != 0,
               "canwin_seconds": 1.0, "canwin_solves": 1, "before": before}
        if before:
            row |= {"current_decided": False, "current_seconds": 30.0, "current_solves": 2}
        return row

    monkeypatch.setattr(bench, "versus_deal", fake)
    rows = tmp_path / "rows.jsonl"
    bench.run_versus([0, 1], ("gold-rush",), 30.0, str(rows), before_every=2, readings="default")
    assert calls == [("gold-rush", 0, "default", True), ("gold-rush", 1, "default", False)]
    rows.write_text(rows.read_text() + '{"scenario": "gold-r')  # a line cut short by a kill
    calls.clear()
    out = {r["name"]: r for r in bench.run_versus([0, 1, 2], ("gold-rush", "boomtown"), 30.0, str(rows), before_every=2,
                                           readings="default")}
    assert calls == [("boomtown", 0, "boom_or_bust=per-mine", True), ("boomtown", 1, "boom_or_bust=per-mine", False),
                     ("gold-rush", 2, "default", True), ("boomtown", 2, "boom_or_bust=per-mine", True)]
    decided = out["all: can-win decided within 30s (now vs before)"]
    assert decided["value"] == round(4 / 6, 3) and decided["baseline"] == 0.0  # seeds 1 and 2 decide (not 0)
    assert "the method before on 4 of them" in decided["notes"]


@pytest.mark.parametrize("baseline, schedule, triangles", [("restart", "restart", "reduced"),
                                                           ("session", "restart", "full_triangles")])
def test_the_schedule_baselines_run_can_win_restarted_and_alternate_first(bench, monkeypatch, baseline, schedule,
                                                                           triangles):
    """``--before restart`` / ``session``: the method before runs with ``schedule="restart"`` (``session`` also
    with the full triangle clauses), now with the default; which runs first alternates per deal."""
    import types

    seen = []

    def fake_can_win(scenario, seed, readings=None, time_limit=30.0, **options):
        prover = options.get("prover")
        seen.append((seed, options.get("schedule", "default"),
                     getattr(prover and prover.triangles, "__name__", "reduced")))
        return types.SimpleNamespace(winnable=True, elapsed=1.0, solves=0, lines_open=0, lines=3)

    from solver.wagons.optimizer import canwin

    monkeypatch.setattr(canwin, "can_win", fake_can_win)
    for n, seed in enumerate((0, 1)):
        row = bench.versus_deal("gold-rush", seed, "default", "{}", 30.0, baseline=baseline, before_first=n % 2 == 1)
        assert row["baseline"] == baseline and row["current_decided"] is True
    assert seen == [(0, "default", "reduced"), (0, schedule, triangles), (1, schedule, triangles),
                    (1, "default", "reduced")]
