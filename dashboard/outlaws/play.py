"""Outlaws at the table: play a position forward through the game contract.

The page keeps one *line* (a start game, the plays and the chance outcome chosen for each; the format
of :mod:`solver.outlaws.line`) and a cursor into it. Every position shown is the engine's replay of
that line: the legal actions are ``legal_actions``, a click applies a play through ``outcomes`` (the
user picks the outcome, or draws it with its exact chance; a sudden-death lay is one chance step,
:mod:`dashboard.outlaws.chance`), undo drops the last play. The line and the cursor are this browser's
kept work ``outlaws_line`` (:mod:`dashboard.shared.work.store`: a page switch, a reload on any page, a closed tab
or a server restart finds it; "My games" saves it as the kind ``outlaws-line``) and are in the browser's
address (query parameter ``line``: the line's JSON, zlib-compressed, base64url; ``at``: the cursor), so a
bookmark or a shared address resumes the same game.
"""

from __future__ import annotations

import json
import random
from fractions import Fraction
from typing import Any

import streamlit as st

from dashboard.outlaws import addresses as outlaws_addresses
from dashboard.outlaws import chance
from dashboard.outlaws import street as tbl
from dashboard.shared import games
from dashboard.shared.boxes import whole_box
from dashboard.shared.widgets import json_download, json_upload, show_bad_input
from dashboard.shared.words import counted, wrapped_table
from dashboard.shared.work import addresses, store, urldoc
from dashboard.shared.work.plaintext import plain
from solver.errors import BadInput
from solver.io.read import as_int
from solver.outlaws import game as gm
from solver.outlaws import line as ln
from solver.outlaws.position import view
from solver.outlaws.position_json import position_from_json, position_to_json
from solver.outlaws.victory import sudden_death_trigger, sudden_death_victories, victory_words

KIND_TITLES = {"move": "Moves", "look": "Looks", "take": "Takes", "ability": "Abilities"}
FILTER_FROM = 24  # a kind with more actions than this gets a filter box
KEY = "outlaws_line"
"""Session key and work key (``games.KINDS["outlaws-line"]``): {"line": the line document, "at": the step shown}."""
PENDING = "olp_pending"
"""Session key: the play waiting for its chance outcome ({"play": action JSON, "group": a lay group or None})."""
MAX_SEED = 10**6


# ----------------------------------------------------------------------------- the line in the URL

def encode(doc: dict) -> str:
    """A line document as compact URL-safe text."""
    return urldoc.encode(doc)


def decode(text: str) -> dict:
    return urldoc.decode(text, outlaws_addresses.LINE)


def load_any(doc: Any) -> dict:
    """A line document from an uploaded file: a saved line, or a bare position (a line with no play)."""
    if isinstance(doc, dict) and doc.get("format") == ln.FORMAT:
        ln.line_from_json(doc)  # replayed through the engine: refuses a bad file whole
        return doc
    if isinstance(doc, dict) and "position" in doc:
        return ln.line_to_json(gm.state_from_json(doc), [])
    return ln.line_to_json(gm.Game(position_from_json(doc)), [])


def load_work(doc: Any) -> dict:
    """The work from a kept or saved document: {"line", "at"}, or a bare line (shown at its end)."""
    if isinstance(doc, dict) and set(doc) == {"line", "at"}:
        line = load_any(doc["line"])
        return {"line": line, "at": min(as_int(doc["at"], "the step shown", 0), len(line["steps"]))}
    line = load_any(doc)
    return {"line": line, "at": len(line["steps"])}


@st.cache_data(show_spinner=False, max_entries=64)
def replayed(line_text: str) -> tuple[gm.Game, list[ln.Step], list[gm.Game]]:
    return ln.line_from_json(json.loads(line_text))


# ----------------------------------------------------------------------------- session state

def _line() -> dict:
    return st.session_state[KEY]["line"]


def _cursor() -> int:
    return st.session_state[KEY]["at"]


def _set_line(doc: dict, cursor: int | None = None) -> None:
    ss = st.session_state
    ss[KEY] = {"line": doc, "at": len(doc["steps"]) if cursor is None else cursor}
    ss[PENDING] = None


