"""Which readings change an answer: the question asked again under each listed alternative of every reading of its
game (:mod:`solver.readings.options`), naming those that give a different answer (``--readings-impact``, the page's
button)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from solver.ask.answer import Answer, answer_to_json
from solver.ask.engine import ask
from solver.ask.question import Question
from solver.execution.progress import OnProgress, Progress
from solver.readings.base import canon
from solver.readings.options import game_readings


def alternatives(q: Question) -> list[tuple[str, object]]:
    """(reading, value) for every listed alternative of the question's readings (its own values left out)."""
    current = q.chosen_readings().to_json()
    out = []
    for r in game_readings(q.game):
        for value in r.probes:
            if canon(value) != current.get(r.name):
                out.append((r.name, value))
    return out


def _key(a: Answer) -> tuple[Any, Any]:
    doc = answer_to_json(a, "")
    return doc["verdict"], doc["value"]


def impact(q: Question, base: Answer, time_limit: float,
           progress: OnProgress | None = None) -> Answer:
    """``base`` with ``changed_by``: each alternative reading under which the answer differs, with that answer."""
    alts = alternatives(q)
    changed = []
    for i, (name, value) in enumerate(alts):
        if progress is not None:
            progress(Progress(i, len(alts), "alternative readings asked", f"{name}={canon(value)}"))
        readings = dict(q.readings) | {name: canon(value)}
        other = ask(q.with_readings(readings), time_limit)
        if other.verdict == "unknown" or _key(other) != _key(base):  # undecided under it: said, not hidden
            changed.append({"reading": name, "value": canon(value), "answer": other.short(),
                            "verdict": other.verdict})
    return replace(base, changed_by=tuple(changed))
