"""bench/wagons/bench_wagons_canwin.py: seeds as ranges, the items, resuming a cut rows file, the settings check, the
summary's figures and the baseline sample (a stand-in deal function: no solving, except one small real row)."""

from __future__ import annotations

import importlib.util
import json
import sys

import pytest

from solver.errors import BadInput
from solver.paths import REPO


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bench_wagons_canwin_under_test", REPO / "bench" / "wagons" / "bench_wagons_canwin.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    yield module
    del sys.modules[spec.name]


def fake_row(scenario, seed, reading, readings_json, cw, bp, method, baseline, decided=True, proven=False):
    row = {"scenario": scenario, "seed": seed, "reading": reading, "default_reading": reading != "boom_or_bust=flat",
           "method": method, "canwin_limit": cw, "bestplay_limit": bp, "canwin_winnable": True if decided else None,
           "canwin_decided": decided, "canwin_seconds": 1.0 if decided else cw, "canwin_solves": 0,
           "bestplay_margin": 3, "bestplay_proven": proven, "bestplay_seconds": 5.0 if proven else bp,
           "bestplay_bound": 3 if proven else 9, "bestplay_solves": 1, "lines": 4, "winnable": True,
           "greedy_margin": 1, "greedy_wins": True, "baseline": baseline}
    if baseline:
        row |= {"old_margin": 2, "old_proven": False, "old_seconds": bp - 20, "old_win_seconds": 0.5,
                "old_winnable": True, "old_decided": True}
    return row


class Recorder:
    """A deal function that records what it was asked to run."""

    def __init__(self):
        self.calls = []

    def __call__(self, *args):
        self.calls.append(args[:3])
        return fake_row(*args)


def test_seeds_are_ranges_and_single_seeds(bench):
    assert bench.parse_seeds("0-3,7") == [0, 1, 2, 3, 7]
    assert bench.parse_seeds("5") == [5] and bench.parse_seeds("2-3,3") == [2, 3]
    for bad in ("", "a-b", "3-1", "-2", "1,,x"):
        with pytest.raises(BadInput):
            bench.parse_seeds(bad)


def test_items_cover_every_reading_or_the_default_only(bench):
    every = bench.deal_items([0, 1], ["boomtown", "gold-rush"])
    assert [(s, seed, label) for s, seed, label, _ in every] == [
        ("boomtown", 0, "boom_or_bust=per-mine"), ("boomtown", 0, "boom_or_bust=flat"), ("gold-rush", 0, "default"),
        ("boomtown", 1, "boom_or_bust=per-mine"), ("boomtown", 1, "boom_or_bust=flat"), ("gold-rush", 1, "default")]
    default = bench.deal_items([0], ["boomtown", "gold-rush"], "default")
    assert [label for _, _, label, _ in default] == ["boom_or_bust=per-mine", "default"]
    with pytest.raises(BadInput):
        bench.deal_items([0], ["nowhere"])


def test_a_cut_run_resumes_without_redoing_rows_or_keeping_a_partial_line(bench, tmp_path):
    rows_file = tmp_path / "rows.jsonl"
    items = bench.deal_items([0, 1, 2], ["gold-rush", "boomtown"])
    first = Recorder()
    bench.run_deals(items[:4], 30.0, 120.0, "cpsat", 2, rows_file, deal=first)
    assert len(first.calls) == 4
    with open(rows_file, "a") as f:  # a kill in the middle of writing the fifth row
        f.write(json.dumps(fake_row(*items[4], 30.0, 120.0, "cpsat", False))[:40])
    again = Recorder()
    rows = bench.run_deals(items, 30.0, 120.0, "cpsat", 2, rows_file, deal=again)
    assert again.calls == [it[:3] for it in items[4:]]
    lines = rows_file.read_text().splitlines()
    assert [json.loads(line) for line in lines] == bench.read_rows(rows_file) and len(lines) == len(items)
    assert sorted((r["scenario"], r["seed"], r["reading"]) for r in rows) == sorted(it[:3] for it in items)
    assert {r["seed"]: r["baseline"] for r in rows} == {0: True, 1: False, 2: True}  # every 2nd seed
    third = Recorder()
    bench.run_deals(items, 30.0, 120.0, "cpsat", 2, rows_file, deal=third)
    assert third.calls == []


