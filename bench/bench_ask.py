"""Benchmarks for questions of one's own (``ruleslinger ask``; conventions: ``run(quick) -> rows``).

Every shipped example (``scenarios/questions/*.toml``) answered by :func:`solver.ask.ask` as the command line and
the page answer it: per example the median and the largest wall time over the runs (quick: one run, full: three),
CP-SAT's deterministic time where the answer reports it, and whether the answer is the recorded one. The baseline is
run in the same process: the same question answered by the question engine's own enumeration of the domain, without
the game's ``search`` (what the game's engine saves), where the domain has a search, the domain is small enough to
enumerate and the quantifier is not a chance; ``ratio`` = baseline / value (above 1: the game's search is faster).
The summary rows give the median and the largest wall time over every example against the targets (median at most
10 s, every example within 60 s on the 2-core machine), ``ratio`` = value / target.

Run: ``.venv/bin/python bench/bench_ask.py [--quick] [NAME ...]``.
"""

from __future__ import annotations

import statistics
import sys
import time

from solver.ask import engine
from solver.ask.answer import answer_to_json
from solver.ask.examples import Example, examples, matches
from solver.errors import BadInput

GAME = "ask"
TIME_LIMIT = 60.0
"""Each answer's time limit (as ``ruleslinger ask``'s default)."""
BASELINE_LIMIT = {True: 10.0, False: 60.0}
"""The baseline enumeration's time limit (quick, full): an enumeration stopped by it is said so in the notes."""
TARGET_MEDIAN, TARGET_MAX = 10.0, 60.0


def _row(name, value, unit, baseline=None, ratio=None, notes="", **extra):
    return {"game": GAME, "name": name, "value": value, "unit": unit, "baseline": baseline, "ratio": ratio,
            "notes": notes, **extra}


def enumerated(ex: Example, limit: float) -> tuple[float, str] | None:
    """The example answered by enumerating its domain (no game search): (seconds, verdict), or None where that is not
    the baseline (no search, a chance, a domain too large to enumerate)."""
    q = ex.question
    if q.quantifier == "chance":
        return None
    start = time.perf_counter()
    try:
        run = engine.prepare(q, limit)
        if getattr(run.domain, "search", None) is None:
            return None
        size = run.domain.size()
        if size is None or size > q.kind().most:
            return None
        answer = {"exists": engine._exists, "forall": engine._forall, "most": engine._best,
                  "least": engine._best}[q.quantifier](run, size)
    except BadInput:
        return None
    return time.perf_counter() - start, answer.verdict


def timed(ex: Example, repeat: int) -> tuple[list[float], dict]:
    """Wall seconds of each answer and the last answer's JSON."""
    walls, doc = [], {}
    for _ in range(repeat):
        start = time.perf_counter()
        answer = engine.ask(ex.question, TIME_LIMIT)
        walls.append(time.perf_counter() - start)
        doc = answer_to_json(answer, ex.question.game)
    return walls, doc


def example_row(ex: Example, quick: bool) -> tuple[dict, float]:
    walls, doc = timed(ex, 1 if quick else 3)
    median = statistics.median(walls)
    base = enumerated(ex, BASELINE_LIMIT[quick])
    notes = [f"{ex.question.game}: {doc.get('answer')}", "as recorded" if matches(ex.expected, doc) else
             f"NOT AS RECORDED (expected {ex.expected})", f"max {max(walls):.3f} s over {len(walls)}"]
    det = doc.get("deterministic_time")
    if det is not None:
        notes.append(f"CP-SAT deterministic time {det}")
    if base is not None:
        notes.append(f"baseline: enumeration, {base[1]}" + (" (its time limit)" if base[1] == "unknown" else ""))
    row = _row(f"ask {ex.name}", round(median, 4), "s", baseline=round(base[0], 4) if base else None,
               ratio=round(base[0] / median, 2) if base and median else None, notes="; ".join(notes),
               wall=[round(median, 4), round(max(walls), 4)], det=det)
    return row, max(walls)


def run(quick: bool = False, names: tuple[str, ...] = ()) -> list[dict]:
    rows, medians, maxima = [], [], []
    for ex in examples():
        if names and ex.name not in names:
            continue
        row, most = example_row(ex, quick)
        rows.append(row)
        medians.append(row["value"])
        maxima.append(most)
    if not rows:
        return [_row("ask examples", None, "s", notes="no shipped example question")]
    wrong = sum("NOT AS RECORDED" in r["notes"] for r in rows)
    median, most = statistics.median(medians), max(maxima)
    rows.append(_row("ask median over the examples", round(median, 4), "s", baseline=TARGET_MEDIAN,
                     ratio=round(median / TARGET_MEDIAN, 3),
                     notes=f"{len(medians)} examples; target at most {TARGET_MEDIAN:.0f} s; {wrong} not as recorded"))
    rows.append(_row("ask slowest example", round(most, 4), "s", baseline=TARGET_MAX, ratio=round(most / TARGET_MAX, 3),
                     notes=f"target every example within {TARGET_MAX:.0f} s"))
    return rows


if __name__ == "__main__":
    quick = "--quick" in sys.argv
    chosen = tuple(a for a in sys.argv[1:] if not a.startswith("--"))
    for r in run(quick, chosen):
        ratio = r["ratio"] if r["ratio"] is not None else ""
        print(f"{r['name']:<46} {r['value']!s:>9} {r['unit']:<3} {r['baseline']!s:>9} {ratio!s:>7}  {r['notes']}")
