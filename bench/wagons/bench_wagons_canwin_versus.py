"""Can-win now against can-win as it was before, side by side per deal in one process. ``--before NAME``
(:data:`BEFORE`):

- ``second-round`` (default): before issue 20's second round, the layout-aware Badlands bound and the CP-SAT
  territory cap (now) against the counts-only bound and ``CpSatProof(tightened=False)`` (:func:`second_round_before`);
- ``encoding``: before the encoding round, the reduced triangle clauses and the model reuse across proof passes
  (now) against every triangle clause three times and every pass's model built afresh (:func:`encoding_before`;
  the earlier builds live in ``bench/wagons/baselines.py``);
- ``restart``: the deal search's line proofs paused and resumed in worker processes (``schedule="resume"``,
  now) against proofs restarted every pass (``schedule="restart"``);
- ``session``: both of the last two at once (the method at the start of the session that built them).

Cold solves, can-win only; where both decide they must agree. Except for ``second-round``, which of the two
runs first alternates from deal to deal. Dated figures: ``docs/history/wagons-canwin.md``.

Run: ``.venv/bin/python bench/wagons/bench_wagons_canwin_versus.py [--seeds 0-99] [--scenarios A,B] [--readings
all|default] [--canwin-limit S] [--before-every K] [--before NAME] [--deals SC:SEED,...] [--rows F.jsonl]
[--from-rows F.jsonl]``; the summary rows go to standard output as JSON lines. ``--rows`` resumes a killed run
(the rows there are skipped); the issue's 600 deals: ``--seeds 0-99 --readings default --before-every 10``,
split over processes by seeds.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the sibling bench, also when loaded by path
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository root: bench.wagons.baselines

from bench_wagons_canwin import (  # noqa: E402 - the rows file, seeds and items are that bench's
    _row,
    append_row,
    deal_items,
    in_baseline_sample,
    parse_seeds,
    read_rows,
)

from bench.effort import columns, det_ratio, measured, medians  # noqa: E402 - after the path
from solver.wagons.data import SCENARIO_IDS  # noqa: E402


def _share(rows, key) -> float | None:
    return round(sum(1 for r in rows if r[key]) / len(rows), 3) if rows else None


def second_round_before() -> dict:
    """can-win's options as it was before the layout-aware Badlands bound and the CP-SAT territory cap (issue 20,
    second round): the margin bound from the counts alone (``margin_bound(..., layouts=False)``) and the prover
    without the cap (``CpSatProof(tightened=False)``)."""
    from bench.wagons.baselines import counts_only_bound
    from solver.wagons.optimizer.cpsat.proof import CpSatProof

    return {"prover": CpSatProof("search", tightened=False), "line_bound": counts_only_bound()}


def encoding_before() -> dict:
    """can-win's options as it was before the encoding round: every triangle clause as built before and every proof
    pass's model built afresh (``bench/wagons/baselines.py``, ``encoding_round_prover``)."""
    from bench.wagons.baselines import encoding_round_prover

    return {"prover": encoding_round_prover()}


BEFORE = {"second-round": second_round_before, "encoding": encoding_before,
          "restart": lambda: {"schedule": "restart"}, "session": lambda: encoding_before() | {"schedule": "restart"}}
"""``--before`` name -> can-win's options for the method before (its prover, line bound, schedule), passed to
``can_win`` as arguments: nothing of the product is swapped."""


def _cold(scenario: str, seed: int, readings, canwin_limit: float, **options):
    """One can-win with an empty cache of proven facts before and after (every solve cold), and its cost
    (``bench/effort.py``)."""
    from solver.wagons.optimizer.canwin import can_win
    from solver.wagons.optimizer.dealsearch import clear_cache

    clear_cache()
    try:
        return measured(can_win, scenario, seed, readings=readings, time_limit=canwin_limit, **options)
    finally:
        clear_cache()


