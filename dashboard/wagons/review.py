"""The after-game review of a Lone Cowboy game, for the play page to show at game end:
:func:`show_review` draws the best layout of the player's same cards (:mod:`solver.wagons.review.town`),
its breakdown, a "show me" overlay on the player's town, the gap per scoring part as a chart, and
the BG Stats export (:mod:`solver.wagons.record.bgstats`); :func:`show_was_winnable` asks whether the deal
itself could have been won with perfect play (:mod:`solver.wagons.review.deal`) and offers the winning
line to step through on the table. Every number is the solver's; this module only
asks and draws. Proven results are cached for every session (:func:`dashboard.shared.caching.cache_final`);
a result cut short by the time limit is kept for this session only."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import altair as alt
import polars as pl
import streamlit as st

from dashboard.shared.caching import cache_final, dumps, proven
from dashboard.shared.runs import ProgressBox, keep_stopped, run_with_progress, stopped_note
from dashboard.shared.widgets import guarded, kept
from dashboard.shared.words import counted
from dashboard.wagons import view as wv
from dashboard.wagons.cards import reading as card_reading
from dashboard.wagons.drawing import overlay_svg
from solver.errors import BadInput
from solver.execution.progress import OnProgress
from solver.stopping import StopSignal

TIME_LIMIT = 60
"""Seconds, the default of `wagons best-layout --time-limit` (solver.wagons.review.town.DEFAULT_TIME_LIMIT)."""
WIN_TIME_LIMIT = 30
"""Seconds, the default of `wagons can-win --time-limit` and `wagons was-winnable --time-limit`."""
WHERE = {"lost": "Lost here: the best layout scores more",
         "given": "Given up here: the best layout scores less",
         "same": "Same in both towns"}
GAP_COLOURS = ["#c62828", "#1565c0", "#9e9e9e"]


def gap_key() -> str:
    """The gap chart's colour key as HTML text that wraps to the column's width."""
    return ("<div style='font:13px sans-serif'><b>Difference</b><br>" + "".join(
        f"<span style='display:inline-block;margin:2px 12px 2px 0'><span style='display:inline-block;width:12px;"
        f"height:12px;background:{c};vertical-align:middle'></span> {w}</span>"
        for w, c in zip(WHERE.values(), GAP_COLOURS)) + "</div>")


@cache_final(proven, max_entries=64)
def analysis(town_json_text: str, pile: tuple[int, ...], scenario: str, readings_json: str, cards: str,
             time_limit: float, _progress: OnProgress | None = None) -> dict:
    """The review (solver.wagons.review.town.review_town) as a plain dict; cached only when proven.
    ``_progress`` (not part of the key) receives the search's progress."""
    from solver.wagons.review.town import review_town
    from solver.wagons.town import town_from_dict

    town = town_from_dict(json.loads(town_json_text))
    return review_town(town, tuple(pile), scenario, wv.readings_from_json(readings_json), time_limit, _progress,
                       data=wv.cards_data(cards)).to_dict()  # with the numbers read off the player's cards


def gap_frame(result: dict) -> pl.DataFrame:
    """One row per scoring part: its plain-English name, both scores, the gap and what it means."""
    rows = [{"part": p["label"], "yours": p["player"], "best layout": p["best"], "gap": p["gap"],
             "where": WHERE["lost"] if p["gap"] > 0 else WHERE["given"] if p["gap"] < 0 else WHERE["same"]}
            for p in result["parts"]]
    return pl.DataFrame(rows, schema={"part": pl.String, "yours": pl.Int64, "best layout": pl.Int64,
                                      "gap": pl.Int64, "where": pl.String})


def gap_chart(frame: pl.DataFrame) -> alt.Chart:
    """Horizontal bars: points the best layout scores more (or less) per scoring part."""
    order = frame["part"].to_list()
    return alt.Chart(frame).mark_bar().encode(
        y=alt.Y("part:N", sort=order, title="Scoring part", axis=alt.Axis(labelLimit=260)),
        x=alt.X("gap:Q", title=["Points: the best layout", "minus your town"], axis=alt.Axis(tickMinStep=1)),
        color=alt.Color("where:N", title="Difference", scale=alt.Scale(domain=list(WHERE.values()), range=GAP_COLOURS),
                        legend=None),  # the key is drawn under the chart as text that wraps (a phone)
        tooltip=[alt.Tooltip("part:N", title="Scoring part"), alt.Tooltip("yours:Q", title="Your town"),
                 alt.Tooltip("best layout:Q", title="Best layout"), alt.Tooltip("gap:Q", title="Difference")],
    ).properties(title=alt.TitleParams(["Where the points were lost,", "per scoring part"]),  # two lines: a phone
                 height=alt.Step(26))
    # a band per part (a fixed pixel height collapses the bands when Streamlit fits the chart to its column)


