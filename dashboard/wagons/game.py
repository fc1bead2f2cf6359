"""The Lone Cowboy game table's state: ONE engine game, kept as its game record (the start and the
actions taken, :mod:`solver.wagons.game`) plus how many of those actions are applied (undo/redo).

The record lives in the session, in the page's address (``?lc=``, :mod:`dashboard.shared.work.urldoc`) and in this
browser's kept work (:mod:`dashboard.shared.work.store`, key :data:`KEY`, also the document of a "Lone Cowboy game" in
My games): a new session takes the address first, else the kept work, so a reload on any page, a closed tab or a
restarted server resumes the game, and a shared or bookmarked address still opens its own game. It is also the
game file offered for download and upload. With the opponent played automatically (:data:`SETTINGS`, remembered
for the browser), each player action is followed by the engine's ``OpponentTurn`` until the player or a reveal is
next. Every state shown is the engine's replay of the record; nothing here decides a rule.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from dashboard.shared.work import store, urldoc
from dashboard.wagons import addresses as wagons_addresses
from solver.errors import BadInput
from solver.wagons import game as gm
from solver.wagons.readings import WagonsReadings
from solver.wagons.record.game_record import game_from_record, game_record, record_start
from solver.wagons.record.load import record_of

QUERY = "lc"
KEY = "wagons_game"  # the session's game, and the browser's kept work of the same name (games.KINDS "wagons-game")
OWN_QUERY = "lc_own"
OWN_GAME = "wagons_own_game"  # the player's own game while the table shows another line (a winning line)
SETTINGS = "wagons_table_settings"
"""The table's settings, kept for the browser: ``{"autoplay": bool, "what_if": bool}`` (the opponent's turns play
themselves; each choice shows its expected result, :mod:`dashboard.wagons.what_if`)."""
DEFAULT_SCENARIO = "boomtown"  # the game contract's default set-up (solver.wagons.game.initial_state)
DEFAULT_SEED = 0               # `wagons simulate`'s default seed


def new_record(scenario: str, seed: int | None, readings: WagonsReadings) -> dict:
    """The engine's game file of a new game: a seeded deal (``seed``) or a followed one (``seed`` None)."""
    return game_record(record_start(scenario, readings, seed))


def replay(record: dict, n: int | None = None) -> gm.GameState:
    """The engine's state after the record's first ``n`` actions (all when None)."""
    from dashboard.wagons.cards.reading import card_data

    return game_from_record({**record, "actions": record["actions"][:n]}, card_data())  # the player's card numbers


def load_record(doc: Any, what: str = "the game file") -> dict:
    """An uploaded game in any saved shape (a game file, a `wagons play --json` output, a kept game or an older
    game state), read and replayed by the engine: its one game record back."""
    return record_of(doc, what)


def load_game(doc: Any, what: str = "the kept game") -> dict:
    """``{"record", "at"}`` (from the address, the store or My games), the record replayed by the engine and the
    step number checked; BadInput naming ``what`` otherwise."""
    if not isinstance(doc, dict) or "record" not in doc:
        raise BadInput(f"{what} is not a saved game (expected its record and step)")
    record = load_record(doc["record"])
    at = doc.get("at", len(record["actions"]))
    if isinstance(at, bool) or not isinstance(at, int) or not 0 <= at <= len(record["actions"]):
        raise BadInput(f"{what} has a bad step number")
    return {"record": record, "at": at}


# ----------------------------------------------------------------------------- the session's game

def current() -> dict:
    """{"record", "at"} of this session's game: on a fresh session (or after My games resumed one) the game in
    the address, else this browser's kept game, else the default deal."""
    ss = st.session_state
    if KEY not in ss:
        addressed = from_address()
        own = from_address(OWN_QUERY, "your own game in the address")  # read (and a damaged one named) either way
        if addressed is not None:
            ss[KEY] = addressed
            if own is not None:
                ss[OWN_GAME] = own
        else:
            store.sync(KEY, load=load_game)
            store.sync(OWN_GAME, load=load_game)
        ss.setdefault(KEY, {"record": new_record(DEFAULT_SCENARIO, DEFAULT_SEED, WagonsReadings()), "at": 0})
    return ss[KEY]


