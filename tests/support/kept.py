"""AppTest helpers for the pages' kept work (dashboard.shared.store): which browser a session belongs to, and a
new session of the same browser (a reload, a closed tab, a restarted server) on any page of the real app."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from dashboard.nav import page_file
from dashboard.shared import browser, store
from tests.support.apptest import APP


def browser_of(at: AppTest) -> str:
    """The browser id of ``at``'s session."""
    return at.session_state["_ruleslinger_browser_id"][0]


def same_browser(ident: str, name: str, query: dict | None = None, timeout: float = 60) -> AppTest:
    """A new session of the browser ``ident`` (as its cookie writer reports it: AppTest sends no cookies) opened on
    page ``name`` with the address ``query`` (none: a page reached by the navigation after a reload elsewhere)."""
    at = AppTest.from_file(APP, default_timeout=timeout)
    at.session_state[browser.WRITER_KEY] = {"held": ident}
    for k, v in (query or {}).items():
        at.query_params[k] = v
    at.run()
    if name != "home":
        at.switch_page(page_file(name))
        at.run()
    return at


def handle(at: AppTest) -> store.Handle:
    """The store's handle of ``at``'s browser."""
    return store.Handle.of(store.open_store(), browser_of(at))


def svg_text(html: str) -> str:
    """The SVG inside a drawing's ``<img>`` data URI (dashboard.wagons.drawing), as text, for reading its shapes."""
    import base64
    import re

    return "".join(base64.b64decode(m).decode() for m in re.findall(r"data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)", html))
