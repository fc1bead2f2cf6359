"""Fixtures of the browser tests: one dashboard server and one Chromium per module, its browsers kept per screen
(:class:`~tests.support.dashboard.browser.Screens`), a fresh 1366x768 tab per test whose final state is saved as a
screenshot (:mod:`tests.support.dashboard.browser`). Per module, not per process: Playwright's event loop and
Chromium are open only while a browser module runs, never beside the other tests of the worker, and a server shared
by every module would let one module's pages and kept answers run into another's."""

from __future__ import annotations

import pytest

from tests.support.dashboard.browser import ARGS, CHROMIUM, Screens, shot, streamlit_server
from tests.support.paths import ROOT


@pytest.fixture(scope="module")
def server():
    with streamlit_server(ROOT / "dashboard" / "app.py") as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture(scope="module")
def screens(browser):
    """The module's browsers, one a screen: each test's tab starts without cookies."""
    kept = Screens(browser)
    try:
        yield kept
    finally:
        kept.close()


@pytest.fixture
def page(screens, request):
    """A fresh 1366x768 tab (a browser of its own); its final state is saved as tests/screenshots/<test name>.png."""
    with screens.tab({"width": 1366, "height": 768}, timeout_ms=30_000) as pg:
        yield pg
        shot(pg, request.node.name.removeprefix("test_"))
