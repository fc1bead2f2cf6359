"""How closely Lone Cowboy runs keep their time limit, and how soon a stopped run ends (conventions:
``run(quick) -> rows``): the figures the tests no longer assert (they only guard against a hang,
``tests/support/limits.py``).

- overshoot: ``elapsed`` minus the limit of ``can-win`` (Through the Desert seeds 0 and 2, 1 s and 4 s with
  the resumed proof workers) and ``best-layout`` (CP-SAT on 10 cards, 4 s; branch and bound on 13 cards, 1 s);
- stop latency: seconds from the stop signal (:mod:`solver.stopping`) to the end of a ``best-layout`` run given an
  hour, for each method, on the 8 cards no minute proves (``tests/support/builders/wagons.py``, ``HARD_CARDS``).

Run: ``.venv/bin/python bench/wagons/bench_wagons_limits.py [--quick]``.
"""

from __future__ import annotations

import random
import sys
import threading
import time

GAME = "wagons"
HARD_CARDS, HARD_PILE = (6, 9, 11, 3, 4, 2, 15, 5), (8, 16, 14, 17, 1, 7, 12, 13)


def _row(name, value, unit, baseline=None, ratio=None, notes=""):
    return {"game": GAME, "name": name, "value": value, "unit": unit, "baseline": baseline, "ratio": ratio,
            "notes": notes}


def overshoot_rows(quick: bool) -> list[dict]:
    """``elapsed - limit`` of each limited run (what the tests once asserted was small)."""
    from solver.wagons.optimizer.canwin import can_win
    from solver.wagons.optimizer.dealsearch import clear_cache
    from solver.wagons.optimizer.layout import best_layout

    ten = random.Random(3).sample(range(18), 10)
    thirteen = [0, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 14]
    runs = [("can-win through-the-desert seed 0", 1.0, lambda: can_win("through-the-desert", 0, time_limit=1.0)),
            ("best-layout bnb, 13 cards", 1.0,
             lambda: best_layout(thirteen, "water-the-herd", (), time_limit=1.0, method="bnb"))]
    if not quick:
        runs += [("can-win through-the-desert seed 2, resume", 4.0,
                  lambda: can_win("through-the-desert", 2, time_limit=4.0, schedule="resume")),
                 ("best-layout cpsat, 10 cards", 4.0, lambda: best_layout(ten, "water-the-herd", (), time_limit=4.0))]
    rows = []
    for name, limit, call in runs:
        clear_cache()
        result = call()
        rows.append(_row(f"{name}: past its {limit:g} s limit", round(result.elapsed - limit, 3), "s",
                         notes=f"elapsed {result.elapsed:.3f} s"))
    return rows


def _after_stop(method: str, wait: float) -> float:
    """Seconds from the stop signal, set ``wait`` seconds into the run, to the end of the run."""
    from solver.stopping import StopSignal, stopping
    from solver.wagons.optimizer.layout import best_layout

    signal, ended = StopSignal(), {}

    def work() -> None:
        with stopping(signal):
            best_layout(HARD_CARDS, "through-the-desert", HARD_PILE, time_limit=3600.0, method=method)
        ended["at"] = time.monotonic()

    worker = threading.Thread(target=work, daemon=True)
    worker.start()
    worker.join(wait)
    signal.set()
    asked = time.monotonic()
    worker.join()
    return ended["at"] - asked


def stop_rows(quick: bool) -> list[dict]:
    methods = ("bnb",) if quick else ("cpsat-bound", "cpsat", "bnb")
    return [_row(f"best-layout {m}, stopped after 4 s: seconds to its end", round(_after_stop(m, 4.0), 3), "s",
                 notes="given 3600 s; the page's Stop and a new run use this signal") for m in methods]


def run(quick: bool = False) -> list[dict]:
    return overshoot_rows(quick) + stop_rows(quick)


if __name__ == "__main__":
    for r in run("--quick" in sys.argv):
        print(f"{r['name']:<66} {r['value']!s:>9} {r['unit']:<3} {r['notes']}")
