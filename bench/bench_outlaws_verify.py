"""Benchmarks for the Outlaws verification (conventions: ``run(quick) -> rows``).

- ``win_possible`` from set-ups: seconds, positions expanded, line lengths, how many answers are proofs;
- search throughput: positions expanded per second (every action and outcome generated);
- the dead-position search (rule:O12) from a set-up: found or not, line length, positions, seconds,
  and the depth bound within which the search is complete near the set-up;
- each Z3 invariant check: seconds (fresh context each) and whether it holds;
- Z3 encoding vs engine agreement: seconds per position.

Run: ``.venv/bin/python bench/bench_outlaws_verify.py [--quick]``.
"""

from __future__ import annotations

import random
import sys
import time

from solver.outlaws.actions import legal_actions
from solver.outlaws.apply import step
from solver.outlaws.position import initial_position
from solver.outlaws.readings import OutlawsReadings
from solver.outlaws.search.searches import best_first, find_dead_positions, win_possible
from solver.outlaws.verify.checks import cross_check, run_checks

GAME = "outlaws"


def _row(name, value, unit, notes="") -> dict:
    return {"game": GAME, "name": name, "value": value, "unit": unit, "baseline": None, "ratio": None, "notes": notes}


def run(quick: bool = False) -> list[dict]:
    readings = OutlawsReadings()
    rows: list[dict] = []
    seeds = range(2 if quick else 10)

    # win_possible from set-ups
    t = time.perf_counter()
    results = [win_possible(initial_position(s), readings, max_depth=12, time_limit=20) for s in seeds]
    dt = time.perf_counter() - t
    n = len(results)
    note = f"set-ups of seeds 0..{n - 1}, depth bound 12, 20 s each"
    rows.append(_row("win_possible from the set-up", dt / n, "s", note))
    rows.append(_row("win_possible: positions expanded", sum(r.nodes for r in results) / n, "positions", note))
    rows.append(_row("win_possible: proven answers", sum(r.proven for r in results) / n, "share", note))
    lengths = [len(line) for r in results for line in (r.line_A, r.line_B) if line is not None]
    if lengths:
        rows.append(_row("win_possible: mean winning line", sum(lengths) / len(lengths), "actions", note))

    # raw expansion throughput (complete search near the set-up)
    t = time.perf_counter()
    res = best_first(initial_position(0), lambda p: False, lambda p: 0, readings, max_depth=2, time_limit=10 if quick else 60,
                     max_nodes=20 if quick else 200)
    dt = time.perf_counter() - t
    rows.append(_row("search expansions", res.nodes / dt, "per s",
                     "every legal action and outcome of a position generated, keyed and memoised"))

    # dead positions (O12)
    found, lengths, nodes = 0, [], []
    t = time.perf_counter()
    for s in seeds:
        dead = find_dead_positions(initial_position(s), readings, max_depth=80, time_limit=300, max_nodes=20_000)
        found += dead["found"]
        nodes.append(dead["nodes"])
        if dead["found"]:
            lengths.append(dead["length"])
    dt = time.perf_counter() - t
    note = (f"from the set-ups of seeds 0..{n - 1}, depth bound 80, greedy best-first toward using up "
            "Votes/Bullets/Handcuffs; each found line ends after sudden death with every Bullet and Handcuffs used")
    rows.append(_row("dead-position search: set-ups with a dead position found", found / n, "share", note))
    rows.append(_row("dead-position search: seconds per set-up", dt / n, "s", note))
    rows.append(_row("dead-position search: positions expanded per set-up", sum(nodes) / n, "positions", note))
    if lengths:
        rows.append(_row("dead-position search: mean line length", sum(lengths) / len(lengths), "actions", note))
    bound = 1 if quick else 2
    near = find_dead_positions(initial_position(0), readings, max_depth=bound, time_limit=600, max_nodes=10_000)
    rows.append(_row("dead-position search: complete bound near the set-up", bound if near["complete"] else 0,
                     "actions", f"set-up 0: all {near['checked']} positions within {bound} action(s) checked, "
                                f"{'a dead one found' if near['found'] else 'none dead'} ({near['elapsed']:.1f} s)"))

    # Z3 invariant checks
    for r in run_checks(readings, time_limit=600):
        rows.append(_row(f"z3 check {r.id}", r.elapsed, "s",
                         f"holds={r.holds}; every action kind for both sides, fresh z3.Context()"))

    # Z3 encoding vs the engine
    rng = random.Random(3)
    positions = []
    for k in range(2 if quick else 6):
        p = initial_position(100 + k)
        for _ in range(rng.randrange(0, 30)):
            q = step(p, rng.choice(legal_actions(p, readings)), readings, rng)
            if q.winner is not None:
                break
            p = q
        positions.append(p)
    t = time.perf_counter()
    agree = [cross_check(p, readings).agree for p in positions]
    dt = time.perf_counter() - t
    rows.append(_row("z3 model vs engine successor sets", dt / len(positions), "s per position",
                     f"{sum(agree)}/{len(agree)} positions agree (every successor of every action)"))
    return rows


if __name__ == "__main__":
    for r in run(quick="--quick" in sys.argv):
        value = r["value"]
        shown = f"{value:,.3f}" if isinstance(value, float) else str(value)
        print(f"{r['name']:<55} {shown:>12} {r['unit']:<15} {r['notes']}")
