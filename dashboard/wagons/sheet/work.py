"""The score sheet's work, kept: its scenario, placement rows and opponent's pile as one
document ``{"scenario", "rows", "pile"}`` (:func:`dashboard.wagons.view.load_sheet` checks it), in the page's
address (``?sheet=``, for sharing and bookmarks), in this browser's kept work (:data:`WORK`, also the document of
a "Lone Cowboy town" in My games) and in the session; and the last best-layout answer (:data:`BEST`).

A new session, or a resume from My games, takes the address first when it holds a sheet, else the kept work, else
the rulebook's example; every run ends by keeping what the page shows.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from dashboard.shared.work import store, urldoc
from dashboard.shared.work.plaintext import plain
from dashboard.wagons import addresses as wagons_addresses
from dashboard.wagons import view as wv
from solver.errors import BadInput

WORK = "wagons_sheet"
"""Session key and the browser's kept work of the sheet (games.KINDS "wagons-town")."""
BEST = "wg_best_result"
"""Session key and kept work of the last best-layout answer: (its inputs, the optimizer's result)."""
QUERY = "sheet"
EXAMPLE = [{"card": 13, "x": 1, "y": 1, "rot": 0}, {"card": 4, "x": 0, "y": 1, "rot": 0},
           {"card": 14, "x": 3, "y": 1, "rot": 0}, {"card": 0, "x": 4, "y": 0, "rot": 0},
           {"card": 2, "x": 0, "y": 3, "rot": 0}, {"card": 1, "x": 2, "y": 3, "rot": 0}]
"""Worked example of the rulebook (docs/outside-facts.md): a six-card town scoring 20 in terrain groups."""
EXAMPLE_PILE = [3, 7, 11]


def set_rows(rows: list[dict]) -> None:
    """New placement rows: the table is drawn afresh from them (a new editor key)."""
    ss = st.session_state
    ss.wg_rows = rows
    ss.pop("wg_rows_live", None)
    ss.wg_ver = ss.get("wg_ver", 0) + 1


def _apply(doc: dict) -> None:
    """Put a sheet document on the page: rows, pile (set before its box is drawn) and scenario."""
    ss = st.session_state
    set_rows(doc["rows"])
    ss.wg_pile = ss.wg_pile_loaded = list(doc["pile"])
    ss["wg_scenario"] = ss["wg_scenario__kept"] = doc["scenario"]


def restore() -> None:
    """Once per session (and after My games resumed a town): the address's sheet, else the kept one."""
    ss = st.session_state
    if WORK not in ss:
        text = st.query_params.get(QUERY)
        if text:
            try:
                doc = urldoc.decode(text, wagons_addresses.SHEET)
            except BadInput as exc:  # the decoder's line is plain text already
                doc = None
                st.error(f"The score sheet in the address was not loaded: {exc}", icon=":material/error:")
            try:
                if doc is not None:
                    ss[WORK] = wv.load_sheet(doc)
            except BadInput as exc:
                st.error(f"The score sheet in the address was not loaded: {plain(exc)}", icon=":material/error:")
        if WORK not in ss:
            store.sync(WORK, load=wv.load_sheet)
        if WORK in ss:
            _apply(ss[WORK])
    store.sync(BEST, load=load_result)
    ss.setdefault("wg_rows", list(EXAMPLE))
    ss.setdefault("wg_pile", list(EXAMPLE_PILE))
    ss.setdefault("wg_ver", 0)


def keep(sheet: dict, opening_scenario: str) -> None:
    """The sheet as it stands: in the address (none while it is the opening example) and kept for the browser."""
    st.session_state[WORK] = sheet
    store.persist(WORK)
    store.persist(BEST)
    example = sheet == {"scenario": opening_scenario, "rows": EXAMPLE, "pile": EXAMPLE_PILE}
    urldoc.put(st.query_params, QUERY, None if example else sheet)


def load_result(doc: Any) -> tuple:
    """A kept ``[inputs, result]`` answer back as the page holds it: ``(inputs as a tuple, its lists as tuples,
    result)``; the inputs are compared with the page's before the answer is shown, so a stale one never is."""
    if not isinstance(doc, list) or len(doc) != 2 or not isinstance(doc[0], list) or not isinstance(doc[1], dict):
        raise BadInput("a kept answer is not an answer with its inputs")
    return tuple(tuple(x) if isinstance(x, list) else x for x in doc[0]), doc[1]
