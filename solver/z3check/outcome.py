"""What a check's body finds (:class:`Finding`) and what the runner returns for it (:class:`Outcome`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from solver.z3check.status import Status


@dataclass(frozen=True)
class Finding:
    """A check body's answer: whether the claim ``holds`` (None: undecided), the counterexample (or witness) as
    JSON, the check's ``details`` and the open rules question it exposes."""

    holds: bool | None
    counterexample: Any = None
    details: Mapping[str, Any] = field(default_factory=dict)
    open_question: str | None = None


@dataclass(frozen=True)
class Outcome:
    """The runner's result: ``status``, the counterexample (a JSON value read off the Z3 model, or None), the
    seconds the check took (``elapsed``), and the body's details and open question."""

    status: Status
    counterexample: Any
    elapsed: float
    details: Mapping[str, Any] = field(default_factory=dict)
    open_question: str | None = None

    @property
    def holds(self) -> bool | None:
        return self.status.holds

    @classmethod
    def of(cls, finding: Finding, elapsed: float) -> Outcome:
        """``finding`` as an outcome that took ``elapsed`` seconds."""
        return cls(Status.of_holds(finding.holds), finding.counterexample, round(elapsed, 4),
                   dict(finding.details), finding.open_question)
