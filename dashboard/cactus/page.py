"""Cactus Town: The Lone Ranger: marshal-arrival odds per round (exact), the lone ranger's turn in a
town you set up, and duel odds. Every figure comes from :mod:`solver.cactus`."""

from __future__ import annotations

import copy
import json
from fractions import Fraction

import altair as alt
import polars as pl
import streamlit as st

from dashboard.shared import draw
from dashboard.shared.caching import dumps
from dashboard.shared.readings import make_rules, option_widget, rules_class, rules_summary
from dashboard.shared.widgets import guarded, json_download, json_upload, kept, kept_tabs, page_header
from dashboard.shared.words import sentence, whole

page_header("cactus")
cls = rules_class("cactus")
st.caption(rules_summary("cactus", cls))


def rules_json() -> str:
    return dumps(make_rules("cactus", cls).to_json())


def _rules(text: str):
    from solver.cactus.rules import CactusRules

    return CactusRules.from_json(json.loads(text))


tab_odds, tab_follow, tab_town, tab_duel = kept_tabs(["Marshal's arrival", "Follow a game", "Lone ranger's turn",
                                                      "Duel odds"], "ct_tab")

# ----------------------------------------------------------------------------- marshal odds


@st.cache_data(show_spinner="Computing the exact odds...", max_entries=128)
def marshal(players: int | None, rules_text: str) -> dict:
    from solver.cactus.odds import marshal_odds

    return marshal_odds(players, _rules(rules_text))


def odds_frame(result: dict) -> pl.DataFrame:
    rows = []
    for rnd, p in result["rounds"].items():
        f = Fraction(p)
        rows.append({"round": int(rnd), "exact": p, "probability": float(f),
                     "by this round": result["by_round"][rnd], "cumulative": float(Fraction(result["by_round"][rnd]))})
    return pl.DataFrame(rows).sort("round")


def listed(games: list[str]) -> str:
    """Game sizes in words: "3, 4 and 5 players", "solo and 2 players"."""
    short = [g.removesuffix(" players") if g != games[-1] else g for g in games]
    return f"{', '.join(short[:-1])} and {short[-1]}"


def same_odds(rows: list[dict]) -> list[list[str]]:
    """The game sizes whose arrival odds are identical, round for round (their chart lines coincide)."""
    by_game: dict[str, list] = {}
    for r in rows:
        by_game.setdefault(r["game"], []).append((r["round"], r["exact"]))
    groups: dict[tuple, list[str]] = {}
    for game, odds in by_game.items():
        groups.setdefault(tuple(sorted(odds)), []).append(game)
    return [games for games in groups.values() if len(games) > 1]


