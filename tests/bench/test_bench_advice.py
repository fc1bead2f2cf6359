"""bench/wagons/bench_wagons_advice.py: resuming a cut rows file, the settings check, the summary's figures (paired
difference, percentiles, the timed games only), and one small real game and policy run."""

from __future__ import annotations

import importlib.util
import json
import sys

import pytest

from solver.errors import BadInput
from solver.paths import REPO


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bench_wagons_advice_under_test", REPO / "bench" / "wagons" / "bench_wagons_advice.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    yield module
    del sys.modules[spec.name]


def fake_game(scenario, seed, samples, policy, timed):
    won = seed % 2 == 0
    return {"scenario": scenario, "seed": seed, "samples": samples, "policy": policy, "timed": timed,
            "margin": 3 if won else -2, "won": won, "greedy_margin": -1, "greedy_won": seed % 4 == 0,
            "policy_margin": 1, "policy_won": seed % 3 == 0,
            "decisions": [{"wall": 1.0 + seed, "cpu": 0.5, "rollouts": 10, "work": 100, "complete": True}]}


def test_a_cut_rows_file_resumes_where_it_stopped(bench, tmp_path):
    rows = tmp_path / "r.jsonl"
    calls = []
    record = lambda *a: calls.append(a[:2]) or fake_game(*a)
    bench.advised_part(["gold-rush"], 3, 8, "greedy", 1, rows, game=record)
    rows.write_bytes(rows.read_bytes() + b'{"scenario": "gold-ru')  # a kill in the middle of a write
    calls.clear()
    again = bench.advised_part(["gold-rush", "boomtown"], 3, 8, "greedy", 1, rows, game=record)
    assert calls == [("boomtown", 0), ("boomtown", 1), ("boomtown", 2)] and len(again) == 6
    assert [json.loads(line)["seed"] for line in rows.read_text().splitlines()] == [0, 1, 2, 0, 1, 2]
    with pytest.raises(BadInput, match="other settings"):
        bench.advised_part(["gold-rush"], 3, 16, "greedy", 1, rows, game=record)


def test_the_summary_pairs_the_games_and_times_the_timed_ones(bench):
    rows = [fake_game("gold-rush", seed, 8, "greedy", seed < 2) for seed in range(8)]
    games, timed = bench.summary(rows)[:2]
    assert games["advised_win_share"] == 0.5 and games["greedy_win_share"] == 0.25
    assert games["advised_minus_greedy"] == 0.25 and games["advised_won_greedy_lost"] == 2
    assert games["interval"][0] < 0.25 < games["interval"][1]
    assert timed["games"] == 2 and timed["wall_median"] == 1.5 and timed["wall_p90"] == 2.0
    assert bench._pct([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.9) == 9


def test_a_real_game_and_the_policies(bench):
    row = bench.advised_game("cattle-drive", 3, 2, "greedy", False)
    assert row["decisions"] and all(d["rollouts"] > 0 and d["bound_s"] is None for d in row["decisions"])
    assert isinstance(row["won"], bool) and isinstance(row["margin"], int)
    figures = bench.policy_figures("cattle-drive", "lookahead", 2)
    assert figures["games"] == 2 and 0 <= figures["win_share"] <= 1


def test_run_alls_rows_put_each_figure_beside_its_baseline(bench):
    pols = [{"scenario": "gold-rush", "policy": p, "games": 10, "win_share": w, "mean_margin": 0.0,
             "cpu_ms_per_game": 5.0} for p, w in (("greedy", 0.4), ("lookahead", 0.6))]
    rows = bench.summary([fake_game("gold-rush", seed, 8, "lookahead", seed < 2) for seed in range(8)])
    speed = {"cpu_compiled": 1.0, "cpu_python": 6.0, "ratio": 6.0, "decisions": 3}
    out = bench.convention_rows(pols, rows, speed)
    assert all(set(r) == {"game", "name", "value", "unit", "baseline", "ratio", "notes"} for r in out)
    by_name = {r["name"]: r for r in out}
    assert by_name["advice: lookahead policy win share, gold-rush"]["baseline"] == 0.4
    assert by_name["advice: win share taking the advice at every decision"]["value"] == 0.5
    assert by_name["advice: seconds per decision (median, wall)"]["value"] == 1.5
    assert by_name["advice: CPU seconds, compiled valuation"]["ratio"] == 6.0