def _town(placements: list[dict]):
    from solver.wagons.town import town_from_dict

    return town_from_dict({"placements": placements})


def _last_result(key: str, game: tuple) -> dict | None:
    """The last result of this search for the same game (whatever its time limit), else None: a search runs
    only when its button is pressed, never because the page was drawn again."""
    last = st.session_state.get(f"{key}_result")
    return last[1] if last and last[0][:-1] == game else None


def _solve(state, time_limit: float, key: str, run: bool) -> dict | None:
    """The review of ``state``'s town: the one kept for this game, or (``run``: its button was pressed) a new
    search with a progress bar toward the time limit."""
    town_json_text = dumps(wv.town_json(state.town))
    readings_json = dumps(state.readings.to_json())
    game = (town_json_text, tuple(state.pile), state.scenario, readings_json, card_reading.cards_json())
    inputs = (*game, float(time_limit))
    if not run:
        return _last_result(key, game)
    progress = ProgressBox()
    with st.status(f"Searching the best layout of your {counted(len(state.town.placements), 'card')} "
                   f"(at most {time_limit:g} s)...", expanded=True) as box:
        result = run_with_progress(
            analysis, *inputs, progress, label="Searching the best layout", expected_seconds=float(time_limit),
            box=progress, cancel=StopSignal(), keep=keep_stopped(f"{key}_result", inputs))
        box.update(label="Best layout " + ("found and proven optimal" if result["proven"] else
                                           f"found in {time_limit:g} s, not proven optimal"),
                   state="complete", expanded=False)
    st.session_state[f"{key}_result"] = (inputs, result)
    return result


def _limit_and_ask(key: str, default: int, help: str, button: str, icon: str, primary: bool = False
                   ) -> tuple[int, bool]:
    """The search's time-limit slider (its value kept while the panel is hidden) and the button that starts
    it: (limit, pressed in this run)."""
    limit = kept(st.slider, f"{key}_limit", default, "Time limit for the search (seconds)", 1, 120, help=help)
    return limit, st.button(button, key=f"{key}_run", type="primary" if primary else "secondary", icon=icon)


def show_review(state, key: str = "wr") -> None:
    """The after-game review of a finished game (solver.wagons.game.GameState), and its BG Stats export."""
    from solver.wagons.game import is_over

    st.subheader("After the game: the best layout of your cards")
    if not is_over(state):
        st.info("The review appears once the game is over (every card drafted and placed).")
        return
    st.caption("The same cards, in the order you received them, each placed legally when it arrived: the best "
               "town the optimizer finds, scored against the same opponent's pile with the same readings.")
    limit, asked = _limit_and_ask(key, TIME_LIMIT, "As `wagons best-layout --time-limit` (default 60). When it runs "
                                  "out, the best town found so far is shown and marked not proven.",
                                  "Review my game", ":material/auto_awesome:", primary=True)
    with guarded("Review: "):
        result = _solve(state, float(limit), key, asked)
        if result is not None:
            _show_result(result, key)
    show_bgstats_export(state, key)


def _show_result(r: dict, key: str) -> None:
    mine, best = r["mine"]["player"]["total"], r["best"]["player"]["total"]
    with st.container(horizontal=True, gap="medium"):  # one row, on a phone too
        st.metric("Your town", mine, width="content")
        st.metric("Best layout", best, width="content")
        st.metric("Points left on the table", r["gap"], width="content")
    if r["proven"]:
        st.success(r["headline"], icon=":material/verified:")
    else:
        st.warning(f"{r['headline']} A longer time limit might find more.",
                   icon=":material/hourglass_bottom:")
    stopped_note(r)
    st.markdown(r["outcome"])
    _show_towns(r, key)
    frame = gap_frame(r)
    left, right = st.columns([3, 2])
    with left:
        st.altair_chart(gap_chart(frame), width="stretch")
        st.html(gap_key())
    with right:
        st.markdown("**Score breakdown**")
        table = frame.select("part", "yours", "best layout", "gap").rename({"best layout": "best"})  # short: fit
        total = pl.DataFrame([{"part": "total", "yours": mine, "best": best, "gap": r["gap"]}],
                             schema=table.schema)
        st.dataframe(pl.concat([table, total]), hide_index=True, width="stretch")
        st.caption("yours: your town's points; best: the best layout's; gap: best minus yours.")
    st.markdown("**Where the points went**")
    changed = [p for p in r["parts"] if p["gap"] != 0]
    for p in changed:
        st.markdown(f"- {p['explanation']}")
    if not changed:
        st.markdown("- Every scoring part scores the same in both towns.")
    elif len(changed) < len(r["parts"]):
        st.caption("The other scoring parts score the same in both towns.")