with tab_odds:
    left, right = st.columns([1, 2])
    with left:
        mode = kept(st.radio, "ct_mode", "solo", "Game", ["solo", 2, 3, 4, 5], horizontal=True,
                    format_func=lambda m: "Solo" if m == "solo" else f"{m} players")
        with st.expander("Open-rule options (shared with the Verification page)", expanded=False):
            fields = (["solo_events", "solo_event_cards", "short_deck", "added_card"] if mode == "solo" else [])
            fields += ["marshal_discard", "duel_win_chance", "stagecoach_short"]
            for name in fields:
                option_widget("cactus", cls, name, "ct_opt")
    players = None if mode == "solo" else int(mode)
    with guarded("Marshal odds: "):
        result = marshal(players, rules_json())
        df = odds_frame(result)
        with right:
            c = st.columns(3)
            c[0].metric("Earliest round", result["earliest"])
            c[1].metric("Latest round", result["latest"] if result["latest"] is not None else "open")
            exp = result.get("expected_round")
            c[2].metric("Expected round", f"{float(Fraction(exp)):.2f}" if exp else "-", help=f"exact: {exp}")
        bars = alt.Chart(df).mark_bar(color="#b5651d").encode(
            x=alt.X("round:O", title="round", axis=alt.Axis(labelAngle=0)), y=alt.Y("probability:Q", title="chance he arrives that round"),
            tooltip=["round", "exact", alt.Tooltip("probability:Q", format=".4f"), "by this round"])
        line = alt.Chart(df).mark_line(point=True, color="#0d47a1").encode(
            x="round:O", y=alt.Y("cumulative:Q", title="by this round"))
        chart = alt.layer(bars, line).resolve_scale(y="independent").properties(
            title=f"Marshal's arrival, {'solo' if players is None else f'{players} players'}", height=300,
            padding={"top": 16, "left": 5, "right": 5, "bottom": 5})  # the title clear of the options box above
        st.altair_chart(chart, width="stretch")
        st.dataframe(df.with_columns(pl.col("probability").round(5), pl.col("cumulative").round(5)),
                     hide_index=True, width="stretch")
        with st.expander("Compare solo and 2-5 players", icon=":material/stacked_line_chart:"):
            allrows = []
            for m in (None, 2, 3, 4, 5):
                r = marshal(m, rules_json())
                allrows += [{"game": "solo" if m is None else f"{m} players", "round": int(k),
                             "exact": v, "probability": float(Fraction(v))} for k, v in r["rounds"].items()]
            st.altair_chart(alt.Chart(pl.DataFrame(allrows)).mark_line(point=True).encode(
                x=alt.X("round:O", axis=alt.Axis(labelAngle=0)), y="probability:Q", color="game:N",
                tooltip=["game", "round", "exact"]).properties(title="Marshal's arrival: every game size", height=260),
                width="stretch")
            for same in same_odds(allrows):
                st.caption(f"{listed(same)} have exactly the same odds: their lines lie on top of each other.")
        if result.get("never") not in (None, "0"):
            st.warning(f"Chance the marshal never arrives: {result['never']}. {result.get('note', '')}")
        elif result.get("note"):
            st.caption(result["note"])

# ----------------------------------------------------------------------------- lone ranger's turn

EXAMPLE = "example-ranger-chase.json"


@st.cache_data(show_spinner=False)
def example_position() -> dict:
    from solver.io.read import read_json
    from solver.paths import SCENARIOS

    return read_json(SCENARIOS / "cactus" / EXAMPLE)


@st.cache_data(show_spinner=False, max_entries=256)
def decide(position_text: str, rules_text: str) -> dict:
    from solver.cactus.ranger import decide as engine_decide

    pos = json.loads(position_text)
    pos.pop("rules", None)
    return engine_decide(pos, _rules(rules_text))


def _validated(doc: dict) -> dict:
    """An uploaded position through the CLI's own loader, returned complete (defaults filled in)."""
    from solver.cactus.ranger import position_from_json

    return position_from_json(doc)


