"""Outlaws page pieces: the position editor (widgets -> contracts.md JSON), the engine adapters
(cached per position and readings) and the views of their answers. The rules live in
:mod:`solver.outlaws`; this module only collects input and draws results."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import altair as alt
import polars as pl
import streamlit as st

from dashboard.outlaws import street
from dashboard.shared.caching import cache_final, not_stopped_by_time, proven
from dashboard.shared.words import counted, readable, wrapped_table
from solver.execution.progress import OnProgress
from solver.io.numbers import parse_int_text
from solver.outlaws import victory
from solver.outlaws.actions import legal_actions
from solver.outlaws.position import CHARACTERS, TOKEN_TYPES
from solver.outlaws.position_json import position_from_json
from solver.outlaws.readings import OutlawsReadings
from solver.outlaws.search import playout
from solver.outlaws.search import searches as search

UNKNOWN = "(unknown)"
SUPPLY_KEYS = ("vote", "bullet", "handcuffs", "front_page", "election")
SUPPLY_WORDS = {"vote": "Votes", "bullet": "Bullets", "handcuffs": "Handcuffs", "front_page": "Front Page markers",
                "election": "Election token"}
"""Each supply count as the rulebook names its tokens (the box labels: never the document's field names)."""


# ----------------------------------------------------------------------------- editor

def _row_of_boxes(what: str, options: list[str], values: list, key: str) -> dict[str, str]:
    """Eight select boxes, four a line (a name shows whole), labelled by column: {"0".."7": the chosen value}."""
    out: dict[str, str] = {}
    for half in (0, 4):
        cols = st.columns(4)
        for i in range(half, half + 4):
            out[str(i)] = cols[i - half].selectbox(f"{what}, column {i}", options, index=_idx(tuple(options), values[i]),
                                                   key=f"{key}{i}")
    return out


def _street_editors(doc: dict, k: str) -> tuple[Any, Any]:
    """Main Street and the token row, one select box per column (each visibly a box to change: no hidden grid
    editing), as two lists of rows ({"row": side or "tokens", "0".."7": the column's value})."""
    st.markdown("**Main Street and the token row** (columns 0-7 from A's left; B's row faces A's)")
    rows = [{"row": side} | _row_of_boxes(f"{side}'s street", [UNKNOWN, *CHARACTERS], doc["street"][side],
                                          f"{k}_st_{side}") for side in ("B", "A")]
    tokens = [{"row": "tokens"} | _row_of_boxes("Token", [UNKNOWN, "empty", *TOKEN_TYPES], doc["tokens"],
                                                f"{k}_tok_")]
    return rows, tokens


def _count_boxes(doc: dict, k: str) -> dict[str, tuple[str, int, int]]:
    """The reserve, supplies and discards as text boxes: label -> (text as typed, lowest, highest), read on
    submit (a number the browser's own box would clamp or round is refused, naming its box)."""
    counts: dict[str, tuple[str, int, int]] = {}
    st.markdown("**Reserve** (face-down pile beside column 0)")
    res = Counter(doc.get("reserve", []))
    rc = st.columns(6)
    for i, t in enumerate((*TOKEN_TYPES, None)):
        counts[f"Reserve: {t or UNKNOWN}"] = (rc[i].text_input(t or UNKNOWN, str(res.get(t, 0)), key=f"{k}_res_{t}",
                                                               max_chars=4), 0, 17)
    for side in ("A", "B"):
        st.markdown(f"**{side}'s supply**")
        sc = st.columns(5)
        cur = doc["supply"][side]
        for i, key in enumerate(SUPPLY_KEYS):
            counts[f"{side}'s supply: {SUPPLY_WORDS[key]}"] = (sc[i].text_input(
                SUPPLY_WORDS[key], str(cur.get(key, 0)), max_chars=4,
                                                                  key=f"{k}_sup_{side}_{key}"),
                                                 0, 17 if key != "front_page" else 3)
    dc = st.columns(2)
    discard = doc.get("discard", {})
    for col, key, label in ((dc[0], "bullet", "Discarded Bullets"), (dc[1], "handcuffs", "Discarded Handcuffs")):
        counts[label] = (col.text_input(label, str(discard.get(key, 0)), key=f"{k}_dis_{key}", max_chars=4), 0, 3)
    return counts


def position_editor(doc: dict, ver: int) -> dict | None:
    """A form over every field of a position; returns the edited JSON on submit, else None. A box that holds no
    whole number in its range is refused on submit (BadInput naming the box)."""
    k = f"ol{ver}"
    with st.form(f"ol_form_{ver}", border=False):
        c = st.columns(3)
        to_move = c[0].radio("To move", ["A", "B"], index=["A", "B"].index(doc["to_move"]), horizontal=True,
                             key=f"{k}_to_move")
        actions_left = c[1].radio("Actions left", [1, 2], index=[1, 2].index(doc["actions_left"]),
                                  horizontal=True, key=f"{k}_al")
        sudden = c[2].checkbox("Sudden death in force", value=bool(doc.get("sudden_death")), key=f"{k}_sd")
        edited_street, edited_tokens = _street_editors(doc, k)
        c = st.columns(2)
        saloon = {side: [c[j].selectbox(f"Saloon {side} #{i + 1}", CHARACTERS,
                                        index=_idx(CHARACTERS, doc["saloon"][side][i]), key=f"{k}_sal_{side}{i}")
                         for i in range(2)] for j, side in enumerate(("A", "B"))}
        counts = _count_boxes(doc, k)
        spots = [f"{s} col {i}" for s in ("A", "B") for i in range(8)]
        mc = st.columns(2)
        imm = mc[0].multiselect("Immobilized", spots, default=_marks(doc.get("immobilized", [])), key=f"{k}_imm")
        fp = mc[1].multiselect("Front Page markers", spots, default=_marks(doc.get("front_page", [])), key=f"{k}_fp")
        if not st.form_submit_button("Apply edits", type="primary"):
            return None
    number = {label: parse_int_text(text, f"the box '{label}'", lo, hi) for label, (text, lo, hi) in counts.items()}
    discard = {key: n for key, n in doc.get("discard", {}).items() if key != "front_page"}  # the loader recounts
    discard.update(bullet=number["Discarded Bullets"], handcuffs=number["Discarded Handcuffs"])  # the markers
    street_rows = {r["row"]: r for r in pl.DataFrame(edited_street).to_dicts()}
    tok_row = pl.DataFrame(edited_tokens).to_dicts()[0]
    return {"to_move": to_move, "actions_left": actions_left,
            "street": {side: [_opt(street_rows[side][str(i)]) for i in range(8)] for side in ("A", "B")},
            "saloon": saloon, "tokens": [_opt(tok_row[str(i)]) for i in range(8)],
            "reserve": [t for t in (*TOKEN_TYPES, None) for _ in range(number[f"Reserve: {t or UNKNOWN}"])],
            "supply": {side: {key: number[f"{side}'s supply: {SUPPLY_WORDS[key]}"] for key in SUPPLY_KEYS}
                       for side in ("A", "B")},
            "discard": discard, "immobilized": [[s.split()[0], int(s.split()[-1])] for s in imm],
            "front_page": [[s.split()[0], int(s.split()[-1])] for s in fp], "sudden_death": sudden}


def _opt(v: str | None):
    return None if v in (UNKNOWN, None) else v


def _show(v: str | None) -> str:
    return UNKNOWN if v is None else v


def _idx(options: tuple, value: Any) -> int:
    v = UNKNOWN if value is None else value
    return options.index(v) if v in options else 0


def _marks(items: list) -> list[str]:
    return [f"{s} col {c}" for s, c in items if isinstance(c, int)]


def summary_line(doc: dict) -> str:
    sup = doc["supply"]
    return (f"**{doc['to_move']} to move**, {counted(doc['actions_left'], 'action')} left. Votes A {sup['A']['vote']} / "
            f"B {sup['B']['vote']}; Bullets A {sup['A']['bullet']} / B {sup['B']['bullet']}; Handcuffs A "
            f"{sup['A']['handcuffs']} / B {sup['B']['handcuffs']}; reserve {counted(len(doc.get('reserve', [])), 'token')}"
            + ("; **sudden death in force**" if doc.get("sudden_death") else "") + ".")


# ----------------------------------------------------------------------------- engine adapters

def _load(pos_json: str):
    return position_from_json(json.loads(pos_json))


def _readings(readings_json: str) -> OutlawsReadings:
    return OutlawsReadings.from_json(json.loads(readings_json))


@cache_final(not_stopped_by_time, max_entries=32)
def dead_cached(pos_json: str, readings_json: str, time_limit: float, max_depth: int) -> dict:
    """The engine's search for a dead position (rule O12) reachable from this position."""
    return search.find_dead_positions(_load(pos_json), readings=_readings(readings_json), max_depth=max_depth,
                                      time_limit=time_limit)


def show_dead(result: dict) -> None:
    if result.get("found"):
        st.error(f"**Dead position found** {counted(result.get('length') or 0, 'action')} from here: nobody can win and the "
                 "sudden-death trigger does not hold (a gap in the rules, O12).", icon=":material/report:")
        st.html(street.street_html(result["position"], "The dead position"))
        with st.expander("Why nobody can win there (the engine's reasons)"):
            st.json(result.get("why") or {}, expanded=True)
        if result.get("line"):
            wrapped_table(pl.DataFrame([{"step": i + 1, "side": e.get("side"), "action": _action_text(e.get("action", {})),
                                         "hidden outcome": e.get("condition") or ""} for i, e in enumerate(result["line"])]))
    elif result.get("complete") or result.get("exhausted") or result.get("proven"):
        st.success(f"**No dead position**: {result.get('bound')}.", icon=":material/verified:")
    else:
        st.warning(f"{result.get('bound', 'none found')}.", icon=":material/help:")


@st.cache_data(show_spinner=False, max_entries=256)
def status_cached(pos_json: str, readings_json: str) -> dict:
    """Winner, kind of victory and the sudden-death trigger (the engine's victory module)."""
    pos = _load(pos_json)
    won = victory.winner(pos)
    trigger = victory.sudden_death_trigger(pos, readings=_readings(readings_json))
    return {"winner": won[0] if won else None, "victory": won[1] if won else None,
            "sudden_death_trigger": bool(trigger)}


@st.cache_data(show_spinner=False, max_entries=256)
def moves_cached(pos_json: str, readings_json: str) -> list[dict]:
    """Every legal action (contracts.md JSON) with the engine's own sentence for it."""
    return [{"description": a.describe()} | a.to_json() for a in legal_actions(_load(pos_json), _readings(readings_json))]


@cache_final(proven, max_entries=64)
def search_cached(pos_json: str, readings_json: str, time_limit: float, max_depth: int = 12) -> dict:
    """The engine's bounded win search for both sides (solver.outlaws.search.win_possible)."""
    return search.win_possible(_load(pos_json), readings=_readings(readings_json), max_depth=max_depth,
                               time_limit=time_limit).to_json()


@st.cache_data(show_spinner=False, max_entries=32)
def playouts_cached(readings_json: str, n: int, seed: int, max_actions: int,
                    _progress: OnProgress | None = None) -> list[dict]:
    """``n`` random games from the set-ups of seeds ``seed..seed+n-1`` (the engine's playouts); ``_progress``: the
    page's :class:`~dashboard.shared.work.ProgressBox` with ``stops`` (stopped, it raises and nothing is cached)."""
    df = playout.playouts(n, seed=seed, readings=_readings(readings_json), max_actions=max_actions, progress=_progress)
    return df.to_dicts()


# ----------------------------------------------------------------------------- views


def show_banners(status: dict, doc: dict) -> None:
    winner, won_by = status.get("winner"), status.get("victory")
    if winner:
        st.success(f"**{winner} has won** {victory.victory_words(won_by)}.", icon=":material/emoji_events:")
    if not winner and (status.get("sudden_death_trigger") or doc.get("sudden_death")):  # over: no warning
        when = " is triggered in this position" if status.get("sudden_death_trigger") else " is in force"
        st.warning(f"**Sudden death**{when}: only {victory.sudden_death_victories()} count (rule O11).",
                   icon=":material/skull:")


def show_actions(actions: list[dict]) -> None:
    if not actions:
        st.info("No legal action for the side to move.")
        return
    kinds = Counter(a.get("kind", "?") for a in actions)
    st.markdown(f"**{len(actions)} legal actions**: " + ", ".join(f"{n} {k}" for k, n in sorted(kinds.items())))
    tabs = st.tabs([f"{k} ({n})" for k, n in sorted(kinds.items())], on_change="rerun")
    for tab, (kind, _n) in zip(tabs, sorted(kinds.items())):
        if not tab.open:  # only the open kind's table is drawn
            continue
        with tab:
            rows = [{key: (json.dumps(v) if isinstance(v, (list, dict)) else v) for key, v in a.items()}
                    for a in actions if a.get("kind") == kind]
            st.dataframe(readable(rows, drop=("kind",)), hide_index=True, width="stretch",
                         column_config={"call": st.column_config.TextColumn(width="small")})  # "sheriff" whole


def _action_text(a: dict, side: str = "") -> str:
    """The engine's sentence for an action (Action.describe), else a plain listing of its fields."""
    try:
        from solver.outlaws.actions import Action

        act = Action.from_json(a)
        if hasattr(act, "describe"):
            return act.describe(side)
    except Exception:  # noqa: BLE001 - fall back to the plain listing below
        pass
    if a.get("kind") == "move":
        return f"move columns {a.get('columns')}" + (f", {a['saloon']} to the Saloon" if a.get("saloon") else "")
    text = f"{a.get('kind')} with the {a.get('actor')} (column {a.get('column')})"
    for key in ("call", "target", "mayor"):
        if a.get(key) is not None:
            text += f", {key} {a[key]}"
    return text


def show_search(result: dict) -> None:
    """The win search's answer per side: a witnessing line, a proof of impossibility, or 'not found
    within the bound' (never presented as a proof)."""
    for side in ("A", "B"):
        ok, line, why = result.get(side), result.get(f"line_{side}"), (result.get("reason") or {}).get(side, "")
        if ok is True:
            st.success(f"**{side} can still win**: {why}." + (" Witnessing line:" if line else ""),
                       icon=":material/check_circle:")
            if line:
                wrapped_table(pl.DataFrame([{"step": i + 1, "side": e.get("side"), "action": _action_text(e.get("action", {})),
                                             "hidden outcome": e.get("condition") or "", "outcome #": e.get("outcome")}
                                            for i, e in enumerate(line)]))
        elif ok is False:
            st.error(f"**{side} cannot win from here** (proven: {why}).", icon=":material/block:")
        else:
            st.warning(f"**{side}: undecided** - {why}. Raise the budget or the depth.", icon=":material/help:")
    st.caption(f"Depth bound {result.get('depth')}, {result.get('nodes')} positions expanded in "
               f"{result.get('elapsed')} s; both sides cooperate and hidden tokens are chosen (contracts.md).")


def victory_counts(df: pl.DataFrame) -> pl.DataFrame:
    """Games by winner and victory, each victory by its name (solver.outlaws.victory_names); "none": unfinished."""
    named = (pl.col("victory").cast(pl.Utf8).replace_strict({v.value: v.name for v in victory.WAYS_TO_WIN},
                                                            default="none", return_dtype=pl.Utf8)
             if "victory" in df.columns else pl.lit("?").alias("victory"))
    return (df.with_columns(pl.col("winner").fill_null("none"), named)
            .group_by(["winner", "victory"]).len().sort(["winner", "victory"]))


def show_playouts(rows: list[dict]) -> None:
    if not rows:
        st.info("No playouts.")
        return
    df = pl.DataFrame(rows, infer_schema_length=None)
    named = [{**r, "victory": victory.victory_name(r["victory"]) if r.get("victory") else None} if "victory" in r else r
             for r in rows[:20]]  # each victory by its name (solver.outlaws.victory_names), never "bad" / "ugly"
    st.dataframe(readable(named), hide_index=True, width="stretch")
    if "winner" in df.columns:
        counts = victory_counts(df)
        chart = alt.Chart(counts).mark_bar().encode(
            x=alt.X("winner:N", title="winner", axis=alt.Axis(labelAngle=0)), y=alt.Y("len:Q", title="games"),
            color=alt.Color("victory:N", title="victory"), tooltip=["winner", "victory", "len"]
        ).properties(title="Who wins, and how", height=260)
        st.altair_chart(chart, width="stretch")
    if "sudden_death" in df.columns:
        st.markdown(f"Finished games: **{int(df['finished'].sum()) if 'finished' in df.columns else '?'} of {df.height}**; "
                    f"sudden death reached in **{int(df['sudden_death'].sum())}**.")
    length_col = next((c for c in ("length", "actions", "turns", "plies") if c in df.columns), None)
    if length_col:
        hist = alt.Chart(df.select(length_col)).mark_bar().encode(
            x=alt.X(f"{length_col}:Q", bin=alt.Bin(maxbins=30), title=f"game length ({'actions' if length_col == 'length' else length_col})"),
            y=alt.Y("count():Q", title="games")).properties(title="Game length", height=220)
        st.altair_chart(hist, width="stretch")


__all__ = ["position_editor", "summary_line", "status_cached", "moves_cached", "search_cached", "playouts_cached",
           "show_banners", "show_actions", "show_search", "show_playouts", "show_dead"]


def ways_to_win() -> None:
    """Each victory's Italian sentence ("Vincere la partita") with its English beside it, the English edition's name,
    and why Con le Brutte is the Bad way and Con le Cattive the Ugly way (solver.outlaws.victory_names)."""
    from solver.outlaws.victory_names import WAYS_TO_WIN, WHY_THE_NAMES

    for v in WAYS_TO_WIN:
        left, right = st.columns(2)
        left.markdown(f"*\"{v.passage}\"*")
        right.markdown(f"{v.passage_english} **{v.name}** (rule {v.rule})")
    st.markdown(WHY_THE_NAMES)

