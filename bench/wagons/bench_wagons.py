"""Benchmarks for Circle the Wagons: Lone Cowboy (conventions: ``run(quick) -> rows``).

- scoring throughput: 10-card towns scored per second by ``solver.wagons.scoring.score_player``
  (bitboards, cold per-town caches; a second row also rebuilds the per-card tables every pass)
  against the plain dict-and-flood-fill scorer ``solver.wagons.scoring.reference.reference_score_player``
  on the same towns in the same process;
- simulated games per second for the random and greedy policies;
- the greedy (and random) policy's win rate and mean margin per scenario over seeded games
  (2,000 per scenario in the full run, 40 in the quick run).

Run: ``.venv/bin/python bench/wagons/bench_wagons.py [--quick]``.
"""

from __future__ import annotations

import gc
import random
import sys
import time

from solver.wagons import scoring
from solver.wagons.data import SCENARIO_IDS
from solver.wagons.scoring.reference import reference_score_player
from solver.wagons.simulate import simulate_rows
from solver.wagons.town import Town, legal_placements, place

GAME = "wagons"


def _towns(n: int, cards: int = 10, seed: int = 1) -> list[tuple[Town, tuple[int, ...], str]]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        ids = list(range(18))
        rng.shuffle(ids)
        town = Town()
        for c in ids[:cards]:
            town = place(town, rng.choice(legal_placements(town, c)))
        out.append((town, tuple(ids[cards:]), SCENARIO_IDS[i % 6]))
    return out


def _clear_caches(tables: bool = False) -> None:
    """Forget every per-town and per-pile result; with ``tables`` also the per-card, per-frame-shape
    and per-scenario tables (built once per process in normal use)."""
    scoring.clear_caches(tables)


def _pass(fn, items, tables: bool = False) -> float:
    """One timed pass over ``items`` with cold caches and the garbage collector paused (as timeit does)."""
    _clear_caches(tables)
    gc.collect()
    gc.disable()
    try:
        t = time.perf_counter()
        for town, pile, sc in items:
            fn(town, sc, pile)
        return time.perf_counter() - t
    finally:
        gc.enable()


def scoring_rows(quick: bool) -> list[dict]:
    items = _towns(200 if quick else 1000)
    fast_t, cold_t, base_t = [], [], []
    for _ in range(5 if quick else 9):  # interleaved, best pass of each: the machine is shared
        fast_t.append(_pass(scoring.score_player, items))
        cold_t.append(_pass(scoring.score_player, items, tables=True))
        base_t.append(_pass(reference_score_player, items))
    fast, cold, base = len(items) / min(fast_t), len(items) / min(cold_t), len(items) / min(base_t)
    common = (f"{len(items)} random legal 10-card towns, all 6 scenarios, full breakdown, best interleaved pass, "
              "gc paused; baseline = dict-and-flood-fill reference scorer (solver/wagons/scoring/reference.py), same process")
    return [{"game": GAME, "name": "score 10-card towns", "value": round(fast), "unit": "towns/s",
             "baseline": round(base), "ratio": round(fast / base, 2),
             "notes": "cold per-town and per-pile caches (per-card tables built); " + common},
            {"game": GAME, "name": "score 10-card towns, cold tables", "value": round(cold), "unit": "towns/s",
             "baseline": round(base), "ratio": round(cold / base, 2),
             "notes": "also the per-card, per-frame-shape and per-scenario tables rebuilt every pass; " + common}]


def game_rows(quick: bool) -> list[dict]:
    rows = []
    n_rate = {"random": 60 if quick else 600, "greedy": 6 if quick else 60}
    for policy, n in n_rate.items():
        t = time.perf_counter()
        for i, sc in enumerate(SCENARIO_IDS):
            for _ in simulate_rows(n // 6, sc, policy, seed=10_000 + i * 1000):
                pass
        dt = time.perf_counter() - t
        rows.append({"game": GAME, "name": f"games/s {policy}", "value": round((n // 6) * 6 / dt, 1),
                     "unit": "games/s", "baseline": None, "ratio": None,
                     "notes": f"{(n // 6) * 6} whole solo games, one process"})
    return rows


def outcome_rows(quick: bool, policies=("greedy", "random")) -> list[dict]:
    n = 40 if quick else 2000
    rows = []
    for policy in policies:
        for sc in SCENARIO_IDS:
            res = list(simulate_rows(n, sc, policy, seed=0))
            wins = sum(r["winner"] == "player" for r in res)
            ties = sum(r["winner"] == "tie" for r in res)
            margin = sum(r["margin"] for r in res) / n
            rows.append({"game": GAME, "name": f"{policy} win rate {sc}", "value": round(wins / n, 4),
                         "unit": "fraction", "baseline": None, "ratio": None,
                         "notes": f"{n} seeded games (seeds 0..{n - 1}), default readings; ties {ties}"})
            rows.append({"game": GAME, "name": f"{policy} mean margin {sc}", "value": round(margin, 2),
                         "unit": "points", "baseline": None, "ratio": None,
                         "notes": f"player total - opponent total over {n} games"})
    return rows


def run(quick: bool = True) -> list[dict]:
    return scoring_rows(quick) + game_rows(quick) + outcome_rows(quick)


if __name__ == "__main__":
    q = "--quick" in sys.argv
    only = [a for a in sys.argv[1:] if not a.startswith("--")]
    parts = {"scoring": scoring_rows, "games": game_rows, "outcomes": outcome_rows}
    for name in only or parts:
        for row in parts[name](q):
            print(f"{row['name']:<44} {row['value']:>10} {row['unit']:<9} "
                  f"{'' if row['ratio'] is None else 'x' + str(row['ratio']) + ' vs ' + str(row['baseline'])}  {row['notes']}",
                  flush=True)
