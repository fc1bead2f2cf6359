"""Helpers of the AppTests of kept work (dashboard.shared.work.store): a private store file per test, and a new session
of the same browser (a reload, a new tab, the browser reopened, the server restarted), as the store sees it.

AppTest cannot send cookies; a session is told its browser's id the way the cookie writer reports an id the
browser holds (``dashboard.shared.work.browser``), before its first run."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from dashboard.nav import page_file
from dashboard.shared import games
from dashboard.shared.work import browser, store
from tests.support.dashboard.apptest import APP


@pytest.fixture
def private_store(tmp_path, monkeypatch) -> Path:
    """A store file of the test's own (never the user's data folder)."""
    target = tmp_path / "store.sqlite3"
    monkeypatch.setenv(store.ENV, str(target))
    return target


def browser_of(at: AppTest) -> str:
    """The browser id a session's work is kept under."""
    return at.session_state["_ruleslinger_browser_id"][0]


def same_browser(ident: str, name: str, *, via: str | None = "home", query: dict | None = None,
                 timeout: float = 120) -> AppTest:
    """A new session of the browser ``ident`` (a reload, a closed tab reopened, a restarted server): opened on
    page ``via`` first (a reload elsewhere) with the address ``query``, then on page ``name`` by the navigation,
    which carries no address parameters."""
    at = AppTest.from_file(APP, default_timeout=timeout)
    at.session_state[browser.WRITER_KEY] = {"held": ident}
    for k, v in (query or {}).items():
        at.query_params[k] = v
    at.run()
    if via != name:
        if via is not None and via != "home":
            at.switch_page(page_file(via)).run()
        at.query_params.clear()
        at.switch_page(page_file(name)).run()
    elif name != "home":
        at.switch_page(page_file(name)).run()
    return at


def resume_from_my_games(ident: str, kind: str) -> store.Item:
    """What **Resume** on My games does with the browser's only item of ``kind`` (``games._resume``): its document
    becomes the work of the page that owns the kind, which restores it in its next session."""
    handle = store.Handle.of(store.open_store(), ident)
    (item,) = handle.list_items(kind)
    handle.save_work(games.KINDS[kind].work_key, handle.get_item(item.id).doc)
    return item


def forget_process_cache() -> None:
    """What a server restart forgets: the opened stores (the file itself stays)."""
    store._OPENED.clear()


def handle(at: AppTest) -> store.Handle:
    """The store's handle of ``at``'s browser."""
    return store.Handle.of(store.open_store(), browser_of(at))


def svg_text(html: str) -> str:
    """The SVG inside a drawing's ``<img>`` data URI (dashboard.wagons.drawing), as text, for reading its shapes."""
    import base64
    import re

    return "".join(base64.b64decode(m).decode() for m in re.findall(r"data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)", html))