with tab_town:
    ss = st.session_state
    if "ct_pos" not in ss:
        ss.ct_pos = copy.deepcopy(example_position())
        ss.ct_ver = 0
    if f"ct_grid_{ss.ct_ver}" not in ss and "ct_position_live" in ss:  # the inputs were not drawn on the last
        ss.ct_pos = {**ss.ct_pos, **ss.ct_position_live}  # run (another page was shown): what was entered comes back
    doc = ss.ct_pos
    if doc.get("note"):
        st.caption(doc["note"])
    if doc.get("rules"):
        st.caption(f"This file names readings {doc['rules']}; the page uses this session's readings instead "
                   "(set them on the Verification page or in the option boxes here).")
    up = json_upload("Upload a position (docs/cactus.md JSON)", "ct_upload", _validated)
    if up is not None:
        ss.ct_pos, ss.ct_ver = up, ss.ct_ver + 1
        ss.pop("ct_position_live", None)
        st.rerun()
    v = ss.ct_ver
    edit, view = st.columns([1, 1])
    with edit:
        st.markdown("**Town** (`?` = face down; type a building's name once revealed)")
        grid = st.data_editor(pl.DataFrame({f"x{x}": [doc["town"][y][x] for y in range(5)] for x in range(5)}),
                              key=f"ct_grid_{v}", width="stretch", hide_index=False)
        grid_rows = [[str(r[f"x{x}"] or "?") for x in range(5)] for r in pl.DataFrame(grid).to_dicts()]
        rc = st.columns(2)
        rx = rc[0].number_input("Lone ranger x (column)", 0, 4, int(doc["ranger"][0]), key=f"ct_rx_{v}")
        ry = rc[1].number_input("Lone ranger y (row)", 0, 4, int(doc["ranger"][1]), key=f"ct_ry_{v}")
        st.markdown("**Outlaws** (up to 3; an escaped outlaw has left for the wilderness)")
        outlaws = st.data_editor(
            pl.DataFrame([{"name": o["name"], "x": (o.get("at") or [None, None])[0], "y": (o.get("at") or [None, None])[1],
                           "plunder": o.get("plunder", 0), "escaped": bool(o.get("escaped", False))}
                          for o in doc["outlaws"]],
                         schema={"name": pl.String, "x": pl.Int64, "y": pl.Int64, "plunder": pl.Int64, "escaped": pl.Boolean}),
            num_rows="dynamic", key=f"ct_outlaws_{v}", width="stretch")
        st.markdown("**Target buildings** (the outlaws' 4 target cards)")
        targets = st.data_editor(
            pl.DataFrame([{"building": t["building"], "plundered": bool(t.get("plundered", False))}
                          for t in doc.get("targets", [])], schema={"building": pl.String, "plundered": pl.Boolean}),
            num_rows="dynamic", key=f"ct_targets_{v}", width="stretch")
        card = st.text_input("Action card as printed: `with visible target | without` (e.g. `DUEL/RUN SNEAK | SPRINT`)",
                             doc.get("card", ""), key=f"ct_card_{v}")
        from solver.cactus.events import table as event_table

        keys = [None] + [e.key for e in event_table().events if not e.ends_game]
        event = st.selectbox("This round's event", keys, index=keys.index(doc.get("event")) if doc.get("event") in keys else 0,
                             format_func=lambda k: "none" if k is None else event_table().get(k).name, key=f"ct_event_{v}")
    position = {"town": grid_rows, "ranger": [int(rx), int(ry)],
                "outlaws": [{"name": o["name"] or f"outlaw {i + 1}", "plunder": whole(o["plunder"], 0),
                             "escaped": bool(o["escaped"]),
                             **({} if o["escaped"] else {"at": [whole(o["x"]), whole(o["y"])]})}
                            for i, o in enumerate(pl.DataFrame(outlaws).to_dicts())],
                "targets": [t for t in pl.DataFrame(targets).to_dicts() if t["building"]],
                "card": card, "event": event, **{k: doc[k] for k in ("duel", "came_from") if k in doc}}
    ss.ct_position_live = position  # the town the round companion's lone ranger plays on
    with view:
        with guarded("Lone ranger: "):
            res = decide(dumps(position), rules_json())
            st.markdown(f"**Visible target:** {'yes' if res['visible_target'] else 'no'} (rule C9) - he follows "
                        f"the **{'with visible target' if res['row'] == 'visible' else 'no visible target'}** row: "
                        f"`{res['sequence']}`")
            cl = res["closest"]
            st.markdown(f"**Closest outlaw(s):** {', '.join(cl['outlaws']) or '-'} at distance {cl['distance']}"
                        + (f" - {cl['note']}" if cl.get("tie") else " (rule C6)"))
            outs = res["outcomes"]
            labels = [f"{o['p']}: " + " then ".join(_a.get("icon", "?") + (f" to {_a['to']}" if _a.get("to") else "")
                                                     + (" (skipped)" if _a.get("skipped") else "") for _a in o["actions"])
                      for o in outs]
            pick = st.radio("What he does (each outcome with its exact chance)", range(len(outs)),
                            format_func=lambda i: labels[i], key="ct_outcome") if outs else None
            pieces: dict = {}
            for o in position["outlaws"]:
                if o.get("at"):
                    pieces.setdefault((o["at"][1], o["at"][0]), []).append("outlaw")
                    if o.get("plunder"):
                        pieces[(o["at"][1], o["at"][0])].append("plunder")
            for t in res.get("visible", []):
                if t.get("kind") == "building" and t.get("at"):
                    pieces.setdefault((t["at"][1], t["at"][0]), []).append("target")
            pieces.setdefault((position["ranger"][1], position["ranger"][0]), []).append("ranger")
            path = []
            if pick is not None and pick < len(outs):
                for a in outs[pick]["actions"]:
                    path += [(c[1], c[0]) for c in a.get("path") or []]
            st.html(draw.cactus_town_html(5, pieces, path=path, names=position["town"]))
            st.caption("Arrows number the squares he moves through in the chosen outcome.")
            with st.expander("Engine answer (JSON)"):
                st.json(res, expanded=False)
    json_download("Download this position", position, "ranger-position.json", "ct_download")

