"""The Lone Cowboy game table's state: ONE engine game, kept as its game record (the start and the
actions taken, :mod:`solver.wagons.game`) plus how many of those actions are applied (undo/redo).

The record lives in the session and in the page's address (``?lc=``, :mod:`dashboard.urlstate`), so a
reload or a bookmark resumes the game; it is also the game file offered for download and upload.
Every state shown is the engine's replay of the record; nothing here decides a rule.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from dashboard import urlstate
from solver.errors import BadInput
from solver.wagons import game as gm
from solver.wagons.game_json import action_from_json, action_to_json
from solver.wagons.rules import Rules

QUERY = "lc"
KEY = "lc_game"
DEFAULT_SCENARIO = "boomtown"  # the game contract's default set-up (solver.wagons.game.initial_state)
DEFAULT_SEED = 0               # `wagons simulate`'s default seed


def new_record(scenario: str, seed: int | None, rules: Rules) -> dict:
    """A game file for a new game: a seeded deal (``seed``) or a followed one (``seed`` None)."""
    return {"game": "lone-cowboy", "version": 1, "scenario": scenario, "rules": rules.to_dict(), "seed": seed,
            "actions": []}


def start_of(record: dict) -> gm.GameState:
    """The game's start as the engine sets it up."""
    if record.get("seed") is None:
        raise BadInput("following a game needs the engine's chance actions (not available yet)")
    return gm.new_game(record["scenario"], record["seed"], Rules.from_dict(record["rules"]))


def replay(record: dict, n: int | None = None) -> gm.GameState:
    """The engine's state after the record's first ``n`` actions (all when None)."""
    state = start_of(record)
    for i, doc in enumerate(record["actions"][:n]):
        try:
            state = gm.apply(state, action_from_json(doc))
        except BadInput as exc:
            raise BadInput(f"action {i + 1}: {exc}") from None
    return state


def load_record(doc: Any) -> dict:
    """An uploaded game file, checked by replaying every action with the engine."""
    if not isinstance(doc, dict) or doc.get("game") != "lone-cowboy":
        raise BadInput("not a Lone Cowboy game file (expected \"game\": \"lone-cowboy\")")
    record = {k: doc.get(k) for k in ("game", "version", "scenario", "rules", "seed", "actions")}
    if not isinstance(record["actions"], list):
        raise BadInput("actions: expected a list")
    if not isinstance(record["rules"], dict):
        raise BadInput("rules: expected an object of readings")
    replay(record)
    return record


# ----------------------------------------------------------------------------- the session's game

def current() -> dict:
    """{"record", "at"} of this session's game (read from the address on a fresh session)."""
    ss = st.session_state
    if KEY not in ss:
        ss[KEY] = from_address() or {"record": new_record(DEFAULT_SCENARIO, DEFAULT_SEED, Rules()), "at": 0}
    return ss[KEY]


def from_address() -> dict | None:
    text = st.query_params.get(QUERY)
    if not text:
        return None
    try:
        doc = urlstate.decode(text, "the Lone Cowboy game in the address")
        record = load_record(doc.get("record"))
        at = doc.get("at", len(record["actions"]))
        if isinstance(at, bool) or not isinstance(at, int) or not 0 <= at <= len(record["actions"]):
            raise BadInput("the game in the address has a bad step number")
    except BadInput as exc:
        st.session_state["lc_address_error"] = f"The game in the address was not loaded: {exc}"
        return None
    return {"record": record, "at": at}


def to_address() -> None:
    """Keep the address in step with the game (a reload resumes it, redo steps included)."""
    text = urlstate.encode(current())
    if st.query_params.get(QUERY) != text:
        st.query_params[QUERY] = text


def state() -> gm.GameState:
    g = current()
    return replay(g["record"], g["at"])


def applied_record() -> dict:
    """The game file of the game as it stands (the actions applied, without the redo steps)."""
    g = current()
    return {**g["record"], "actions": g["record"]["actions"][:g["at"]]}


def start(record: dict) -> None:
    st.session_state[KEY] = {"record": record, "at": len(record["actions"])}


def act(action: gm.Action) -> None:
    """Apply ``action`` (checked by the engine first); the redo steps are dropped."""
    gm.apply(state(), action)
    g = current()
    actions = g["record"]["actions"][:g["at"]] + [action_to_json(action)]
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
