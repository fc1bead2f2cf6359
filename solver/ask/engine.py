"""Answering a question: the game's own engine where it can decide it, else every element of the domain checked.

- *Is there* stops at the first element where the condition holds (the witness); *no* is proved by checking every
  element. *For every* stops at the first element where it fails (the counterexample).
- *Most / least* keeps the best value among the elements that meet the condition; it is proved when every element
  was checked (or the engine proved its bound).
- *Chance* adds up the exact weights of the elements where the condition holds (in a domain without chance, each
  element counts the same). Where the domain is too large to enumerate and can draw elements, it is a seeded
  estimate with its 95% Wilson interval, labelled as such. Stopped early in a chance tree, the interval between the
  weight seen to hold and one less the weight seen to fail is still proved.

Every answer honours the time limit and the dashboard's Stop (:mod:`solver.stopping`) and returns what it has.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from solver.ask import condition as cond_mod
from solver.ask.answer import Answer
from solver.ask.model import Domain, Found, Goal, Measure, Value
from solver.ask.question import Question, sentence
from solver.errors import BadInput
from solver.execution.progress import OnProgress, Progress
from solver.stopping import capped, stopped

DEFAULT_SECONDS = 60.0
ESTIMATE_SAMPLES = 20_000
"""The most draws of a seeded estimate (fewer when the time limit comes first)."""
Z95 = 1.959963984540054


@dataclass(frozen=True)
class _Run:
    """One answer in progress: the question, its domain and measures, the names it reads, its clock."""

    q: Question
    domain: Domain
    measures: Mapping[str, Measure]
    names: frozenset[str]
    start: float
    deadline: float
    progress: OnProgress | None

    def report(self, done: int, total: int | None, unit: str) -> None:
        """``done`` of ``total`` (None: not known) ``unit`` to the progress callback, if any."""
        if self.progress is not None:
            self.progress(Progress(done, total, unit, elapsed=time.monotonic() - self.start))

    def out_of_time(self) -> str | None:
        if stopped():
            return "stop"
        return "time limit" if time.monotonic() >= capped(self.deadline) else None

    def answer(self, verdict: str, proven: bool, method: str, **kw: Any) -> Answer:
        readings = self.q.chosen_readings().to_json()
        return Answer(sentence(self.q, self.domain.description, self.measures), self.q.quantifier, verdict, proven,
                      method,
                      time.monotonic() - self.start, readings, **kw)

    def values(self, element: Any) -> Mapping[str, Value]:
        return self.domain.values(element, self.names)

    def shown(self, element: Any) -> tuple[dict[str, Any], dict[str, Value]]:
        """The witness document and every named measure's value on it."""
        return self.domain.witness(element), dict(self.values(element))


def prepare(q: Question, time_limit: float, progress: OnProgress | None = None) -> _Run:
    """The question's domain built and its condition checked against the domain's measures (BadInput otherwise)."""
    start = time.monotonic()
    domain = q.kind().build(q.param_map, q.chosen_readings())
    measures = domain.measures()
    cond_mod.check(q.condition, measures)
    names = cond_mod.measures_named(q.condition)
    if q.measure is not None:
        cond_mod.check(cond_mod.Compare(q.measure, ">=", 0), measures)
        if measures[q.measure].kind != "number":
            raise BadInput(f"measure: {q.measure} is not a number, so it has no most or least")
        names |= {q.measure}
    focus = getattr(domain, "focus", None)
    if focus is not None:  # a domain that tells apart only what the question reads
        domain = focus(names)
    return _Run(q, domain, measures, names, start, start + time_limit, progress)


def ask(q: Question, time_limit: float = DEFAULT_SECONDS, progress: OnProgress | None = None, seed: int = 0) -> Answer:
    """The answer to ``q`` within ``time_limit`` seconds (or until Stop): proved, or the best so far, said as such."""
    run = prepare(q, time_limit, progress)
    search = getattr(run.domain, "search", None)
    if q.quantifier != "chance" and search is not None:
        found = search(Goal(q.quantifier, q.condition, q.measure, capped(run.deadline)))
        if found is not None:
            return _from_found(run, found)
    size = run.domain.size()
    most = q.kind().most
    if size is not None and size > most:
        if q.quantifier == "chance" and hasattr(run.domain, "sample"):
            return _estimate(run, random.Random(seed), size)
        raise BadInput(f"domain: {size:,} {run.domain.noun}s are too many to decide here (at most {most:,}); "
                       "narrow the domain" + (", or ask for a chance (estimated)" if hasattr(run.domain, "sample")
                                               else ""))
    return {"exists": _exists, "forall": _forall, "max": _best, "min": _best, "chance": _chance}[q.quantifier](
        run, size)


def _walk(run: _Run, size: int | None) -> Iterator[tuple[int, Fraction, Any]]:
    """The domain's elements with their index, reporting progress about twice a second; ends early when out of time
    (the caller then reads :meth:`_Run.out_of_time`)."""
    last = time.monotonic()
    for i, (weight, element) in enumerate(run.domain.elements()):
        if i % 64 == 0 and run.out_of_time():
            return
        if run.progress is not None and time.monotonic() - last > 0.5:
            run.report(i, size, f"{run.domain.noun}s checked")
            last = time.monotonic()
        yield i, weight, element


def _checked(count: int, size: int | None, noun: str) -> str:
    return f"every one of the {count:,} {noun}s checked" if size is None or count >= size else \
        f"{count:,} of {size:,} {noun}s checked"


