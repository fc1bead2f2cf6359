"""Benchmarks for can-win and best play on seeded deals (conventions: ``run(quick) -> rows``).

Per deal (seeds given as ranges, ``--seeds 0-99``; every scenario, each under every reading of its
low-confidence goal numbers, :func:`solver.wagons.optimizer.atlas.scenario_readings`, or ``--readings default``
for the project's default reading only), one core per solve, the proven facts cache cleared before
each solve (every solve starts cold):

- ``can-win`` within ``--canwin-limit`` seconds (default 30, the issue's figure): decided or not;
- best play with the deal search within ``--bestplay-limit`` seconds (default 120, the issue's
  figure): proven or not; both with the layout strategy ``--method`` (default the project's);
- the earlier method side by side in the same run, on every ``--baseline-every K``-th seed (the seeds
  divisible by K; K = 1: every deal, 0: none): best play with one solve per line
  (``bench/wagons/baselines.py``, ``best_play_each_line``) within ``--bestplay-limit``; its answer to "winnable?" within the can-win
  limit is a win when its line's margin was above 0 by then, a no when it proved a best margin of 0
  or less by then (the time of its first winning town is read from its progress calls).

Rows: one JSON object per deal-reading, appended to ``--rows FILE.jsonl`` as each finishes (one
``write`` of a whole line, then ``fsync``). Run again with the same ``--rows`` and it resumes: the
deal-readings already in the file are skipped, and a last line cut short by a kill is dropped (the
file is truncated back to its last whole row). A file holding rows of other settings (limits, method,
baseline sample) is refused rather than mixed. Splitting: run processes on disjoint ``--seeds``
ranges, each with its own rows file, then ``--from-rows a.jsonl,b.jsonl`` prints the summary of all.

The summary (JSON lines) gives the issue's figures: can-win decided share within its limit and best
play proven share within its limit, their medians (an undecided or unproven solve counts as its
time), overall and per scenario, over the default reading (one row per deal: "deals") and over
every reading ("deal-readings"); and the earlier method's figures on its sample, with the new
method's on the same sample and the ratio new / earlier. ``--parquet FILE`` writes the atlas rows
(the columns of :data:`solver.wagons.optimizer.atlas.ATLAS_SCHEMA`). ``--dask-sample`` instead runs the atlas
batch for two scenarios x three seeds on a Dask ``LocalCluster`` through ``ruleslinger batch``'s
executor path and reports its wall time. Dated figures: ``docs/history/wagons-canwin.md``.

Run: ``.venv/bin/python bench/wagons/bench_wagons_canwin.py --seeds 0-99 --rows F.jsonl [--baseline-every 10]
[--method cpsat] [--scenarios a,b] [--readings all|default]``; ``--quick``: seed 0, 10 s limits.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository root: bench.wagons.baselines

from bench.effort import columns, measured, medians  # noqa: E402 - after the path
from bench.rows import append_row, read_rows  # noqa: E402, F401 - the benches beside it read them here too
from solver.errors import BadInput  # noqa: E402
from solver.execution.progress import Progress  # noqa: E402
from solver.wagons.data import SCENARIO_IDS  # noqa: E402

GAME = "wagons"
SETTINGS = ("canwin_limit", "bestplay_limit", "method", "baseline_every")
"""The row fields that must agree between the rows of one run (a resumed file, a summary)."""


def _row(name, value, unit, baseline=None, ratio=None, notes="", **effort):
    """A row; ``effort``: the ``det``, ``cpu``, ``wall`` columns of a CP-SAT row (``bench/effort.py``)."""
    return {"game": GAME, "name": name, "value": value, "unit": unit, "baseline": baseline, "ratio": ratio,
            "notes": notes, **effort}


# ---------------------------------------------------------------- one deal


def baseline_deal(scenario: str, seed: int, readings, time_limit: float, canwin_limit: float) -> dict:
    """The earlier method (best play, one solve per line) on one deal, and its can-win answer by ``canwin_limit``."""
    from bench.wagons.baselines import best_play_each_line

    first_win: list[float] = []

    def progress(report: Progress) -> None:
        if report.best is not None and report.best > 0 and not first_win:
            first_win.append(report.elapsed or 0.0)

    old, cost = measured(best_play_each_line, scenario, seed, readings=readings, time_limit=time_limit, progress=progress)
    if old.margin > 0 and not first_win:
        first_win.append(old.elapsed)
    win_at = first_win[0] if first_win else None
    if win_at is not None and win_at <= canwin_limit:
        winnable = True
    elif old.proven_optimal and old.margin <= 0 and old.elapsed <= canwin_limit:
        winnable = False
    else:
        winnable = None
    return {"old_margin": old.margin, "old_proven": old.proven_optimal, "old_seconds": old.elapsed,
            "old_win_seconds": win_at, "old_winnable": winnable, "old_decided": winnable is not None,
            "old_det": cost["det"], "old_cpu": cost["cpu"]}


def bench_deal(scenario: str, seed: int, reading: str, readings_json: str, canwin_limit: float = 30.0,
               bestplay_limit: float = 120.0, method: str | None = None, baseline: bool = True) -> dict:
    """One deal under one reading: the new can-win and best play, and (``baseline``) the earlier method."""
    from solver.wagons.optimizer.bestplay import best_play
    from solver.wagons.optimizer.canwin import can_win
    from solver.wagons.optimizer.dealsearch import DEFAULT_METHOD, clear_cache
    from solver.wagons.optimizer.lines import deal_state, greedy_scores
    from solver.wagons.readings import WagonsReadings

    method = method or DEFAULT_METHOD
    readings = WagonsReadings.from_json(json.loads(readings_json))
    clear_cache()
    cw, cw_cost = measured(can_win, scenario, seed, readings=readings, time_limit=canwin_limit, method=method)
    clear_cache()
    bp, bp_cost = measured(best_play, scenario, seed, readings=readings, time_limit=bestplay_limit, method=method)
    clear_cache()
    if cw.winnable is not None and bp.proven_optimal and readings.tie_break == "tie" and cw.winnable != (bp.margin > 0):
        raise AssertionError(f"{scenario} {seed} {reading}: can-win {cw.winnable} vs best play {bp.margin}")
    winnable = cw.winnable
    if winnable is None and bp.margin > 0:
        winnable = True
    elif winnable is None and bp.proven_optimal and readings.tie_break == "tie":
        winnable = False
    greedy = greedy_scores(deal_state(scenario, seed, readings=readings))
    row = {"scenario": scenario, "seed": seed, "reading": reading, "default_reading": readings == WagonsReadings(),
           "method": method, "canwin_limit": canwin_limit, "bestplay_limit": bestplay_limit,
           "canwin_winnable": cw.winnable, "canwin_decided": cw.winnable is not None, "canwin_seconds": cw.elapsed,
           "canwin_solves": cw.solves, "bestplay_margin": bp.margin, "bestplay_proven": bp.proven_optimal,
           "bestplay_seconds": bp.elapsed, "bestplay_bound": bp.bound, "bestplay_solves": bp.solves,
           "lines": bp.lines, "winnable": winnable, "greedy_margin": greedy.margin,
           "greedy_wins": greedy.winner == "player", "baseline": baseline, "canwin_det": cw_cost["det"],
           "canwin_cpu": cw_cost["cpu"], "bestplay_det": bp_cost["det"], "bestplay_cpu": bp_cost["cpu"]}
    if baseline:
        row |= baseline_deal(scenario, seed, readings, bestplay_limit, canwin_limit)
    return row


# ---------------------------------------------------------------- items and rows


def parse_seeds(text: str) -> list[int]:
    """Seeds from ranges and single seeds: ``"0-99"``, ``"0-49,60,70-79"`` (in that order, no repeats)."""
    out: list[int] = []
    for part in str(text).split(","):
        part = part.strip()
        lo, sep, hi = part.partition("-")
        try:
            seeds = range(int(lo), int(hi) + 1) if sep else [int(lo)]
        except ValueError:
            raise BadInput(f"seeds: '{part}' is not a seed or a range like 0-99") from None
        if sep and int(hi) < int(lo) or int(lo) < 0:
            raise BadInput(f"seeds: '{part}' is not a seed or a range like 0-99")
        out.extend(s for s in seeds if s not in out)
    if not out:
        raise BadInput("seeds: give at least one seed")
    return out


def deal_items(seeds, scenarios=SCENARIO_IDS, readings: str = "all") -> list[tuple]:
    """(scenario, seed, reading label, rules JSON) per deal-reading, seed by seed (a cut run covers every scenario)."""
    from solver.wagons.optimizer.atlas import scenario_readings
    from solver.wagons.readings import WagonsReadings

    if readings not in ("all", "default"):
        raise BadInput(f"readings: '{readings}' is not one of all, default")
    every = {s: scenario_readings(s) for s in scenarios}
    if readings == "default":
        every = {s: [(label, r) for label, r in every[s] if WagonsReadings.from_json(r) == WagonsReadings()] for s in scenarios}
    return [(s, seed, label, json.dumps(chosen, sort_keys=True)) for seed in seeds for s in scenarios
            for label, chosen in every[s]]


def in_baseline_sample(seed: int, every: int) -> bool:
    """The earlier method runs on the seeds divisible by ``every`` (0: on none)."""
    return every > 0 and seed % every == 0


def _key(row: dict) -> tuple:
    return (row["scenario"], row["seed"], row["reading"])


def _settings(row: dict) -> dict:
    return {k: row.get(k) for k in SETTINGS}


def check_settings(rows: list[dict], want: dict | None = None) -> dict | None:
    """The one setting of these rows (and ``want``); rows of different limits or methods are refused."""
    seen = [want] if want is not None else []
    seen += [_settings(r) for r in rows]
    for s in seen[1:]:
        if s != seen[0]:
            raise BadInput(f"rows: settings {s} differ from {seen[0]}; keep each run in its own rows file")
    return seen[0] if seen else None


def run_deals(items, canwin_limit: float, bestplay_limit: float, method: str | None, baseline_every: int,
              rows_path=None, log=None, deal=bench_deal) -> list[dict]:
    """Every item's row (resuming ``rows_path``: the deal-readings already there are not run again)."""
    from solver.wagons.optimizer.dealsearch import DEFAULT_METHOD

    settings = {"canwin_limit": canwin_limit, "bestplay_limit": bestplay_limit, "method": method or DEFAULT_METHOD,
                "baseline_every": baseline_every}
    rows = read_rows(rows_path, repair=True) if rows_path else []
    check_settings(rows, settings)
    done = {_key(r) for r in rows}
    for scenario, seed, reading, readings_json in items:
        if (scenario, seed, reading) in done:
            continue
        row = deal(scenario, seed, reading, readings_json, canwin_limit, bestplay_limit, settings["method"],
                   in_baseline_sample(seed, baseline_every)) | {"baseline_every": baseline_every}
        rows.append(row)
        done.add(_key(row))
        if rows_path:
            append_row(rows_path, row)
        if log:
            log(_line(row))
    return rows


