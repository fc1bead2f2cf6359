"""Outlaws: Last Man Standing: edit a position, see its legal actions, victory and sudden-death
banners, whether either side can still win (with a witnessing line), and playout statistics.

The position (and the seed it was dealt from) is this browser's kept work ``outlaws_position``
(:mod:`dashboard.shared.work.store`) and is in the page's address (``?pos=``), so a page switch, a reload on any
page, a closed tab or a server restart finds it again, and a shared address shows it; the last answers of
the searches and playouts are kept too (:mod:`dashboard.shared.answers`)."""

from __future__ import annotations

import streamlit as st

from dashboard.nav import page_file, page_header
from dashboard.outlaws import play as outlaws_play
from dashboard.outlaws import position_work as work
from dashboard.outlaws import street
from dashboard.outlaws import view as ov
from dashboard.outlaws.problems import checked_position, in_words
from dashboard.shared import answers, fit, games
from dashboard.shared.boxes import no_answer, whole_box
from dashboard.shared.caching import dumps
from dashboard.shared.readings import make_readings, readings_class, readings_summary
from dashboard.shared.runs import ProgressBox, run_with_progress
from dashboard.shared.widgets import guarded, json_download, json_upload, kept
from dashboard.shared.work.plaintext import plain
from solver.errors import BadInput
from solver.outlaws.position import initial_position
from solver.outlaws.position_json import position_from_json, position_to_json
from solver.stopping import StopSignal

page_header("outlaws")
fit.narrow_page()
cls = readings_class("outlaws")
st.caption(readings_summary("outlaws", cls))
work.init(make_readings("outlaws", cls))
answers.sync(work.ANSWERS)

# ----------------------------------------------------------------------------- input
src_cols = st.columns([2, 3, 3])
with src_cols[0]:
    seed = whole_box("Set-up seed", "ol_seed", work.seed_shown(), 0, work.MAX_SEED)
    if st.button("New set-up", key="ol_new", help="A fully known starting position from this seed",
                 disabled=seed is None):
        with guarded():
            work.replace(position_to_json(initial_position(seed=seed, readings=make_readings("outlaws", cls))),
                         seed)
with src_cols[1]:
    loaded = json_upload("Upload a position (contracts.md JSON)", "ol_upload",
                         lambda d: position_to_json(position_from_json(d)))
    if loaded is not None:
        work.replace(loaded)
with src_cols[2]:
    json_download("Download this position", work.position(), "position.json", "ol_download")
    if st.button("Play it forward on the Outlaws table", key="ol_play_forward", icon=":material/playing_cards:",
                 on_click=outlaws_play.play_forward, args=(work.position(),),
                 help="The Outlaws table starts a new line from this position (its line so far is replaced)"):
        st.switch_page(page_file("outlaws_table"))

def edit_position() -> None:
    """The editor's form over every field, and the position as JSON (each checked by the engine, every problem
    shown at once: :mod:`dashboard.outlaws.problems`)."""
    try:
        edited = ov.position_editor(work.position(), st.session_state.ol_ver)
    except BadInput as exc:  # a box that holds no value of its kind
        st.error(f"Position not changed: {plain(in_words(str(exc)))}", icon=":material/error:")
        return
    if edited is not None and (doc := checked_position(edited)) is not None:
        work.replace(doc)
        st.rerun()
    with st.popover("Edit as JSON"):
        text = st.text_area("Position JSON", value=dumps(work.position()), height=240,
                            key=f"ol_json_{st.session_state.ol_ver}")
        if st.button("Apply JSON", key="ol_apply_json"):
            from solver.io.read import parse_json_text
            try:
                doc = checked_position(parse_json_text(text, "position"))
            except BadInput as exc:  # not JSON at all
                st.error(f"Position not changed: {plain(in_words(str(exc)))}", icon=":material/error:")
            else:
                if doc is not None:
                    work.replace(doc)
                    st.rerun()


editor = st.expander("Position editor", icon=":material/edit:", key="ol_editor", on_change="rerun")
if editor.open:  # its form of 40 boxes is drawn only when asked for: the page shows at once
    with editor:
        edit_position()

