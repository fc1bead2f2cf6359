"""The last answers of a page's searches and checks, kept per browser.

A page keeps its answers under one work key of the store (:mod:`dashboard.shared.work.store`): a mapping from the
answer's name (a search, a check run) to the inputs it answered (canonical JSON text) and the answer itself, so a
page switch, a reload on any page, a closed tab or a server restart shows the last answer again, and only while
the inputs on the page are the ones it answered. Answers too large for the store (its 1 MB limit per document)
stay in the session only; the oldest give way first.
"""

from __future__ import annotations

import json
from typing import Any

import streamlit as st

from dashboard.shared.work import store
from solver.errors import BadInput


def _canonical(inputs: Any) -> str:
    return json.dumps(inputs, sort_keys=True, separators=(",", ":"), default=str)


def plain(answer: Any) -> Any:
    """``answer`` as the store gives it back (JSON: tuples become lists), so a kept answer and a restored one are
    drawn alike."""
    return json.loads(json.dumps(answer, default=str))


def _load(doc: Any) -> dict:
    if not isinstance(doc, dict) or not all(isinstance(v, dict) and set(v) == {"inputs", "answer"}
                                            for v in doc.values()):
        raise BadInput("the kept answers are not a mapping of name -> {inputs, answer}")
    return dict(doc)


def _fitting(answers: dict) -> dict:
    """The newest answers that the store can keep together (JSON within its limits), the oldest left out first."""
    items = list(answers.items())
    while items:
        doc = dict(items)
        try:
            store.encode(doc, "the answers")
            return doc
        except BadInput:
            items = items[1:]
    return {}


def sync(work_key: str) -> None:
    """Restore this browser's kept answers under ``work_key`` when the session lacks them (top of the page)."""
    store.sync(work_key, load=_load, dump=_fitting)
    st.session_state.setdefault(work_key, {})


def remember(work_key: str, name: str, inputs: Any, answer: Any) -> None:
    """Keep ``answer`` as the answer ``name`` to ``inputs`` (replacing the last one), in the session and the store."""
    answers = dict(st.session_state.get(work_key) or {})
    answers.pop(name, None)
    answers[name] = {"inputs": _canonical(inputs), "answer": plain(answer)}
    st.session_state[work_key] = answers
    store.persist(work_key, dump=_fitting)


def recall(work_key: str, name: str, inputs: Any) -> Any | None:
    """The kept answer ``name`` when it answered exactly ``inputs``, else None."""
    kept = (st.session_state.get(work_key) or {}).get(name)
    if kept is None or kept["inputs"] != _canonical(inputs):
        return None
    return kept["answer"]


def last_inputs(work_key: str, name: str) -> Any | None:
    """The inputs of the kept answer ``name`` (as JSON gives them back), or None: a page starts its boxes from them
    in a new session, so the last answer shows again after a reload or a restart."""
    kept = (st.session_state.get(work_key) or {}).get(name)
    return None if kept is None else json.loads(kept["inputs"])


def newest(work_key: str, prefix: str) -> tuple[str, Any] | None:
    """The name and inputs of the newest kept answer whose name starts with ``prefix``, or None."""
    names = [name for name in (st.session_state.get(work_key) or {}) if name.startswith(prefix)]
    return (names[-1], last_inputs(work_key, names[-1])) if names else None
