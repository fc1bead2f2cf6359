"""Outlaws at the table: play a position forward through the game contract.

The page keeps one *line* (a start game, the plays and the chance outcome chosen for each; the format
of :mod:`solver.outlaws.line`) and a cursor into it. Every position shown is the engine's replay of
that line: the legal actions are ``legal_actions``, a click applies a play through ``outcomes`` (the
user picks the outcome, or draws it with its exact chance), undo drops the last play. The line lives
in the browser's URL (query parameter ``line``: the line's JSON, zlib-compressed, base64url; ``at``:
the cursor), so a reload or a bookmark resumes the same game.
"""

from __future__ import annotations

import json
import random
from fractions import Fraction
from typing import Any

import polars as pl
import streamlit as st

from dashboard.outlaws import street as tbl
from dashboard.shared import addresses, urlstate
from dashboard.shared.widgets import json_download, json_upload, show_bad_input
from dashboard.shared.words import counted, wrapped_table
from solver.errors import BadInput
from solver.outlaws import game as gm
from solver.outlaws import line as ln
from solver.outlaws.state import position_from_json, position_to_json, view
from solver.outlaws.victory import sudden_death_trigger, sudden_death_victories, victory_words

KIND_TITLES = {"move": "Moves", "look": "Looks", "take": "Takes", "ability": "Abilities"}
FILTER_FROM = 24  # a kind with more actions than this gets a filter box


# ----------------------------------------------------------------------------- the line in the URL

def encode(doc: dict) -> str:
    """A line document as compact URL-safe text."""
    return urlstate.encode(doc)


def decode(text: str) -> dict:
    return urlstate.decode(text, addresses.LINE)


def load_any(doc: Any) -> dict:
    """A line document from an uploaded file: a saved line, or a bare position (a line with no play)."""
    if isinstance(doc, dict) and doc.get("format") == ln.FORMAT:
        ln.line_from_json(doc)  # replayed through the engine: refuses a bad file whole
        return doc
    if isinstance(doc, dict) and "position" in doc:
        return ln.line_to_json(gm.state_from_json(doc), [])
    return ln.line_to_json(gm.Game(position_from_json(doc)), [])


@st.cache_data(show_spinner=False, max_entries=64)
def replayed(line_text: str) -> tuple[gm.Game, list[ln.Step], list[gm.Game]]:
    return ln.line_from_json(json.loads(line_text))


# ----------------------------------------------------------------------------- session state

def _set_line(doc: dict, cursor: int | None = None) -> None:
    ss = st.session_state
    ss.olp_line = doc
    ss.olp_cursor = len(doc["steps"]) if cursor is None else cursor
    ss.olp_pending = None


def init(default: gm.Game) -> None:
    """The line from the address (a reload), else a new line from ``default``."""
    ss = st.session_state
    if "olp_line" in ss:
        return
    text = st.query_params.get("line")
    if text:
        try:
            doc = decode(text)
            ln.line_from_json(doc)
            at = st.query_params.get("at")
            _set_line(doc, min(urlstate.decode(at, addresses.AT), len(doc["steps"])) if at else None)
            return
        except BadInput as exc:
            ss.olp_url_error = f"The game in the address was not loaded: {exc}"
    _set_line(ln.line_to_json(default, []))


def _sync_url() -> None:
    ss = st.session_state
    text = encode(ss.olp_line)
    if st.query_params.get("line") != text:
        st.query_params["line"] = text
    if st.query_params.get("at") != str(ss.olp_cursor):
        st.query_params["at"] = str(ss.olp_cursor)


def _play(play: gm.Play, outcome: int) -> None:
    ss = st.session_state
    steps = ss.olp_line["steps"][:ss.olp_cursor]
    steps.append({"action": gm.action_to_json(play), "outcome": outcome})
    _set_line({**ss.olp_line, "steps": steps})


