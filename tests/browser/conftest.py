"""Fixtures of the browser tests: one dashboard server and one Chromium per test process (each pytest-xdist worker
starts its own once, not once per module), a fresh 1366x768 tab per test whose final state is saved as a screenshot
(:mod:`tests.support.browser`). Each test's tab is a new browser context (its own cookies: its own kept work), so
tests sharing the server share nothing else; a test that needs a server of its own (a store of its own, a restart)
starts it itself."""

from __future__ import annotations

import pytest

from tests.support.browser import ARGS, CHROMIUM, shot, streamlit_server
from tests.support.paths import ROOT


@pytest.fixture(scope="session")
def server():
    with streamlit_server(ROOT / "dashboard" / "app.py") as url:
        yield url


@pytest.fixture(scope="session")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def page(browser, request):
    """A fresh 1366x768 tab; its final state is saved as tests/screenshots/<test name>.png."""
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    pg = ctx.new_page()
    pg.set_default_timeout(30_000)
    try:
        yield pg
    finally:
        try:
            shot(pg, request.node.name.removeprefix("test_"))
        finally:
            ctx.close()
