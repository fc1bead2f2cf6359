"""A named check around the runner's :class:`~solver.z3check.outcome.Outcome`: what the verifiers return and what
crosses module boundaries; :meth:`CheckResult.to_json` makes it the contracts.md ``verify`` shape at the edges (a
command's ``--json``, the dashboard, a store), :meth:`CheckResult.from_json` reads one back."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from solver.z3check.outcome import Outcome
from solver.z3check.status import Status

_OWN_KEYS = ("id", "title", "holds", "status", "proven", "counterexample", "rule", "open_question", "details",
             "elapsed", "seconds", "rule_ids")


@dataclass(frozen=True)
class CheckResult:
    """One check: its id, title and rule passage, the runner's outcome, whether its answer is proven (None: it is
    when it is decided), the register ids it rests on, and a game's own keys (``extra``). ``seconds_alias``: the
    JSON also carries the old key ``seconds`` (= ``elapsed``; kept for one version, contracts.md)."""

    id: str
    title: str
    rule: str
    outcome: Outcome
    proven: bool | None = None
    rule_ids: tuple[str, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict)
    seconds_alias: bool = False

    def __post_init__(self) -> None:
        if self.proven is None:
            object.__setattr__(self, "proven", self.outcome.holds is not None)
        object.__setattr__(self, "rule_ids", tuple(self.rule_ids))

    @property
    def holds(self) -> bool | None:
        return self.outcome.holds

    @property
    def status(self) -> Status:
        return self.outcome.status

    @property
    def counterexample(self) -> Any:
        return self.outcome.counterexample

    @property
    def elapsed(self) -> float:
        return self.outcome.elapsed

    @property
    def details(self) -> Mapping[str, Any]:
        return self.outcome.details

    @property
    def open_question(self) -> str | None:
        return self.outcome.open_question

    def to_json(self) -> dict[str, Any]:
        """The check as JSON (contracts.md, the ``verify`` format)."""
        out = {"id": self.id, "title": self.title, "holds": self.holds, "status": self.status.value,
               "proven": self.proven, "counterexample": self.counterexample, "rule": self.rule,
               "open_question": self.open_question, "details": dict(self.details), "elapsed": self.elapsed,
               "rule_ids": list(self.rule_ids), **self.extra}
        if self.seconds_alias:
            out["seconds"] = self.elapsed
        return out

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> CheckResult:
        """A check read back from its JSON; a document stored before ``elapsed`` (its time under ``seconds``) loads
        too."""
        elapsed = doc.get("elapsed", doc.get("seconds"))
        holds = doc.get("holds")
        status = Status(doc["status"]) if doc.get("status") else Status.of_holds(holds)
        outcome = Outcome(status, doc.get("counterexample"), float(elapsed or 0.0), dict(doc.get("details") or {}),
                          doc.get("open_question"))
        return cls(str(doc["id"]), str(doc.get("title") or ""), str(doc.get("rule") or ""), outcome,
                   doc.get("proven"), tuple(doc.get("rule_ids") or ()),
                   {k: v for k, v in doc.items() if k not in _OWN_KEYS}, "seconds" in doc)


def as_json(check: CheckResult | Mapping[str, Any]) -> dict[str, Any]:
    """A check as a JSON dict: a :class:`CheckResult` through ``to_json``, a mapping as it is."""
    return check.to_json() if isinstance(check, CheckResult) else dict(check)