def test_a_rows_file_of_other_settings_is_refused(bench, tmp_path):
    rows_file = tmp_path / "rows.jsonl"
    items = bench.deal_items([0], ["gold-rush"])
    bench.run_deals(items, 30.0, 120.0, "cpsat", 1, rows_file, deal=Recorder())
    with pytest.raises(BadInput, match="settings"):
        bench.run_deals(items, 30.0, 60.0, "cpsat", 1, rows_file, deal=Recorder())
    with pytest.raises(BadInput, match="settings"):
        bench.run_deals(items, 30.0, 120.0, "cpsat-core", 1, rows_file, deal=Recorder())


def test_a_bad_line_before_the_last_is_an_error(bench, tmp_path):
    rows_file = tmp_path / "rows.jsonl"
    rows_file.write_text('{"a": 1}\nnot json\n{"b": 2}\n')
    with pytest.raises(BadInput, match="line 2"):
        bench.read_rows(rows_file)


def _rows(bench):
    rows = []
    for seed in range(4):
        rows.append(fake_row("gold-rush", seed, "default", "{}", 30.0, 120.0, "cpsat", seed % 2 == 0,
                             decided=seed != 3, proven=seed < 2))
        rows.append(fake_row("boomtown", seed, "boom_or_bust=flat", "{}", 30.0, 120.0, "cpsat", seed % 2 == 0))
    for r in rows:
        r["baseline_every"] = 2
    return rows


def test_summary_gives_the_issue_figures_and_the_baseline_on_its_sample(bench):
    out = {r["name"]: r for r in bench.summary_rows(_rows(bench))}
    assert out["rows"]["value"] == 8 and "4 deals under the default reading" in out["rows"]["notes"]
    assert out["deals: can-win decided within 30s"]["value"] == 0.75
    assert out["deals: best play proven within 120s"]["value"] == 0.5
    assert out["deals: best play median seconds"]["value"] == 62.5  # 5, 5, 120, 120
    assert out["deals: can-win median seconds"]["value"] == 1.0
    sample = out["deals: sample: best play proven within 120s"]
    assert (sample["value"], sample["baseline"], sample["ratio"]) == (0.5, 0.0, None)  # seeds 0 and 2
    median = out["deals: sample: best play median seconds"]  # proven in 5 s and unproven; the earlier gave up early
    assert (median["value"], median["baseline"], median["ratio"]) == (62.5, 120.0, 0.52)
    assert "seeds divisible by 2" in sample["notes"]
    cw = out["deals: sample: can-win decided within 30s"]
    assert (cw["value"], cw["baseline"], cw["ratio"]) == (1.0, 1.0, 1.0)
    assert out["deals: sample: best play found a higher margin than the earlier method"]["value"] == 2
    assert out["deal-readings: can-win decided within 30s"]["value"] == round(7 / 8, 3)
    assert out["boomtown: best play proven within 120s"]["value"] == 0.0
    assert out["gold-rush: can-win decided within 30s"]["value"] == 0.75


def test_summary_refuses_rows_of_mixed_settings(bench):
    rows = _rows(bench)
    rows[0]["bestplay_limit"] = 60.0
    with pytest.raises(BadInput):
        bench.summary_rows(rows)


def test_main_summarises_rows_files_and_rejects_bad_seeds(bench, tmp_path, capsys):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    rows = _rows(bench)
    a.write_text("".join(json.dumps(r) + "\n" for r in rows[:4]))
    b.write_text("".join(json.dumps(r) + "\n" for r in rows[4:]))
    assert bench.main(["--from-rows", f"{a},{b}"]) == 0
    printed = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert printed[0]["name"] == "rows" and printed[0]["value"] == 8
    assert bench.main(["--seeds", "9-1"]) == 2
    assert "seeds" in capsys.readouterr().err


def test_a_real_row_has_the_new_and_the_earlier_method(bench):
    # Boomtown seed 0: every line's bound from the cards is below 0 (tests/wagons/optimizer/test_canwin.py), so quick
    item = bench.deal_items([0], ["boomtown"], "default")[0]
    row = bench.bench_deal(*item, canwin_limit=5.0, bestplay_limit=2.0, method="cpsat", baseline=True)
    assert row["canwin_winnable"] is False and row["canwin_decided"] and row["default_reading"]
    assert row["method"] == "cpsat" and row["old_decided"] is (row["old_winnable"] is not None)
    assert row["bestplay_margin"] <= 0 and (row["old_margin"] <= row["bestplay_margin"] or not row["bestplay_proven"])
