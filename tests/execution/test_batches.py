"""Named batches (solver/execution/batches.py, ``ruleslinger batch``): same results whichever executor runs them,
rows identical to the game's own one-game function, one-line errors."""

from __future__ import annotations

import json

import polars as pl
import pytest

from solver import cli
from solver.cactus.odds import CHUNK
from solver.errors import BadInput
from solver.execution import batches
from solver.execution.batches import run_batch
from solver.execution.executor import rows_to_frame
from solver.execution.plans import BatchRequest, batch_request
from tests.support.execution import stream_rows


def test_wagons_rows_identical_serial_and_local_and_equal_to_play_row():
    from solver.wagons.simulate import play_row

    request = batch_request("wagons-games", 120, 7, scenario="water-the-herd", policy="random")
    serial = list(stream_rows(request, executor="serial"))
    local = list(stream_rows(request, executor="local", workers=2, chunk_size=11))
    assert serial == local
    assert [r["seed"] for r in serial] == list(range(7, 127))
    assert serial[5] == play_row("water-the-herd", "random", 12)


def test_wagons_options_reach_the_games():
    request = batch_request("wagons-games", 5, 0, scenario="boomtown", options=(("edition", "later"),))
    rows = list(stream_rows(request, executor="serial"))
    assert {r["edition"] for r in rows} == {"later"}


def test_cactus_counts_identical_serial_and_local():
    request = BatchRequest("cactus-montecarlo", 2 * CHUNK + 500, 3)
    serial = run_batch(request, executor="serial")
    local = run_batch(request, executor="local", workers=2)
    assert serial["counts"] == local["counts"]
    assert sum(serial["counts"].values()) == request.n
    assert serial["rounds"]["6"]["exact"] == "1/3"  # rule C-solo-marshal: contract example
    assert serial["max_abs_z"] < 6  # the Monte Carlo agrees with the exact odds


def test_cactus_progress_counts_games_not_chunks():
    seen = []
    run_batch(batch_request("cactus-montecarlo", 1500, 0, players=2), executor="serial",
              progress=lambda p: seen.append((p.done, p.total, p.unit)))
    assert seen == [(1500, 1500, "games")]


def test_rows_to_parquet_via_the_cli(tmp_path, capsys):
    out = tmp_path / "games.parquet"
    code = cli.main(["batch", "wagons-games", "--n", "60", "--seed", "100", "--scenario", "cattle-drive",
                     "--executor", "serial", "--out", str(out), "--json", "--no-progress"])
    assert code == 0, capsys.readouterr().err
    doc = json.loads(capsys.readouterr().out)
    assert doc["rows"] == 60 and doc["out"] == str(out)
    frame = pl.read_parquet(out)
    assert frame["seed"].to_list() == list(range(100, 160))
    assert doc["summary"]["player_total"]["mean"] == pytest.approx(frame["player_total"].mean(), abs=1e-6)
    again = rows_to_frame(stream_rows(batch_request("wagons-games", 60, 100, scenario="cattle-drive"),
                                      executor="local"))
    assert again.equals(frame)