def _set_cursor(cursor: int) -> None:
    st.session_state[KEY] = {**st.session_state[KEY], "at": cursor}
    st.session_state[PENDING] = None


def _from_address() -> None:
    ss = st.session_state
    text = st.query_params.get("line")
    if not text:
        return
    try:
        doc = decode(text)
        ln.line_from_json(doc)
        at = st.query_params.get("at")
        _set_line(doc, min(urldoc.decode(at, addresses.AT), len(doc["steps"])) if at else None)
    except BadInput as exc:
        ss.olp_url_error = f"The game in the address was not loaded: {exc}"


def init(default: gm.Game) -> None:
    """The line kept in the session, else from the address (a bookmark), this browser's store (a reload
    elsewhere, a closed tab, a restarted server), or a new line from ``default``."""
    ss = st.session_state
    if KEY not in ss:
        _from_address()
    store.sync(KEY, load=load_work)
    if KEY not in ss:
        _set_line(ln.line_to_json(default, []))
    ss.setdefault(PENDING, None)


def _keep() -> None:
    """End of the run: the line to this browser's store (when it changed) and to the address."""
    store.persist(KEY)
    urldoc.put(st.query_params, outlaws_addresses.LINE.name, _line())
    if st.query_params.get("at") != str(_cursor()):
        st.query_params["at"] = str(_cursor())


def _play(play: gm.Play, outcome: int) -> None:
    steps = _line()["steps"][:_cursor()]
    steps.append({"action": gm.action_to_json(play), "outcome": outcome})
    _set_line({**_line(), "steps": steps})


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

NEAR_SUDDEN_DEATH = (("sudden-death-near.json", "One Vote from sudden death"),
                     ("sudden-death-again.json", "Sudden death a second time"))
"""Starting positions near sudden death (rule O11), from the project's example positions, one tap each."""


def _start_from_example(file: str) -> None:
    from solver.outlaws.position_json import read_position
    from solver.paths import SCENARIOS

    try:
        _set_line(ln.line_to_json(gm.Game(read_position(SCENARIOS / "outlaws" / file), _readings()), []))
    except BadInput as exc:
        st.session_state["olp_url_error"] = f"Not started: {exc}"


def render_examples() -> None:
    """The starting positions near sudden death, one tap each (no file to upload)."""
    with st.container(horizontal=True, key="olp_examples", vertical_alignment="center"):
        st.caption("Start near sudden death (rule O11):", width="content")
        for file, label in NEAR_SUDDEN_DEATH:
            st.button(label, key=f"olp_example_{file.removesuffix('.json')}", icon=":material/skull:",
                      on_click=_start_from_example, args=(file,),
                      help="A new line from this example position (the line so far is replaced)")


def render_start(default_seed: int, page_position: dict | None) -> None:
    """Where the line starts: a set-up from a seed, the Outlaws page's position, or a file; and saving it."""
    render_examples()  # outside the panel: one tap starts there
    with st.expander("Start position, save and load", expanded=False, icon=":material/flag:"):
        c = st.columns([1, 1, 2])
        with c[0]:
            seed = whole_box("Set-up seed", "olp_seed", default_seed, 0, MAX_SEED,
                             help="The contract's set-up (the CLI's default seed is 0)")
            if st.button("New set-up", key="olp_new", disabled=seed is None):
                _set_line(ln.line_to_json(gm.initial_state(seed, _readings()), []))
                st.rerun()
        if page_position is not None and c[1].button("From the Outlaws page", key="olp_from_page",
                                                     help="Start from the position on the Outlaws page"):
            try:
                _set_line(ln.line_to_json(gm.Game(position_from_json(page_position), _readings()), []))
                st.rerun()
            except BadInput as exc:
                show_bad_input(exc, "Position not used: ")
        with c[2]:
            loaded = json_upload("Load a saved line (or a position file)", "olp_upload", load_any)
            if loaded is not None:
                _set_line(loaded)
                st.rerun()
        json_download("Save this line (start position, actions and outcomes)", _line(), "outlaws-line.json",
                      "olp_download")
        games.save_form("outlaws-line", st.session_state[KEY], key="olp_save", default_name="Outlaws line")


