"""Numbers typed on the Lone Cowboy pages: read as the player typed them, never changed silently (issue 32,
"No stale answers").

A number box is a text box read by :func:`solver.io.parse_int_text` (whole numbers, bounded length and range), so
``1e9`` or ``99999999`` in a box that takes 1 to 2000 is refused in one line under the box that names it, and the
caller hides the answer that depended on it rather than showing the last one; a browser's number field would keep
its old value (or cut ``1e9`` to 1) and leave the old answer standing.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from dashboard.shared.widgets import kept
from solver.errors import BadInput
from solver.io.numbers import parse_int_text


def whole_box(label: str, key: str, default: int, lo: int, hi: int, help: str | None = None,
              where: Any = None, disabled: bool = False) -> int | None:
    """A whole number from ``lo`` to ``hi`` typed in a text box (its text kept across page visits), drawn in
    ``where`` (a column; default the page): the number, or None after one line under the box saying what to fix."""
    where = where or st
    text = kept(where.text_input, key, str(default), label, help=help, max_chars=40, disabled=disabled)
    try:
        return parse_int_text(text, label, lo, hi)
    except BadInput as exc:
        where.error(f"Fix the box '{label}' (a whole number from {lo:,} to {hi:,}): {exc}", icon=":material/error:")
        return None