def _line(row: dict) -> str:
    old = (f"; earlier {row['old_margin']} proven {row['old_proven']} {row['old_seconds']:.1f}s"
           if row.get("baseline") else "")
    return (f"{row['scenario']} {row['seed']} {row['reading']}: can-win {row['canwin_winnable']} "
            f"{row['canwin_seconds']:.1f}s; best {row['bestplay_margin']} proven {row['bestplay_proven']} "
            f"{row['bestplay_seconds']:.1f}s{old}")


# ---------------------------------------------------------------- summary


def _share(rows, test) -> float | None:
    return round(sum(1 for r in rows if test(r)) / len(rows), 3) if rows else None


def _median(values) -> float | None:
    values = list(values)
    return round(statistics.median(values), 2) if values else None


def _ratio(new, old) -> float | None:
    return round(new / old, 2) if new is not None and old else None


def _time(row: dict, done: str, seconds: str, limit: float) -> float:
    """The time to the answer, or the limit when there was none (a search that gave up early is no faster)."""
    return min(row[seconds], limit) if row[done] else limit


def _figures(rows: list[dict], label: str, what: str, cw: float, bp: float) -> list[dict]:
    """Decided / proven shares and median times of the new method over ``rows``."""
    n = f"{len(rows)} {what}"
    return [
        _row(f"{label}can-win decided within {cw:g}s", _share(rows, lambda r: r["canwin_decided"]), "share",
             notes=f"{n}; {sum(1 for r in rows if r['canwin_decided'])} decided"),
        _row(f"{label}can-win median seconds", _median(_time(r, "canwin_decided", "canwin_seconds", cw) for r in rows),
             "s", notes=f"{n}; an undecided deal counts as the limit", **columns(medians(_costs(rows, "canwin")))),
        _row(f"{label}best play proven within {bp:g}s", _share(rows, lambda r: r["bestplay_proven"]), "share",
             notes=f"{n}; {sum(1 for r in rows if r['bestplay_proven'])} proven"),
        _row(f"{label}best play median seconds",
             _median(_time(r, "bestplay_proven", "bestplay_seconds", bp) for r in rows), "s",
             notes=f"{n}; an unproven deal counts as the limit", **columns(medians(_costs(rows, "bestplay")))),
    ]