def versus_deal(scenario: str, seed: int, reading: str, readings_json: str, canwin_limit: float,
                before: bool = True, baseline: str = "second-round", before_first: bool = False) -> dict:
    """One deal under one reading: can-win now and (``before``) can-win as it was (:data:`BEFORE`
    ``[baseline]``), cold each (the method before first when ``before_first``); where both decide they
    must agree."""
    from solver.wagons.readings import WagonsReadings

    readings = WagonsReadings.from_json(json.loads(readings_json))
    options = BEFORE[baseline]()

    def run_before():
        return _cold(scenario, seed, readings, canwin_limit, **options)

    old, old_cost = run_before() if before and before_first else (None, None)
    new, cost = _cold(scenario, seed, readings, canwin_limit)
    row = {"scenario": scenario, "seed": seed, "reading": reading, "default_reading": readings == WagonsReadings(),
           "canwin_limit": canwin_limit, "canwin_winnable": new.winnable, "canwin_decided": new.winnable is not None,
           "canwin_seconds": new.elapsed, "canwin_solves": new.solves, "canwin_open": new.lines_open,
           "lines": new.lines, "before": before, "baseline": baseline, "canwin_det": cost["det"],
           "canwin_cpu": cost["cpu"]}
    if not before:
        return row
    if old is None:
        old, old_cost = run_before()
    if new.winnable is not None and old.winnable is not None and new.winnable != old.winnable:
        raise AssertionError(f"{scenario} {seed} {reading}: can-win {new.winnable} now, {old.winnable} before")
    return row | {"current_winnable": old.winnable, "current_decided": old.winnable is not None,
                  "current_seconds": old.elapsed, "current_solves": old.solves, "current_open": old.lines_open,
                  "current_det": old_cost["det"], "current_cpu": old_cost["cpu"]}


def _costs(rows: list[dict], prefix: str) -> list[dict]:
    """The measured costs of ``prefix`` ("canwin" now, "current" before) over ``rows``; none when a row lacks its
    deterministic time (rows written before it was measured)."""
    if not rows or any(f"{prefix}_det" not in r for r in rows):
        return []
    return [{"det": r[f"{prefix}_det"], "cpu": r[f"{prefix}_cpu"], "wall": r[f"{prefix}_seconds"]} for r in rows]


def _median(sub: list[dict], key: str) -> float | None:
    return round(statistics.median(r[key] for r in sub), 2) if sub else None


def versus_rows(rows: list[dict], canwin_limit: float) -> list[dict]:
    """Share decided and median time (an undecided deal counts as its time, about the limit), overall and
    per scenario; the method as it was on the rows that ran it (``before``), with the new method's figure
    on those same rows and the ratio."""
    out = []
    for s in [None, *dict.fromkeys(r["scenario"] for r in rows)]:
        sub = [r for r in rows if s is None or r["scenario"] == s]
        both = [r for r in sub if r.get("before", True) and "current_decided" in r]
        what = (f"{s or 'all'}: {len(sub)} deal-readings, {canwin_limit:g}s each; the method before on {len(both)} "
                f"of them, where the new one decided {_share(both, 'canwin_decided')}")
        new, old, new_on = _share(sub, "canwin_decided"), _share(both, "current_decided"), _share(both, "canwin_decided")
        out.append(_row(f"{s or 'all'}: can-win decided within {canwin_limit:g}s (now vs before)", new, "share", old,
                        round(new_on / old, 2) if old and new_on is not None else None, what))
        now, then = medians(_costs(sub, "canwin")), medians(_costs(both, "current"))
        out.append(_row(f"{s or 'all'}: can-win median seconds (now vs before)", _median(sub, "canwin_seconds"), "s",
                        _median(both, "current_seconds"), det_ratio(then, medians(_costs(both, "canwin"))),
                        what + "; ratio: median deterministic time, before / now on the rows of both", **columns(now, then)))
        for key, what_, unit in (("solves", "layout solves", "solves"), ("open", "lines left open", "lines")):
            out.append(_row(f"{s or 'all'}: {what_} per deal, mean (now vs before)", _mean(sub, f"canwin_{key}"), unit,
                            _mean(both, f"current_{key}"), None, what))
    return out


def _mean(sub: list[dict], key: str) -> float | None:
    vals = [r[key] for r in sub if key in r]
    return round(statistics.mean(vals), 1) if vals else None


def run(quick: bool = True) -> list[dict]:
    """``bench/run_all.py``'s entry: the second round's comparison on Gold Rush and Cattle Drive seed 0 (``quick``,
    10 s limits) or seeds 0-4 of every scenario (30 s), the default reading."""
    if quick:
        return run_versus([0], ("gold-rush", "cattle-drive"), 10.0, readings="default")
    return run_versus(parse_seeds("0-4"), SCENARIO_IDS, 30.0, readings="default")


