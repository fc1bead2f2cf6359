"""Outlaws: Last Man Standing: edit a position, see its legal actions, victory and sudden-death
banners, whether either side can still win (with a witnessing line), and playout statistics."""

from __future__ import annotations

import streamlit as st

from dashboard.nav import page_file
from dashboard.outlaws import play as outlaws_play
from dashboard.outlaws import view as ov
from dashboard.outlaws.problems import checked_position
from dashboard.shared import draw
from dashboard.shared.caching import dumps
from dashboard.shared.readings import make_rules, rules_class, rules_summary
from dashboard.shared.widgets import guarded, json_download, json_upload, kept, page_header
from dashboard.shared.work import run_with_progress
from solver.errors import BadInput
from solver.outlaws import state
from solver.stopping import StopSignal

page_header("outlaws")

cls = rules_class("outlaws")
st.caption(rules_summary("outlaws", cls))

if "ol_pos" not in st.session_state:
    st.session_state.ol_pos = state.position_to_json(state.initial_position(seed=1, rules=make_rules("outlaws", cls)))
    st.session_state.ol_ver = 0


def replace_position(doc: dict) -> None:
    """Store a validated position and redraw the editor from it."""
    st.session_state.ol_pos = doc
    st.session_state.ol_ver += 1


# ----------------------------------------------------------------------------- input
src_cols = st.columns([2, 3, 3])
with src_cols[0]:
    seed = kept(st.number_input, "ol_seed", 1, "Set-up seed", min_value=0, max_value=10**6, step=1)  # kept across pages
    if st.button("New set-up", key="ol_new", help="A fully known starting position from this seed"):
        with guarded():
            replace_position(state.position_to_json(state.initial_position(seed=int(seed),
                                                                           rules=make_rules("outlaws", cls))))
with src_cols[1]:
    loaded = json_upload("Upload a position (contracts.md JSON)", "ol_upload",
                         lambda d: state.position_to_json(state.position_from_json(d)))
    if loaded is not None:
        replace_position(loaded)
with src_cols[2]:
    json_download("Download this position", st.session_state.ol_pos, "position.json", "ol_download")
    if st.button("Play it forward on the Outlaws table", key="ol_play_forward", icon=":material/playing_cards:",
                 on_click=outlaws_play.play_forward, args=(st.session_state.ol_pos,),
                 help="The Outlaws table starts a new line from this position (its line so far is replaced)"):
        st.switch_page(page_file("outlaws_table"))

with st.expander("Position editor", expanded=False, icon=":material/edit:"):
    edited = ov.position_editor(st.session_state.ol_pos, st.session_state.ol_ver)
    if edited is not None and (doc := checked_position(edited)) is not None:
        replace_position(doc)
        st.rerun()
    with st.popover("Edit as JSON"):
        text = st.text_area("Position JSON", value=dumps(st.session_state.ol_pos), height=240,
                            key=f"ol_json_{st.session_state.ol_ver}")
        if st.button("Apply JSON", key="ol_apply_json"):
            from solver.io.read import parse_json_text
            try:
                doc = checked_position(parse_json_text(text, "position"))
            except BadInput as exc:  # not JSON at all
                st.error(f"Position not changed: {exc}", icon=":material/error:")
            else:
                if doc is not None:
                    replace_position(doc)
                    st.rerun()

pos_doc = st.session_state.ol_pos
st.html(draw.outlaws_position_html(pos_doc))
st.markdown(ov.summary_line(pos_doc))

# ----------------------------------------------------------------------------- analysis
rules = make_rules("outlaws", cls)
rules_json = dumps(rules.to_json())
pos_json = dumps(pos_doc)

status = None
with guarded("Status: "):
    status = ov.status_cached(pos_json, rules_json)
    ov.show_banners(status, pos_doc)

st.subheader("Legal actions")
with guarded("Legal actions: "):
    actions = ov.moves_cached(pos_json, rules_json)
    ov.show_actions(actions)


def bounded_search(key, budget, depth, button, label, search, show, error_prefix):
    """Budget and depth sliders, a button that runs ``search`` with progress, and its result kept per
    input in ``st.session_state[f"{key}_result"]``; ``budget``/``depth`` are (label, max, default)."""
    cols = st.columns(2)
    limit = kept(cols[0].slider, f"{key}_limit", budget[2], budget[0], 1, budget[1])  # kept across pages
    bound = kept(cols[1].slider, f"{key}_depth", depth[2], depth[0], 1, depth[1])
    inputs = (pos_json, rules_json, limit, bound)
    if st.button(button, key=key):
        with guarded(error_prefix):
            st.session_state[f"{key}_result"] = (inputs, run_with_progress(
                search, pos_json, rules_json, float(limit), int(bound), label=label, expected_seconds=float(limit),
                cancel=StopSignal()))
    res = st.session_state.get(f"{key}_result")
    if res and res[0] == inputs:
        show(res[1])


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
n = int(kept(c1.number_input, "ol_playouts", 20, "Random games", 1, 2000, step=10))
pseed = int(kept(c2.number_input, "ol_playout_seed", 0, "First seed", 0, 10**6))
cap = int(kept(c3.number_input, "ol_playout_cap", 3000, "Cap on actions per game", 50, 5000, step=50))
if st.button("Run playouts", key="ol_run_playouts"):
    report: dict = {}
    with guarded("Playouts: "):
        st.session_state.ol_playout_result = ((rules_json, n, pseed, cap), run_with_progress(
            ov.playouts_cached, rules_json, n, pseed, cap, report, label=f"Playing {n} random games",
            expected_seconds=max(2.0, n * 0.5), detail=lambda: f"{report.get('done', 0)} of {n} done",
            cancel=StopSignal()))
res = st.session_state.get("ol_playout_result")
if res and res[0] == (rules_json, n, pseed, cap):
    ov.show_playouts(res[1])
