"""A verdict: a result the project states, as a function of the readings (a Z3 check, the marshal's odds, the
dead-position search, a win search on an example position, a greedy win rate). Each game's verdicts live in its own
room (``solver/<game>/verify/verdicts.py``), listed by :mod:`solver.registry`; :mod:`solver.readings.impact` reruns
them under each alternative reading."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from solver.errors import BadInput
from solver.io.numbers import seconds

ALL = "*"
"""A verdict that passes the whole rules object to the engine reads every reading (minus its ``skip``)."""


@dataclass(frozen=True)
class Settings:
    """Bounds of the work: seconds per Z3 check or search, Lone Cowboy games per scenario."""

    time_limit: float = 30.0
    games: int = 100
    seed: int = 0

    def __post_init__(self):
        object.__setattr__(self, "time_limit", seconds(self.time_limit, "time limit", cap=3600))
        if isinstance(self.games, bool) or not 1 <= self.games <= 100_000:
            raise BadInput(f"games {self.games}: expected 1..100000")


@dataclass(frozen=True)
class Verdict:
    """A stated result as a function of the rules: ``run(rules, settings)`` -> a JSON value; a
    dict with ``"undecided"`` means a time limit or bound ran out."""

    id: str
    title: str
    run: Callable[[Any, Settings], Any]
    reads: tuple[str, ...] | str  # the readings its code reads, or ALL
    why: str  # the argument: what its code reads, hence why the other readings cannot touch it
    skip: dict = field(default_factory=dict)  # with ALL: readings left out, each with its argument

    def reads_reading(self, name: str) -> bool:
        return name not in self.skip if self.reads == ALL else name in self.reads

    def skip_reason(self, name: str) -> str:
        return self.skip.get(name) or self.why


def z3_value(check: dict) -> dict:
    if check.get("holds") is None:
        return {"holds": None, "undecided": "time limit"}
    out = {"holds": check["holds"]}
    details = check.get("details") or {}
    for key in ("earliest", "latest", "bound"):
        if details.get(key) is not None:
            out[key] = details[key]
    return out