def draw_outcome(probs: list[Fraction], rng: random.Random) -> int:
    """An outcome index drawn with exactly these chances (an integer draw over the common denominator)."""
    denom = 1
    for p in probs:
        denom = denom * p.denominator // _gcd(denom, p.denominator)
    u = rng.randrange(denom)
    acc = 0
    for i, p in enumerate(probs):
        acc += p.numerator * (denom // p.denominator)
        if u < acc:
            return i
    return len(probs) - 1


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a


# ----------------------------------------------------------------------------- the page

def render_start(default_seed: int, page_position: dict | None) -> None:
    """Where the line starts: a set-up from a seed, the Outlaws page's position, or a file."""
    with st.expander("Start position, save and load", expanded=False, icon=":material/flag:"):
        c = st.columns([1, 1, 2])
        seed = c[0].number_input("Set-up seed", 0, 10**6, default_seed, key="olp_seed",
                                 help="The contract's set-up (the CLI's default seed is 0)")
        if c[0].button("New set-up", key="olp_new"):
            _set_line(ln.line_to_json(gm.initial_state(int(seed), _rules()), []))
            st.rerun()
        if page_position is not None and c[1].button("Start from the Outlaws page's position", key="olp_from_page"):
            try:
                _set_line(ln.line_to_json(gm.Game(position_from_json(page_position), _rules()), []))
                st.rerun()
            except BadInput as exc:
                show_bad_input(exc, "Position not used: ")
        with c[2]:
            loaded = json_upload("Load a saved line (or a position file)", "olp_upload", load_any)
            if loaded is not None:
                _set_line(loaded)
                st.rerun()
        json_download("Save this line (start position, actions and outcomes)", st.session_state.olp_line,
                      "outlaws-line.json", "olp_download")


def _rules():
    from dashboard.shared.readings import make_rules, rules_class

    return make_rules("outlaws", rules_class("outlaws"))


def render_navigation(n: int) -> None:
    ss = st.session_state
    cur = ss.olp_cursor
    c = st.columns([1, 1.4, 1.6, 1, 1, 2.4])
    moves = (("First", 0, ":material/first_page:"), ("Step back", cur - 1, ":material/chevron_left:"),
             ("Step forward", cur + 1, ":material/chevron_right:"), ("Last", n, ":material/last_page:"))
    for col, (label, to, icon) in zip(c, moves):
        if col.button(label, key=f"olp_nav_{label}", disabled=not 0 <= to <= n or to == cur, icon=icon):
            ss.olp_cursor, ss.olp_pending = to, None
            st.rerun()
    if c[4].button("Undo", key="olp_undo", disabled=n == 0, icon=":material/undo:",
                   help="Take back the last action of the line (the position you are viewing stays shown)"):
        _set_line({**ss.olp_line, "steps": ss.olp_line["steps"][:n - 1]}, min(cur, n - 1))
        st.rerun()
    c[5].markdown(f"**Step {cur} of {n}**" + (" (viewing an earlier position: a new action here replaces the "
                                              "rest of the line)" if cur < n else ""))


def render_banners(game: gm.Game) -> None:
    pos = game.position
    won = gm.winner(game)
    if won:
        st.success(f"**{won} has won** {victory_words(pos.victory)}.", icon=":material/emoji_events:")
    if pos.sudden_death:
        st.warning(f"**Sudden death is in force**: only {sudden_death_victories()} count (rule O11).",
                   icon=":material/skull:")
    elif not won and sudden_death_trigger(pos, game.rules):
        st.warning("**Sudden death is triggered**: the next action's resolution begins it (rule O11).",
                   icon=":material/skull:")


def render_board(game: gm.Game) -> None:
    pos = game.position
    tabs = st.tabs(["Whole table", "What A knows", "What B knows"])
    with tabs[0]:
        st.html(tbl.street_html(position_to_json(pos), "Everything on the table (god view)"))
    for tab, side in zip(tabs[1:], ("A", "B")):
        with tab:
            st.html(tbl.street_html(position_to_json(view(pos, side)),
                                    f"What {side} knows: the opposing characters and tokens {side} has not seen are face down"))
    sup = pos.supply
    st.markdown(f"**{pos.to_move} to move**, {counted(pos.actions_left, 'action')} left this turn. "
                f"Votes A {sup.A.vote} / B {sup.B.vote}; Bullets A {sup.A.bullet} / B {sup.B.bullet}; "
                f"Handcuffs A {sup.A.handcuffs} / B {sup.B.handcuffs}; Front Page markers A {sup.A.front_page} / "
                f"B {sup.B.front_page}; reserve {counted(len(pos.reserve), 'token')}.")


def actions_head(plays, to_move: str) -> str:
    """"**N legal actions for A**": the engine's actions, as the Outlaws page counts them, not the buttons; an
    action that raises a reaction question (rule:O6, rule:O7, rule:O16) has a button per answer, said after it."""
    distinct = {p.action for p in plays}
    head = f"**{counted(len(distinct), 'legal action')} for {to_move}**"
    if len(plays) == len(distinct):
        return head
    asking = len({p.action for p in plays if p.reactions})
    return (head + f" ({len(plays)} buttons: {counted(asking, 'action')} raise{'s' if asking == 1 else ''} a "
            f"reaction question, with a button per answer)")


def render_actions(game: gm.Game) -> None:
    plays = gm.legal_actions(game)
    if not plays:
        st.info("The game is over: no action is left." if gm.is_terminal(game) else "No legal action.")
        return
    groups: dict[str, list[tuple[int, str]]] = {}
    for i, play in enumerate(plays):
        groups.setdefault(play.action.kind, []).append((i, ln.play_text(game, play)))
    actions = {k: len({plays[i].action for i, _ in v}) for k, v in groups.items()}  # as the Outlaws page counts
    st.markdown(f"{actions_head(plays, game.position.to_move)}: "
                + ", ".join(f"{actions[k]} {KIND_TITLES.get(k, k.replace('_', ' ')).lower()}" for k in groups)
                + ". Click one to play it.")
    tabs = st.tabs([f"{KIND_TITLES.get(k, k.replace('_', ' ').title())} ({actions[k]})" for k in groups])
    for tab, (kind, items) in zip(tabs, groups.items()):
        with tab:
            many = len(items) > FILTER_FROM
            if many:  # a long list: a filter box and a scrolling box, one full-width line per action
                words = st.text_input("Filter (a character, a column number...)", key=f"olp_filter_{kind}")
                items = [(i, t) for i, t in items if all(w.lower() in t.lower() for w in words.split())]
            box = st.container(height=420) if many else st.container()
            cols = box.columns(1 if many else 2)
            for n, (i, text) in enumerate(items):
                if cols[n % len(cols)].button(text, key=f"olp_act_{i}", width="stretch"):
                    _choose(game, plays[i])


def _choose(game: gm.Game, play: gm.Play) -> None:
    outs = gm.outcomes(game, play)
    if len(outs) == 1:
        _play(play, 0)
    else:
        st.session_state.olp_pending = gm.action_to_json(play)
    st.rerun()


def render_pending(game: gm.Game) -> None:
    """The outcomes of the chosen play, in plain words with exact chances: pick one, or draw it."""
    play = gm.action_from_json(st.session_state.olp_pending)
    st.markdown(f"**{ln.play_text(game, play)}**: hidden information decides the result. Pick what happened "
                "at the table, or draw it at random with these chances.")
    outs = ln.outcome_texts(game, play)
    for k, (p, _g, text) in enumerate(outs):
        c = st.columns([1, 6, 2])
        c[0].markdown(f"**{p}**" + (f" ({float(p):.0%})" if p.denominator > 1 else ""))
        c[1].markdown(text)
        if c[2].button("This happened", key=f"olp_out_{k}"):
            _play(play, k)
            st.rerun()
    c = st.columns(2)
    if c[0].button("Draw it at random with these chances", key="olp_draw", icon=":material/casino:"):
        _play(play, draw_outcome([p for p, _g, _t in outs], random.SystemRandom()))
        st.rerun()
    if c[1].button("Cancel this action", key="olp_cancel"):
        st.session_state.olp_pending = None
        st.rerun()


def render_history(games: list[gm.Game], steps: list[ln.Step]) -> None:
    if not steps:
        st.caption("No action played yet.")
        return
    rows = []
    for n, (step, before) in enumerate(zip(steps, games), start=1):
        outs = ln.outcome_texts(before, step.play)
        p, _g, text = outs[step.outcome]
        rows.append({"step": n, "player": before.position.to_move, "action": ln.play_text(before, step.play),
                     "what happened": text, "chance": str(p),
                     "shown": "<- here" if n == st.session_state.olp_cursor else ""})
    wrapped_table(pl.DataFrame(rows))


HANDOFF = "olp_play_forward"
"""Session key: a position the Outlaws page sent with "Play it forward on the Outlaws table"."""


def play_forward(position: dict) -> None:
    """Button callback of the Outlaws page: the table starts a new line from ``position`` when it opens."""
    st.session_state[HANDOFF] = position


def _take_handoff() -> None:
    ss = st.session_state
    position = ss.pop(HANDOFF, None)
    if position is None:
        return
    try:
        _set_line(ln.line_to_json(gm.Game(position_from_json(position), _rules()), []))
    except BadInput as exc:
        ss.olp_url_error = f"The Outlaws page's position was not used: {exc}"


def render(default: gm.Game, default_seed: int, page_position: dict | None = None) -> None:
    """The whole play flow (used by the Outlaws table page)."""
    init(default)
    _take_handoff()
    ss = st.session_state
    if ss.get("olp_url_error"):
        st.error(ss.pop("olp_url_error"), icon=":material/error:")
    render_start(default_seed, page_position)
    try:
        _start, steps, games = replayed(json.dumps(ss.olp_line, sort_keys=True))
    except BadInput as exc:  # cannot happen for lines the page built; a reading changed under it
        show_bad_input(exc, "This line no longer replays under the readings in force: ")
        return
    ss.olp_cursor = max(0, min(ss.olp_cursor, len(steps)))
    game = games[ss.olp_cursor]
    render_navigation(len(steps))
    render_banners(game)
    render_board(game)
    st.subheader("What happens next")
    if ss.get("olp_pending"):
        render_pending(game)
    else:
        render_actions(game)
    st.subheader("The line so far")
    render_history(games, steps)
    _sync_url()