def _costs(rows: list[dict], prefix: str) -> list[dict]:
    """The measured costs (``bench/effort.py``) of ``prefix`` ("canwin", "bestplay" or the earlier method's "old")
    over ``rows``; none when a row has no deterministic time (rows written before it was measured)."""
    if not rows or any(f"{prefix}_det" not in r for r in rows):
        return []
    return [{"det": r[f"{prefix}_det"], "cpu": r[f"{prefix}_cpu"], "wall": r[f"{prefix}_seconds"]} for r in rows]


def _det_or_wall(sample: list[dict], med_new, med_old):
    """The ratio new / earlier of the median deterministic time (as this bench's other ratios: new / earlier), or of
    the wall time when the rows lack it."""
    new, old = medians(_costs(sample, "bestplay")), medians(_costs(sample, "old"))
    return _ratio(new["det"], old["det"]) if new and old else _ratio(med_new, med_old)


def _baseline(rows: list[dict], label: str, cw: float, bp: float, every) -> list[dict]:
    """The earlier method against the new one on the baseline's sample (the rows that ran it)."""
    sample = [r for r in rows if r.get("baseline")]
    if not sample:
        return []
    how = (f"earlier method (best play, one solve per line) on its sample: {len(sample)} rows, the seeds divisible "
           f"by {every} (--baseline-every {every}); value: new method on the same rows; unproven counts as the limit")
    cw_new, cw_old = _share(sample, lambda r: r["canwin_decided"]), _share(sample, lambda r: r["old_decided"])
    bp_new, bp_old = _share(sample, lambda r: r["bestplay_proven"]), _share(sample, lambda r: r["old_proven"])
    med_new = _median(_time(r, "bestplay_proven", "bestplay_seconds", bp) for r in sample)
    med_old = _median(_time(r, "old_proven", "old_seconds", bp) for r in sample)
    return [
        _row(f"{label}sample: can-win decided within {cw:g}s", cw_new, "share", cw_old, _ratio(cw_new, cw_old),
             how + "; earlier: its winning town by the limit, or its proof of a best margin <= 0 by then"),
        _row(f"{label}sample: best play proven within {bp:g}s", bp_new, "share", bp_old, _ratio(bp_new, bp_old), how),
        _row(f"{label}sample: best play median seconds", med_new, "s", med_old, _det_or_wall(sample, med_new, med_old),
             how + "; ratio: median deterministic time, new / earlier (rows without it: wall)",
             **columns(medians(_costs(sample, "bestplay")), medians(_costs(sample, "old")))),
        _row(f"{label}sample: best play found a higher margin than the earlier method",
             sum(1 for r in sample if r["bestplay_margin"] > r["old_margin"]), "deals", None, None,
             f"equal {sum(1 for r in sample if r['bestplay_margin'] == r['old_margin'])}, "
             f"lower {sum(1 for r in sample if r['bestplay_margin'] < r['old_margin'])}"),
    ]


