"""A Cactus Town witness, a deck order round by round, drawn as a table of the rounds (the Cactus page has no
drawing of a whole deck order: its round companion lists the rounds so, :mod:`dashboard.cactus.companion`). A witness
holds its rounds under ``rounds`` (a list of records, one per round) or its cards in order under ``deck`` / ``order``
(one per round); its other parts (the players, the readings' deck) are said above the table."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import streamlit as st

ORDER_KEYS = ("deck", "order", "events")


def _cell(v: Any) -> str:
    if isinstance(v, list):
        return ", ".join(_cell(x) for x in v)
    if isinstance(v, Mapping):
        return "; ".join(f"{k} {_cell(x)}" for k, x in v.items())
    return "" if v is None else str(v)


def _rows(witness: Mapping[str, Any]) -> list[dict] | None:
    rounds = witness.get("rounds")
    if isinstance(rounds, list) and rounds:
        return [({"round": n} | {k: _cell(v) for k, v in r.items() if k != "round"}) if isinstance(r, Mapping)
                else {"round": n, "card": _cell(r)} for n, r in enumerate(rounds, start=1)]
    for k in ORDER_KEYS:
        order = witness.get(k)
        if isinstance(order, list) and order:
            return [{"round": n, "card": _cell(c)} for n, c in enumerate(order, start=1)]
    return None


def draw(witness: Any) -> bool:
    """The deck order round by round; False when the witness holds none (the page then shows it as a table)."""
    import polars as pl

    if not isinstance(witness, Mapping):
        return False
    rows = _rows(witness)
    if rows is None:
        return False
    rest = {k: v for k, v in witness.items() if k not in ("rounds", *ORDER_KEYS)}
    if rest:
        st.caption("; ".join(f"{k}: {_cell(v)}" for k, v in rest.items()))
    st.dataframe(pl.DataFrame(rows), hide_index=True, width="stretch")
    return True