def _exists(run: _Run, size: int | None, want: bool = True) -> Answer:
    count = 0
    for i, _w, element in _walk(run, size):
        count = i + 1
        if cond_mod.holds(run.q.condition, run.values(element)) == want:
            witness, values = run.shown(element)
            verdict = "yes" if want else "no"
            kind = "an example" if want else "a counterexample"
            return run.answer(verdict, True, f"{kind} found after {count:,} {run.domain.noun}s", witness=witness,
                              witness_values=values, checked=count, size=size)
    why = run.out_of_time()
    if why:
        return run.answer("unknown", False, _checked(count, size, run.domain.noun) + f" before the {why}",
                          checked=count, size=size, stopped_by=why)
    verdict = "no" if want else "yes"
    return run.answer(verdict, True, _checked(count, size, run.domain.noun), checked=count, size=size)


def _forall(run: _Run, size: int | None) -> Answer:
    return _exists(run, size, want=False)


def _best(run: _Run, size: int | None) -> Answer:
    sign = 1 if run.q.quantifier == "max" else -1
    name = run.q.measure or ""
    best: tuple[Fraction, Any] | None = None
    count = 0
    for i, _w, element in _walk(run, size):
        count = i + 1
        values = run.values(element)
        if not cond_mod.holds(run.q.condition, values):
            continue
        v = Fraction(values[name])  # a number measure (prepare checks it)
        if best is None or sign * v > sign * best[0]:
            best = (v, element)
    why = run.out_of_time()
    proven = why is None
    method = _checked(count, size, run.domain.noun) + (f" before the {why}" if why else "")
    if best is None:
        return run.answer("no" if proven else "unknown", proven, method + f"; no {run.domain.noun} meets the condition",
                          checked=count, size=size, stopped_by=why)
    witness, values = run.shown(best[1])
    m = run.measures[name]
    bound = _plain(best[0]) if proven else (m.high if sign > 0 else m.low)
    return run.answer("value", proven, method, value=_plain(best[0]), bound=bound, witness=witness, witness_values=values,
                      checked=count, size=size, stopped_by=why)


def _plain(v: Fraction) -> Value:
    """A whole number as an int, else the exact fraction."""
    return int(v) if v.denominator == 1 else v


def _chance(run: _Run, size: int | None) -> Answer:
    total = yes = no = Fraction(0)
    count = 0
    example = None
    for i, weight, element in _walk(run, size):
        count = i + 1
        total += weight
        if cond_mod.holds(run.q.condition, run.values(element)):
            yes += weight
            example = example if example is not None else element
        else:
            no += weight
    why = run.out_of_time()
    shown = run.shown(example) if example is not None else (None, {})
    if why is None:
        value = yes / total if total else Fraction(0)
        return run.answer("chance", True, _checked(count, size, run.domain.noun), value=value, exact=True,
                          witness=shown[0], witness_values=shown[1], checked=count, size=size)
    if run.domain.chance:  # the weights are the tree's own: what is seen bounds the chance exactly
        lo, hi = yes, 1 - no
        return run.answer("chance", False, _checked(count, size, run.domain.noun) + f" before the {why}; the chance "
                          f"lies between {lo} and {hi}", value=lo, bound=hi, exact=False,
                          interval=(float(lo), float(hi)), witness=shown[0], witness_values=shown[1], checked=count,
                          size=size, stopped_by=why)
    return run.answer("unknown", False, _checked(count, size, run.domain.noun) + f" before the {why}", checked=count,
                      size=size, stopped_by=why)


def wilson(hits: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of ``hits`` in ``n`` draws (95% by default)."""
    if n == 0:
        return 0.0, 1.0
    p = hits / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def _estimate(run: _Run, rng: random.Random, size: int) -> Answer:
    hits = n = 0
    example = None
    last = time.monotonic()
    most = getattr(run.domain, "samples", ESTIMATE_SAMPLES)  # a domain whose draws are costly may ask for fewer
    while n < most and not run.out_of_time():
        _w, element = run.domain.sample(rng)  # type: ignore[attr-defined]
        n += 1
        if cond_mod.holds(run.q.condition, run.values(element)):
            hits += 1
            example = example if example is not None else element
        if run.progress is not None and time.monotonic() - last > 0.5:
            run.report(n, most, "seeded draws")
            last = time.monotonic()
    lo, hi = wilson(hits, n)
    shown = run.shown(example) if example is not None else (None, {})
    return run.answer("chance", False, f"estimated from {n:,} seeded draws of {size:,} {run.domain.noun}s (an "
                      "estimate, not a proof)", value=Fraction(hits, n) if n else Fraction(0), exact=False,
                      interval=(lo, hi), samples=n, witness=shown[0], witness_values=shown[1], checked=n, size=size,
                      stopped_by=run.out_of_time())


def _from_found(run: _Run, f: Found) -> Answer:
    why = None if f.proven else (run.out_of_time() or "time limit")
    shown = run.shown(f.element) if f.element is not None else (None, {})
    q = run.q.quantifier
    if q in ("exists", "forall"):
        verdict = "unknown" if f.holds is None else ("yes" if f.holds else "no")
        return run.answer(verdict, f.proven and f.holds is not None, f.method, witness=shown[0],
                          witness_values=shown[1], checked=f.checked or 0, stopped_by=why,
                          deterministic=f.deterministic)
    if f.value is None:
        return run.answer("no" if f.proven else "unknown", f.proven, f.method, stopped_by=why,
                          deterministic=f.deterministic)
    return run.answer("value", f.proven, f.method, value=f.value, bound=f.bound, witness=shown[0],
                      witness_values=shown[1], checked=f.checked or 0, stopped_by=why, deterministic=f.deterministic)
