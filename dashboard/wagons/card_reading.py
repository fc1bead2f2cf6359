"""The player's card settles it: where a Lone Cowboy score rests on a low-confidence number with listed
readings (Boom or Bust today, rule:W11), the page shows the scores under each reading side by side, each with the
reading's wording, until the player says which one their card shows; that answer is remembered for the browser
(:mod:`dashboard.shared.state.store`, work key :data:`WORK`), can be changed, and sets the session's reading (the
readings every page passes to the engines).

The scores are the engine's (:func:`solver.wagons.scoring.by_reading.scores_by_reading`, as ``wagons score --json``
gives them under ``by_reading``); this module only asks, draws and remembers the answer.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import streamlit as st

from dashboard.shared.readings import READINGS_QUERY, readings
from dashboard.shared.state import store
from solver.errors import BadInput
from solver.wagons.rules import CHOICES

WORK = "wagons_card_readings"
"""Session key and the browser's kept work: {Rules field: the value the player's card shows}."""
_APPLIED = "_wagons_card_readings_applied"
"""Session flag: the remembered answers were put into this session's readings (once, at its first run)."""
OUTCOME = {"player": "you win", "opponent": "the opponent wins", "tie": "a tie"}


def _load(doc: Any) -> dict:
    if not isinstance(doc, dict) or not all(k in CHOICES and v in CHOICES[k] for k, v in doc.items()):
        raise BadInput("the card readings kept for this browser are not readings this version lists")
    return dict(doc)


def said() -> dict:
    """{field: value} the player said their cards show (this browser's, restored on a new session)."""
    if WORK not in st.session_state:
        store.sync(WORK, load=_load)
    return st.session_state.setdefault(WORK, {})


def restore() -> None:
    """Once per session, before the page (app.py): the readings the player's cards settled become the session's,
    except a reading the address names (a shared or bookmarked address keeps its own readings)."""
    if st.session_state.get(_APPLIED):
        return
    st.session_state[_APPLIED] = True
    from_address = set(readings("wagons")) if st.query_params.get(READINGS_QUERY) else set()
    for field, value in said().items():
        if field not in from_address:
            readings("wagons")[field] = value


def choose(field: str, value: str, also: Callable[[str, str], None] | None = None) -> None:
    """The player's card shows ``value``: remembered, and the session's reading (``also`` applies it to a game
    under way)."""
    st.session_state[WORK] = {**said(), field: value}
    readings("wagons")[field] = value
    store.persist(WORK)
    if also is not None:
        also(field, value)


def unsay(field: str) -> None:
    """**Change**: the scores under every reading side by side again, until the player answers anew."""
    st.session_state[WORK] = {k: v for k, v in said().items() if k != field}
    store.persist(WORK)


@st.cache_data(show_spinner=False, max_entries=256)
def by_reading(town_json_text: str, pile: tuple[int, ...], scenario: str, rules_json: str) -> dict:
    """The engine's scores under each low-confidence reading (``wagons score --json`` ``by_reading``)."""
    from solver.wagons.rules import Rules
    from solver.wagons.scoring import scores_by_reading
    from solver.wagons.town import town_from_dict

    return scores_by_reading(town_from_dict(json.loads(town_json_text)), tuple(pile), scenario,
                             Rules.from_json(json.loads(rules_json)))


def _column_text(column: dict, reading: dict, winner_shown: bool) -> str:
    value = column["readings"][reading["option"]]
    wording = next(v["wording"] for v in reading["values"] if v["value"] == value)
    lines = [f"**If your card says:** {wording}", f"You **{column['player']}**, the opponent **{column['opponent']}**"
             f" (margin {column['margin']:+d})"]
    if winner_shown:
        lines.append(f"Then {OUTCOME.get(column['winner'], column['winner'])}.")
    return "  \n".join(lines)


def panel(by: dict, key: str, finished: bool, also: Callable[[str, str], None] | None = None) -> str | None:
    """The scores under each reading side by side with **My card says this** under each, while the player has not
    said which and the readings give these towns different scores; once said, one line with **Change**. Returns
    why no single winner can be named yet (the readings disagree on it), or None."""
    listed = by.get("readings") or []
    open_ = [r for r in listed if r["option"] not in said()]
    for r in listed:
        if r["option"] in said():
            value = said()[r["option"]]
            wording = next((v["wording"] for v in r["values"] if v["value"] == value), value)
            cols = st.columns([5, 1], vertical_alignment="center")
            cols[0].caption(f"**{r['goal']}**: your card says {wording} (rule {r['rule']}; remembered in this "
                            "browser).")
            cols[1].button("Change", key=f"{key}_unsay_{r['option']}", on_click=unsay, args=(r["option"],))
    if not open_ or len({(c["player"], c["opponent"]) for c in by["scores"]}) < 2:
        return None  # settled, or every reading gives these towns the same scores: nothing rests on it here
    reading = open_[0]
    with st.container(border=True, key=f"{key}_by_reading"):
        st.markdown(f"**{reading['goal']} decides these scores, and your card settles it.** Its numbers are known "
                    f"from one unofficial source, which reads two ways (rule {reading['rule']}): \"{reading['card_text']}\"."
                    " Which does your card say?")
        columns = by["scores"]
        cols = st.columns(len(columns))
        for col, column in zip(cols, columns):
            value = column["readings"][reading["option"]]
            with col:
                st.markdown(_column_text(column, reading, finished))
                st.button("My card says this", key=f"{key}_say_{reading['option']}_{value}", type="primary",
                          on_click=choose, args=(reading["option"], value, also), width="stretch")
        chosen = next((c for c in columns if c["chosen"]), columns[0])
        in_force = next(v["wording"] for v in reading["values"]
                        if v["value"] == chosen["readings"][reading["option"]])
        st.caption(f"Until your card says, the totals and tables below count {reading['goal']} as the reading in "
                   f"force does: {in_force}")
    winners = {c["winner"] for c in by["scores"]}
    if len(winners) > 1:
        return f"it depends on what your {reading['goal']} card says (the readings above disagree on it)"
    return None
