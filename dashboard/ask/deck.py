"""A Cactus Town witness, a deck order round by round, drawn as a table of the rounds (the Cactus page has no
drawing of a whole deck order: its round companion lists the rounds so, :mod:`dashboard.cactus.companion`), each
event by its card's name (:func:`solver.cactus.events.table`; "another card" for a card the question does not tell
apart). A witness holds its rounds under ``rounds`` (a list of records, one per round) or its cards in order under
``deck`` / ``order`` (one per round); the event deck's order and how the game ends are said above the table, any other
part listed."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import streamlit as st

from solver.errors import BadInput

ORDER_KEYS = ("deck", "order", "events")
NAMES = {"other": "another card", "marshal": "Marshal's arrival"}
"""The deck-order document's placeholders in words."""
SAID = {"deck_top_first": "Event deck, top first", "ends_in_round": "Ends in round", "end_cause": "how it ends",
        "players": "players", "from_round": "from round"}


def event_name(key: Any) -> str:
    """An event's card name ("Train"), a placeholder in words, or the key as given."""
    from solver.cactus import events as ev

    if not isinstance(key, str):
        return _cell(key)
    if key in NAMES:
        return NAMES[key]
    try:
        return ev.table().get(key).name
    except BadInput:
        return key


def _cell(v: Any) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, list):
        return ", ".join(_cell(x) for x in v)
    if isinstance(v, Mapping):
        return "; ".join(f"{k} {_cell(x)}" for k, x in v.items())
    return "" if v is None else str(v)


def _round(n: int, r: Any) -> dict:
    if not isinstance(r, Mapping):
        return {"round": n, "card": event_name(r)}
    return {"round": n} | {k: event_name(v) if k == "event" else _cell(v) for k, v in r.items() if k != "round"}


def _rows(witness: Mapping[str, Any]) -> list[dict] | None:
    rounds = witness.get("rounds")
    if isinstance(rounds, list) and rounds:
        return [_round(n, r) for n, r in enumerate(rounds, start=1)]
    for k in ORDER_KEYS:
        order = witness.get(k)
        if isinstance(order, list) and order:
            return [{"round": n, "card": event_name(c)} for n, c in enumerate(order, start=1)]
    return None


def _said(k: str, v: Any) -> str:
    if k == "deck_top_first" and isinstance(v, list):
        return f"{SAID[k]}: " + ", ".join(event_name(c) for c in v)
    return f"{SAID.get(k, k)}: {_cell(v)}"


def draw(witness: Any) -> bool:
    """The deck order round by round; False when the witness holds none (the page then shows it as a table)."""
    import polars as pl

    if not isinstance(witness, Mapping):
        return False
    rows = _rows(witness)
    if rows is None:
        return False
    rest = {k: v for k, v in witness.items() if k not in ("rounds", "format", *ORDER_KEYS) and v is not None}
    if rest:
        st.caption("  \n".join(_said(k, v) for k, v in rest.items()))
    st.dataframe(pl.DataFrame(rows), hide_index=True, width="stretch")
    return True
