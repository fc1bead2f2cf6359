"""Number boxes that never change a number on their own.

A number typed in the browser's own number box is clamped, rounded or cut short by the browser ("1e9" became 1)
and a value out of range leaves the last accepted one in force, so the answer on the page is the old one. These
boxes take the text as typed, read it with the solver's own parser (:func:`solver.io.numbers.parse_int_text`: digits
only, bounded) and, when it is not a number in range, say in one line which box to fix and return None: the page
then shows no answer for it (:func:`stale`), never an answer from another number.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from dashboard.shared.widgets import kept
from solver.errors import BadInput
from solver.io.numbers import parse_int_text

MAX_CHARS = 12
"""Longest text a whole-number box takes (a bound of 10**9 has 10 digits)."""


def whole_box(label: str, key: str, default: int, lo: int, hi: int, *, where: Any = st, help: str | None = None,
              kept_value: bool = True, disabled: bool = False) -> int | None:
    """A text box for a whole number in ``lo..hi`` (``where``: ``st`` or a column), its text kept across page
    visits (``kept_value``); the number, or None after an inline error naming the box and its range."""
    draw = where.text_input
    text = (kept(draw, key, str(default), label, help=help, max_chars=MAX_CHARS, disabled=disabled) if kept_value
            else draw(label, value=str(default), key=key, help=help, max_chars=MAX_CHARS, disabled=disabled))
    try:
        return parse_int_text(text, f"'{label}'", lo, hi)
    except BadInput as exc:
        where.error(f"Fix the box {exc} (a whole number from {lo} to {hi}).", icon=":material/error:")
        return None


def stale(values: dict[str, Any]) -> list[str]:
    """The labels of the boxes in ``values`` (label -> what :func:`whole_box` returned) that hold no number."""
    return [label for label, value in values.items() if value is None]


def no_answer(labels: list[str], what: str = "the answer") -> None:
    """One line in place of an answer that would rest on boxes holding no number: which boxes to fix."""
    boxes = ", ".join(f"'{label}'" for label in labels)
    st.info(f"No {what} until {'the box' if len(labels) == 1 else 'the boxes'} {boxes} "
            f"{'holds a number' if len(labels) == 1 else 'hold numbers'} in range.", icon=":material/edit:")
