"""Benchmark of the exhaustive Lone Cowboy oracle (conventions: ``run(quick) -> rows``).

Old path (``exhaustive_best(..., fast=False)``: the engine's ``legal_placements`` + ``score_player``,
breadth first) against the compiled walk (``fast=True``, numba) on one 4-card and one 5-card
instance, in the same process, answers checked equal. The old 5-card run takes ~8 minutes: it runs
only with ``--old-five`` (never in ``run()``); without it the row quotes the 495 s measured for
issue 4 as its baseline and says so. The cold JIT compile time (empty numba cache, in a fresh
process) is measured on its own.

Run: ``.venv/bin/python bench/wagons/bench_wagons_oracle.py [--quick] [--old-five]``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time

from solver.wagons.data import SCENARIO_IDS
from solver.wagons.optimizer.oracle import exhaustive_best

GAME = "wagons"
OLD_FIVE_QUOTED_S = 495.0  # issue 4: 28.8 M towns at ~58k towns/s, on this machine


def _instance(seed: int, n: int, max_pile: int = 6):
    """The same seeded instances as tests/wagons/optimizer/test_optimize.py."""
    rng = random.Random(seed)
    deck = rng.sample(range(18), 18)
    return deck[:n], deck[n:n + rng.randint(0, max_pile)], SCENARIO_IDS[seed % 6]


def _row(name, value, unit, baseline=None, ratio=None, notes=""):
    return {"game": GAME, "name": name, "value": value, "unit": unit, "baseline": baseline, "ratio": ratio,
            "notes": notes}


def _timed(**kw):
    t = time.perf_counter()
    r = exhaustive_best(**kw)
    return r, time.perf_counter() - t


def cold_compile_s() -> float:
    """Seconds for a 1-card call in a fresh process with an empty numba cache (JIT compile included)."""
    code = ("import time; t = time.perf_counter(); "
            "from solver.wagons.optimizer.oracle import exhaustive_best; "
            "exhaustive_best([0, 1], 'boomtown'); print(time.perf_counter() - t)")
    with tempfile.TemporaryDirectory() as cache:
        out = subprocess.run([sys.executable, "-c", code], env=dict(os.environ, NUMBA_CACHE_DIR=cache),
                             capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def oracle_rows(old_five: bool = False, log=print) -> list[dict]:
    exhaustive_best(cards=[0, 1], scenario_id="boomtown")  # load (or compile) the compiled walk first
    rows = []
    for n in (4, 5):
        cards, pile, sc = _instance(0, n)
        kw = dict(cards=cards, scenario_id=sc, opponent_pile=pile)
        new, t_new = _timed(**kw)
        if n == 4 or old_five:
            old, t_old = _timed(**kw, fast=False)
            if old.value != new.value:
                raise AssertionError(f"old oracle {old.value} != fast oracle {new.value} on {cards} {sc} {pile}")
            base, note = t_old, f"old path measured in this run ({old.towns} towns)"
        else:
            base, note = OLD_FIVE_QUOTED_S, "old path NOT run (takes ~8 min; --old-five runs it): baseline quoted from issue 4"
        log(f"  {n} cards {cards} {sc} pile {pile}: optimum {new.value}; fast {t_new:.2f}s ({new.towns} towns), "
            f"old {base:.1f}s")
        rows.append(_row(f"oracle_fast_{n}_cards_s", round(t_new, 3), "s", round(base, 2), round(base / t_new, 1),
                         f"{cards} {sc} pile {pile}; fast path {new.towns} towns; ratio = old / fast; {note}"))
        rows.append(_row(f"oracle_fast_{n}_cards_towns_per_s", round(new.towns / t_new), "towns/s",
                         notes="final towns scored per second by the compiled walk"))
    return rows


def run(quick: bool = False, old_five: bool = False, log=print) -> list[dict]:
    rows = oracle_rows(old_five, log)
    t = cold_compile_s()
    rows.append(_row("oracle_cold_jit_compile_s", round(t, 2), "s",
                     notes="fresh process, empty numba cache: import + compile + a 2-card call"))
    return rows


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--old-five", action="store_true", help="also time the old path on the 5-card instance (~8 min)")
    a = ap.parse_args()
    for row in run(a.quick, a.old_five, log=lambda m: print(m, file=sys.stderr, flush=True)):
        print(json.dumps(row))