def _readings():
    from dashboard.shared.readings import make_readings, readings_class

    return make_readings("outlaws", readings_class("outlaws"))


NAVIGATION = ("First", "Back", "Next", "Last")
"""The buttons that move along the line (to the start, one step back, one forward, to the end)."""


TABLE_CSS = """<style>
[class*="st-key-olp_act_"] button [data-testid="stMarkdownContainer"] p { white-space: normal; overflow: visible;
  text-overflow: clip; text-align: left; }
[class*="st-key-olp_act_"] button { height: auto; }
@media (max-width: 640px) {
  .st-key-olp_nav { flex-wrap: nowrap; gap: 6px; }
  .st-key-olp_nav button { padding-left: 10px; padding-right: 10px; }
}
</style>"""
"""An action button's whole sentence wraps inside it (two actions that differ only at the end of their sentence
must not read alike); on a phone the five navigation buttons (short words, no icons) keep one row."""


def render_navigation(n: int) -> None:
    """First, Back, Next, Last and Undo in one row (a phone's too), then where the page is in the line."""
    cur = _cursor()
    targets = {"First": 0, "Back": cur - 1, "Next": cur + 1, "Last": n}
    st.html(TABLE_CSS)
    with st.container(horizontal=True, gap="small", key="olp_nav"):
        for label in NAVIGATION:
            to = targets[label]
            if st.button(label, key=f"olp_nav_{label}", disabled=not 0 <= to <= n or to == cur):
                _set_cursor(to)
                st.rerun()
        if st.button("Undo", key="olp_undo", disabled=n == 0,
                     help="Take back the last action of the line (the position you are viewing stays shown)"):
            _set_line({**_line(), "steps": _line()["steps"][:n - 1]}, min(cur, n - 1))
            st.rerun()
    st.markdown(f"**Step {cur} of {n}**" + (" (viewing an earlier position: a new action here replaces the "
                                            "rest of the line)" if cur < n else ""))


def render_banners(game: gm.Game) -> None:
    pos = game.position
    won = gm.winner(game)
    if won:
        st.success(f"**{won} has won** {victory_words(pos.victory)}"
                   + (" during sudden death" if pos.sudden_death else "") + ".", icon=":material/emoji_events:")
    elif pos.sudden_death:
        st.warning(f"**Sudden death is in force**: only {sudden_death_victories()} count (rule O11).",
                   icon=":material/skull:")
    elif sudden_death_trigger(pos, game.readings):
        st.warning("**Sudden death is triggered**: the next action's resolution begins it (rule O11).",
                   icon=":material/skull:")


def board_line(game: gm.Game) -> str:
    """Who is to move (or that the game is over) and what each side holds, in words."""
    pos, sup = game.position, game.position.supply
    won = gm.winner(game)
    head = (f"**The game is over: {won} has won**." if won else
            f"**{pos.to_move} to move**, {counted(pos.actions_left, 'action')} left this turn.")
    return (f"{head} Votes A {sup.A.vote} / B {sup.B.vote}; Bullets A {sup.A.bullet} / B {sup.B.bullet}; "
            f"Handcuffs A {sup.A.handcuffs} / B {sup.B.handcuffs}; Front Page markers A {sup.A.front_page} / "
            f"B {sup.B.front_page}; reserve {counted(len(pos.reserve), 'token')}.")


def render_board(game: gm.Game) -> None:
    pos = game.position
    tabs = st.tabs(["Whole table", "What A knows", "What B knows"])
    with tabs[0]:
        st.html(tbl.street_html(position_to_json(pos), "Everything on the table (god view)"))
    for tab, side in zip(tabs[1:], ("A", "B")):
        with tab:
            st.html(tbl.street_html(position_to_json(view(pos, side)),
                                    f"What {side} knows: the opposing characters and tokens {side} has not seen are face down"))
    st.markdown(board_line(game))


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


KIND_ORDER = ("take", "ability", "look", "move")
"""The order of the action tabs: the few decisive actions first, the many swaps last."""