def keep() -> None:
    """Keep the game (and the player's own game, while another line is shown) as this browser's work, and the
    table's settings; once per run, after the page has drawn (a write only when something changed)."""
    store.persist(KEY)
    store.persist(OWN_GAME)
    store.persist(SETTINGS)


def from_address(query: str = QUERY, what: str = "the Lone Cowboy game in the address") -> dict | None:
    text = st.query_params.get(query)
    if not text:
        return None
    try:
        address = wagons_addresses.LC_OWN if query == OWN_QUERY else wagons_addresses.LC
        return load_game(urldoc.decode(text, address), address.what)
    except BadInput as exc:
        st.session_state["lc_address_error"] = f"The game in the address was not loaded: {exc}"
        return None


def to_address() -> None:
    """Keep the address in step with the game (a reload resumes it, redo steps included), and with the
    player's own game while another line is on the table (a reload keeps the way back to it)."""
    urldoc.put(st.query_params, QUERY, current())
    urldoc.put(st.query_params, OWN_QUERY, st.session_state.get(OWN_GAME))


def show_line(record: dict) -> None:
    """Put another line on the table from its first action, keeping the player's own game to come back to."""
    if OWN_GAME not in st.session_state:
        st.session_state[OWN_GAME] = dict(current())
    start(record, at=0)


def back_to_own() -> None:
    """The player's own game back on the table (and no longer kept aside)."""
    st.session_state[KEY] = st.session_state[OWN_GAME]
    store.forget(OWN_GAME)


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


def set_game_reading(field: str, value: str) -> None:
    """The player's card settled a reading (:mod:`dashboard.wagons.cards.reading`): the game under way takes it
    too, replayed by the engine (a game the new reading cannot replay keeps its own, and says so)."""
    g = current()
    try:
        record = load_record({**g["record"], "rules": {**g["record"]["rules"], field: value}})
    except BadInput as exc:
        st.session_state["lc_error"] = f"This game keeps its reading of {field}: {exc}"
        return
    st.session_state[KEY] = {**g, "record": record}


# ----------------------------------------------------------------------------- the opponent plays itself

def settings() -> dict:
    """The table's settings for this browser (restored from its kept work on a new session)."""
    if SETTINGS not in st.session_state:
        store.sync(SETTINGS, load=_load_settings)
    return st.session_state.setdefault(SETTINGS, {"autoplay": True, "what_if": False})


def _load_settings(doc: Any) -> dict:
    if not isinstance(doc, dict) or not all(isinstance(doc.get(k, False), bool) for k in ("autoplay", "what_if")):
        raise BadInput("the table's kept settings are not a set of on/off choices")
    return {"autoplay": doc.get("autoplay", True), "what_if": doc.get("what_if", False)}


def autoplay() -> bool:
    """Whether the opponent's turns play themselves (the default; the player may turn it off)."""
    return settings()["autoplay"]


def set_autoplay(on: bool) -> None:
    st.session_state[SETTINGS] = {**settings(), "autoplay": bool(on)}
    if on:
        settle()


def settle() -> None:
    """With autoplay on: the engine's ``OpponentTurn`` while the opponent is to move (its turn, shown with its
    rule afterwards); a reveal or the player's turn stops it."""
    while autoplay() and state().to_move == "opponent":
        act(gm.OpponentTurn())


def step() -> int:
    """How many actions are applied: a button's callback checks it, so a tap drawn for an earlier step (a quick
    second tap that reaches the server after the first one's run) does nothing."""
    return current()["at"]


def can_undo() -> bool:
    return current()["at"] > 0


def can_redo() -> bool:
    g = current()
    return g["at"] < len(g["record"]["actions"])


def _skips(at: int) -> bool:
    """Whether undo and redo pass over step ``at``: the opponent to move there while it plays itself."""
    return autoplay() and replay(current()["record"], at).to_move == "opponent"


def undo() -> None:
    """One step back; with autoplay, past the opponent's turns to the player's last action."""
    g = current()
    at = max(0, g["at"] - 1)
    while at > 0 and _skips(at):
        at -= 1
    st.session_state[KEY] = {**g, "at": at}


def redo() -> None:
    """One step forward; with autoplay, on through the opponent's turns already in the record."""
    g = current()
    end = len(g["record"]["actions"])
    at = min(end, g["at"] + 1)
    while at < end and _skips(at):
        at += 1
    st.session_state[KEY] = {**g, "at": at}
