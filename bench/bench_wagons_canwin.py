"""Benchmarks for can-win and best play on seeded deals (conventions: ``run(quick) -> rows``).

Per deal (``--seeds`` per scenario, each scenario under every reading of its low-confidence goal
numbers, :func:`solver.wagons.atlas.scenario_readings`), one core per solve, the proven facts cache
cleared before each solve (every solve starts cold):

- ``can-win`` (bounds, greedy, local search, proofs) within ``--canwin-limit`` seconds: decided or not;
- best play with the deal search (``search="bounds"``) within ``--bestplay-limit`` seconds: proven or not;
- the current method side by side in the same run: best play with one solve per line
  (``search="each-line"``) within ``--bestplay-limit``; its answer to "winnable?" is a win when its
  line's margin is above 0 and a no when it proves a best margin of 0 or less.

Rows go to ``--rows FILE.jsonl`` as they finish (a cut run keeps what it measured); the summary rows
(shares, medians, ratios new/current) print as JSON lines; ``--parquet FILE`` writes the atlas rows
(the columns of :data:`solver.wagons.atlas.ATLAS_SCHEMA`). ``--dask-sample`` instead runs the atlas
batch for two scenarios x three seeds on a Dask ``LocalCluster`` through ``ruleslinger batch``'s
executor path and reports its wall time. Dated figures: ``docs/history/wagons-canwin.md``.

``--versus-current`` runs can-win only, now against the method before the layout-aware Badlands bound and
the CP-SAT territory cap (:func:`current_method`), side by side per deal; ``--scenarios`` picks scenarios.

Run: ``.venv/bin/python bench/bench_wagons_canwin.py [--quick] [--seeds N] [--first-seed K] [--rows F.jsonl]
[--scenarios A,B] [--versus-current]``.
"""

from __future__ import annotations

import argparse
import functools
import json
import statistics
import sys
import time
from contextlib import contextmanager
from pathlib import Path

from solver.wagons.data import SCENARIO_IDS

GAME = "wagons"


def _row(name, value, unit, baseline=None, ratio=None, notes=""):
    return {"game": GAME, "name": name, "value": value, "unit": unit, "baseline": baseline, "ratio": ratio,
            "notes": notes}


def bench_deal(scenario: str, seed: int, reading: str, rules_json: str, canwin_limit: float,
               bestplay_limit: float) -> dict:
    """One deal under one reading: the new can-win and best play, and the current method (module docstring)."""
    from solver.wagons.optimizer.bestplay import best_play
    from solver.wagons.optimizer.canwin import can_win
    from solver.wagons.optimizer.dealsearch import clear_cache
    from solver.wagons.optimizer.lines import deal_state, greedy_scores
    from solver.wagons.rules import Rules

    rules = Rules.from_dict(json.loads(rules_json))
    clear_cache()
    cw = can_win(scenario, seed, rules=rules, time_limit=canwin_limit)
    clear_cache()
    bp = best_play(scenario, seed, rules=rules, time_limit=bestplay_limit)
    old = best_play(scenario, seed, rules=rules, time_limit=bestplay_limit, search="each-line")
    old_win = True if old.margin > 0 else (False if old.proven_optimal else None)
    winnable = cw.winnable
    if winnable is None and bp.margin > 0:
        winnable = True
    elif winnable is None and bp.proven_optimal:
        winnable = False
    if cw.winnable is not None and bp.proven_optimal and cw.winnable != (bp.margin > 0):
        raise AssertionError(f"{scenario} {seed} {reading}: can-win {cw.winnable} vs best play {bp.margin}")
    greedy = greedy_scores(deal_state(scenario, seed, rules=rules))
    return {"scenario": scenario, "seed": seed, "reading": reading,
            "canwin_winnable": cw.winnable, "canwin_decided": cw.winnable is not None, "canwin_seconds": cw.elapsed,
            "canwin_solves": cw.solves, "bestplay_margin": bp.margin, "bestplay_proven": bp.proven_optimal,
            "bestplay_seconds": bp.elapsed, "bestplay_bound": bp.bound, "bestplay_solves": bp.solves,
            "old_margin": old.margin, "old_proven": old.proven_optimal, "old_seconds": old.elapsed,
            "old_winnable": old_win, "old_decided": old_win is not None, "lines": bp.lines,
            "winnable": winnable, "greedy_margin": greedy.margin, "greedy_wins": greedy.winner == "player"}