def render_actions(game: gm.Game) -> None:
    """The legal actions as buttons, one tab per kind; only the open tab's buttons are drawn (a reload of the
    page does not wait for 250 swap buttons), and the kind last opened stays open after a play."""
    plays = gm.legal_actions(game)
    if not plays:
        st.info("The game is over: no action is left." if gm.is_terminal(game) else "No legal action.")
        return
    groups: dict[str, list[int]] = {}
    for i, play in enumerate(plays):
        groups.setdefault(play.action.kind, []).append(i)
    groups = dict(sorted(groups.items(), key=lambda kv: KIND_ORDER.index(kv[0]) if kv[0] in KIND_ORDER else 9))
    actions = {k: len({plays[i].action for i in v}) for k, v in groups.items()}  # as the Outlaws page counts
    st.markdown(f"{actions_head(plays, game.position.to_move)}: "
                + ", ".join(f"{actions[k]} {KIND_TITLES.get(k, k.replace('_', ' ')).lower()}" for k in groups)
                + ". Click one to play it.")
    labels = {k: f"{KIND_TITLES.get(k, k.replace('_', ' ').title())} ({actions[k]})" for k in groups}
    last = st.session_state.get("olp_kind")
    tabs = st.tabs(list(labels.values()), on_change="rerun", default=labels.get(last, next(iter(labels.values()))))
    for tab, (kind, items) in zip(tabs, groups.items()):
        if not tab.open:
            continue
        st.session_state.olp_kind = kind
        with tab:
            _action_buttons(game, plays, kind, items)


def _action_buttons(game: gm.Game, plays: tuple, kind: str, items: list[int]) -> None:
    many = len(items) > FILTER_FROM
    texts = [(i, ln.play_text(game, plays[i])) for i in items]
    if many:  # a long list: a filter box and a scrolling box, one full-width line per action
        words = st.text_input("Filter (a character, a column number...)", key=f"olp_filter_{kind}")
        texts = [(i, t) for i, t in texts if all(w.lower() in t.lower() for w in words.split())]
    box = st.container(height=420) if many else st.container()
    cols = box.columns(1 if many else 2)
    for n, (i, text) in enumerate(texts):
        if cols[n % len(cols)].button(text, key=f"olp_act_{i}", width="stretch"):
            _choose(game, plays[i])


def _choose(game: gm.Game, play: gm.Play) -> None:
    outs = gm.outcomes(game, play)
    if len(outs) == 1:
        _play(play, 0)
    else:
        st.session_state[PENDING] = {"play": gm.action_to_json(play), "group": None}
    st.rerun()


def _chance(p: Fraction) -> str:
    return f"**{p}**" + (f" ({float(p):.0%})" if p.denominator > 1 else "")


def render_pending(game: gm.Game) -> None:
    """The outcomes of the chosen play, in plain words with exact chances: pick one, or draw it; a sudden-death
    lay among them is one chance step (:func:`render_lay`)."""
    pending = st.session_state[PENDING]
    play = gm.action_from_json(pending["play"])
    outs = ln.outcome_texts(game, play)
    groups = chance.groups(game, outs)
    if pending.get("group") is not None or (len(groups) == 1 and groups[0].lay):
        render_lay(game, play, outs, groups[pending.get("group") or 0])
        return
    st.markdown(f"**{ln.play_text(game, play)}**: hidden information decides the result. Pick what happened "
                "at the table, or draw it at random with these chances.")
    for k, group in enumerate(groups):
        c = st.columns([1, 6, 2])
        c[0].markdown(_chance(group.chance))
        c[1].markdown(group.text + (" (then sudden death lays its tokens at random)" if group.lay else ""))
        if c[2].button("This happened", key=f"olp_out_{k}"):
            _pick_group(play, group, k)
    c = st.columns(2)
    if c[0].button("Draw it at random with these chances", key="olp_draw", icon=":material/casino:"):
        _play(play, draw_outcome([p for p, _g, _t in outs], random.SystemRandom()))
        st.rerun()
    if c[1].button("Cancel this action", key="olp_cancel"):
        st.session_state[PENDING] = None
        st.rerun()


def _pick_group(play: gm.Play, group: chance.Group, k: int) -> None:
    if group.lay:
        st.session_state[PENDING] = {**st.session_state[PENDING], "group": k}
    else:
        _play(play, group.members[0])
    st.rerun()