def run_versus(seeds, scenarios, canwin_limit: float, rows_path: str | None = None, log=None, before_every: int = 1,
               readings: str = "all", baseline: str = "second-round", deals: set | None = None) -> list[dict]:
    """Every deal-reading of ``seeds`` x ``scenarios`` (``readings="default"``: the default reading only;
    ``deals``: only these ``(scenario, seed)``), one solve at a time; the method before (:data:`BEFORE`
    ``[baseline]``) on the seeds divisible by ``before_every`` (0: never), run first on every other deal
    unless ``baseline="second-round"``. Rows are appended to ``rows_path`` as they finish; those already there are
    skipped (a killed run resumes, its last line cut short dropped: :func:`bench_wagons_canwin.read_rows`)."""
    rows = read_rows(rows_path, repair=True) if rows_path else []
    seen = {(r["scenario"], r["seed"], r["reading"]) for r in rows}
    items = [it for it in deal_items(seeds, scenarios, readings) if deals is None or it[:2] in deals]
    for n, item in enumerate(items):
        if item[:3] in seen:
            continue
        row = versus_deal(*item, canwin_limit, before=in_baseline_sample(item[1], before_every), baseline=baseline,
                          before_first=baseline != "second-round" and n % 2 == 1)
        rows.append(row)
        if rows_path:
            append_row(rows_path, row)
        if log:
            log(f"{row['scenario']} {row['seed']} {row['reading']}: now {row['canwin_winnable']} "
                f"{row['canwin_seconds']:.1f}s ({row['canwin_solves']} solves, {row['canwin_open']} open)" +
                (f"; before {row['current_winnable']} {row['current_seconds']:.1f}s ({row['current_solves']} solves, "
                 f"{row['current_open']} open)" if "current_decided" in row else ""))
    return versus_rows(rows, canwin_limit)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", default="0-4", help="seeds per scenario as ranges, e.g. 0-99 (default 0-4)")
    ap.add_argument("--canwin-limit", type=float, default=30.0)
    ap.add_argument("--before-every", type=int, default=1, metavar="K",
                    help="the method before on the seeds divisible by K only (0: never; default 1: every deal)")
    ap.add_argument("--readings", choices=("all", "default"), default="all",
                    help="every reading of the low-confidence goal numbers (default) or the default reading only")
    ap.add_argument("--rows", default=None, help="append each deal's row to this JSON-lines file (and resume from it)")
    ap.add_argument("--from-rows", default=None, help="summarise earlier --rows files (comma-separated)")
    ap.add_argument("--scenarios", default=",".join(SCENARIO_IDS), help="comma-separated scenario ids (default all)")
    ap.add_argument("--before", choices=tuple(BEFORE), default="second-round",
                    help="which method before: " + ", ".join(BEFORE) + " (docstring)")
    ap.add_argument("--deals", default=None, help="only these deals, e.g. through-the-desert:0,water-the-herd:21")
    a = ap.parse_args()
    if a.from_rows:
        rows = [r for f in a.from_rows.split(",") for r in read_rows(f)]
        out = versus_rows(rows, a.canwin_limit)
    else:
        scenarios = tuple(x for x in a.scenarios.split(",") if x)
        unknown = set(scenarios) - set(SCENARIO_IDS)
        if unknown:
            ap.error(f"--scenarios: unknown scenario {sorted(unknown)[0]!r} (one of {', '.join(SCENARIO_IDS)})")
        deals = None
        if a.deals:
            deals = {(sc, int(seed)) for sc, seed in (d.rsplit(":", 1) for d in a.deals.split(","))}
            scenarios = tuple(dict.fromkeys(sc for sc, _ in deals))
        out = run_versus(sorted({s for _, s in deals}) if deals else parse_seeds(a.seeds), scenarios, a.canwin_limit,
                         a.rows, lambda m: print(m, file=sys.stderr, flush=True), a.before_every, a.readings, a.before,
                         deals)
    for row in out:
        print(json.dumps(row))


if __name__ == "__main__":
    main()
