"""The difficulty atlas (solver.wagons.optimizer.atlas): the readings per scenario, one row, the per-scenario table and
``ruleslinger batch wagons-atlas`` (rule:W-opt-canwin, rule:W-opt-bestplay, rule:W11)."""

from __future__ import annotations

import json
import pickle

import polars as pl
import pytest

from solver import cli
from solver.errors import BadInput
from solver.execution.batches import plan
from solver.execution.plans import batch_request
from solver.paths import REPO
from solver.wagons.data import SCENARIO_IDS
from solver.wagons.optimizer.atlas import ATLAS_SCHEMA, atlas_items, atlas_row, atlas_table, scenario_readings


def test_boom_or_bust_scenarios_run_under_both_readings():
    assert [label for label, _ in scenario_readings("boomtown")] == ["boom_or_bust=per-mine", "boom_or_bust=flat"]
    assert [r["boom_or_bust"] for _, r in scenario_readings("boomtown")] == ["per-mine", "flat"]
    for s in SCENARIO_IDS:
        if s != "boomtown":  # no other scenario uses Boom or Bust
            assert [label for label, _ in scenario_readings(s)] == ["default"]
    items = atlas_items(["boomtown", "gold-rush"], 2, seed=10)
    assert [(s, seed, label) for s, seed, label, _ in items] == [
        ("boomtown", 10, "boom_or_bust=per-mine"), ("boomtown", 11, "boom_or_bust=per-mine"),
        ("boomtown", 10, "boom_or_bust=flat"), ("boomtown", 11, "boom_or_bust=flat"),
        ("gold-rush", 10, "default"), ("gold-rush", 11, "default")]


def test_a_row_and_the_table():
    fn = pickle.loads(pickle.dumps(atlas_row))
    items = atlas_items(["boomtown"], 1)  # seed 0: lost per Mine (proven), won with flat bands
    rows = [fn(*item, time_limit=20) for item in items]
    assert set(rows[0]) == set(ATLAS_SCHEMA)
    per_mine, flat = rows
    assert per_mine["winnable"] is False and per_mine["win_proven"] and per_mine["best_margin"] <= 0
    assert flat["winnable"] is True and flat["best_margin"] > 0 and "Boom or Bust" in flat["low_confidence"]
    table = atlas_table(pl.DataFrame(rows))
    assert table.height == 2 and table["deals"].to_list() == [1, 1]
    assert dict(zip(table["reading"], table["winnable_share"])) == {"boom_or_bust=flat": 1.0,
                                                                     "boom_or_bust=per-mine": 0.0}


def test_batch_writes_parquet_rows_and_prints_the_table(tmp_path, capsys):
    out = tmp_path / "atlas.parquet"
    rc = cli.main(["batch", "wagons-atlas", "--scenario", "gold-rush", "--n", "1", "--seed", "1", "--time-limit", "2",
                   "--executor", "serial", "--out", str(out), "--json"])
    doc = json.loads(capsys.readouterr().out)
    assert rc == 0 and doc["rows"] == 1
    frame = pl.read_parquet(out)
    assert frame["scenario"].to_list() == ["gold-rush"] and frame["winnable"].to_list() == [True]
    assert doc["atlas"][0]["scenario"] == "gold-rush" and doc["atlas"][0]["winnable_share"] == 1.0
    rc = cli.main(["batch", "wagons-atlas", "--scenario", "gold-rush", "--n", "1", "--seed", "1", "--time-limit", "2",
                   "--executor", "serial"])
    text = capsys.readouterr().out
    assert rc == 0 and "Difficulty atlas" in text and "perfect play wins" in text and "100%" in text


@pytest.mark.parametrize("argv", [
    ["--scenario", "nosuch"], ["--n", "1"], ["--scenario", "ALL", "--policy", "greedy"],
    ["--scenario", "ALL", "--time-limit", "0"], ["--scenario", ",", "--n", "1"],
    ["--scenario", "ALL", "--option", "boom_or_bust=sometimes"],
])
def test_batch_bad_input(argv, capsys):
    rc = cli.main(["batch", "wagons-atlas", *argv, "--json"])
    out, err = capsys.readouterr()
    assert rc == 2 and out == "" and len(err.strip().splitlines()) == 1


def test_all_means_every_scenario_under_its_readings():
    p = plan(batch_request("wagons-atlas", 2, 0, scenario="ALL", time_limit=1.0))
    assert p.settings["scenarios"] == list(SCENARIO_IDS)
    assert len(p.items) == 2 * 7  # six scenarios, Boomtown twice
    with pytest.raises(BadInput):
        plan(batch_request("wagons-atlas", 1, 0, scenario=None))


def test_the_shipped_atlas_rows_have_the_schema_and_provenance():
    path = REPO / "scenarios" / "wagons" / "atlas.parquet"
    frame = pl.read_parquet(path)
    assert set(frame.columns) == set(ATLAS_SCHEMA)
    assert set(frame["scenario"]) == set(SCENARIO_IDS)
    assert set(frame.filter(pl.col("scenario") == "boomtown")["reading"]) == {"boom_or_bust=per-mine",
                                                                                "boom_or_bust=flat"}
    provenance = (REPO / "scenarios" / "wagons" / "atlas.md").read_text()
    assert "bench/wagons/bench_wagons_canwin.py" in provenance
    # a proven no and a replayed best line agree: no line found on an unwinnable deal wins
    assert frame.filter((pl.col("winnable") == False) & (pl.col("best_margin") > 0)).height == 0  # noqa: E712
