"""The Cactus Town page's *Lone ranger's turn* tab: a 5x5 town set up by hand (or uploaded), the card he
reveals, and what he does, each outcome in words with its exact chance (:mod:`dashboard.cactus.words`) and
drawn on the town (:mod:`dashboard.cactus.drawing`).

The last town the engine accepted is this browser's kept work ``cactus_town`` (:mod:`dashboard.shared.work.store`;
"My games" kind ``cactus-town``): a page switch, a reload on any page, a closed tab or a server restart finds
it. Every figure is :func:`solver.cactus.ranger.decide`'s.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import polars as pl
import streamlit as st

from dashboard.cactus.drawing import town_html
from dashboard.cactus.words import chance_words, outcome_words
from dashboard.shared import games
from dashboard.shared.boxes import whole_box
from dashboard.shared.caching import dumps
from dashboard.shared.widgets import guarded, json_download, json_upload
from dashboard.shared.words import whole
from dashboard.shared.work import store
from solver.errors import BadInput

KEY = "cactus_town"
"""Session key and work key: the last town (a ranger position document) the engine accepted."""
LIVE = "ct_position_live"
"""Session key: the town as the boxes hold it now (the follow-a-game tab's lone ranger plays on it)."""
EXAMPLE = "example-ranger-chase.json"


@st.cache_data(show_spinner=False)
def example_position() -> dict:
    from solver.io.read import read_json
    from solver.paths import SCENARIOS

    return read_json(SCENARIOS / "cactus" / EXAMPLE)


@st.cache_data(show_spinner=False, max_entries=256)
def decide(position_text: str, readings_text: str) -> dict:
    from solver.cactus.ranger import decide as engine_decide
    from solver.cactus.readings import CactusReadings

    pos = json.loads(position_text)
    pos.pop("rules", None)
    return engine_decide(pos, CactusReadings.from_json(json.loads(readings_text)))


def validated(doc: Any) -> dict:
    """A town document through the CLI's own loader, returned complete (defaults filled in)."""
    from solver.cactus.ranger import position_from_json

    return position_from_json(doc)


def _restart_editors(doc: dict) -> None:
    ss = st.session_state
    ss.ct_pos, ss.ct_ver = copy.deepcopy(doc), ss.get("ct_ver", -1) + 1
    ss.pop(LIVE, None)


def init() -> None:
    """The town to edit: the session's, else this browser's kept one, else the example."""
    ss = st.session_state
    had = KEY in ss
    store.sync(KEY, load=validated)
    if not had and KEY in ss:  # restored (a reload, a new tab, a resume from My games): the boxes start from it
        _restart_editors(ss[KEY])
    if "ct_pos" not in ss:
        _restart_editors(example_position())
    if f"ct_grid_{ss.ct_ver}" not in ss and LIVE in ss:  # the inputs were not drawn on the last run (another
        ss.ct_pos = {**ss.ct_pos, **ss[LIVE]}  # page or tab was shown): what was entered comes back


def _editors(doc: dict, v: int) -> dict | None:
    """The town's boxes; the position they hold, or None when a box holds no number (said beside it)."""
    from solver.cactus.events import table as event_table

    st.markdown("**Town** (`?` = face down; type a building's name once revealed)")
    grid = st.data_editor(pl.DataFrame({f"x{x}": [doc["town"][y][x] for y in range(5)] for x in range(5)}),
                          key=f"ct_grid_{v}", width="stretch", hide_index=False)
    grid_rows = [[str(r[f"x{x}"] or "?") for x in range(5)] for r in pl.DataFrame(grid).to_dicts()]
    rc = st.columns(2)
    rx = whole_box("Lone ranger x (column)", f"ct_rx_{v}", int(doc["ranger"][0]), 0, 4, where=rc[0], kept_value=False)
    ry = whole_box("Lone ranger y (row)", f"ct_ry_{v}", int(doc["ranger"][1]), 0, 4, where=rc[1], kept_value=False)
    st.markdown("**Outlaws** (up to 3; an escaped outlaw has left for the wilderness)")
    outlaws = st.data_editor(
        pl.DataFrame([{"name": o["name"], "x": (o.get("at") or [None, None])[0], "y": (o.get("at") or [None, None])[1],
                       "plunder": o.get("plunder", 0), "escaped": bool(o.get("escaped", False))} for o in doc["outlaws"]],
                     schema={"name": pl.String, "x": pl.Int64, "y": pl.Int64, "plunder": pl.Int64, "escaped": pl.Boolean}),
        num_rows="dynamic", key=f"ct_outlaws_{v}", width="stretch")
    st.markdown("**Target buildings** (the outlaws' 4 target cards)")
    targets = st.data_editor(
        pl.DataFrame([{"building": t["building"], "plundered": bool(t.get("plundered", False))}
                      for t in doc.get("targets", [])], schema={"building": pl.String, "plundered": pl.Boolean}),
        num_rows="dynamic", key=f"ct_targets_{v}", width="stretch")
    card = st.text_input("Action card as printed: `with visible target | without` (e.g. `DUEL/RUN SNEAK | SPRINT`)",
                         doc.get("card", ""), key=f"ct_card_{v}")
    keys = [None] + [e.key for e in event_table().events if not e.ends_game]
    event = st.selectbox("This round's event", keys, index=keys.index(doc.get("event")) if doc.get("event") in keys else 0,
                         format_func=lambda k: "none" if k is None else event_table().get(k).name, key=f"ct_event_{v}")
    if rx is None or ry is None:
        return None
    return {"town": grid_rows, "ranger": [rx, ry],
            "outlaws": [{"name": o["name"] or f"outlaw {i + 1}", "plunder": whole(o["plunder"], 0),
                         "escaped": bool(o["escaped"]),
                         **({} if o["escaped"] else {"at": [whole(o["x"]), whole(o["y"])]})}
                        for i, o in enumerate(pl.DataFrame(outlaws).to_dicts())],
            "targets": [t for t in pl.DataFrame(targets).to_dicts() if t["building"]],
            "card": card, "event": event, **{k: doc[k] for k in ("duel", "came_from") if k in doc}}


def _pieces(position: dict, res: dict) -> dict:
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
    return pieces


def show_turn(position: dict, res: dict) -> None:
    """The engine's answer: the row he follows, whom he heads for, each outcome in words, the town drawn."""
    st.markdown(f"**Visible target:** {'yes' if res['visible_target'] else 'no'} (rule C9) - he follows "
                f"the **{'with visible target' if res['row'] == 'visible' else 'no visible target'}** row: "
                f"`{res['sequence']}`")
    cl = res["closest"]
    st.markdown(f"**Closest outlaw(s):** {', '.join(cl['outlaws']) or '-'} at distance {cl['distance']}"
                + (f" - {cl['note']}" if cl.get("tie") else " (rule C6)"))
    outs = res["outcomes"]
    labels = [f"{chance_words(o['p'])}: {outcome_words(o)}" for o in outs]
    pick = st.radio("What he does (each outcome with its exact chance)", range(len(outs)),
                    format_func=lambda i: labels[i], key="ct_outcome") if outs else None
    path = []
    if pick is not None and pick < len(outs):
        for a in outs[pick]["actions"]:
            path += [(c[1], c[0]) for c in a.get("path") or []]
            if a.get("pushed_to"):
                path.append((a["pushed_to"][1], a["pushed_to"][0]))
    st.html(town_html(5, _pieces(position, res), path=path, names=position["town"]))
    st.caption("Arrows number the squares he moves through (or is pushed to) in the chosen outcome.")
    with st.expander("Engine answer (JSON)"):
        st.json(res, expanded=False)


def render(readings_text: str) -> None:
    """The tab: notes of the document, an upload, the boxes, then the turn (or which box to fix)."""
    init()
    ss = st.session_state
    doc = ss.ct_pos
    if doc.get("note"):
        st.caption(doc["note"])
    if doc.get("rules"):
        st.caption(f"This file names readings {doc['rules']}; the page uses this session's readings instead "
                   "(set them on the Verification page or in the option boxes here).")
    up = json_upload("Upload a position (docs/cactus.md JSON)", "ct_upload", validated)
    if up is not None:
        _restart_editors(up)
        st.rerun()
    edit, view = st.columns([1, 1])
    with edit:
        position = _editors(doc, ss.ct_ver)
    with view:
        if position is None:
            st.info("No turn until the lone ranger's square holds numbers from 0 to 4.", icon=":material/edit:")
            return
        ss[LIVE] = position  # the town the round companion's lone ranger plays on
        with guarded("Lone ranger: "):
            res = decide(dumps(position), readings_text)
            try:
                ss[KEY] = validated(position)
                store.persist(KEY)
            except BadInput:  # decided, yet not a document the loader keeps: not kept, still shown
                pass
            show_turn(position, res)
    json_download("Download this position", position, "ranger-position.json", "ct_download")
    with st.expander("Save this town to My games", icon=":material/bookmark_add:"):
        games.save_form("cactus-town", ss.get(KEY, position), key="ct_save", default_name="Lone ranger's town")