pos_doc = work.position()
st.html(street.street_html(pos_doc))
st.markdown(ov.summary_line(pos_doc))
with st.expander("Save this position to My games", icon=":material/bookmark_add:"):
    games.save_form("outlaws-position", work.current(), key="ol_save", default_name=f"Outlaws position, seed "
                    f"{work.current()['seed']}" if work.current().get("seed") is not None else "Outlaws position")

# ----------------------------------------------------------------------------- analysis
readings = make_readings("outlaws", cls)
readings_json = dumps(readings.to_json())
pos_json = dumps(pos_doc)

status = None
with guarded("Status: "):
    status = ov.status_cached(pos_json, readings_json)
    ov.show_banners(status, pos_doc)

with st.expander("The three ways to win: the Italian rulebook and the English edition", icon=":material/translate:"):
    ov.ways_to_win()

st.subheader("Legal actions")
with guarded("Legal actions: "):
    actions = ov.moves_cached(pos_json, readings_json)
    ov.show_actions(actions)


def bounded_search(key, budget, depth, button, label, search, show, error_prefix):
    """Budget and depth sliders, a button that runs ``search`` with progress, and its last answer kept for this
    browser while the inputs are the same (:mod:`dashboard.shared.answers`); ``budget``/``depth`` are
    (label, max, default)."""
    cols = st.columns(2)
    last = answers.last_inputs(work.ANSWERS, key) or [None, None, budget[2], depth[2]]  # a new session starts
    limit = kept(cols[0].slider, f"{key}_limit", last[2], budget[0], 1, budget[1])  # from the last answer's
    bound = kept(cols[1].slider, f"{key}_depth", last[3], depth[0], 1, depth[1])
    inputs = [pos_json, readings_json, limit, bound]
    if st.button(button, key=key):
        with guarded(error_prefix):
            answers.remember(work.ANSWERS, key, inputs, run_with_progress(
                search, pos_json, readings_json, float(limit), int(bound), label=label, expected_seconds=float(limit),
                cancel=StopSignal()))
    res = answers.recall(work.ANSWERS, key, inputs)
    if res is not None:
        show(res)


st.subheader("Can either side still win?")
bounded_search("ol_search", ("Search budget (seconds, both sides)", 60, 5), ("Depth bound (actions)", 40, 12),
               "Search for a winning line", "Searching both sides' wins", ov.search_cached, ov.show_search,
               "Search: ")

st.subheader("Dead positions (rule O12)")
st.caption("A dead position is one where neither side can win any more while the sudden-death trigger "
           "does not hold: the rules leave the game without an end. The engine searches the positions "
           "reachable from this one.")
bounded_search("ol_dead", ("Search budget (seconds)", 120, 5), ("Depth bound (actions)", 200, 60),
               "Search for a dead position", "Searching for a dead position", ov.dead_cached, ov.show_dead,
               "Dead-position search: ")

st.subheader("Playout statistics")
st.caption("Random games (both sides choosing uniformly among the legal actions) from fresh set-ups, "
           "under this session's readings.")
c1, c2, c3 = st.columns(3)
last = answers.last_inputs(work.ANSWERS, "playouts") or [None, 20, 0, 3000]  # the last run's, in a new session
boxes = {"Random games": whole_box("Random games", "ol_playouts", last[1], 1, 2000, where=c1),
         "First seed": whole_box("First seed", "ol_playout_seed", last[2], 0, work.MAX_SEED, where=c2),
         "Cap on actions per game": whole_box("Cap on actions per game", "ol_playout_cap", last[3], 50, 5000, where=c3)}
missing = [label for label, value in boxes.items() if value is None]
if missing:
    no_answer(missing, "playouts")
else:
    n, pseed, cap = boxes.values()
    if st.button("Run playouts", key="ol_run_playouts"):
        box = ProgressBox(stops=True)
        with guarded("Playouts: "):
            answers.remember(work.ANSWERS, "playouts", [readings_json, n, pseed, cap], run_with_progress(
                ov.playouts_cached, readings_json, n, pseed, cap, box, label=f"Playing {n} random games",
                expected_seconds=max(2.0, n * 0.5), box=box, cancel=StopSignal()))
    res = answers.recall(work.ANSWERS, "playouts", [readings_json, n, pseed, cap])
    if res is not None:
        ov.show_playouts(res)
work.keep()
