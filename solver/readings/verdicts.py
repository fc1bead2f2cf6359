"""A verdict: a result the project states, as a function of the readings (a Z3 check, the marshal's odds, the
dead-position search, a win search on an example position, a greedy win rate). Each game's verdicts live in its own
room (``solver/<game>/verify/verdicts.py``), listed by :mod:`solver.registry`; :mod:`solver.readings.impact` reruns
them under each alternative reading."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from solver.errors import BadInput
from solver.io.numbers import seconds
from solver.z3check import CheckResult

ALL = "*"
"""A verdict that passes the whole rules object to the engine reads every reading (minus its ``skip``)."""


@dataclass(frozen=True)
class Settings:
    """Bounds of a run: seconds per Z3 check or search, Lone Cowboy games per scenario; ``cards``: the numbers
    the player read off their Lone Cowboy goal cards (canonical JSON ``{card: {number: value}}``, as the sheet
    passes them; "{}": the shipped numbers), which the verdicts that score towns read and the other games ignore."""

    time_limit: float = 30.0
    games: int = 100
    seed: int = 0
    cards: str = "{}"

    def __post_init__(self):
        object.__setattr__(self, "time_limit", seconds(self.time_limit, "time limit", cap=3600))
        if isinstance(self.games, bool) or not 1 <= self.games <= 100_000:
            raise BadInput(f"games {self.games}: expected 1..100000")
        try:
            answers = json.loads(self.cards)
        except (TypeError, ValueError):
            answers = None
        if not isinstance(answers, dict):
            raise BadInput(f"cards: expected a JSON object of goal cards' numbers, got {str(self.cards)[:40]!r}")


def json_words(value: Any) -> str:
    """A verdict's value as its JSON, cut to a line (for a verdict without words of its own)."""
    text = json.dumps(value, separators=(", ", ": "))
    return text if len(text) <= 120 else text[:117] + "..."


def counted(n: int, word: str) -> str:
    """``n`` and ``word`` in the right number ("1 game", "3 games")."""
    return f"{n} {word if n == 1 else word + 's'}"


HOLDS_WORDS = {True: "holds", False: "fails", None: "undecided (a time limit ran out)"}
"""A check's ``holds`` in words."""


def check_words(value: Any) -> str:
    """A Z3 check's verdict (:func:`z3_value`) in words: "holds (rounds 6 to 11)"."""
    if not isinstance(value, dict):
        return json_words(value)
    lo, hi = value.get("earliest"), value.get("latest")
    if lo is None and hi is None and isinstance(value.get("bound"), list) and len(value["bound"]) == 2:
        lo, hi = value["bound"]
    rounds = "" if lo is None and hi is None else \
        f" (rounds {lo} to {hi})" if lo is not None and hi is not None else f" (from round {lo or '?'})"
    return HOLDS_WORDS[value.get("holds")] + rounds


@dataclass(frozen=True)
class Verdict:
    """A stated result as a function of the rules: ``run(readings, settings)`` -> a JSON value; a
    dict with ``"undecided"`` means a time limit or bound ran out. ``words(value)`` says a value as a sentence
    for people (the Verification page's table, the text of ``readings impact``)."""

    id: str
    title: str
    run: Callable[[Any, Settings], Any]
    reads: tuple[str, ...] | str  # the readings its code reads, or ALL
    why: str  # the argument: what its code reads, hence why the other readings cannot touch it
    skip: dict = field(default_factory=dict)  # with ALL: readings left out, each with its argument
    words: Callable[[Any], str] = json_words
    parts: tuple[str, ...] = ()  # independent pieces (e.g. scenarios), each run on its own: ``run_part``
    part_skip: dict = field(default_factory=dict)  # {part: {reading: argument}}: readings a part cannot read
    run_part: Callable[[str, Any, Settings], dict] | None = None  # one part's value (a dict, merged by ``parts``)
    share: Callable[[str, Any], str] | None = None  # (part, rules) -> a key; see :meth:`share_key`
    cost: float = 1.0  # a run's relative seconds: the impact run starts its biggest tasks first

    def share_key(self, part: str, readings: Any) -> str:
        """The key of the work this run shares with others (empty: none). The impact run gives the runs of one game
        with equal keys and settings to one worker as one task, one after the other, so a result they compute alike
        (one Z3 game, the same engine games) and keep in the process is computed once; the key only groups runs, it
        never picks a result (each memo is keyed by everything its result depends on)."""
        return self.share(part, readings) if self.share is not None else ""

    def reads_reading(self, name: str) -> bool:
        return name not in self.skip if self.reads == ALL else name in self.reads

    def part_reads(self, part: str, name: str) -> bool:
        """Whether ``part`` can read ``name`` (a part's run under a reading it cannot read is its default run)."""
        return self.reads_reading(name) and name not in self.part_skip.get(part, {})

    def skip_reason(self, name: str) -> str:
        return self.skip.get(name) or self.why


def merge_parts(values: list[dict]) -> dict:
    """A parted verdict's value: its parts' values merged; undecided when a part is."""
    out: dict = {}
    for v in values:
        out.update({k: x for k, x in v.items() if k != "undecided"})
    return {"undecided": "time limit", **out} if any("undecided" in v for v in values) else out


def z3_value(check: CheckResult) -> dict:
    """A Z3 check's verdict value (JSON): ``holds``, and the rounds its details bound; undecided on a time-out."""
    if check.holds is None:
        return {"holds": None, "undecided": "time limit"}
    out: dict[str, Any] = {"holds": check.holds}
    details = check.details or {}
    for key in ("earliest", "latest", "bound"):
        if details.get(key) is not None:
            out[key] = details[key]
    return out
