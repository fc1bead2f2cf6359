"""Benchmarks for Outlaws: Last Man Standing (conventions: ``run(quick) -> rows``).

- legal-action generations per second (``legal_actions`` on positions sampled from random games);
- outcome enumerations per second (``outcomes`` of random legal actions on the same positions);
- full random playouts per second (set-up to victory, capped at ``MAX_ACTIONS`` actions);
- the share of playouts ending in each victory type, unfinished at the cap, and reaching sudden
  death, with the mean length (200 playouts in the full run, 12 in the quick run).

Run: ``.venv/bin/python bench/bench_outlaws.py [--quick]``.
"""

from __future__ import annotations

import random
import sys
import time

from solver.outlaws.actions import legal_actions
from solver.outlaws.apply import outcomes, step
from solver.outlaws.position import initial_position
from solver.outlaws.readings import OutlawsReadings
from solver.outlaws.search.playout import MAX_ACTIONS, playouts, summary

GAME = "outlaws"


def _positions(n: int, seed: int = 7) -> list:
    """``n`` positions met along seeded random games (a fresh game whenever one ends)."""
    rng = random.Random(seed)
    readings = OutlawsReadings()
    out = []
    p = initial_position(seed)
    while len(out) < n:
        acts = legal_actions(p, readings)
        if not acts:
            p = initial_position(rng.randrange(10**6))
            continue
        out.append(p)
        p = step(p, rng.choice(acts), readings, rng)
    return out


def _row(name, value, unit, notes="") -> dict:
    return {"game": GAME, "name": name, "value": value, "unit": unit, "baseline": None, "ratio": None, "notes": notes}


def run(quick: bool = False) -> list[dict]:
    readings = OutlawsReadings()
    positions = _positions(300 if quick else 3000)
    t = time.perf_counter()
    total = 0
    for p in positions:
        total += len(legal_actions(p, readings))
    gen = time.perf_counter() - t
    rows = [_row("legal-action generations", len(positions) / gen, "per s",
                 f"{len(positions)} positions from random games; {total / len(positions):.0f} actions each on average")]
    rng = random.Random(1)
    sample = positions[: (100 if quick else 1000)]
    t = time.perf_counter()
    outs = 0
    for p in sample:
        outs += len(outcomes(p, rng.choice(legal_actions(p, readings)), readings))
    dt = time.perf_counter() - t
    rows.append(_row("outcome enumerations", len(sample) / dt, "per s",
                     f"random legal action per position (legality re-checked); {outs / len(sample):.2f} outcomes each"))
    n = 12 if quick else 200
    t = time.perf_counter()
    df = playouts(n, seed=0, readings=readings)
    dt = time.perf_counter() - t
    s = summary(df)
    cap = f"{n} uniform random playouts from seeds 0..{n - 1}, cap {MAX_ACTIONS} actions"
    rows.append(_row("random playouts", n / dt, "per s", cap))
    for key in ("share_good", "share_bad", "share_ugly", "share_unfinished", "share_sudden_death"):
        rows.append(_row(f"playouts: {key.removeprefix('share_').replace('_', ' ')}", s[key], "share", cap))
    rows.append(_row("playouts: mean length", s["mean_length"], "actions", cap))
    if s["median_length_finished"] is not None:
        rows.append(_row("playouts: median length of finished games", s["median_length_finished"], "actions", cap))
    return rows


if __name__ == "__main__":
    for r in run(quick="--quick" in sys.argv):
        value = r["value"]
        shown = f"{value:,.3f}" if isinstance(value, float) else str(value)
        print(f"{r['name']:<45} {shown:>14} {r['unit']:<8} {r['notes']}")
