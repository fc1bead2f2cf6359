"""The lone ranger's turn in words: each outcome of
:func:`solver.cactus.ranger.decide` said as a player says it, a duel won or lost and the square a lost duel
pushes him to included, where the engine's outcome list only has icons ("1/6: DUEL then SNEAK to [0, 1]").

Squares are named as the page's drawing names them (:func:`dashboard.cactus.drawing.square_name`: column x,
row y). Presentation only: every fact is the engine's.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from dashboard.cactus.drawing import square_name

VERBS = {"RUN": "runs", "SNEAK": "sneaks", "SPRINT": "sprints", "RUN-ALL": "runs all the way",
         "SNEAK-ALL": "sneaks all the way", "DOUBLE-SNEAK": "sneaks twice", "HORIZONTAL-SNEAK": "sneaks sideways",
         "VERTICAL-SNEAK": "sneaks up or down"}
"""A movement icon (solver.cactus.icons.ICONS) -> what he does, in words."""


def _square(cell: Any) -> str:
    return square_name(cell[0], cell[1]) if isinstance(cell, (list, tuple)) and len(cell) == 2 else str(cell)


def _duel(a: dict) -> str:
    who = a.get("with") or "the outlaw on his building"
    result = a.get("result")
    if result == "won":
        note = str(a.get("note") or "").split(" (")[0]  # the engine's own consequence, without its rule reference
        return f"duels {who} and wins" + (f": {note}" if note else "")
    if result == "lost":
        return f"duels {who} and loses: he is pushed to {_square(a.get('pushed_to'))}"
    if result == "tie":
        return f"duels {who}: a tie, nobody moves"
    return f"duels {who}"


def _move(a: dict) -> str:
    verb = VERBS.get(a["icon"], a["icon"].lower())
    text = f"{verb} to {_square(a['to'])}"
    if a.get("toward"):
        text += f" toward {' and '.join(a['toward'])}"
    if a.get("reveals"):
        text += f", revealing the building at {_square(a['reveals'])}"
    return text


def action_words(a: dict) -> str:
    """One action of an outcome in words ("duels outlaw 1 and loses: he is pushed to x1 y2")."""
    icon = str(a.get("icon", "?"))
    if a.get("skipped"):
        if a.get("pass_turn"):
            return f"can do none of {icon}: he passes his turn"
        return f"cannot {icon} (skipped)"
    if icon == "DUEL":
        return _duel(a)
    if icon == "CONFUSE":
        return f"confuses {a.get('with') or 'the outlaw on his building'}"
    if icon == "PASS":
        return "passes"
    if a.get("to") is not None:
        return _move(a)
    return f"{icon} ({a['note']})" if a.get("note") else icon


def outcome_words(outcome: dict) -> str:
    """A whole outcome: its actions in order, then where he ends ("He sneaks to x1 y2, then duels ...")."""
    acts = [action_words(a) for a in outcome.get("actions", [])]
    text = "He " + ", then ".join(acts) if acts else "He does nothing"
    end = outcome.get("ranger")
    return text + (f"; he ends on {_square(end)}." if end is not None else ".")


def chance_words(p: str) -> str:
    """An exact chance with its percentage ("1/6 (17%)"; "1" as "certain")."""
    f = Fraction(p)
    if f == 1:
        return "certain"
    share = f"{float(f) * 100:.1f}".removesuffix(".0")
    return f"{p} ({share}%)"
