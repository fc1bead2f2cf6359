"""bench/run_all.py: collects every bench module's rows; a broken module becomes an error row."""

from __future__ import annotations

import importlib.util
import json

import pytest

from solver.paths import REPO


@pytest.fixture(scope="module")
def run_all():
    spec = importlib.util.spec_from_file_location("run_all_under_test", REPO / "bench" / "run_all.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GOOD = '''
def run(quick):
    return [{"game": "good", "name": "games/s", "value": 1500.0 if quick else 1.0, "unit": "games/s",
             "baseline": 500.0, "notes": "fake"},
            {"game": "good", "name": "odd", "value": float("inf"), "unit": "s"}]
'''


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "bench_good.py").write_text(GOOD)
    (tmp_path / "bench_good_extra.py").write_text("def run(quick):\n    return [{'name': 'extra', 'value': 3}]\n")
    (tmp_path / "bench_broken.py").write_text("import no_such_module_anywhere\n")
    (tmp_path / "bench_raises.py").write_text("def run(quick):\n    raise RuntimeError('kaput\\nline two')\n")
    (tmp_path / "bench_norun.py").write_text("X = 1\n")
    (tmp_path / "bench_badrows.py").write_text("def run(quick):\n    return [1, {'name': 'ok', 'value': 2}]\n")
    (tmp_path / "helper.py").write_text("raise SystemExit('not a bench module')\n")
    return tmp_path


def test_every_module_runs_and_failures_become_rows(run_all, folder, capsys):
    out = folder / "results.json"
    code = run_all.main(["--quick", "--out", str(out)], folder)
    assert code == 1  # some modules failed: visible in the exit code, the others still ran
    doc = json.loads(out.read_text())
    assert doc["quick"] is True
    assert doc["modules"] == ["bench_badrows.py", "bench_broken.py", "bench_good.py", "bench_good_extra.py",
                              "bench_norun.py", "bench_raises.py"]
    rows = {(r["game"], r["name"]): r for r in doc["rows"]}
    good = rows[("good", "games/s")]
    assert good["value"] == 1500.0 and good["ratio"] == 3.0
    assert rows[("good", "odd")]["value"] is None and "inf" in rows[("good", "odd")]["notes"]
    assert rows[("good_extra", "extra")]["value"] == 3
    assert "ModuleNotFoundError" in rows[("broken", "(import failed)")]["notes"]
    assert "no run(quick)" in rows[("norun", "(import failed)")]["notes"]
    raised = rows[("raises", "(run failed)")]
    assert raised["notes"].startswith("RuntimeError: kaput line two")
    assert rows[("badrows", "ok")]["value"] == 2
    assert rows[("badrows", "(row failed)")]["error"] is True
    for row in doc["rows"]:
        assert set(run_all.COLUMNS) <= set(row)
    table = capsys.readouterr().out
    assert table.splitlines()[0].split() == list(run_all.COLUMNS)
    assert "games/s" in table and "kaput" in table


def test_only_selects_a_game_and_its_sub_modules(run_all, folder):
    assert [p.name for p in run_all.discover("good", folder)] == ["bench_good.py", "bench_good_extra.py"]
    out = folder / "only.json"
    assert run_all.main(["--only", "good", "--out", str(out)], folder) == 0
    assert {r["name"] for r in json.loads(out.read_text())["rows"]} == {"games/s", "odd", "extra"}


def test_only_with_no_match_is_exit_2(run_all, folder, capsys):
    assert run_all.main(["--only", "nosuchgame", "--out", str(folder / "x.json")], folder) == 2
    assert "no bench/bench_nosuchgame" in capsys.readouterr().err
    assert not (folder / "x.json").exists()


def test_the_real_bench_folder_is_discovered(run_all):
    names = [p.name for p in run_all.discover()]
    assert "bench_executor.py" in names and "bench_wagons_canwin.py" in names  # the top and a game's folder


def test_a_cp_sat_row_shows_its_deterministic_time_cpu_and_wall_seconds_in_the_one_table(run_all):
    """A row measured by bench/effort.py carries ``det``, ``cpu``, ``wall`` as ``[value, baseline]``: the table shows
    them beside the ratio (which such a row reads from the deterministic time); rows without them show a dash."""
    rows = [run_all.normalise({"game": "wagons", "name": "proofs", "value": 2.0, "unit": "s", "baseline": 4.0,
                               "ratio": 3.0, "det": [1.5, 4.5], "cpu": [1.9, 3.8], "wall": [2.0, 4.0]},
                              REPO / "bench" / "bench_x.py"),
            run_all.normalise({"game": "wagons", "name": "towns/s", "value": 10.0, "unit": "towns/s"},
                              REPO / "bench" / "bench_x.py")]
    lines = run_all.table(rows).splitlines()
    assert lines[0].split() == [*run_all.COLUMNS[:-1], "det", "cpu", "wall", "notes"]
    assert "1.50 / 4.50" in lines[2] and "1.90 / 3.80" in lines[2] and "2.00 / 4.00" in lines[2]
    assert rows[0]["ratio"] == 3.0 and lines[3].split()[-3:] == ["-", "-", "-"]


def test_the_bench_meter_reads_cp_sats_deterministic_time():
    """bench/effort.py measures a call: CP-SAT's deterministic and CPU seconds inside it, and its wall seconds."""
    from bench.effort import columns, det_ratio, measured, medians
    from solver.wagons.optimizer.layout import best_layout

    result, cost = measured(best_layout, (3, 7, 11, 14), "boomtown", (0, 1), time_limit=60, method="cpsat")
    assert result.proven_optimal and cost["det"] > 0 and cost["wall"] > 0 and cost["cpu"] >= 0
    half = {k: v / 2 for k, v in cost.items()}
    assert det_ratio(cost, half) == 2.0 and columns(medians([cost, cost]))["det"] == [round(cost["det"], 3), None]


def test_a_bench_module_with_a_dataclass_loads(run_all, tmp_path):
    """bench_wagons_proofs.py (a dataclass at module level) failed to import under run_all: the module was not in
    sys.modules while it ran, where dataclasses look it up."""
    (tmp_path / "bench_dc.py").write_text("from dataclasses import dataclass\n\n\n@dataclass(frozen=True)\nclass Item:\n"
                                          "    x: int\n\n\ndef run(quick):\n    return [{'name': 'dc', 'value': Item(2).x}]\n")
    rows = run_all.run_module(tmp_path / "bench_dc.py", True)
    assert [r["value"] for r in rows] == [2] and not rows[0].get("error")
