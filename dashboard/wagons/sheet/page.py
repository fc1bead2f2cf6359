"""Lone Cowboy score sheet: build the town card by card, list the opponent's pile, see both scores,
the winner, illegal placements flagged inline, and the optimizer's best layout of the same cards.

The sheet is kept in the address, in this browser's kept work and in My games (:mod:`dashboard.wagons.sheet.work`);
the scores rest on the reading the player's Boom or Bust card settles (:mod:`dashboard.wagons.cards.reading`)."""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboard.nav import page_header
from dashboard.shared import games
from dashboard.shared.caching import dumps
from dashboard.shared.readings import make_readings, readings_class, readings_summary
from dashboard.shared.runs import ProgressBox, keep_stopped, run_with_progress, stopped_note
from dashboard.shared.widgets import guarded, json_download, json_upload, kept
from dashboard.shared.words import counted, whole
from dashboard.wagons import town_grid
from dashboard.wagons import view as wv
from dashboard.wagons.cards import face as card_face
from dashboard.wagons.cards import reading as card_reading
from dashboard.wagons.sheet import work as sh
from solver.stopping import StopSignal

page_header("wagons_sheet")

cls = readings_class("wagons")
readings = make_readings("wagons", cls)
readings_json = dumps(readings.to_json())
st.caption(readings_summary("wagons", cls))
ss = st.session_state
sh.restore()  # the address's sheet, else this browser's kept one, else the rulebook's example
GRID = "wg_grid"


QUARTERS = ("Each card is listed by its four quarters' icons in reading order: top left first, then top right, "
            "bottom left and bottom right.")  # which quarter of a card the sheet's lists name first


def card_picker(town, rows: list[dict], scenario: str) -> None:
    """Place a card by tapping: the engine's legal spots for it on the town, one tap places it there. The cards
    offered are those a game of ``scenario`` can still put in the town: not in it, not the opponent's and not
    set aside with the scenario's goal cards (rule:W9)."""
    from solver.wagons.data import load_data
    from solver.wagons.game import goal_fronts
    from solver.wagons.town import legal_placements

    st.markdown("**Place a card by tapping**")
    data = load_data()
    theirs = set(ss.get("wg_pile_sel", ss.wg_pile)) | set(goal_fronts(data.scenario(scenario).goals, data))
    free = [c for c in range(18) if c not in town.card_ids and c not in theirs]
    if not free:
        st.caption("Every card is in one of the towns.")
        return
    left, right = st.columns([1, 3])
    with left:
        if ss.get("wg_pick_card") not in free:
            ss.pop("wg_pick_card", None)  # placed, or given to the opponent: pick the next one
        cid = st.selectbox("Card", free, index=None, format_func=wv.card_label, key="wg_pick_card",
                           placeholder="Pick the card to place")
        legal = list(legal_placements(town, cid)) if cid is not None else []
        if cid is not None:
            town_grid.hand(cid, legal, GRID)
        if rows and st.button("Take back the last card", key="wg_undo_card", icon=":material/undo:"):
            sh.set_rows(rows[:-1])
            st.rerun()
    with right:
        if cid is None:
            st.caption("Pick a card: its legal squares turn green on the town, and one tap places it. "
                       f"{QUARTERS}")
            return
        st.caption(town_grid.help_line(cid))
        town_grid.grid(town, cid, legal, GRID, lambda p: sh.set_rows(rows + [p.to_dict()]), stamp=ss.wg_ver,
                       now=lambda: ss.wg_ver)


def _add_to_pile(cid: int) -> None:
    ss.wg_pile_sel = [*ss.get("wg_pile_sel", []), cid]