@contextmanager
def current_method():
    """can-win as it was before the layout-aware Badlands bound and the CP-SAT territory cap (issue 20,
    second round): the margin bound from the counts alone (``margin_bound(..., layouts=False)``) and the
    prover without the cap (``CpSatProof(tightened=False)``), swapped in for the ``with`` block."""
    from solver.wagons.optimizer import dealsearch, layout
    from solver.wagons.optimizer.bounds import margin_bound
    from solver.wagons.optimizer.cpsat import CpSatProof

    saved = dealsearch.margin_bound, layout.STRATEGIES["cpsat"]
    dealsearch.margin_bound = functools.partial(margin_bound, layouts=False)
    layout.STRATEGIES["cpsat"] = CpSatProof("search", tightened=False)
    try:
        yield
    finally:
        dealsearch.margin_bound, layout.STRATEGIES["cpsat"] = saved


def versus_deal(scenario: str, seed: int, reading: str, rules_json: str, canwin_limit: float) -> dict:
    """One deal under one reading: can-win now and can-win as it was (:func:`current_method`), cold each;
    where both decide they must agree."""
    from solver.wagons.optimizer.canwin import can_win
    from solver.wagons.optimizer.dealsearch import clear_cache
    from solver.wagons.rules import Rules

    rules = Rules.from_dict(json.loads(rules_json))
    clear_cache()
    new = can_win(scenario, seed, rules=rules, time_limit=canwin_limit)
    clear_cache()
    with current_method():
        old = can_win(scenario, seed, rules=rules, time_limit=canwin_limit)
    clear_cache()
    if new.winnable is not None and old.winnable is not None and new.winnable != old.winnable:
        raise AssertionError(f"{scenario} {seed} {reading}: can-win {new.winnable} now, {old.winnable} before")
    return {"scenario": scenario, "seed": seed, "reading": reading, "canwin_winnable": new.winnable,
            "canwin_decided": new.winnable is not None, "canwin_seconds": new.elapsed, "canwin_solves": new.solves,
            "canwin_open": new.lines_open, "current_winnable": old.winnable, "current_decided": old.winnable is not None,
            "current_seconds": old.elapsed, "current_solves": old.solves, "current_open": old.lines_open,
            "lines": new.lines}


def versus_rows(rows: list[dict], canwin_limit: float) -> list[dict]:
    """Share decided and median time, now against as it was (same run), overall and per scenario."""
    out = []
    med = lambda sub, key: round(statistics.median(r[key] for r in sub), 2)
    for s in [None, *dict.fromkeys(r["scenario"] for r in rows)]:
        sub = [r for r in rows if s is None or r["scenario"] == s]
        what = f"{s or 'all'}: {len(sub)} deal-readings, {canwin_limit:g}s each"
        new, old = _share(sub, "canwin_decided"), _share(sub, "current_decided")
        out.append(_row(f"{s or 'all'}: can-win decided within {canwin_limit:g}s (now vs before)", new, "share", old,
                        round(new / old, 2) if old else None, what))
        out.append(_row(f"{s or 'all'}: can-win median seconds (now vs before)", med(sub, "canwin_seconds"), "s",
                        med(sub, "current_seconds"), None, what))
        out.append(_row(f"{s or 'all'}: layout solves per deal, mean (now vs before)",
                        round(statistics.mean(r["canwin_solves"] for r in sub), 1), "solves",
                        round(statistics.mean(r["current_solves"] for r in sub), 1), None, what))
    return out


def _items(seeds: range, scenarios) -> list[tuple]:
    from solver.wagons.atlas import scenario_readings

    readings = {s: scenario_readings(s) for s in scenarios}
    return [(s, seed, label, json.dumps(rules, sort_keys=True)) for seed in seeds for s in scenarios
            for label, rules in readings[s]]


def _share(rows, key) -> float | None:
    return round(sum(1 for r in rows if r[key]) / len(rows), 3) if rows else None