LAY_TOKENS = {"bullet": "Bullet", "handcuffs": "Handcuffs", "x": "Bogus X"}
"""The tokens a sudden-death lay puts down (rule O11), as "I saw them" offers them."""


def render_lay(game: gm.Game, play: gm.Play, outs: list, group: chance.Group) -> None:
    """Sudden death's tokens laid face down (rule O11): one step, "Laid at random" (each order with its exact
    chance), or "I saw them" with the token of each column."""
    st.markdown(f"**{ln.play_text(game, play)}**: {group.text}.")
    st.info(f"**Sudden death begins** (rule O11): the 3 Bullets, 3 Handcuffs and 2 Bogus X are laid face down on "
            f"the 8 columns at random ({len(group.members)} orders, each equally likely). Nobody has seen them.",
            icon=":material/skull:")
    if st.button("Laid at random", key="olp_lay_random", type="primary", icon=":material/casino:",
                 help="What happens at the table: the tokens are shuffled face down"):
        k = draw_outcome([outs[i][0] for i in group.members], random.SystemRandom())
        _play(play, group.members[k])
        st.rerun()
    with st.expander("I saw them: the token on each column", icon=":material/visibility:"):
        cols = st.columns(4)
        picked = [cols[c % 4].selectbox(f"Column {c}", list(LAY_TOKENS), index=None, format_func=LAY_TOKENS.get,
                                        placeholder="Choose", key=f"olp_lay_{c}") for c in range(8)]
        if st.button("These are the tokens", key="olp_lay_seen"):
            try:
                if None in picked:
                    raise BadInput(f"choose the token of column {picked.index(None)}")
                _play(play, chance.laid_at(outs, group, picked))
                st.rerun()
            except BadInput as exc:
                show_bad_input(exc, "Not laid: ")
    if st.button("Cancel this action", key="olp_cancel"):
        st.session_state[PENDING] = None
        st.rerun()


@st.cache_data(show_spinner=False, max_entries=64)
def history_rows(line_text: str) -> list[dict]:
    """Each step of the line: who played, the action and what happened, in words (a lay said once)."""
    _start, steps, games_ = replayed(line_text)
    rows = []
    for n, (step, before) in enumerate(zip(steps, games_), start=1):
        p, _g, text = ln.outcome_texts(before, step.play)[step.outcome]
        rows.append({"step": n, "player": before.position.to_move, "action": ln.play_text(before, step.play),
                     "what happened": chance.compact(text), "chance": str(p)})
    return rows


def render_history(line_text: str) -> None:
    rows = history_rows(line_text)
    if not rows:
        st.caption("No action played yet.")
        return
    import polars as pl

    at = _cursor()
    wrapped_table(pl.DataFrame([{**r, "shown": "<- here" if r["step"] == at else ""} for r in rows]))


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
        _set_line(ln.line_to_json(gm.Game(position_from_json(position), _readings()), []))
    except BadInput as exc:
        ss.olp_url_error = f"The Outlaws page's position was not used: {exc}"


def render(default: gm.Game, default_seed: int, page_position: dict | None = None) -> None:
    """The whole play flow (used by the Outlaws table page)."""
    init(default)
    _take_handoff()
    ss = st.session_state
    if ss.get("olp_url_error"):
        st.error(plain(ss.pop("olp_url_error")), icon=":material/error:")
    render_start(default_seed, page_position)
    line_text = json.dumps(_line(), sort_keys=True)
    try:
        _start, steps, games_ = replayed(line_text)
    except BadInput as exc:  # cannot happen for lines the page built; a reading changed under it
        show_bad_input(exc, "This line no longer replays under the readings in force: ")
        return
    if not 0 <= _cursor() <= len(steps):
        _set_cursor(max(0, min(_cursor(), len(steps))))
    game = games_[_cursor()]
    render_navigation(len(steps))
    render_banners(game)
    render_board(game)
    st.subheader("What happens next")
    if ss.get(PENDING):
        render_pending(game)
    else:
        render_actions(game)
    st.subheader("The line so far")
    render_history(line_text)
    _keep()
