"""This browser's id: the key of its work and saved games in :mod:`dashboard.shared.work.store`.

The id is ``secrets.token_urlsafe(32)`` (256 random bits), held by the browser alone as the cookie
``ruleslinger_browser`` (``SameSite=Strict``, ``Path=/``, ``Max-Age`` 400 days, renewed by every visit), never in
the page's address. How it reaches the server, with no extra run of the page:

- the browser sends its cookies when it opens the session's connection, and Streamlit hands them to the script
  (``st.context.cookies``, read-only): a returning browser's id is known in the first run of its session, so
  the page draws this browser's work at once (a reload, a new tab, a reconnection after a server restart);
- a browser without the cookie (its first visit, cookies cleared) gets a new id in that first run: there is no
  work under it yet, so the page's empty first state is the right one; the hidden writer :func:`attach` mounts
  (an ``st.components.v2`` snippet, about 15 lines of JavaScript in the page itself, no iframe) sets the cookie;
- one case costs one more run: when another tab of the same browser wrote its own new id after this session
  connected, the writer does not overwrite it but reports it (``held``) and the session adopts it, so both
  tabs share one id; the session then starts over (:func:`adopt_held`), as if it had connected with the cookie;
  a browser that refuses the cookie is reported (``refused``) and said in one line.

Streamlit alone does all of this (no package from PyPI): Python cannot set a cookie, but the v2 component runs a
snippet in the page that can, and the cookie comes back through ``st.context.cookies``.
"""

from __future__ import annotations

import functools
import re
import secrets
from collections.abc import Mapping
from typing import Any

import streamlit as st

COOKIE = "ruleslinger_browser"
"""The cookie that holds this browser's id."""
ID_BYTES = 32
"""Random bytes in an id: 256 bits, as 43 URL-safe characters."""
MAX_AGE = 400 * 24 * 3600
"""The cookie's life in seconds (400 days, the longest Chromium keeps); every visit renews it."""
WRITER_KEY = "ruleslinger_browser_cookie"
"""The hidden cookie writer's key (its state in the session, its ``st-key-`` class in the page)."""
_SESSION = "_ruleslinger_browser_id"
"""This session's (id, fresh): fresh while the id was made by this session and never seen in the browser."""
_ID = re.compile(r"[A-Za-z0-9_-]{43}")
_OPENED_AT = "_ruleslinger_opened_at"
"""The address's parameters when a session with a fresh id started (its first run writes its empty work there)."""

_WRITER_JS = """
export default function (component) {
  const { data, setStateValue } = component;
  const prefix = data.name + "=";
  const sent = document.cookie.split("; ").find((c) => c.startsWith(prefix));
  const held = sent ? sent.slice(prefix.length) : null;
  if (data.fresh && held && /^[A-Za-z0-9_-]{43}$/.test(held) && held !== data.id) {
    setStateValue("held", held);  // another tab of this browser wrote its id first: this session takes it
    return;
  }
  const secure = location.protocol === "https:" ? "; Secure" : "";
  document.cookie = `${prefix}${data.id}; Max-Age=${data.maxAge}; Path=/; SameSite=Strict${secure}`;
  if (!document.cookie.split("; ").includes(prefix + data.id)) setStateValue("refused", true);
}
"""


def new_id() -> str:
    """A fresh browser id (256 random bits)."""
    return secrets.token_urlsafe(ID_BYTES)


def valid(text: object) -> bool:
    """Whether ``text`` has the shape of an id :func:`new_id` makes (anything else from a browser is ignored)."""
    return isinstance(text, str) and _ID.fullmatch(text) is not None


def _sent_cookie() -> str | None:
    """The id in the cookie the browser sent when this session connected, if any and well formed."""
    value = st.context.cookies.get(COOKIE)
    return value if valid(value) else None


def _reported(name: str) -> Any:
    """What the cookie writer reported to the server under ``name`` (``held``, ``refused``), or None."""
    state = st.session_state.get(WRITER_KEY)
    return state.get(name) if isinstance(state, Mapping) else None


def _known() -> tuple[str, bool]:
    """This session's (id, fresh), settled on its first call and changed only to adopt a held id
    (:func:`adopt_held`)."""
    known = st.session_state.get(_SESSION)
    if known is None:
        sent = _sent_cookie() or _held()  # held before the first run: the session starts with that id
        known = (sent, False) if sent else (new_id(), True)
        st.session_state[_SESSION] = known
    return known


def _held() -> str | None:
    """The id the writer reported this browser holds, if well formed."""
    held = _reported("held")
    return held if valid(held) else None


def adopt_held() -> bool:
    """Called first in every run (by ``store.start()``), before anything reads the session or the address. When this
    session's writer reported the id another tab of this browser wrote first (``held``), the session starts over
    under that id, as a session that connected with the cookie: all it holds is dropped but the writer's own state
    (its first run drew the empty work of the id it drops: a seed box at its default, an editor's fields), and the
    address is put back as the tab opened it (that run wrote its empty work there, which a page would take before the
    kept work). True when it did."""
    ss = st.session_state
    known = ss.get(_SESSION)
    if known is None:
        ss[_OPENED_AT] = st.query_params.to_dict()
        return False
    held = _held()
    if not (known[1] and held and held != known[0]):
        if not known[1]:
            ss.pop(_OPENED_AT, None)
        return False
    opened_at = ss.get(_OPENED_AT, {})
    for key in list(ss):
        if key != WRITER_KEY:
            del ss[key]
    st.query_params.from_dict(opened_at)
    ss[_SESSION] = (held, False)
    return True


def browser_id() -> str:
    """This browser's id, known in the first run of every session (see the module's docstring)."""
    return _known()[0]


@functools.cache
def _writer():
    """The cookie writer component, declared once per process (Streamlit warns when it is declared twice)."""
    return st.components.v2.component("ruleslinger_browser_cookie", js=_WRITER_JS)


def _ignore() -> None:
    """A state callback: its presence makes a report from the writer start a run; the run reads the report."""


def attach() -> None:
    """Mount the hidden cookie writer; call once in every run, before the page (two mounts would clash on the key).

    It is mounted at the foot of the sidebar, which the pages do not use: it draws nothing, and no element of the
    page itself (a style to hide it, a gap above the title) is added for it.
    Without it the id still keys the session's work, but it never reaches the browser, so a reload starts over.
    """
    ident, fresh = _known()
    with st.sidebar:
        _writer()(key=WRITER_KEY, data={"id": ident, "fresh": fresh, "name": COOKIE, "maxAge": MAX_AGE},
                  on_held_change=_ignore, on_refused_change=_ignore)


def refused() -> bool:
    """Whether this browser refused the cookie (its work then lasts only as long as the tab's session)."""
    return _reported("refused") is True