def pile_picker(scenario: str, used: set[int]) -> list[int]:
    """The opponent's pile, oldest first: the cards in it (each with its number and icon letters; a cross takes one
    out), then the cards it can still take drawn as the cards themselves, one tap each (as the reveal picker draws
    them). Cards in your town or set aside with the scenario's goal cards (rule:W9) are not offered."""
    from solver.wagons.data import load_data
    from solver.wagons.game import goal_fronts

    data = load_data()
    aside = set(goal_fronts(data.scenario(scenario).goals, data))
    chosen = list(ss.get("wg_pile_sel", []))
    free = [c for c in range(18) if c not in used and c not in aside and c not in chosen]
    pile = st.multiselect("Cards in the opponent's town (oldest first; the last is on top)",
                          sorted(set(free) | set(chosen)), format_func=lambda c: f"{c} {wv.icon_letters(c)}",
                          key="wg_pile_sel", select_all=False, wrap=True, placeholder="Tap the cards below")
    ss.wg_pile = list(pile)
    if free:
        st.caption("Tap a card the opponent took to add it to the pile (letters: its icons, top left first).")
        css = []
        with st.container(horizontal=True, gap="xsmall"):
            for c in free:
                st.button(f"**{c}**\n{wv.icon_letters(c)}", key=f"wg_pile_add_{c}", on_click=_add_to_pile, args=(c,),
                          help=f"Card {c}: " + ", ".join(f"{t} {i}" for t, i in wv.cards()[c].cells))
                css.append(wv.card_button_css(f"wg_pile_add_{c}", c))
        st.html("<style>" + "".join(css) + "</style>")
    return list(pile)


scen = wv.scenarios()
OPENING = list(scen)[0]
top = st.columns([2, 3])
scenario = kept(top[0].selectbox, "wg_scenario", OPENING, "Scenario", list(scen),
                format_func=lambda s: scen[s]["name"])  # kept while another page is shown
top[1].markdown(f"**Goal cards:** {', '.join(scen[scenario]['goals'])}  \n"
                f"**Opponent scoring:** {scen[scenario]['scoring_text']}")

# ----------------------------------------------------------------------------- input
st.subheader("Your town")
picker = st.container(border=True)  # filled below, once the table's current rows are known
town_col, pile_col = st.columns([3, 2])
with town_col:
    st.markdown("**Placements** (placement order; later cards lie on top; edit cells or add/delete rows)")
    if f"wg_table_{ss.wg_ver}" not in ss and "wg_rows_live" in ss:  # the table was not drawn on the last run
        ss.wg_rows = ss.pop("wg_rows_live")  # (another page was shown): its edits come back with it
    base = pl.DataFrame(ss.wg_rows or [], schema={"card": pl.Int64, "x": pl.Int64, "y": pl.Int64, "rot": pl.Int64})
    edited = st.data_editor(base, num_rows="dynamic", key=f"wg_table_{ss.wg_ver}", width="stretch",
                            column_config={"card": st.column_config.NumberColumn("card", min_value=0, max_value=17,
                                                                                 step=1),
                                           "x": st.column_config.NumberColumn("x", step=1),
                                           "y": st.column_config.NumberColumn("y", step=1),
                                           "rot": st.column_config.SelectboxColumn("rot", options=[0, 180])})
    rows = pl.DataFrame(edited).to_dicts() if not isinstance(edited, list) else edited
    ss.wg_rows_live = rows
    if rows == sh.EXAMPLE:
        st.caption("This is the rulebook's worked example, a base-game town (20 points in terrain groups), not a "
                   "Lone Cowboy game: the scores below count it as it stands and no winner is named. Enter your "
                   "own town, load a file, or clear it and place cards by tapping.")
    b = st.columns(2)
    if b[0].button("Rulebook example", key="wg_example", help="The rulebook's worked example town (base game)"):
        sh.set_rows(list(sh.EXAMPLE))
        st.rerun()
    if b[1].button("Clear the town", key="wg_clear"):
        sh.set_rows([])
        st.rerun()
    town, problems = wv.build_town(rows)
    with picker:
        card_picker(town, [r for r in rows if any(v is not None for v in r.values())], scenario)
    for n, why in problems:
        st.error(f"Row {n} of the placements table is left out of the town: {why}. Fix that row (or delete it) to "
                 "score the town you have.", icon=":material/error:")