def summary_rows(rows: list[dict]) -> list[dict]:
    """The issue's figures from the rows (module docstring): the default reading (one row per deal), every
    reading, per scenario, and the earlier method on its sample."""
    if not rows:
        return []
    s = check_settings(rows)
    cw, bp, every = s["canwin_limit"], s["bestplay_limit"], s["baseline_every"]
    deals = [r for r in rows if r.get("default_reading")]
    seeds = sorted({r["seed"] for r in rows})
    out = [_row("rows", len(rows), "deal-readings", notes=f"{len(deals)} deals under the default reading; seeds "
                f"{seeds[0]}-{seeds[-1]} ({len(seeds)} seeds); method {s['method']}; one solve at a time, cold")]
    out += _figures(deals, "deals: ", "deals (default reading)", cw, bp)
    out += _baseline(deals, "deals: ", cw, bp, every)
    if len(deals) < len(rows):
        out += _figures(rows, "deal-readings: ", "deal-readings (every reading)", cw, bp)
    for sc in dict.fromkeys(r["scenario"] for r in rows):
        sub = [r for r in rows if r["scenario"] == sc]
        out += _figures(sub, f"{sc}: ", "deal-readings", cw, bp)
        out += _baseline(sub, f"{sc}: ", cw, bp, every)
    return out


