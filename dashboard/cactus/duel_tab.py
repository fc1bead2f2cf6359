"""The Cactus Town page's *Duel odds* tab: the exact chances of a duel (:func:`solver.cactus.duel.duel_odds`)
for the second shots and bonuses typed, the round's event and the early Shootout. A box that holds no whole
number in its range is named beside it and the odds are not shown (never the odds of the last good numbers)."""

from __future__ import annotations

import json
from fractions import Fraction

import altair as alt
import polars as pl
import streamlit as st

from dashboard.shared.boxes import no_answer, whole_box
from dashboard.shared.readings import option_widget
from dashboard.shared.widgets import guarded, kept
from dashboard.shared.words import sentence

BOXES = (("ct_duel_a", 3, "Initiator's second shot", 0, 20), ("ct_duel_d", 2, "Defender's second shot", 0, 20),
         ("ct_duel_ab", 0, "Initiator's token/building bonus", -10, 10),
         ("ct_duel_db", 0, "Defender's token/building bonus", -10, 10))
"""(key, default, label, lowest, highest) of each number box, in the order duel_odds takes them."""


@st.cache_data(show_spinner=False, max_entries=256)
def duel(a: int, d: int, events: tuple[str, ...], ab: int, db: int, shootout: bool, readings_text: str) -> dict:
    from solver.cactus.duel import duel_odds
    from solver.cactus.readings import CactusReadings

    return duel_odds(a, d, events, ab, db, shootout, CactusReadings.from_json(json.loads(readings_text)))


def show_odds(r: dict) -> None:
    m = st.columns(3)
    for col, key, label in zip(m, ("win", "lose", "tie"), ("Initiator wins", "Initiator loses", "Tie stands")):
        col.metric(label, r[key], help=f"{float(Fraction(r[key])):.4f}")
    df = pl.DataFrame([{"outcome": k, "exact": r[k], "probability": float(Fraction(r[k]))} for k in ("win", "lose", "tie")])
    st.altair_chart(alt.Chart(df).mark_bar().encode(
        x=alt.X("outcome:N", sort=["win", "lose", "tie"], axis=alt.Axis(labelAngle=0)),
        y=alt.Y("probability:Q", scale=alt.Scale(domain=[0, 1])),
        color=alt.Color("outcome:N", legend=None, scale=alt.Scale(domain=["win", "lose", "tie"],
                                                                   range=["#2e7d32", "#c62828", "#9e9e9e"])),
        tooltip=["outcome", "exact", "probability"]).properties(height=220, title="Duel outcome for the initiator"),
        width="stretch")
    st.caption(f"{r['dice_per_roll']} {'die' if r['dice_per_roll'] == 1 else 'dice'} per roll, {r['die_sides']}-sided; "
               f"ties: {r['ties']}; second shot {'used' if r['second_shot_used'] else 'not used (Sandstorm)'}. "
               f"{sentence(r.get('note', ''))}")


def render(cls: type, readings_text: str) -> None:
    from solver.cactus.duel import affects_duels
    from solver.cactus.events import table as event_table

    c = st.columns(4)
    values = {label: whole_box(label, key, default, lo, hi, where=col)
              for col, (key, default, label, lo, hi) in zip(c, BOXES)}
    keys = [e.key for e in event_table().events if not e.ends_game and affects_duels(e.key)]
    events = kept(st.multiselect, "ct_duel_events", [], "This round's event (one card a round; only those that "
                  "change duels)", keys, format_func=lambda k: event_table().get(k).name)
    shootout = kept(st.checkbox, "ct_duel_shootout", False, "The early Shootout duel (+2 to the initiator)")
    with st.expander("Duel options (shared with the Verification page)"):
        for name in ("die_sides", "duel_ties", "fast_draw_modifiers"):
            option_widget("cactus", cls, name, "ct_duel_opt")
    missing = [label for label, v in values.items() if v is None]
    if missing:
        no_answer(missing, "duel odds")
        return
    a, d, ab, db = values.values()
    with guarded("Duel: "):
        show_odds(duel(a, d, tuple(events), ab, db, bool(shootout), readings_text))