def _show_towns(r: dict, key: str) -> None:
    town, best_town = _town(r["town"]), _town(r["best_town"])
    overlay = st.toggle("Show me: lay the best layout over my town", key=f"{key}_show_me")
    if overlay:
        st.html(overlay_svg(wv.town_cells(town), wv.town_cells(best_town),
                            caption="Your town, with the best layout laid over it"))
        st.caption("Each square shows your territory; the inset is the best layout's territory there. Dashed blue "
                   "lines outline the best layout's cards; orange squares are where the two towns differ.")
    else:
        left, right = st.columns(2)
        left.html(wv.town_html(town, caption=f"Your town: {r['mine']['player']['total']} points"))
        right.html(wv.town_html(best_town, caption=f"Best layout: {r['best']['player']['total']} points"
                                + (" (proven optimal)" if r["proven"] else " (best found, not proven)")))
    with st.expander("The best layout's placements, in order"):
        st.dataframe(pl.DataFrame(r["best_town"]), hide_index=True)


def show_bgstats_export(state, key: str = "wr") -> None:
    """The finished game as a BG Stats play: a JSON file and the app's import link."""
    from solver.wagons.record import bgstats

    st.subheader("Log this game in BG Stats")
    c = st.columns([2, 2, 1, 1, 2])
    name = c[0].text_input("Your name", key=f"{key}_bg_name", help="As BG Stats shows it (the player in the export)")
    now = datetime.now(UTC)
    day = c[1].date_input("Played on", value=now.date(), key=f"{key}_bg_day")
    at = c[2].time_input("at (UTC)", value=now.time().replace(second=0, microsecond=0), key=f"{key}_bg_time")
    minutes = c[3].number_input("Minutes", min_value=1, max_value=bgstats.MAX_MINUTES, value=None, step=1,
                                key=f"{key}_bg_minutes", help="How long the game took (optional)")
    where = c[4].text_input("Where (optional)", key=f"{key}_bg_where")
    if not name.strip():
        st.info("Enter your name to export the game.", icon=":material/badge:")
        return
    try:
        when = datetime.combine(day, at) if day is not None and at is not None else None
        play = bgstats.play_json(state, name, when, int(minutes) if minutes is not None else None, where or None)
    except BadInput as exc:
        st.error(f"BG Stats: {exc}", icon=":material/error:")
        return
    b = st.columns(2)
    b[0].download_button("Download the BG Stats play (JSON)", json.dumps(play, indent=1, ensure_ascii=False),
                         file_name="lone-cowboy-bgstats.json", mime="application/json", key=f"{key}_bg_down",
                         icon=":material/download:")
    b[1].link_button("Open in BG Stats", bgstats.import_link(play), icon=":material/open_in_new:")
    with st.expander("The play as BG Stats receives it"):
        st.json(play)


# ----------------------------------------------------------------------------- could the deal be won?

@cache_final(proven, max_entries=64)
def winnable_analysis(scenario: str, readings_json: str, seed: int | None, circle: tuple[int, ...],
                      deck: tuple[int, ...], cards: str, time_limit: float, _progress: OnProgress | None = None) -> dict:
    """Can-win on the deal (solver.wagons.review.deal.deal_winnable) as a plain dict with the winning
    line's game file (``"record"``, or None); cached only when decided and proven."""
    from solver.wagons.review.deal import Deal, deal_winnable

    answer, record = deal_winnable(scenario, Deal(seed, tuple(circle), tuple(deck)), wv.readings_from_json(readings_json),
                                   time_limit, _progress, data=wv.cards_data(cards))
    return {**answer.to_dict(), "record": record}


def _winnable(state, time_limit: float, key: str, run: bool) -> dict | None:
    """Could this game's deal be won: the answer kept for this deal, or (``run``) a new search."""
    from solver.wagons.review.deal import deal_of

    deal = deal_of(state)
    game = (state.scenario, dumps(state.readings.to_json()), deal.seed, deal.circle, deal.deck, card_reading.cards_json())
    inputs = (*game, float(time_limit))
    if not run:
        return _last_result(key, game)
    progress = ProgressBox()
    with st.status(f"Searching every line of play on this deal (at most {time_limit:g} s)...", expanded=True) as box:
        result = run_with_progress(
            winnable_analysis, *inputs, progress, label="Searching the draft lines", expected_seconds=float(time_limit),
            box=progress, cancel=StopSignal(), keep=keep_stopped(f"{key}_result", inputs))
        box.update(label={True: "A winning line was found", False: "Proven: no line of play wins this deal",
                          None: "Not decided within the time limit"}[result["winnable"]], state="complete",
                   expanded=False)
    st.session_state[f"{key}_result"] = (inputs, result)
    return result


