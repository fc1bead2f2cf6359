"""Lone Cowboy play-along: follow a live solo game at the table. Enter the circle and the preference
deck's top card as they appear; the engine says what the automated opponent drafts and which rule
made it (:mod:`solver.wagons.opponent`), the page keeps both towns and scores them at the end."""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboard import wagons_view as wv
from dashboard.common import dumps, guarded, json_download, make_rules, page_header, rules_class, rules_summary
from solver.errors import BadInput
from solver.register import register
from solver.wagons import opponent as opp
from solver.wagons.town import Placement, Town, place

page_header("wagons_play")

cls = rules_class("wagons")
rules = make_rules("wagons", cls)
st.caption(rules_summary("wagons", cls))
ss = st.session_state
scen = wv.scenarios()


def fresh(scenario: str) -> dict:
    return {"scenario": scenario, "round": 1, "town": [], "pile": [], "hand": [], "after1": None, "log": [],
            "pending": None}


top = st.columns([2, 1, 3])
scenario = top[0].selectbox("Scenario", list(scen), format_func=lambda s: scen[s]["name"], key="pa_scenario")
if "pa" not in ss or ss.pa["scenario"] != scenario:
    ss.pa = fresh(scenario)
if top[1].button("New game", key="pa_new", icon=":material/restart_alt:"):
    ss.pa = fresh(scenario)
    st.rerun()
g = ss.pa
top[2].markdown(f"**Round {g['round']}.** Round-2 draft rule of this scenario: {scen[scenario]['draft_text']}"
                + ("  \nRound 2 starts with the party after the one that took the last round-1 card (rule W10)."
                   if g["round"] == 2 else ""))


def town_of(g: dict) -> Town:
    town, _ = wv.build_town(g["town"])
    return town


def rule_text(rule_id: str) -> str:
    try:
        r = register().get(rule_id)
        return f"**{r.id}** ({r.title})"
    except BadInput:
        return f"**{rule_id}**"


seen = set(p["card"] for p in g["town"]) | set(g["pile"]) | set(g["hand"])
left, right = st.columns(2)

# ----------------------------------------------------------------------------- opponent's turn
with left:
    st.subheader("The opponent's draft")
    circle = st.multiselect("Circle cards left, from the next one clockwise", [c for c in range(18) if c not in seen],
                            format_func=lambda c: f"Card {c}", key=f"pa_circle_{len(g['log'])}")
    deck_top = None
    if g["round"] == 1:
        options = [None] + [c for c in range(18) if c not in seen and c not in circle]
        deck_top = st.selectbox("Preference deck's top card", options, key=f"pa_deck_{len(g['log'])}",
                                format_func=lambda c: "(none)" if c is None else wv.card_label(c))
    if st.button("What does the opponent draft?", key="pa_ask", type="primary", disabled=not circle):
        with guarded("Opponent: "):
            d = opp.opponent_draft(scenario, g["round"], tuple(circle), deck_top, tuple(g["pile"]),
                                   tuple(g["after1"]) if g["after1"] else None, rules)
            g["pending"] = d.to_dict()
    d = g.get("pending")
    if d:
        msg = f"The opponent takes **card {d['take']}**"
        if d["skipped"]:
            msg += f", skipping {d['skipped']} (they go to you, to place in circle order)"
        if d.get("deck_card") is not None:
            msg += f", and also takes the deck's top card **{d['deck_card']}**"
        st.success(msg + f". Rule: {rule_text(d['rule'])}.", icon=":material/smart_toy:")
        if st.button("Record this draft", key="pa_record"):
            dec = opp.Decision(d["take"], tuple(d["skipped"]), d.get("deck_card"), d["rule"], d["round"])
            g["pile"] = list(opp.add_to_pile(tuple(g["pile"]), dec, rules))
            g["hand"] += list(d["skipped"])
            g["log"].append({"who": "opponent", "round": g["round"], "card": d["take"], "skipped": d["skipped"],
                             "deck_card": d.get("deck_card"), "rule": d["rule"]})
            g["pending"] = None
            st.rerun()

# ----------------------------------------------------------------------------- player's turn
with right:
    st.subheader("Your turn")
    if g["hand"]:
        st.info(f"Place the cards the opponent skipped first: {g['hand']} (in this order).")
        card = g["hand"][0]
        st.markdown(f"Card to place: **{card}**")
        skipped: list[int] = []
    else:
        card = st.selectbox("The card you draft", [c for c in range(18) if c not in seen],
                            format_func=wv.card_label, key=f"pa_card_{len(g['log'])}")
        skipped = st.multiselect("Circle cards you skip (they go to the opponent, in circle order)",
                                 [c for c in range(18) if c not in seen and c != card],
                                 format_func=lambda c: f"Card {c}", key=f"pa_skip_{len(g['log'])}")
    pc = st.columns(3)
    x = pc[0].number_input("x", -20, 40, 0, key=f"pa_x_{len(g['log'])}")
    y = pc[1].number_input("y", -20, 40, 0, key=f"pa_y_{len(g['log'])}")
    rot = pc[2].radio("Rotation", [0, 180], horizontal=True, key=f"pa_rot_{len(g['log'])}")
    if card is not None:
        st.html(wv.card_preview(card, int(rot)))
    if st.button("Place it", key="pa_place", type="primary", disabled=card is None):
        try:
            place(town_of(g), Placement(int(card), int(x), int(y), int(rot)))
        except BadInput as exc:
            st.error(f"Not placed: {exc}", icon=":material/error:")
        else:
            g["town"].append({"card": int(card), "x": int(x), "y": int(y), "rot": int(rot)})
            if g["hand"]:
                g["hand"] = g["hand"][1:]
            else:
                g["pile"] += list(skipped)
            g["log"].append({"who": "player", "round": g["round"], "card": int(card), "skipped": list(skipped),
                             "placement": f"({x},{y}) rot {rot}", "rule": "W-place"})
            st.rerun()
    if g["round"] == 1 and st.button("Round 1 is over: deal round 2", key="pa_round2"):
        from solver.wagons.scoring import pile_counts, town_features

        g["after1"] = [town_features(town_of(g)).territories, pile_counts(tuple(g["pile"])).territories]
        g["round"] = 2
        g["log"].append({"who": "game", "round": 2, "rule": "W-rounds",
                         "note": f"territories after round 1: you {g['after1'][0]}, opponent {g['after1'][1]}"})
        st.rerun()

# ----------------------------------------------------------------------------- both towns
st.subheader("Both towns")
a, b = st.columns(2)
town = town_of(g)
a.html(wv.town_html(town, caption=f"Your town ({len(town.placements)} cards)"))
with b:
    st.markdown(f"**Opponent's pile** ({len(g['pile'])} cards, oldest first; the last is on top)")
    st.html("".join(wv.card_preview(c) for c in g["pile"]) or "<i>empty</i>")
if g["log"]:
    with st.expander("Game log", expanded=False):
        st.dataframe(pl.DataFrame([{k: str(v) for k, v in e.items()} for e in g["log"]]), hide_index=True,
                     width="stretch")
json_download("Download the game so far", g, "lone-cowboy-game.json", "pa_download")

st.subheader("Score")
if g["town"]:
    with guarded("Scores: "):
        wv.show_scores(wv.score(dumps(wv.town_json(town)), tuple(g["pile"]), scenario, dumps(rules.to_dict())),
                       player_label="You")
else:
    st.caption("Scores appear once you have placed a card.")
