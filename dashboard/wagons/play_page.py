"""Lone Cowboy at the table: play a seeded deal against the automated opponent, or follow a real
game. The page keeps ONE engine game (:mod:`dashboard.wagons.game`) and offers only the engine's
legal actions (:mod:`dashboard.wagons.table`); the rules are :mod:`solver.wagons`'s."""

from __future__ import annotations

import streamlit as st

from dashboard.nav import page_header
from dashboard.shared.boxes import whole_box
from dashboard.shared.readings import describe_choice, make_readings, reading_name, readings_class, readings_summary
from dashboard.shared.widgets import guarded
from dashboard.shared.work import store
from dashboard.shared.work.plaintext import plain
from dashboard.wagons import game as wg
from dashboard.wagons import table as tbl
from dashboard.wagons import town_grid, what_if
from dashboard.wagons import view as wv
from dashboard.wagons.review import back_to_own_game_bar, show_review, show_was_winnable
from dashboard.wagons.sheet.work import load_result
from solver.errors import BadInput
from solver.io.numbers import parse_int_text
from solver.wagons.game import is_chance_node, is_over
from solver.wagons.readings import WagonsReadings

page_header("wagons_play")
cls = readings_class("wagons")
scen = wv.scenarios()
MODES = {"play": "Play a seeded deal", "follow": "Follow a game at the table"}
ANSWERS = ("lc_review_result", "lc_winnable_result", what_if.CHOICES)  # session keys (and kept work): (inputs, the solver's result)


def setup_panel() -> None:
    """A new game: the mode, the scenario and (to play) the deal's seed, with this session's readings."""
    with st.expander("New game", icon=":material/restart_alt:", key="lc_new_panel", on_change="rerun"):
        cols = st.columns([2, 2, 1, 1], vertical_alignment="bottom")
        mode = cols[0].radio("Mode", list(MODES), format_func=MODES.get, key="lc_new_mode")
        cols[1].selectbox("Scenario", list(scen), format_func=lambda s: scen[s]["name"], key="lc_new_scenario")
        seed = whole_box("Deal (seed)", "lc_new_seed", wg.DEFAULT_SEED, 0, 2**31 - 1, where=cols[2],
                         disabled=mode != "play",
                         help="Which deal to play: the same seed deals the same cards (as `wagons simulate --seed`)")
        st.caption(readings_summary("wagons", cls))
        cols[3].button("Start", key="lc_start", type="primary", width="stretch", on_click=start_new_game,
                       disabled=mode == "play" and seed is None)


def start_new_game() -> None:
    """The Start button's callback (before the rerun): the new game on the table (the opponent's first turn
    played when it plays itself), a fresh upload box, the panel closed. A seed that is not a whole number in
    range starts nothing (the box says what to fix)."""
    ss = st.session_state
    play = ss.lc_new_mode == "play"
    try:
        seed = parse_int_text(ss.get("lc_new_seed", str(wg.DEFAULT_SEED)), "Deal (seed)", 0, 2**31 - 1) if play else None
    except BadInput:
        return
    wg.start(wg.new_record(ss.lc_new_scenario, seed, make_readings("wagons", cls)))
    wg.settle()
    tbl.new_uploads()
    ss.lc_new_panel = False


def game_caption(record: dict) -> str:
    name = scen.get(record["scenario"], {}).get("name", record["scenario"])
    how = f"Playing deal {record['seed']}" if record.get("seed") is not None else "Following a game at the table"
    readings = WagonsReadings.from_json(record["rules"])
    said = "default readings" if readings == WagonsReadings() else "readings: " + ", ".join(
        f"{reading_name('wagons', k)}: {describe_choice(getattr(readings, k))}" for k, v in readings.to_json().items()
        if v != WagonsReadings().to_json().get(k))
    return f"{how} · scenario **{name}** ({', '.join(scen[record['scenario']]['goals'])}) · {said}"


wg.current()  # a new session reads the game from the address first, else this browser's kept game
for answer in ANSWERS:  # the last review and "could it be won" answers, kept like the game
    store.sync(answer, load=load_result)
if st.session_state.get("lc_address_error"):
    st.error(plain(st.session_state.pop("lc_address_error")), icon=":material/error:")
setup_panel()
try:
    state = wg.state()
except BadInput as exc:  # a game the engine can no longer replay: say so and start afresh
    st.error(f"The saved game could not be replayed: {plain(exc)}", icon=":material/error:")
    wg.start(wg.new_record(wg.DEFAULT_SCENARIO, wg.DEFAULT_SEED, WagonsReadings()))
    state = wg.state()
st.markdown(game_caption(wg.current()["record"]))
if WagonsReadings.from_json(wg.current()["record"]["rules"]) != make_readings("wagons", cls):
    st.info("This game keeps the readings it started with (above). " + readings_summary("wagons", cls)
            + " A new game uses them (**New game**).", icon=":material/rule:")
back_to_own_game_bar()
tbl.history_bar(state)
tbl.opponent_line(state)
if is_chance_node(state):
    tbl.reveal_view(state)
if is_over(state):  # nothing left to take or place: the town, then the scores and the review
    tbl.town_view(state, [])
else:
    what_if.switch()
    advice = None
    with guarded("What if? "):
        advice = what_if.advice_for(state)
    what_if.summary(advice)
    marks = what_if.marks(advice)
    tbl.circle_view(state, marks)
    left, right = st.columns([1, 3], gap="medium")
    with left:
        legal = tbl.hand_view(state, advice)
    with right:
        tbl.town_view(state, legal, marks)
    if advice is not None:
        what_if.legend()
        what_if.every_choice(advice)
tbl.autoplay_switch()
tbl.opponent_view(state)
with guarded("Scores: "):
    tbl.scores_view(state)
if is_over(state):
    show_review(state, key="lc_review")
    with guarded("Choice review: "):
        what_if.show_choice_review(wg.applied_record())
    show_was_winnable(state, key="lc_winnable")
tbl.files_view()
tbl.log_view(state)
with st.expander("Legend: terrains, icons and the grid", icon=":material/info:"):
    town_grid.legend()
wg.to_address()
wg.keep()
for answer in ANSWERS:
    store.persist(answer)
