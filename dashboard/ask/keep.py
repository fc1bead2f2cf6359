"""Where the page keeps its question and answer: the session, this browser's store (a reload, a closed tab, a restarted
server), the address (``?ask=``: a bookmark, a shared link) and My games (the saved kind ``ask-question``).

The work document (work key :data:`KEY`) is ``{"draft": the builder's draft (:mod:`dashboard.ask.draft`), "answer":
the last answer's JSON (:func:`solver.ask.answer.answer_to_json`) or None, "asked": the canonical text of the
question it answers}``; a saved item is the same document, so resuming it shows the question and its answer again.
A new session takes the kept work, with the address's question over it when they differ, else a new question.
"""

from __future__ import annotations

import json
from typing import Any

import streamlit as st

from dashboard.ask import addresses, draft
from dashboard.shared.work import store, urldoc
from solver.errors import BadInput

KEY = "ask_question"
"""Session key and work key (``games.KINDS["ask-question"]``)."""
SAVED_KIND = "ask-question"
GEN = "ask_gen"
"""Session key: the builder's generation; a new draft (an example, a restore, a new game) gives every widget a new
key, so each is drawn from the draft again."""
NOTE = "ask_note"
"""Session key: a one-line problem to show at the top of the next run (an address that could not be read)."""
DRAFT_KEYS = {"game": str, "domain": str, "ask": str, "params": dict, "conds": list, "join": str}


def canonical(doc: Any) -> str:
    return json.dumps(doc, sort_keys=True, separators=(",", ":"), default=str)


def _check_draft(d: Any) -> dict:
    if not isinstance(d, dict):
        raise BadInput("the kept question is not a question")
    for name, kind in DRAFT_KEYS.items():
        if not isinstance(d.get(name), kind):
            raise BadInput(f"the kept question has no valid {name!r}")
    for c in d["conds"]:
        if not isinstance(c, dict) or not {"measure", "op", "value"} <= set(c):
            raise BadInput("the kept question has a condition without measure, comparison and value")
    return {"where": None, "measure": None, "readings": {}, "title": ""} | d


def load_work(doc: Any) -> dict:
    """The work from a kept or saved document; BadInput when it is not one."""
    if not isinstance(doc, dict) or "draft" not in doc:
        raise BadInput("expected a question and its answer")
    answer = doc.get("answer")
    if answer is not None and not isinstance(answer, dict):
        raise BadInput("the kept answer is not an answer")
    return {"draft": _check_draft(doc["draft"]), "answer": answer, "asked": str(doc.get("asked") or "")}


def _kept_question() -> str | None:
    """The canonical document of the question in the session's work, or None."""
    try:
        return canonical(draft.doc_of(draft.question(st.session_state[KEY]["draft"])))
    except (BadInput, KeyError):
        return None


def _from_address() -> None:
    """The address's question, over the kept one unless it is the same (then the kept answer stays)."""
    text = st.query_params.get(addresses.ASK.name)
    if not text:
        return
    try:
        q = draft.question(draft.from_doc(urldoc.decode(text, addresses.ASK)))
    except BadInput as exc:
        st.session_state[NOTE] = f"The question in the address was not opened: {exc}"
        return
    if KEY in st.session_state and _kept_question() == canonical(draft.doc_of(q)):
        return
    st.session_state[KEY] = {"draft": draft.from_question(q), "answer": None, "asked": ""}


def init(default_game: str, readings: dict | None = None) -> None:
    """The work in the session, else this browser's kept work, with the address's question over it (a bookmark, a
    shared link), else a new question of ``default_game`` under ``readings``."""
    ss = st.session_state
    fresh = KEY not in ss
    store.sync(KEY, load=load_work)
    if fresh:
        _from_address()
    if KEY not in ss:
        ss[KEY] = {"draft": draft.new(default_game, readings=readings), "answer": None, "asked": ""}
    ss.setdefault(GEN, 0)


def work() -> dict:
    return st.session_state[KEY]


def current() -> dict:
    """The draft being built (changed in place by the builder's widgets)."""
    return st.session_state[KEY]["draft"]


def replace(new_draft: dict, answer: dict | None = None, asked: str = "") -> None:
    """A new draft (and its answer): every builder widget is drawn from it again."""
    st.session_state[KEY] = {"draft": new_draft, "answer": answer, "asked": asked}
    st.session_state[GEN] = st.session_state.get(GEN, 0) + 1


def gen() -> int:
    return st.session_state.get(GEN, 0)


def answered(question_doc: dict, answer: dict) -> None:
    """Keep ``answer`` as the answer to the question ``question_doc``."""
    w = work()
    st.session_state[KEY] = {**w, "answer": answer, "asked": canonical(question_doc)}


def answer_for(question_doc: dict | None) -> dict | None:
    """The kept answer when it answers exactly this question, else None."""
    w = work()
    if question_doc is None or w.get("answer") is None or w.get("asked") != canonical(question_doc):
        return None
    return w["answer"]


def finish(question_doc: dict | None) -> None:
    """End of the run: the work to this browser's store (when it changed) and the question to the address."""
    store.persist(KEY)
    if question_doc is not None:
        urldoc.put(st.query_params, addresses.ASK.name, question_doc)
