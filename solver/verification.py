"""One result shape for every game's invariant checks (contracts.md, the ``verify`` format).

A check is a mapping with at least ``id``, ``holds`` (True: proven; False: a counterexample refutes it; None: not
decided within its limit), ``counterexample`` (None unless it fails) and ``rule`` (where in the rules it comes
from); a game adds its own keys (``seconds`` or ``elapsed``, ``title``, ``details``). A verifier's answer is
:func:`report`: the checks, the readings they ran under, a summary counted the same way for every game, and the
game's own extras. The command lines, the Verification page and the readings' verdicts all read this shape.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

REQUIRED = ("id", "holds", "counterexample", "rule")
"""Keys every check carries."""


def check(item: Mapping[str, Any]) -> dict[str, Any]:
    """``item`` as a plain check dict; AssertionError naming what is missing (a verifier's bug, never user input)."""
    missing = [k for k in REQUIRED if k not in item]
    if missing or item["holds"] not in (True, False, None):
        raise AssertionError(f"verifier returned a check without {missing or 'a holds of true/false/null'}: "
                             f"{str(dict(item))[:80]}")
    return dict(item)


def summary(checks: Iterable[Mapping[str, Any]]) -> dict[str, int]:
    """How many checks hold, fail, and are undecided ("unknown")."""
    values = [c["holds"] for c in checks]
    return {"holds": values.count(True), "fails": values.count(False), "unknown": values.count(None)}


def report(checks: Iterable[Mapping[str, Any]], rules: Any, **extra: Any) -> dict[str, Any]:
    """The verifier's answer: ``{"checks", "rules", "summary", "total_seconds", **extra}``."""
    out = [check(c) for c in checks]
    seconds = sum(float(c.get("seconds", c.get("elapsed", 0.0)) or 0.0) for c in out)
    return {"checks": out, "rules": rules.to_json(), "summary": summary(out), "total_seconds": round(seconds, 3),
            **extra}