with pile_col:
    st.subheader("Opponent's pile")
    used = {p.card for p in town.placements}
    if "wg_pile_loaded" in ss:  # an uploaded or restored pile, as in the file (a card also in the town is flagged),
        ss.wg_pile_sel = ss.pop("wg_pile_loaded")  # set before the widget is drawn: the browser keeps its old value else
    ss.setdefault("wg_pile_sel", [c for c in ss.wg_pile if c not in used])
    pile = pile_picker(scenario, used)
    both = sorted(set(pile) & used)
    if both:
        ids = [str(c) for c in both]
        named = ids[0] if len(ids) == 1 else ", ".join(ids[:-1]) + " and " + ids[-1]
        st.error(f"{'Card' if len(ids) == 1 else 'Cards'} {named} {'is' if len(ids) == 1 else 'are'} in your town "
                 "and in the opponent's pile; a card is in one of them only. Take it out of one to see the scores.",
                 icon=":material/error:")
    st.markdown("**Files** (contracts.md format)")
    up = json_upload("Upload a town", "wg_town_up", wv.load_town_doc)
    if up is not None:
        sh.set_rows(up["placements"])
        st.rerun()
    opp = json_upload("Upload an opponent pile", "wg_opp_up", wv.load_pile)
    if opp is not None:
        ss.wg_pile = ss.wg_pile_loaded = opp
        st.rerun()
    json_download("Download the town", wv.town_json(town), "town.json", "wg_town_down")
    json_download("Download the opponent pile", {"pile": list(pile)}, "opponent.json", "wg_opp_down")

sheet = {"scenario": scenario, "rows": [{k: whole(r.get(k)) for k in wv.SHEET_FIELDS} for r in ss.wg_rows_live],
         "pile": list(ss.wg_pile)}
with pile_col:
    games.save_form("wagons-town", sheet, key="wg_my_games", default_name=f"{scen[scenario]['name']} town")

# ----------------------------------------------------------------------------- results
st.subheader("Town and scores")
card_face.cards_panel(scenario, "wg_cards")
draw_col, score_col = st.columns([1, 1])
with draw_col:
    st.html(wv.town_html(town, caption=f"Your town: {counted(len(town.placements), 'card')}",
                         illegal_rows=[rows[n - 1] for n, _ in problems]))
    if problems:
        st.caption("Red outlines: where the rows left out of the town would lie.")
with score_col:
    if both:
        st.info("No scores while a card is in both towns (above).", icon=":material/block:")
    else:
        with guarded("Scores: "), st.container(key="wg_scores_left_out" if problems else "wg_scores"):
            result = wv.score(dumps(wv.town_json(town)), tuple(pile), scenario, readings_json, card_reading.cards_json())
            ss.wg_last_score = result
            from solver.wagons.record.finished import completeness_problem

            by = card_reading.by_reading(dumps(wv.town_json(town)), tuple(pile), scenario, readings_json,
                                         card_reading.cards_json())
            depends = card_reading.panel(by, "wg_card", finished=not problems)
            unfinished = (f"row {problems[0][0]} is left out of the town (an illegal placement)" if problems
                          else completeness_problem(town, pile, scenario))  # a winner only for a finished game
            wv.show_scores(result, winner_problem=unfinished or depends)
        if problems:  # greyed: these totals leave a row out
            st.html("<style>.st-key-wg_scores_left_out{opacity:.5}</style>")

st.subheader("Best possible")
if not town.placements:
    st.info("Place some cards first: the optimizer lays out the same cards in the same order.")
else:
    limit = kept(st.slider, "wg_opt_limit", 60, "Time limit (seconds)", 1, 120,
                 help="As `wagons best-layout --time-limit` (default 60); the search stops early once proven.")
    ids = tuple(p.card for p in town.placements)
    key = (ids, scenario, tuple(pile), readings_json, card_reading.cards_json(), float(limit))
    if st.button("Best possible layout of these cards", key="wg_best", icon=":material/auto_awesome:"):
        box = ProgressBox()
        with guarded("Optimizer: "):
            ss[sh.BEST] = (key, run_with_progress(
                wv.best_layout, ids, scenario, tuple(pile), readings_json, float(limit), box,
                cards_json=card_reading.cards_json(), label="Searching the best layout",
                expected_seconds=float(limit), box=box, cancel=StopSignal(), keep=keep_stopped(sh.BEST, key)))
    best = ss.get(sh.BEST)
    if best and best[0][:-1] == key[:-1]:  # the last answer for these cards (whatever its time limit)
        with guarded("Optimal layout: "):
            wv.show_best_layout(town, best[1], ss.get("wg_last_score"), pile, scenario, readings_json,
                                card_reading.cards_json())
            stopped_note(best[1])
    elif best:
        st.caption("The last best layout answered other cards, pile, scenario or readings: ask again for these.")

sh.keep(sheet, OPENING)

with st.expander("All 18 cards", icon=":material/style:"):
    st.html("".join(wv.card_preview(c) for c in range(18)))
    st.caption(f"{QUARTERS} Which scoring condition is printed on the back of each front is unverified (rule W9).")