def summary_rows(rows: list[dict], canwin_limit: float, bestplay_limit: float) -> list[dict]:
    n = len(rows)
    what = f"{n} deal-readings ({len({(r['scenario'], r['seed']) for r in rows})} deals)"
    cw_new, cw_old = _share(rows, "canwin_decided"), _share(rows, "old_decided")
    bp_new, bp_old = _share(rows, "bestplay_proven"), _share(rows, "old_proven")
    med = lambda key: round(statistics.median(r[key] for r in rows), 2) if rows else None
    out = [
        _row(f"can-win decided within {canwin_limit:g}s", cw_new, "share", cw_old,
             cw_new / cw_old if cw_old else None, f"{what}; baseline: best play, one solve per line, "
             f"within {bestplay_limit:g}s (a win when its line wins, a no when it proves a best margin <= 0)"),
        _row(f"best play proven within {bestplay_limit:g}s", bp_new, "share", bp_old,
             bp_new / bp_old if bp_old else None, f"{what}; baseline: one solve per line (search=each-line)"),
        _row("can-win median seconds", med("canwin_seconds"), "s", None, None, what),
        _row("best play median seconds", med("bestplay_seconds"), "s", med("old_seconds"),
             med("bestplay_seconds") / med("old_seconds") if rows and med("old_seconds") else None, what),
    ]
    for s in dict.fromkeys(r["scenario"] for r in rows):
        sub = [r for r in rows if r["scenario"] == s]
        out.append(_row(f"{s}: can-win decided / best play proven (new) vs proven (current)", _share(sub, "canwin_decided"),
                        "share", _share(sub, "old_proven"), None,
                        f"{len(sub)} deal-readings; best play proven {_share(sub, 'bestplay_proven')}, "
                        f"current method proven {_share(sub, 'old_proven')}"))
    return out


def atlas_frame(rows: list[dict], canwin_limit: float, bestplay_limit: float):
    """The bench's rows as atlas rows (:data:`solver.wagons.atlas.ATLAS_SCHEMA`)."""
    import polars as pl

    from solver.wagons.scoring import low_confidence

    out = [{"scenario": r["scenario"], "seed": r["seed"], "reading": r["reading"], "winnable": r["winnable"],
            "win_proven": r["winnable"] is not None, "win_margin": r["bestplay_margin"],
            "best_margin": r["bestplay_margin"], "best_proven": r["bestplay_proven"], "best_bound": r["bestplay_bound"],
            "greedy_margin": r["greedy_margin"], "greedy_wins": r["greedy_wins"], "lines": r["lines"],
            "canwin_seconds": round(r["canwin_seconds"], 3), "bestplay_seconds": round(r["bestplay_seconds"], 3),
            "elapsed": round(r["canwin_seconds"] + r["bestplay_seconds"], 3),
            "low_confidence": ", ".join(low_confidence(r["scenario"]))} for r in rows]
    schema = {"scenario": pl.Utf8, "seed": pl.Int64, "reading": pl.Utf8, "winnable": pl.Boolean,
              "win_proven": pl.Boolean, "win_margin": pl.Int64, "best_margin": pl.Int64, "best_proven": pl.Boolean,
              "best_bound": pl.Int64, "greedy_margin": pl.Int64, "greedy_wins": pl.Boolean, "lines": pl.Int64,
              "canwin_seconds": pl.Float64, "bestplay_seconds": pl.Float64, "elapsed": pl.Float64,
              "low_confidence": pl.Utf8}
    return pl.DataFrame(out, schema=schema)


