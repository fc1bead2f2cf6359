"""An answer to a question: the verdict, its proof or estimate, the witness, the readings and the time it took.

``verdict`` is ``yes`` / ``no`` (is there, for every), ``value`` (most, least) or ``chance``; ``unknown`` when the
time limit or Stop came first. ``proven`` says whether the answer is proved (every element checked, or an engine's
proof); an unproven most / least gives the best found (``value``) and the proven ``bound``; a chance is ``exact`` (a
fraction over the whole chance tree) or a seeded estimate with its 95% ``interval``. ``witness`` is the element that
shows it (the example for yes, the counterexample for a failed for-every, the best element for most / least), drawn by
the pages from its document. :func:`answer_to_json` is the one JSON form (``ruleslinger ask --json``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from solver.ask.model import Value

VERDICTS = ("yes", "no", "value", "chance", "unknown")


@dataclass(frozen=True)
class Answer:
    """See the module docstring. ``method`` says how it was decided ("every one of 1,234 towns checked", "CP-SAT,
    optimal"); ``checked`` and ``size`` count elements; ``readings`` are the readings it ran under (name -> value);
    ``changed_by`` (with readings impact) the readings whose alternatives change it, each with the changed answer."""

    sentence: str
    quantifier: str
    verdict: str
    proven: bool
    method: str
    elapsed: float
    readings: dict[str, Any]
    value: Value | None = None
    bound: Value | None = None
    exact: bool = True
    interval: tuple[float, float] | None = None
    samples: int | None = None
    witness: dict[str, Any] | None = None
    witness_values: dict[str, Value] = field(default_factory=dict)
    checked: int = 0
    size: int | None = None
    stopped_by: str | None = None
    deterministic: float | None = None
    changed_by: tuple[dict[str, Any], ...] | None = None

    def short(self) -> str:
        """The verdict in a few words ("yes", "at most 12", "1/3")."""
        if self.verdict in ("yes", "no", "unknown"):
            return self.verdict
        if self.verdict == "chance":
            if self.exact:
                return f"{_value_json(self.value)} (exactly)"
            lo, hi = self.interval or (0.0, 1.0)
            return f"about {float(self.value or 0):.3f} (95% interval {lo:.3f} to {hi:.3f}, {self.samples} samples)"
        if self.proven:
            return str(_value_json(self.value))
        return f"{_value_json(self.value)} found so far (proven bound {_value_json(self.bound)})"


def _value_json(value: Any) -> Any:
    if isinstance(value, Fraction):
        return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    return value


def _answer_value(a: Answer) -> Any:
    """The contract's ``answer``: true / false (is there, for every), a number (max, min: the best found when
    unproven; None when no element meets the condition), a chance "p/q"; None while undecided."""
    if a.verdict == "unknown":
        return None
    if a.quantifier in ("max", "min"):
        return _value_json(a.value) if a.verdict == "value" else None
    if a.quantifier == "chance":
        return _value_json(a.value)
    return a.verdict == "yes"


def answer_to_json(a: Answer, game: str, question: dict[str, Any] | None = None) -> dict[str, Any]:
    """The answer as one JSON document (the contract's ``ruleslinger ask --json``; exact fractions as "p/q"):
    ``game``, ``question`` (the sentence), ``quantifier``, ``answer``, ``proven``, ``bound``, ``estimate``,
    ``interval``, ``witness``, ``readings``, ``elapsed``; then this project's own: ``verdict``, ``said`` (the answer
    in a few words), ``method``, ``value``, ``exact``, ``samples``, ``witness_values``, ``checked``, ``size``,
    ``stopped_by``, the question's document (``asked``), CP-SAT's ``deterministic_time`` and ``changed_by``."""
    out: dict[str, Any] = {
        "game": game, "question": a.sentence, "quantifier": a.quantifier, "answer": _answer_value(a),
        "proven": a.proven, "bound": _value_json(a.bound) if a.verdict == "value" and not a.proven else None,
        "estimate": a.verdict == "chance" and a.samples is not None,
        "interval": list(a.interval) if a.interval else None, "witness": a.witness, "readings": a.readings,
        "elapsed": round(a.elapsed, 3),
        "verdict": a.verdict, "said": a.short(), "method": a.method, "value": _value_json(a.value),
        "exact": a.exact, "samples": a.samples,
        "witness_values": {k: _value_json(v) for k, v in a.witness_values.items()},
        "checked": a.checked, "size": a.size, "stopped_by": a.stopped_by,
    }
    if question is not None:
        out["asked"] = question
    if a.deterministic is not None:
        out["deterministic_time"] = round(a.deterministic, 3)
    if a.changed_by is not None:
        out["changed_by"] = list(a.changed_by)
    return out