def test_cli_rows_in_json(capsys):
    assert cli.main(["batch", "wagons-games", "--n", "3", "--scenario", "boomtown", "--rows", "--json",
                     "--executor", "serial"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [r["seed"] for r in doc["data"]] == [0, 1, 2]


@pytest.mark.parametrize("argv, message", [
    (["nosuch"], "batch kind"),
    (["wagons-games", "--n", "0", "--scenario", "boomtown"], "n: expected a whole number 1.."),
    (["wagons-games", "--n", "9" * 50, "--scenario", "boomtown"], "n: expected"),
    (["wagons-games", "--n", "ten"], "--n: expected a whole number"),
    (["wagons-games", "--seed", "-1", "--scenario", "boomtown"], "seed"),
    (["wagons-games", "--seed", str(2**63 - 1), "--n", "2", "--scenario", "boomtown"], "largest seed"),
    (["wagons-games", "--n", "5"], "--scenario is required"),
    (["wagons-games", "--n", "5", "--scenario", "nosuch"], "unknown scenario"),
    (["wagons-games", "--n", "5", "--scenario", "boomtown", "--policy", "scripted"], "--policy"),
    (["wagons-games", "--n", "5", "--scenario", "boomtown", "--option", "nosuch=1"], "unknown option"),
    (["wagons-games", "--n", "5", "--scenario", "boomtown", "--option", "round1_window=x"], "whole number"),
    (["wagons-games", "--n", "5", "--scenario", "boomtown", "--option", "edition"], "NAME=VALUE"),
    (["wagons-games", "--n", "5", "--scenario", "boomtown", "--players", "3"], "--players does not apply"),
    (["wagons-games", "--n", "20000", "--scenario", "boomtown", "--rows"], "--rows: at most"),
    (["wagons-games", "--n", "5", "--scenario", "boomtown", "--out", "x.csv"], "must end in .parquet"),
    (["wagons-games", "--n", "5", "--scenario", "boomtown", "--out", "/no/such/dir/x.parquet"], "does not exist"),
    (["cactus-montecarlo", "--n", "10", "--players", "9"], "players"),
    (["cactus-montecarlo", "--n", "10", "--out", "x.parquet"], "row kinds only"),
    (["cactus-montecarlo", "--n", "10", "--option", "duel_win_chance=1/0"], "fraction"),
    (["cactus-montecarlo", "--n", "10", "--option", "solo_events=maybe"], "true or false"),
    (["cactus-montecarlo", "--n", "10", "--executor", "cluster"], "executor"),
    (["cactus-montecarlo", "--n", "10", "--workers", "0"], "workers"),
    (["cactus-montecarlo", "--n", "10", "--workers", "many"], "--workers"),
])
def test_cli_bad_input_is_one_line_exit_2(argv, message, capsys):
    assert cli.main(["batch", *argv, "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    err = captured.err.strip()
    assert "\n" not in err and err.startswith("ruleslinger: error:") and message in err, err


def test_a_task_failure_in_the_cli_is_one_line(monkeypatch, capsys):
    import solver.execution.batches as b

    def broken(request):
        import functools
        import math

        return b.Plan(functools.partial(math.log), [3, 2, 0, 1], "rows")

    monkeypatch.setitem(b.KINDS, "cactus-montecarlo", b.BatchKind("cactus-montecarlo", "broken", broken))
    assert cli.main(["batch", "cactus-montecarlo", "--n", "4", "--executor", "serial"]) == 2
    *progress, err = capsys.readouterr().err.strip().splitlines()  # the items done before it, then one error line
    assert all(line.startswith("[cactus-montecarlo] ") for line in progress)
    assert "batch failed: cactus-montecarlo: item 2 = 0 failed: ValueError: math domain error" in err


def test_batch_readings_are_parsed_by_the_games_readings():
    from solver.cactus.readings import CactusReadings

    readings = BatchRequest("cactus-montecarlo", 1, options=(("solo_events", "yes"), ("solo_event_cards", "10"),
                                                          ("duel_win_chance", "1/4"))).readings(CactusReadings)
    assert readings.solo_events is True and readings.solo_event_cards == 10 and str(readings.duel_win_chance) == "1/4"
    with pytest.raises(BadInput, match="out of range"):
        BatchRequest("cactus-montecarlo", 1, options=(("solo_event_cards", "9" * 30),)).readings(CactusReadings)


def test_outlaws_playouts_identical_serial_and_local_and_equal_to_playout():
    from solver.outlaws.readings import OutlawsReadings
    from solver.outlaws.search.playout import playout

    request = BatchRequest("outlaws-playouts", 4, 11, options=(("sheriff_save", "stop"),))
    serial = list(stream_rows(request, executor="serial"))
    local = list(stream_rows(request, executor="local", workers=2, chunk_size=1))
    assert serial == local
    assert serial[2] == playout(13, OutlawsReadings(sheriff_save="stop"))


def test_outlaws_bad_options_are_bad_input():
    with pytest.raises(BadInput, match="first_player"):
        batches.plan(BatchRequest("outlaws-playouts", 3, 0, options=(("first_player", "C"),)))
    with pytest.raises(BadInput, match="does not apply"):
        batches.plan(batch_request("outlaws-playouts", 3, 0, scenario="boomtown"))


def test_wagons_difficulty_rows_come_from_best_play_row(capsys):
    assert cli.main(["batch", "wagons-difficulty", "--n", "1", "--seed", "4", "--scenario", "gold-rush",
                     "--time-limit", "1", "--executor", "serial", "--rows", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["settings"]["time_limit"] == 1.0
    (row,) = doc["data"]
    assert row["seed"] == 4 and row["scenario"] == "gold-rush"
    assert {"best_margin", "greedy_margin", "proven"} <= set(row)


@pytest.mark.parametrize("limit, message", [("0", "time limit"), ("-1", "time limit"), ("nan", "finite"),
                                            ("inf", "finite"), ("1e9", "time limit"), ("soon", "number of seconds")])
def test_wagons_difficulty_time_limit_is_checked(limit, message, capsys):
    assert cli.main(["batch", "wagons-difficulty", "--n", "1", "--scenario", "boomtown", "--time-limit", limit]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and message in err, err


def test_time_limit_does_not_apply_to_other_kinds(capsys):
    assert cli.main(["batch", "cactus-montecarlo", "--n", "5", "--time-limit", "3"]) == 2
    assert "--time-limit does not apply" in capsys.readouterr().err
