"""A Lone Cowboy witness drawn as the score sheet draws towns (:mod:`dashboard.wagons.drawing`): the player's town,
and the opponent's when the witness has one, each read by the engine's own loader
(:func:`solver.wagons.town.town_from_dict`). A witness is a town document (``{"placements": [...]}``) or holds one
under ``town`` (and ``opponent``); its scores (:func:`dashboard.wagons.view.show_scores`) and the opponent's pile are drawn
below it, its other parts (the scenario, a seed) listed."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import streamlit as st

from solver.errors import BadInput

TOWN_KEYS = ("town", "player", "mine")
OTHER_KEYS = ("opponent", "opponent_town", "theirs")
SHOWN = ("placements", "pile", "scores", "kind", "record")
"""Parts drawn here (or only the engine's own: a game record), not listed again under the towns."""


def _town_doc(witness: Mapping[str, Any], keys: tuple[str, ...]) -> Mapping[str, Any] | None:
    for k in keys:
        doc = witness.get(k)
        if isinstance(doc, Mapping) and "placements" in doc:
            return doc
    return None


def _draw(doc: Mapping[str, Any], caption: str) -> None:
    from dashboard.wagons import view as wv
    from solver.wagons.town import town_from_dict

    town = town_from_dict(dict(doc), "the witness's town")
    st.html(wv.town_html(town, caption))


def _scores(scores: Any) -> None:
    from dashboard.wagons import view as wv

    if isinstance(scores, Mapping) and {"player", "opponent", "winner"} <= set(scores):
        wv.show_scores(dict(scores))


def _pile(pile: Any) -> None:
    from dashboard.wagons import view as wv

    if isinstance(pile, list) and pile and all(isinstance(c, int) for c in pile):
        st.markdown("**The opponent's pile**")
        st.html("".join(wv.card_preview(c, size=0.8) for c in pile))


def draw(witness: Any) -> bool:
    """The witness's towns drawn (and its scores and the opponent's pile, when it has them); False when it holds no
    town this can draw (the page then shows it as a table)."""
    if not isinstance(witness, Mapping):
        return False
    mine = witness if "placements" in witness else _town_doc(witness, TOWN_KEYS)
    if mine is None:
        return False
    try:
        _draw(mine, "Your town")
        other = _town_doc(witness, OTHER_KEYS)
        if other is not None:
            _draw(other, "The opponent's town")
        _pile(witness.get("pile"))
        _scores(witness.get("scores"))
    except BadInput as exc:
        st.error(f"The witness's town cannot be drawn: {exc}", icon=":material/error:")
        return False
    rest = {k: v for k, v in witness.items() if k not in (*TOWN_KEYS, *OTHER_KEYS, *SHOWN)}
    if rest:
        st.caption("; ".join(f"{k}: {', '.join(map(str, v)) if isinstance(v, list) else v}" for k, v in rest.items()
                             if not isinstance(v, Mapping)))
    return True
