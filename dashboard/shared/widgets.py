"""Page widgets every page uses: the page's header, inline errors, widgets whose value survives a page visit (kept), tabs kept in the address, and JSON files up and down (each upload validated by the solver's own loader)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import streamlit as st

from dashboard.shared.work.plaintext import plain
from solver.errors import BadInput
from solver.io.read import MAX_BYTES, parse_json_text


def show_bad_input(exc: BadInput, prefix: str = "") -> None:
    """An engine's one-line BadInput, shown inline where the input was entered (as plain text: it may echo what the
    user typed)."""
    st.error(f"{prefix}{plain(exc)}", icon=":material/error:")


@contextmanager
def guarded(prefix: str = "") -> Iterator[None]:
    """Run a block; a BadInput inside it becomes an inline error and the page goes on."""
    try:
        yield
    except BadInput as exc:
        show_bad_input(exc, prefix)


def json_upload(label: str, key: str, loader: Callable[[Any], Any], help: str | None = None) -> Any | None:
    """A JSON file uploader validated by ``loader`` (one of the solver's loaders).

    Returns the loaded object exactly once per newly uploaded file; the caller stores it. A file
    that is too large, not JSON, or refused by the loader gives an inline error and returns None,
    so nothing on the page changes.
    """
    up = st.file_uploader(label, type=["json"], key=f"{key}__uploader", help=help)
    err_key, seen_key, done_key = f"{key}__error", f"{key}__seen", f"{key}__loaded"
    if up is None:
        for k in (err_key, seen_key, done_key):
            st.session_state.pop(k, None)
        return None
    token = f"{up.file_id}:{up.size}"
    if st.session_state.get(seen_key) == token:
        # the same file on a later run (callers often rerun after a load): its message stays in view
        if st.session_state.get(err_key):
            st.error(plain(st.session_state[err_key]), icon=":material/error:")
        elif st.session_state.get(done_key):
            st.success(st.session_state[done_key], icon=":material/check:")
        return None
    st.session_state[seen_key] = token
    try:
        if up.size > MAX_BYTES:
            raise BadInput(f"file too large ({up.size} bytes; limit {MAX_BYTES})")
        obj = loader(parse_json_text(up.getvalue(), up.name))
    except (BadInput, TypeError, ValueError, KeyError, AttributeError, IndexError) as exc:
        # anything a loader refuses, or trips over, is a refused file: one line, nothing changes
        msg = f"{up.name} was not loaded: {exc}"
        st.session_state.pop(done_key, None)
        st.session_state[err_key] = msg
        st.error(plain(msg), icon=":material/error:")
        return None
    st.session_state.pop(err_key, None)
    st.session_state[done_key] = f"Loaded {up.name}."
    st.success(st.session_state[done_key], icon=":material/check:")
    return obj


def kept(draw: Callable[..., Any], key: str, default: Any, *args: Any, **kwargs: Any) -> Any:
    """``draw(*args, key=key, **kwargs)`` (a widget function, given no default of its own) showing its last
    value in this session, else ``default``; returns the value. Streamlit forgets a widget's value after a
    run that does not draw it (another page, a panel hidden for a step), and the widget would come back at
    its default: the value is also kept under ``key + "__kept"``."""
    if key not in st.session_state:
        st.session_state[key] = st.session_state.get(f"{key}__kept", default)
    draw(*args, key=key, **kwargs)
    st.session_state[f"{key}__kept"] = st.session_state[key]
    return st.session_state[key]


def kept_tabs(labels: list[str], key: str, query: str = "tab", first: str | None = None) -> Any:
    """``st.tabs`` whose open tab survives a reload (the address holds it, ``?<query>=label``) and a visit to
    another page (kept like :func:`kept`); the first tab leaves the address clean. ``key`` is the page's own
    (the session is shared by every page), ``query`` the address's name (each page has its own address);
    ``first``: the tab a new session opens on when neither the session nor the address names one."""
    ss = st.session_state
    # the tab open now: the one clicked, else kept in the session (a page visit), else the address (a reload);
    # passed as the default every run, so the widget never falls back to the first tab on its own
    open_tab = ss.get(key) or ss.get(f"{key}__kept") or tab_from_address(labels, query) or first
    open_tab = open_tab if open_tab in labels else labels[0]
    tabs = st.tabs(labels, key=key, on_change="rerun", default=open_tab)
    ss[f"{key}__kept"] = open_tab
    if open_tab in labels[1:]:  # kept by hand, not bound: a bound one was dropped when other parameters changed
        if st.query_params.get(query) != open_tab:
            st.query_params[query] = open_tab
    elif query in st.query_params:
        del st.query_params[query]
    return tabs


def tab_from_address(labels: list[str], query: str = "tab") -> str | None:
    """The tab the address names (``?<query>=label``), read through :func:`dashboard.shared.work.urldoc.decode`;
    None when it names none, with one inline line when it names a tab the page does not have."""
    from dashboard.shared.work import addresses, urldoc

    text = st.query_params.get(query)
    if not text:
        return None
    try:
        return urldoc.decode(text, addresses.tab(labels, query))
    except BadInput as exc:
        st.error(f"The tab in the address was not opened: {exc}", icon=":material/error:")  # the decoder's plain line
        return None


def json_download(label: str, data: Any, file_name: str, key: str) -> None:
    """A download button for a contracts.md JSON document."""
    st.download_button(label, json.dumps(data, indent=1), file_name=file_name,
                       mime="application/json", key=key, icon=":material/download:")
