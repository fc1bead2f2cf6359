"""The Outlaws position editor's check: an edited position is taken only when it has no problem, and every problem
it has is shown at once, inline under the editor (the engine's :func:`solver.outlaws.state.position_problems`,
python-chess's ``status()``). The checks are the engine's; this module only shows them."""

from __future__ import annotations

import re
from typing import Any

import streamlit as st

from solver.outlaws.state import position_from_json, position_problems, position_to_json

SHOWN = 30
"""Problems listed at most (a pasted document may hold thousands); the rest are counted."""

_MARKDOWN = re.compile(r"([\\`*_\[\]<>#|~$:])")


def plain(text: str) -> str:
    """``text`` shown as typed in Streamlit's markdown (a problem quotes what the user typed): the characters that
    format (emphasis, links, HTML, tables, maths, emoji and colour directives) escaped."""
    return _MARKDOWN.sub(r"\\\1", text)


def problems_text(problems: list[str]) -> str:
    """The inline message: the problem itself, or how many and one line each."""
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
