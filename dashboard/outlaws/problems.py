"""The Outlaws position editor's check: an edited position is taken only when it has no problem, and every problem
it has is shown at once, inline under the editor (the engine's :func:`solver.outlaws.position_json.position_problems`,
python-chess's ``status()``). The checks are the engine's; this module only shows them."""

from __future__ import annotations

import re
from typing import Any

import streamlit as st

from solver.outlaws.position_json import position_from_json, position_problems, position_to_json

SHOWN = 30
"""Problems listed at most (a pasted document may hold thousands); the rest are counted."""

_MARKDOWN = re.compile(r"([\\`*_\[\]<>#|~$:])")


def plain(text: str) -> str:
    """``text`` shown as typed in Streamlit's markdown (a problem quotes what the user typed): the characters that
    format (emphasis, links, HTML, tables, maths, emoji and colour directives) escaped."""
    return _MARKDOWN.sub(r"\\\1", text)


_PATH = re.compile(r"\bposition((?:\.[A-Za-z_]+|\[\d+\])*)")
_PART = re.compile(r"\.([A-Za-z_]+)|\[(\d+)\]")
_PLACES = {"street": ("Main Street", "column"), "saloon": ("Saloon", "seat"), "supply": ("supply", None)}
_WHOLE: dict[str, str | tuple[str, str | None]] = {"to_move": "the side to move", "actions_left": "the actions left this turn",
          "tokens": ("the token row on Main Street", "column"), "reserve": ("the token reserve", "token"),
          "discard": ("the discard pile", None), "immobilized": ("the immobilized Bandits", "mark"),
          "front_page": ("the Front Page markers", "marker"), "winner": "the winner", "victory": "the victory",
          "sudden_death": "sudden death", "knowledge": ("what each player knows", None)}
_FIELDS = {"front_page": "Front Page markers", "x": "X tokens", "bullet": "Bullets", "handcuffs": "Handcuffs",
           "vote": "Votes", "election": "the Election token", "characters": "opposing columns",
           "tokens": "token columns"}


def _path_words(path: str) -> str:
    """A position document's path (``.street.A[1]``) in the rulebook's words ("player A's Main Street, column 2")."""
    parts = [(name, int(index) if index else None) for name, index in _PART.findall(path)]
    if not parts:
        return "the position"
    head, *rest = parts
    what = _WHOLE.get(head[0], head[0].replace("_", " "))
    unit = None
    if head[0] in _PLACES or head[0] == "knowledge":
        place, unit = _PLACES.get(head[0], ("knowledge", None))
        if rest and rest[0][0] in ("A", "B"):
            side, rest = rest[0][0], rest[1:]
            what = f"what player {side} knows" if head[0] == "knowledge" else f"player {side}'s {place}"
        else:
            what = f"the {place}" if head[0] != "knowledge" else "what each player knows"
    elif isinstance(what, tuple):
        what, unit = what
    words, indexed = [what], False
    for name, index in rest:
        if index is None:
            words.append(_FIELDS.get(name, name.replace("_", " ")))
        elif indexed and head[0] in ("immobilized", "front_page"):
            words.append("its side" if index == 0 else "its column")  # a mark is a [side, column] pair
        else:
            words.append(f"{unit or 'entry'} {index + 1}")
            indexed = True
    return ", ".join(w for w in words if w)


def in_words(problem: str) -> str:
    """A problem of :func:`solver.outlaws.position_json.position_problems` naming places as the rulebook does ("player A's
    Main Street, column 2"), not by the document's path (``position.street.A[1]``); field names in words."""
    text = _PATH.sub(lambda m: _path_words(m.group(1)), problem, count=1)
    text = re.sub(r"missing field '([a-z_]+)'", lambda m: f"{_field(m.group(1))} is missing", text)
    return re.sub(r"\b([a-z]+(?:_[a-z]+)+)\b", lambda m: m.group(1).replace("_", " "), text)


def _field(name: str) -> str:
    whole = _WHOLE.get(name)
    return (whole[0] if isinstance(whole, tuple) else whole) if whole else _FIELDS.get(name, name.replace("_", " "))


def problems_text(problems: list[str]) -> str:
    """The inline message: the problem itself, or how many and one line each (each in words, :func:`in_words`)."""
    problems = [in_words(p) for p in problems]
    if len(problems) == 1:
        return f"Position not changed: {plain(problems[0])}"
    lines = [f"- {plain(p)}" for p in problems[:SHOWN]]
    if len(problems) > SHOWN:
        lines.append(f"- and {len(problems) - SHOWN} more")
    return f"Position not changed: {len(problems)} problems\n\n" + "\n".join(lines)


def checked_position(doc: Any) -> dict | None:
    """``doc`` as a position document when it has no problem; else None, with every problem shown inline."""
    problems = position_problems(doc)
    if problems:
        st.error(problems_text(problems), icon=":material/error:")
        return None
    return position_to_json(position_from_json(doc))
