"""Cactus Town: The Lone Ranger: marshal-arrival odds per round (exact), a followed game round by round
(:mod:`dashboard.cactus.companion`), the lone ranger's turn in a town you set up (:mod:`dashboard.cactus.town_tab`),
and duel odds (:mod:`dashboard.cactus.duel_tab`). Every figure comes from :mod:`solver.cactus`."""

from __future__ import annotations

import json
from fractions import Fraction

import altair as alt
import polars as pl
import streamlit as st

from dashboard.cactus import companion, duel_tab, town_tab
from dashboard.nav import page, page_header
from dashboard.shared import fit
from dashboard.shared.caching import dumps
from dashboard.shared.readings import make_readings, option_widget, readings_class, readings_summary
from dashboard.shared.widgets import guarded, kept, kept_tabs
from dashboard.shared.work.plaintext import plain

page_header("cactus")
fit.narrow_page()
cls = readings_class("cactus")
st.caption(readings_summary("cactus", cls))


def readings_json() -> str:
    return dumps(make_readings("cactus", cls).to_json())


def _readings(text: str):
    from solver.cactus.readings import CactusReadings

    return CactusReadings.from_json(json.loads(text))


TABS = page("cactus").tabs  # its room's record names them
FOLLOW = TABS[1]
shared_game = bool(st.query_params.get(companion.QUERY)) and companion.KEY not in st.session_state
companion.init()  # the followed game, whichever tab is open (a shared game's link opens its tab, or says why not)
if st.session_state.get("ctc_url_error"):
    shared_game = False
    st.error(plain(st.session_state.pop("ctc_url_error")), icon=":material/error:")
tab_odds, tab_follow, tab_town, tab_duel = kept_tabs(list(TABS), "ct_tab", first=FOLLOW if shared_game else None)

# ----------------------------------------------------------------------------- marshal odds


@st.cache_data(show_spinner="Computing the exact odds...", max_entries=128)
def marshal(players: int | None, readings_text: str) -> dict:
    from solver.cactus.odds import marshal_odds

    return marshal_odds(players, _readings(readings_text))


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


def arrival_chart(df: pl.DataFrame, players: int | None) -> alt.LayerChart:
    """The chance he arrives each round (bars) and by each round (line)."""
    bars = alt.Chart(df).mark_bar(color="#b5651d").encode(
        x=alt.X("round:O", title="round", axis=alt.Axis(labelAngle=0)),
        y=alt.Y("probability:Q", title="chance he arrives that round"),
        tooltip=["round", "exact", alt.Tooltip("probability:Q", format=".4f"), "by this round"])
    line = alt.Chart(df).mark_line(point=True, color="#0d47a1").encode(
        x="round:O", y=alt.Y("cumulative:Q", title="by this round"))
    return alt.layer(bars, line).resolve_scale(y="independent").properties(
        title=f"Marshal's arrival, {'solo' if players is None else f'{players} players'}", height=300,
        padding={"top": 16, "left": 5, "right": 5, "bottom": 5})  # the title clear of the options box above


def compare_sizes() -> None:
    """Every game size's odds on one chart, and which sizes have exactly the same odds."""
    allrows = []
    for m in (None, 2, 3, 4, 5):
        r = marshal(m, readings_json())
        allrows += [{"game": "solo" if m is None else f"{m} players", "round": int(k),
                     "exact": v, "probability": float(Fraction(v))} for k, v in r["rounds"].items()]
    st.altair_chart(alt.Chart(pl.DataFrame(allrows)).mark_line(point=True).encode(
        x=alt.X("round:O", axis=alt.Axis(labelAngle=0)), y="probability:Q", color="game:N",
        tooltip=["game", "round", "exact"]).properties(title="Marshal's arrival: every game size", height=260),
        width="stretch")
    for same in same_odds(allrows):
        st.caption(f"{listed(same)} have exactly the same odds: their lines lie on top of each other.")


def odds_tab() -> None:
    """The *Marshal's arrival* tab: the game size and the readings that change the odds, then the exact odds."""
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
        result = marshal(players, readings_json())
        df = odds_frame(result)
        with right:
            c = st.columns(3)
            c[0].metric("Earliest round", result["earliest"])
            c[1].metric("Latest round", result["latest"] if result["latest"] is not None else "open")
            exp = result.get("expected_round")
            c[2].metric("Expected round", f"{float(Fraction(exp)):.2f}" if exp else "-", help=f"exact: {exp}")
        st.altair_chart(arrival_chart(df, players), width="stretch")
        st.dataframe(df.with_columns(pl.col("probability").round(5), pl.col("cumulative").round(5)),
                     hide_index=True, width="stretch")
        with st.expander("Compare solo and 2-5 players", icon=":material/stacked_line_chart:"):
            compare_sizes()
        if result.get("never") not in (None, "0"):
            st.warning(f"Chance the marshal never arrives: {result['never']}. {result.get('note', '')}")
        elif result.get("note"):
            st.caption(result["note"])


# ----------------------------------------------------------------------------- the open tab

town_tab.init()  # the town the round companion's lone ranger plays on, whichever tab is open
for tab, draw in ((tab_odds, odds_tab), (tab_follow, companion.render),
                  (tab_town, lambda: town_tab.render(readings_json())), (tab_duel, lambda: duel_tab.render(cls, readings_json()))):
    if tab.open:  # only the open tab is drawn: the page shows at once, a tab's boxes are kept (widgets.kept)
        with tab:
            draw()
