"""A verdict's value in words (issue 32, "verdict values in words"), for the Verification page's "Verdicts across
readings" table: each shape :mod:`solver.readings` gives a verdict (a Z3 check's holds/fails with its rounds, the
marshal's odds, the lone ranger's end squares, a dead-position search, a position's status, the Lone Cowboy
checks per scenario, the greedy policy's wins) said as a sentence; an unknown shape falls back to its JSON.
Presentation only.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from dashboard.shared.words import counted

VERDICT = {True: "holds", False: "fails", None: "undecided (a time limit ran out)"}
"""A check's ``holds`` in words."""


def _rounds(value: Mapping[str, Any]) -> str:
    lo, hi = value.get("earliest"), value.get("latest")
    if lo is None and hi is None and isinstance(value.get("bound"), list) and len(value["bound"]) == 2:
        lo, hi = value["bound"]
    if lo is None and hi is None:
        return ""
    return f" (rounds {lo} to {hi})" if lo is not None and hi is not None else f" (from round {lo or '?'})"


def _check(value: Mapping[str, Any]) -> str:
    return VERDICT[value.get("holds")] + _rounds(value)


def _odds(value: Mapping[str, Any]) -> str:
    rounds = {int(r): p for r, p in (value.get("rounds") or {}).items() if Fraction(p)}
    if not rounds:
        return "the marshal never arrives"
    first = min(rounds)
    text = f"the marshal arrives in round {first} to {max(rounds)}; in round {first} with chance {rounds[first]}"
    never = value.get("never")
    return text + (f"; never with chance {never}" if never and Fraction(never) else "")


def _ends(value: Mapping[str, Any]) -> str:
    row = "with a visible target" if value.get("row") == "visible" else "without a visible target"
    ends = []
    for cell, p in (value.get("ends") or {}).items():
        try:
            x, y = json.loads(cell)
            ends.append(f"x{x} y{y} ({p})")
        except (ValueError, TypeError):
            ends.append(f"{cell} ({p})")
    return f"he follows the row {row} and ends on " + (", ".join(ends) or "no square")


def _dead(value: Mapping[str, Any]) -> str:
    found = value.get("found")
    if found is True:
        return "a dead position is reachable"
    if found is False:
        return f"no dead position within {counted(value.get('within_depth') or 0, 'action')}"
    return f"undecided ({value.get('undecided') or 'search bound'})"


def _status(value: Mapping[str, Any]) -> str:
    can = value.get("win_possible") or {}
    parts = [f"{side} {'can still win' if can.get(side) else 'cannot win' if can.get(side) is False else 'undecided'}"
             for side in ("A", "B") if side in can]
    if value.get("winner"):
        parts.insert(0, f"{value['winner']} has won")
    if value.get("sudden_death_trigger"):
        parts.append("sudden death is triggered")
    return ", ".join(parts)


def _per_scenario(value: Mapping[str, Any]) -> str:
    results = {k: v for k, v in value.items() if k != "undecided"}
    failed = sorted(k.split("/")[-1] for k, v in results.items() if v is False)
    open_ = sorted(k.split("/")[-1] for k, v in results.items() if v is None)
    held = sum(v is True for v in results.values())
    if not failed and not open_:
        return f"holds in every scenario ({held})"
    parts = [f"fails in {', '.join(failed)}"] if failed else []
    parts += [f"undecided in {', '.join(open_)}"] if open_ else []
    return "; ".join(parts) + f"; holds in {held}"


def _greedy(value: Mapping[str, Any]) -> str:
    return (f"the greedy policy wins {value['wins']} of {counted(value['games'], 'game')} "
            f"({counted(value.get('ties', 0), 'tie')})")


def value_words(value: Any) -> str:
    """One verdict value as a sentence for people."""
    if isinstance(value, Mapping):
        keys = set(value)
        if "holds" in keys and keys <= {"holds", "earliest", "latest", "bound", "undecided"}:
            return _check(value)
        if "rounds" in keys:
            return _odds(value)
        if "ends" in keys:
            return _ends(value)
        if "found" in keys:
            return _dead(value)
        if "win_possible" in keys:
            return _status(value)
        if {"wins", "games"} <= keys:
            return _greedy(value)
        if value and all(isinstance(v, bool) or v is None for k, v in value.items() if k != "undecided"):
            return _per_scenario(value)
    text = json.dumps(value, separators=(", ", ": "))
    return text if len(text) <= 120 else text[:117] + "..."
