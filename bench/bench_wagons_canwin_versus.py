"""Can-win now against can-win as it was before issue 20's second round, side by side per deal in one
process: the layout-aware Badlands bound and the CP-SAT territory cap (now) against the counts-only bound
and ``CpSatProof(tightened=False)`` (before, :func:`current_method`). Cold solves, can-win only; where both
decide they must agree. Dated figures: ``docs/history/wagons-canwin.md``.

Run: ``.venv/bin/python bench/bench_wagons_canwin_versus.py [--seeds N] [--first-seed K] [--scenarios A,B]
[--canwin-limit S] [--rows F.jsonl] [--from-rows F.jsonl]``; rows go to standard output as JSON lines.
"""

from __future__ import annotations

import argparse
import functools
import json
import statistics
import sys
from contextlib import contextmanager
from pathlib import Path

from solver.wagons.data import SCENARIO_IDS

GAME = "wagons"


def _row(name, value, unit, baseline=None, ratio=None, notes=""):
    return {"game": GAME, "name": name, "value": value, "unit": unit, "baseline": baseline, "ratio": ratio,
            "notes": notes}


def _share(rows, key) -> float | None:
    return round(sum(1 for r in rows if r[key]) / len(rows), 3) if rows else None


def _items(seeds: range, scenarios) -> list[tuple]:
    from solver.wagons.atlas import scenario_readings

    readings = {s: scenario_readings(s) for s in scenarios}
    return [(s, seed, label, json.dumps(rules, sort_keys=True)) for seed in seeds for s in scenarios
            for label, rules in readings[s]]


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


def run(seeds: range, scenarios, canwin_limit: float, rows_path: str | None = None, log=None) -> list[dict]:
    """Every deal-reading of ``seeds`` x ``scenarios``, one solve at a time; rows appended to ``rows_path``."""
    rows = []
    for item in _items(seeds, scenarios):
        row = versus_deal(*item, canwin_limit)
        rows.append(row)
        if rows_path:
            with open(rows_path, "a") as sink:
                sink.write(json.dumps(row) + "\n")
        if log:
            log(f"{row['scenario']} {row['seed']} {row['reading']}: now {row['canwin_winnable']} "
                f"{row['canwin_seconds']:.1f}s ({row['canwin_solves']} solves); before {row['current_winnable']} "
                f"{row['current_seconds']:.1f}s ({row['current_solves']} solves)")
    return versus_rows(rows, canwin_limit)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=5, help="seeds per scenario (default 5)")
    ap.add_argument("--first-seed", type=int, default=0, help="first seed (default 0)")
    ap.add_argument("--canwin-limit", type=float, default=30.0)
    ap.add_argument("--rows", default=None, help="append each deal's row to this JSON-lines file")
    ap.add_argument("--from-rows", default=None, help="summarise earlier --rows files (comma-separated)")
    ap.add_argument("--scenarios", default=",".join(SCENARIO_IDS), help="comma-separated scenario ids (default all)")
    a = ap.parse_args()
    if a.from_rows:
        rows = [json.loads(line) for f in a.from_rows.split(",") for line in Path(f).read_text().splitlines()
                if line.strip()]
        out = versus_rows(rows, a.canwin_limit)
    else:
        scenarios = tuple(x for x in a.scenarios.split(",") if x)
        unknown = set(scenarios) - set(SCENARIO_IDS)
        if unknown:
            ap.error(f"--scenarios: unknown scenario {sorted(unknown)[0]!r} (one of {', '.join(SCENARIO_IDS)})")
        out = run(range(a.first_seed, a.first_seed + a.seeds), scenarios, a.canwin_limit, a.rows,
                  lambda m: print(m, file=sys.stderr, flush=True))
    for row in out:
        print(json.dumps(row))


if __name__ == "__main__":
    main()
