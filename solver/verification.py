"""One result shape for every game's invariant checks (contracts.md, the ``verify`` format).

A verifier's checks are :class:`solver.z3check.CheckResult` (frozen; the one Z3 runner's outcome at their core);
:func:`report` is the edge where they become JSON: each a mapping with at least ``id``, ``holds`` (True: proven;
False: a counterexample refutes it; None: not decided within its limit), ``counterexample`` (None unless it fails),
``rule`` (where in the rules it comes from) and ``elapsed`` (seconds; Outlaws and Cactus Town also write the old key
``seconds`` for one version), and a game's own keys (``title``, ``details``). A verifier's answer is :func:`report`:
the checks, the readings they ran under, a summary counted the same way for every game, and the game's own extras.
The command lines and the Verification page read this shape.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from solver.z3check import CheckResult, as_json

REQUIRED = ("id", "holds", "counterexample", "rule")
"""Keys every check carries."""


def check(item: CheckResult | Mapping[str, Any]) -> dict[str, Any]:
    """``item`` as a plain check dict; AssertionError naming what is missing (a verifier's bug, never user input)."""
    item = as_json(item)
    missing = [k for k in REQUIRED if k not in item]
    if missing or item["holds"] not in (True, False, None):
        raise AssertionError(f"verifier returned a check without {missing or 'a holds of true/false/null'}: "
                             f"{str(dict(item))[:80]}")
    return dict(item)


def summary(checks: Iterable[Mapping[str, Any]]) -> dict[str, int]:
    """How many checks hold, fail, and are undecided ("unknown")."""
    values = [c["holds"] for c in checks]
    return {"holds": values.count(True), "fails": values.count(False), "unknown": values.count(None)}


def report(checks: Iterable[CheckResult | Mapping[str, Any]], readings: Any, **extra: Any) -> dict[str, Any]:
    """The verifier's answer: ``{"checks", "readings", "summary", "elapsed", "total_seconds", **extra}`` (the checks'
    seconds summed; ``total_seconds``, the same, is kept for one version)."""
    out = [check(c) for c in checks]
    seconds = round(sum(float(c.get("elapsed", c.get("seconds", 0.0)) or 0.0) for c in out), 3)
    return {"checks": out, "rules": readings.to_json(), "summary": summary(out), "elapsed": seconds,
            "total_seconds": seconds, **extra}