# ----------------------------------------------------------------------------- duel odds


@st.cache_data(show_spinner=False, max_entries=256)
def duel(a: int, d: int, events: tuple[str, ...], ab: int, db: int, shootout: bool, rules_text: str) -> dict:
    from solver.cactus.duel import duel_odds

    return duel_odds(a, d, events, ab, db, shootout, _rules(rules_text))


with tab_duel:
    from solver.cactus.events import table as event_table

    c = st.columns(4)
    a = kept(c[0].number_input, "ct_duel_a", 3, "Initiator's second shot", 0, 20)  # kept across page visits
    d = kept(c[1].number_input, "ct_duel_d", 2, "Defender's second shot", 0, 20)
    ab = kept(c[2].number_input, "ct_duel_ab", 0, "Initiator's token/building bonus", -10, 10)
    db = kept(c[3].number_input, "ct_duel_db", 0, "Defender's token/building bonus", -10, 10)
    from solver.cactus.duel import affects_duels

    keys = [e.key for e in event_table().events if not e.ends_game and affects_duels(e.key)]
    events = kept(st.multiselect, "ct_duel_events", [], "This round's event (one card a round; only those that "
                  "change duels)", keys, format_func=lambda k: event_table().get(k).name)
    shootout = kept(st.checkbox, "ct_duel_shootout", False, "The early Shootout duel (+2 to the initiator)")
    with st.expander("Duel options (shared with the Verification page)"):
        for name in ("die_sides", "duel_ties", "fast_draw_modifiers"):
            option_widget("cactus", cls, name, "ct_duel_opt")
    with guarded("Duel: "):
        r = duel(int(a), int(d), tuple(events), int(ab), int(db), bool(shootout), rules_json())
        m = st.columns(3)
        for col, key, label in zip(m, ("win", "lose", "tie"), ("Initiator wins", "Initiator loses", "Tie stands")):
            col.metric(label, r[key], help=f"{float(Fraction(r[key])):.4f}")
        df = pl.DataFrame([{"outcome": k, "exact": r[k], "probability": float(Fraction(r[k]))}
                           for k in ("win", "lose", "tie")])
        st.altair_chart(alt.Chart(df).mark_bar().encode(
            x=alt.X("outcome:N", sort=["win", "lose", "tie"], axis=alt.Axis(labelAngle=0)), y=alt.Y("probability:Q", scale=alt.Scale(domain=[0, 1])),
            color=alt.Color("outcome:N", legend=None, scale=alt.Scale(domain=["win", "lose", "tie"],
                                                                       range=["#2e7d32", "#c62828", "#9e9e9e"])),
            tooltip=["outcome", "exact", "probability"]
        ).properties(height=220, title="Duel outcome for the initiator"), width="stretch")
        st.caption(f"{r['dice_per_roll']} {'die' if r['dice_per_roll'] == 1 else 'dice'} per roll, {r['die_sides']}-sided; ties: {r['ties']}; "
                   f"second shot {'used' if r['second_shot_used'] else 'not used (Sandstorm)'}. {sentence(r.get('note', ''))}")

# ----------------------------------------------------------------------------- round companion

with tab_follow:
    from dashboard.cactus import companion as cactus_companion

    cactus_companion.render()