def show_was_winnable(state, key: str = "ww") -> None:
    """Could the finished game's deal have been won with perfect play? The answer, and the winning line."""
    from solver.wagons.game import is_over

    st.subheader("Could this deal have been won?")
    if not is_over(state):
        return
    st.caption("Every way to draft and place on the same deal, against the same opponent following its rules, "
               "with the same readings: yes with a winning line, no with a proof, or not decided in time.")
    limit, asked = _limit_and_ask(key, WIN_TIME_LIMIT, "As `wagons can-win --time-limit` (default 30). When it runs "
                                  "out, the answer is 'not decided'.", "Was my deal winnable?",
                                  ":material/travel_explore:")
    with guarded("Could the deal be won: "):
        result = _winnable(state, float(limit), key, asked)
        if result is not None:
            _show_winnable(result, key)


def _show_winnable(r: dict, key: str) -> None:
    if r["winnable"] is True:
        st.success(f"Yes: this deal could be won, by {r['margin']} point{'s' if r['margin'] != 1 else ''} "
                   "(the line below, replayed through the rules engine).", icon=":material/emoji_events:")
    elif r["winnable"] is False:
        st.info(f"No: no line of play beats the opponent on this deal (proven: every draft line's margin is at "
                f"most {r['bound']}).", icon=":material/verified:")
    else:
        st.warning(f"Not decided: {r['note']} ({r['lines_open']} of {r['lines']} draft lines open; best margin "
                   f"found {r['margin']}). A longer time limit may decide it.", icon=":material/hourglass_bottom:")
    stopped_note(r)
    if r["low_confidence"]:
        st.caption("Rests on low-confidence goal numbers (a reading, rule W11): " + ", ".join(r["low_confidence"]))
    if r["record"] is None:
        return
    _show_line(r, key)


def _line_rows(actions: list[dict]) -> pl.DataFrame:
    """The winning line's player actions, one row each, in plain words."""
    rows = []
    for a in actions:
        if "place" in a:
            p = a["place"]
            rows.append({"action": "place", "card": p["card"],
                         "detail": f"at ({p['x']}, {p['y']})" + (", turned" if p["rot"] else "")})
        else:
            rows.append({"action": "draft", "card": a["card"],
                         "detail": f"skipping {', '.join(map(str, a['skipped']))} (to the opponent)"
                         if a["skipped"] else "the next card"})
    return pl.DataFrame(rows, schema={"action": pl.String, "card": pl.Int64, "detail": pl.String})


def _show_line(r: dict, key: str) -> None:
    from solver.wagons.record.game_record import game_from_record

    end = game_from_record(r["record"])
    final = r["final"]
    left, right = st.columns([3, 2])
    left.html(wv.town_html(end.town, caption=f"The winning line's town: {final['player']['total']} points against "
                                             f"{final['opponent']['total']}"))
    with right:
        st.markdown("**Your drafts and placements on that line**")
        st.dataframe(_line_rows(r["actions"]), hide_index=True, width="stretch", height=280)
    c = st.columns(2)
    c[0].download_button("Download the winning line (game file)", json.dumps(r["record"], indent=1),
                         file_name="lone-cowboy-winning-line.json", mime="application/json", key=f"{key}_down",
                         icon=":material/download:")
    c[1].button("Step through it on the table", key=f"{key}_step", icon=":material/play_circle:",
                on_click=_step_through, args=(r["record"],),
                help="The table shows the winning line from its first action (use Redo to step); your own game "
                     "is kept and one click brings it back.")


def _step_through(record: dict) -> None:
    from dashboard.wagons import game as wg

    wg.show_line(record)


def back_to_own_game_bar() -> None:
    """While the table shows a winning line: say so, with the way back to the player's own game."""
    from dashboard.wagons import game as wg

    if st.session_state.get(wg.OWN_GAME) is None:
        return
    cols = st.columns([5, 2], vertical_alignment="center")
    cols[0].info("The table shows the winning line of your deal: Redo steps through it.", icon=":material/route:")
    cols[1].button("Back to my game", key="lc_back_own", on_click=wg.back_to_own, icon=":material/undo:",
                   width="stretch")
