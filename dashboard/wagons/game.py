"""The Lone Cowboy game table's state: ONE engine game, kept as its game record (the start and the
actions taken, :mod:`solver.wagons.game`) plus how many of those actions are applied (undo/redo).

The record lives in the session and in the page's address (``?lc=``, :mod:`dashboard.shared.urlstate`), so a
reload or a bookmark resumes the game; it is also the game file offered for download and upload.
Every state shown is the engine's replay of the record; nothing here decides a rule.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from dashboard.shared import addresses, urlstate
from solver.errors import BadInput
from solver.wagons import game as gm
from solver.wagons.record.game_record import game_from_record, game_record, record_start
from solver.wagons.rules import Rules

QUERY = "lc"
KEY = "lc_game"
OWN_QUERY = "lc_own"
OWN_GAME = "lc_own_game"  # the player's own game while the table shows another line (a winning line)
DEFAULT_SCENARIO = "boomtown"  # the game contract's default set-up (solver.wagons.game.initial_state)
DEFAULT_SEED = 0               # `wagons simulate`'s default seed


def new_record(scenario: str, seed: int | None, rules: Rules) -> dict:
    """The engine's game file of a new game: a seeded deal (``seed``) or a followed one (``seed`` None)."""
    return game_record(record_start(scenario, rules, seed))


def replay(record: dict, n: int | None = None) -> gm.GameState:
    """The engine's state after the record's first ``n`` actions (all when None)."""
    return game_from_record({**record, "actions": record["actions"][:n]})


def load_record(doc: Any) -> dict:
    """An uploaded game file, read and replayed by the engine (its own game file back)."""
    return game_record(game_from_record(doc))


# ----------------------------------------------------------------------------- the session's game

def current() -> dict:
    """{"record", "at"} of this session's game (read from the address on a fresh session)."""
    ss = st.session_state
    if KEY not in ss:
        ss[KEY] = from_address() or {"record": new_record(DEFAULT_SCENARIO, DEFAULT_SEED, Rules()), "at": 0}
        own = from_address(OWN_QUERY, "your own game in the address")
        if own is not None:
            ss[OWN_GAME] = own
    return ss[KEY]


def from_address(query: str = QUERY, what: str = "the Lone Cowboy game in the address") -> dict | None:
    text = st.query_params.get(query)
    if not text:
        return None
    try:
        doc = urlstate.decode(text, addresses.LC_OWN if query == OWN_QUERY else addresses.LC)
        record = load_record(doc.get("record"))
        at = doc.get("at", len(record["actions"]))
        if isinstance(at, bool) or not isinstance(at, int) or not 0 <= at <= len(record["actions"]):
            raise BadInput("the game in the address has a bad step number")
    except BadInput as exc:
        st.session_state["lc_address_error"] = f"The game in the address was not loaded: {exc}"
        return None
    return {"record": record, "at": at}


def to_address() -> None:
    """Keep the address in step with the game (a reload resumes it, redo steps included), and with the
    player's own game while another line is on the table (a reload keeps the way back to it)."""
    text = urlstate.encode(current())
    if st.query_params.get(QUERY) != text:
        st.query_params[QUERY] = text
    own = st.session_state.get(OWN_GAME)
    if own is None:
        if OWN_QUERY in st.query_params:
            del st.query_params[OWN_QUERY]
        return
    text = urlstate.encode(own)
    if st.query_params.get(OWN_QUERY) != text:
        st.query_params[OWN_QUERY] = text


def show_line(record: dict) -> None:
    """Put another line on the table from its first action, keeping the player's own game to come back to."""
    if OWN_GAME not in st.session_state:
        st.session_state[OWN_GAME] = dict(current())
    start(record, at=0)


def back_to_own() -> None:
    """The player's own game back on the table."""
    st.session_state[KEY] = st.session_state.pop(OWN_GAME)


def state() -> gm.GameState:
    g = current()
    return replay(g["record"], g["at"])


def applied_record() -> dict:
    """The game file of the game as it stands (the actions applied, without the redo steps)."""
    g = current()
    return {**g["record"], "actions": g["record"]["actions"][:g["at"]]}


def start(record: dict, at: int | None = None) -> None:
    """Put ``record`` on the table with its first ``at`` actions applied (all when None; the rest are redo steps)."""
    st.session_state[KEY] = {"record": record, "at": len(record["actions"]) if at is None else at}


def act(action: gm.Action) -> None:
    """Apply ``action`` (checked by the engine first); the redo steps are dropped."""
    gm.apply(state(), action)
    g = current()
    actions = g["record"]["actions"][:g["at"]] + [gm.action_to_dict(action)]
    st.session_state[KEY] = {"record": {**g["record"], "actions": actions}, "at": g["at"] + 1}


def can_undo() -> bool:
    return current()["at"] > 0


def can_redo() -> bool:
    g = current()
    return g["at"] < len(g["record"]["actions"])


def undo() -> None:
    g = current()
    st.session_state[KEY] = {**g, "at": max(0, g["at"] - 1)}


def redo() -> None:
    g = current()
    st.session_state[KEY] = {**g, "at": min(len(g["record"]["actions"]), g["at"] + 1)}