def atlas_frame(rows: list[dict]):
    """The bench's rows as atlas rows (:data:`solver.wagons.optimizer.atlas.ATLAS_SCHEMA`)."""
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


# ---------------------------------------------------------------- entry points


def run(quick: bool = True, seeds: str = "0-4", canwin_limit: float = 30.0, bestplay_limit: float = 120.0,
        rows_path: str | None = None, log=None, method: str | None = None, baseline_every: int = 1,
        scenarios=SCENARIO_IDS, readings: str = "all") -> list[dict]:
    """The summary rows (``quick``: seed 0 of every scenario, 10 s limits), one solve at a time in this process."""
    if quick:
        seeds, canwin_limit, bestplay_limit = "0", min(canwin_limit, 10.0), min(bestplay_limit, 10.0)
    items = deal_items(parse_seeds(seeds), scenarios, readings)
    return summary_rows(run_deals(items, canwin_limit, bestplay_limit, method, baseline_every, rows_path, log))


def dask_sample(time_limit: float = 5.0) -> dict:
    """The atlas batch for 2 scenarios x 3 seeds on a Dask LocalCluster (2 workers, 1 thread each)."""
    from dask.distributed import LocalCluster

    from solver.execution.batches import run_batch
    from solver.execution.plans import batch_request

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        start = time.perf_counter()
        result = run_batch(batch_request("wagons-atlas", 3, 0, scenario="gold-rush,cattle-drive", time_limit=time_limit),
                           executor=cluster.scheduler_address)
        result["wall_seconds"] = round(time.perf_counter() - start, 2)
    return result


def _parser() -> argparse.ArgumentParser:
    from solver.wagons.optimizer.layout import METHODS

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="seed 0 of every scenario, 10 s limits")
    ap.add_argument("--seeds", default="0-4", help="seeds per scenario as ranges, e.g. 0-99 or 0-49,60 (default 0-4)")
    ap.add_argument("--scenarios", default=",".join(SCENARIO_IDS), help="comma-separated (default all six)")
    ap.add_argument("--readings", choices=("all", "default"), default="all",
                    help="every low-confidence reading a scenario uses (default), or the default reading only")
    ap.add_argument("--canwin-limit", type=float, default=30.0, help="seconds per can-win (default 30)")
    ap.add_argument("--bestplay-limit", type=float, default=120.0, help="seconds per best play (default 120)")
    ap.add_argument("--method", choices=METHODS, default=None, help="layout strategy (default the project's)")
    ap.add_argument("--baseline-every", type=int, default=1, metavar="K",
                    help="run the earlier method on the seeds divisible by K (default 1: all; 0: none)")
    ap.add_argument("--rows", default=None, help="append each row to this JSON-lines file (and resume from it)")
    ap.add_argument("--from-rows", default=None, help="summarise (and --parquet) earlier --rows files (comma-separated)")
    ap.add_argument("--parquet", default=None, help="write the atlas rows to this Parquet file")
    ap.add_argument("--dask-sample", action="store_true", help="run the atlas sample on a Dask LocalCluster")
    return ap


def main(argv=None) -> int:
    a = _parser().parse_args(argv)
    log = lambda m: print(m, file=sys.stderr, flush=True)
    try:
        if a.dask_sample:
            print(json.dumps(dask_sample(), default=str))
            return 0
        if a.baseline_every < 0:
            raise BadInput("--baseline-every: expected a whole number >= 0")
        if a.from_rows:
            rows = [r for f in a.from_rows.split(",") for r in read_rows(f)]
        else:
            scenarios = [s.strip() for s in a.scenarios.split(",") if s.strip()]
            items = deal_items(parse_seeds(a.seeds), scenarios, a.readings)
            rows = run_deals(items, a.canwin_limit, a.bestplay_limit, a.method, a.baseline_every, a.rows, log)
        for row in summary_rows(rows):
            print(json.dumps(row))
        if a.parquet and rows:
            atlas_frame(rows).write_parquet(a.parquet)
    except BadInput as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
