"""An Outlaws witness drawn as the Outlaws table draws a line of play: Main Street at the step chosen
(:func:`dashboard.outlaws.street.street_html`, what changed outlined) and the line's steps in words
(:func:`solver.outlaws.line.play_text`). A witness is a line document (:func:`solver.outlaws.line.line_to_json`) or
holds one under ``line``; a bare position is drawn as it stands."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import streamlit as st

from solver.errors import BadInput


def _line(witness: Mapping[str, Any]) -> Mapping[str, Any] | None:
    from solver.outlaws.line import FORMAT

    if witness.get("format") == FORMAT:
        return witness
    line = witness.get("line")
    return line if isinstance(line, Mapping) and line.get("format") == FORMAT else None


def _draw_line(line: Mapping[str, Any]) -> None:
    import polars as pl

    from dashboard.outlaws import street
    from dashboard.shared.words import wrapped_table
    from solver.outlaws import line as ln
    from solver.outlaws.position_json import position_to_json

    _start, steps, games = ln.line_from_json(dict(line))
    at = len(steps)
    if steps:
        at = st.slider("Step of the line", 0, len(steps), len(steps), key="ask_line_at")
    before = position_to_json(games[at - 1].position) if at else None
    st.html(street.street_html(position_to_json(games[at].position),
                               "The start" if at == 0 else f"After step {at} of {len(steps)}", before=before))
    rows = [{"step": n, "player": g.position.to_move, "action": ln.play_text(g, s.play)}
            for n, (s, g) in enumerate(zip(steps, games), start=1)]
    if rows:
        wrapped_table(pl.DataFrame(rows))


def draw(witness: Any) -> bool:
    """The witness's line drawn on Main Street; False when it holds none (the page then shows it as a table)."""
    if not isinstance(witness, Mapping):
        return False
    line = _line(witness)
    try:
        if line is not None:
            _draw_line(line)
            return True
        position = witness.get("position")
        if isinstance(position, Mapping):
            from dashboard.outlaws import street

            st.html(street.street_html(position, "The position"))
            return True
    except BadInput as exc:
        st.error(f"The witness's line cannot be drawn: {exc}", icon=":material/error:")
    return False
