"""Benchmarks for Cactus Town: The Lone Ranger (conventions: ``run(quick) -> rows``).

- the time of each Z3 check of ``ruleslinger cactus verify`` (fresh context each; quick: 2 players
  and the solo checks; full: every player count and every reading);
- exact marshal distributions: seconds per distribution with cold caches (solo, 2 players,
  3-5 players, 2 players with duel discards);
- the Monte Carlo oracle: games per second, and how many simulated games fit in the time of one
  exact distribution (``ratio``); with the largest deviation of the simulation from the exact
  figures as a sanity note;
- the shipped rules questions (``scenarios/questions/cactus-*.toml``): seconds per answer, with the median and the
  slowest (the issue's targets: median at most 10 s, each within 60 s).

Run: ``.venv/bin/python bench/bench_cactus.py [--quick]``.
"""

from __future__ import annotations

import sys
import time
from fractions import Fraction

from solver.cactus import odds
from solver.cactus.readings import CactusReadings
from solver.cactus.verify import checks as verify

GAME = "cactus"


def _row(name, value, unit, baseline=None, ratio=None, notes=""):
    return {"game": GAME, "name": name, "value": value, "unit": unit, "baseline": baseline,
            "ratio": ratio, "notes": notes}


def z3_rows(quick: bool) -> list[dict]:
    verify.clear_cache()
    result = verify.verify(players=(2,) if quick else (2, 3, 4, 5), quick=quick)
    rows = [_row(f"z3 {c['id']}", c["elapsed"], "s",
                 notes=f"{'holds' if c['holds'] else 'fails' if c['holds'] is False else 'unknown'}"
                       + (f"; open question {c['open_question']}" if c.get("open_question") else ""))
            for c in result["checks"]]
    rows.append(_row("z3 all checks", result["elapsed"], "s", notes=f"{len(result['checks'])} checks"))
    return rows


QUERIES = {"solo": (None, CactusReadings()), "2 players": (2, CactusReadings()), "3-5 players": (3, CactusReadings()),
           "2 players, duel wins 1/2": (2, CactusReadings(duel_win_chance=Fraction(1, 2))),
           "2 players, 3 duels a round at 1/2": (2, CactusReadings(duel_win_chance=Fraction(1, 2), duels_per_round=3))}


def _exact_seconds(players, readings, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        odds._end_from.cache_clear()
        t = time.perf_counter()
        odds.marshal_odds(players, readings)
        best = min(best, time.perf_counter() - t)
    return best


def odds_rows(quick: bool) -> list[dict]:
    rows = []
    games = 2_000 if quick else 20_000
    for label, (players, readings) in QUERIES.items():
        exact_t = _exact_seconds(players, readings, 2 if quick else 3)
        rows.append(_row(f"exact marshal distribution, {label}", round(exact_t, 5), "s", notes="cold cache, best of runs"))
        q = odds.MarshalQuery(players, readings)
        t = time.perf_counter()
        counts = odds.simulate_chunk(games, 1, q)
        mc_t = time.perf_counter() - t
        rate = games / mc_t
        exact = odds.marshal_odds(players, readings)
        table = {k: float(Fraction(v)) for k, v in exact["rounds"].items()}
        table["never"] = float(Fraction(exact["never"]))
        dev = max(abs(counts.get(k, 0) / games - p) for k, p in table.items())
        rows.append(_row(f"Monte Carlo games/s, {label}", round(rate, 1), "games/s", baseline=round(exact_t, 5),
                         ratio=round(rate * exact_t, 1),
                         notes=f"ratio = simulated games in the time of one exact distribution; "
                               f"{games} games, max |freq - exact| = {dev:.4f}"))
    return rows


def ask_rows(quick: bool) -> list[dict]:
    import statistics

    from solver.ask.answer import answer_to_json
    from solver.ask.engine import ask
    from solver.ask.examples import examples, matches

    rows, times = [], []
    for e in examples():
        if e.question.game != GAME:
            continue
        t = time.perf_counter()
        answer = answer_to_json(ask(e.question, 60), e.question.game)
        times.append(time.perf_counter() - t)
        rows.append(_row(f"ask {e.name}", round(times[-1], 3), "s",
                         notes=f"{answer['answer']}; {'as expected' if matches(e.expected, answer) else 'WRONG'}; "
                               f"{answer['method']}"))
    rows.append(_row("ask: median of the shipped questions", round(statistics.median(times), 3), "s",
                     notes=f"{len(times)} questions, slowest {max(times):.2f} s"))
    return rows


def run(quick: bool = False) -> list[dict]:
    return odds_rows(quick) + ask_rows(quick) + z3_rows(quick)


if __name__ == "__main__":
    quick = "--quick" in sys.argv
    for r in run(quick):
        print(f"{r['name']:<62} {r['value']!s:>12} {r['unit']:<8} {r['ratio'] if r['ratio'] is not None else '':>8}  {r['notes']}")
