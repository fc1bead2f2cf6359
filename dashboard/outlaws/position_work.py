"""The Outlaws page's work: the position on the page and the seed it was dealt from (``None`` for a position
uploaded or edited), kept in the session under ``outlaws_position``, mirrored to this browser's store
(:mod:`dashboard.shared.work.store`, a "My games" kind ``outlaws-position``) and put in the page's address
(``?pos=``) for sharing and bookmarks. Where a new session takes it from: the address first, then the
store, then a fresh set-up from seed 1. Every position passes the engine's own loader
(:func:`solver.outlaws.position_json.position_from_json`)."""

from __future__ import annotations

from typing import Any

import streamlit as st

from dashboard.outlaws import addresses as outlaws_addresses
from dashboard.outlaws.problems import in_words
from dashboard.shared.work import store, urldoc
from dashboard.shared.work.plaintext import plain
from solver.errors import BadInput
from solver.io.read import as_int
from solver.outlaws.position import initial_position
from solver.outlaws.position_json import position_from_json, position_to_json

KEY = "outlaws_position"
"""Session key and work key (``games.KINDS["outlaws-position"]``): {"position": ..., "seed": n or None}."""
ANSWERS = "outlaws_answers"
"""Work key of the page's last search and playout answers (:mod:`dashboard.shared.answers`)."""
QUERY = outlaws_addresses.POS.name
"""The address parameter holding the work."""
DEFAULT_SEED = 1
MAX_SEED = 10**6


def load(doc: Any) -> dict:
    """The work from a kept, saved or addressed document: {"position", "seed"}, or a bare position (seed None)."""
    if isinstance(doc, dict) and set(doc) == {"position", "seed"}:
        seed = None if doc["seed"] is None else as_int(doc["seed"], "the position's seed", 0, MAX_SEED)
        return {"position": position_to_json(position_from_json(doc["position"])), "seed": seed}
    return {"position": position_to_json(position_from_json(doc)), "seed": None}


def _from_address() -> None:
    text = st.query_params.get(QUERY)
    if not text:
        return
    try:
        doc = urldoc.decode(text, outlaws_addresses.POS)
    except BadInput as exc:  # the decoder's line is plain text already
        st.error(f"The position in the address was not loaded: {exc}", icon=":material/error:")
        return
    try:
        st.session_state[KEY] = load(doc)
    except BadInput as exc:
        st.error(f"The position in the address was not loaded: {plain(in_words(str(exc)))}", icon=":material/error:")


def init(readings: Any) -> None:
    """The session's work: kept in the session, else from the address, the store, or a fresh set-up."""
    ss = st.session_state
    if KEY not in ss:
        _from_address()
    store.sync(KEY, load=load)
    if KEY not in ss:
        ss[KEY] = {"position": position_to_json(initial_position(seed=DEFAULT_SEED, readings=readings)),
                   "seed": DEFAULT_SEED}
    ss.setdefault("ol_ver", 0)


def current() -> dict:
    return st.session_state[KEY]


def seed_shown() -> int:
    """The seed the seed box starts from: the work's, else the default."""
    seed = current()["seed"]
    return DEFAULT_SEED if seed is None else seed


def position() -> dict:
    return current()["position"]


def replace(doc: dict, seed: int | None = None) -> None:
    """A checked position (and its seed) becomes the work; the editor is drawn afresh from it."""
    ss = st.session_state
    ss[KEY] = {"position": doc, "seed": seed}
    ss.ol_ver = ss.get("ol_ver", 0) + 1
    store.persist(KEY)


def keep() -> None:
    """End of the page's run: the work to the store (when it changed) and to the address."""
    store.persist(KEY)
    urldoc.put(st.query_params, QUERY, current())


def shown_elsewhere() -> dict | None:
    """The Outlaws page's position for another page (the table's "Start from the Outlaws page's position"): the
    session's, else this browser's kept one, else None."""
    doc = st.session_state.get(KEY)
    if doc is None:
        handle = store.current()
        try:
            kept = handle.load_work(KEY) if handle is not None else None
            doc = load(kept) if kept is not None else None
        except BadInput:
            return None
    return None if doc is None else doc["position"]