def run(quick: bool = True, seeds: int | None = None, first_seed: int = 0, canwin_limit: float = 30.0,
        bestplay_limit: float = 30.0, rows_path: str | None = None, log=None, scenarios=SCENARIO_IDS,
        versus: bool = False) -> list[dict]:
    """The rows of the bench (``quick``: one seed per scenario, 10 s limits), one solve at a time in this
    process (run several processes on disjoint ``first_seed`` ranges and merge with ``--from-rows``).
    ``versus``: can-win only, now against as it was (:func:`versus_deal`), instead of best play."""
    if quick:
        seeds, canwin_limit, bestplay_limit = seeds or 1, min(canwin_limit, 10.0), min(bestplay_limit, 10.0)
    items = _items(range(first_seed, first_seed + (seeds or 5)), scenarios)
    rows = []
    sink = open(rows_path, "a") if rows_path else None
    try:
        for item in items:
            if versus:
                row = versus_deal(*item, canwin_limit)
                rows.append(row)
                if sink:
                    sink.write(json.dumps(row) + "\n")
                    sink.flush()
                if log:
                    log(f"{row['scenario']} {row['seed']} {row['reading']}: now {row['canwin_winnable']} "
                        f"{row['canwin_seconds']:.1f}s ({row['canwin_solves']} solves); before {row['current_winnable']} "
                        f"{row['current_seconds']:.1f}s ({row['current_solves']} solves)")
                continue
            row = bench_deal(*item, canwin_limit, bestplay_limit)
            rows.append(row)
            if sink:
                sink.write(json.dumps(row) + "\n")
                sink.flush()
            if log:
                log(f"{row['scenario']} {row['seed']} {row['reading']}: can-win {row['canwin_winnable']} "
                    f"{row['canwin_seconds']:.1f}s; best {row['bestplay_margin']} proven {row['bestplay_proven']} "
                    f"{row['bestplay_seconds']:.1f}s; current {row['old_margin']} proven {row['old_proven']} "
                    f"{row['old_seconds']:.1f}s")
    finally:
        if sink:
            sink.close()
    return versus_rows(rows, canwin_limit) if versus else summary_rows(rows, canwin_limit, bestplay_limit)


def dask_sample(time_limit: float = 5.0) -> dict:
    """The atlas batch for 2 scenarios x 3 seeds on a Dask LocalCluster (2 workers, 1 thread each)."""
    from dask.distributed import LocalCluster

    from solver.batches import BatchRequest, run_batch

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        start = time.perf_counter()
        result = run_batch(BatchRequest("wagons-atlas", 3, 0, scenario="gold-rush,cattle-drive", time_limit=time_limit),
                           executor=cluster.scheduler_address, progress=False)
        result["wall_seconds"] = round(time.perf_counter() - start, 2)
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--seeds", type=int, default=None, help="seeds per scenario (default 5; quick 1)")
    ap.add_argument("--first-seed", type=int, default=0, help="first seed (default 0)")
    ap.add_argument("--canwin-limit", type=float, default=30.0)
    ap.add_argument("--bestplay-limit", type=float, default=30.0)
    ap.add_argument("--rows", default=None, help="append each deal's row to this JSON-lines file")
    ap.add_argument("--from-rows", default=None, help="summarise (and --parquet) earlier --rows files (comma-separated)")
    ap.add_argument("--parquet", default=None, help="write the atlas rows to this Parquet file")
    ap.add_argument("--dask-sample", action="store_true", help="run the atlas sample on a Dask LocalCluster")
    ap.add_argument("--scenarios", default=",".join(SCENARIO_IDS), help="comma-separated scenario ids (default all)")
    ap.add_argument("--versus-current", action="store_true",
                    help="can-win only: now against the method before the layout-aware bound (same run)")
    a = ap.parse_args()
    log = lambda m: print(m, file=sys.stderr, flush=True)
    if a.dask_sample:
        print(json.dumps(dask_sample(), default=str))
        return
    if a.from_rows:
        rows = [json.loads(line) for f in a.from_rows.split(",") for line in Path(f).read_text().splitlines()
                if line.strip()]
        out = versus_rows(rows, a.canwin_limit) if a.versus_current else summary_rows(rows, a.canwin_limit, a.bestplay_limit)
    else:
        scenarios = tuple(x for x in a.scenarios.split(",") if x)
        unknown = set(scenarios) - set(SCENARIO_IDS)
        if unknown:
            ap.error(f"--scenarios: unknown scenario {sorted(unknown)[0]!r} (one of {', '.join(SCENARIO_IDS)})")
        out = run(a.quick, a.seeds, a.first_seed, a.canwin_limit, a.bestplay_limit, a.rows, log, scenarios,
                  a.versus_current)
        rows = [json.loads(line) for line in Path(a.rows).read_text().splitlines()] if a.rows else []
    for row in out:
        print(json.dumps(row))
    if a.parquet and rows:
        atlas_frame(rows, a.canwin_limit, a.bestplay_limit).write_parquet(a.parquet)


if __name__ == "__main__":
    main()
