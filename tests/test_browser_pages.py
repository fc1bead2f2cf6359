"""Browser tests: Debian's Chromium (Playwright) against `streamlit run dashboard/app.py`.

Each test walks one page at laptop width (1366x768), enters input, checks the answer on screen and
saves a screenshot in tests/screenshots/. Skipped with a reason when /usr/bin/chromium is missing.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

try:
    from playwright.sync_api import expect
except ImportError:  # the module-level skip below reports it
    expect = None

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = Path("/usr/bin/chromium")
SHOTS = ROOT / "tests" / "screenshots"
ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-component-update",
        "--no-first-run", "--disable-gpu"]

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's Chromium (/usr/bin/chromium) is not installed"),
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server():
    port = _free_port()
    cmd = [sys.executable, "-m", "streamlit", "run", str(ROOT / "dashboard" / "app.py"),
           "--server.port", str(port), "--server.address", "127.0.0.1", "--server.headless", "true",
           "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            env=os.environ | {"PYTHONUNBUFFERED": "1"}, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(url + "/_stcore/health", timeout=2) as r:
                    if r.read().decode().strip() == "ok":
                        break
            except OSError:
                pass
            if proc.poll() is not None:
                pytest.fail("streamlit exited: " + proc.stderr.read().decode()[-2000:])
            if time.monotonic() > deadline:
                pytest.fail("streamlit did not answer /_stcore/health within 60 s")
            time.sleep(0.3)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)


@pytest.fixture(scope="module")
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


def open_page(page, server: str, path: str, heading: str):
    page.goto(f"{server}/{path}")
    page.get_by_role("heading", name=heading).first.wait_for()
    wait_idle(page)
    return page


def wait_idle(page, timeout: float = 60) -> None:
    """Wait until Streamlit has finished the current script run (no 'Running...' widget)."""
    page.wait_for_timeout(300)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if page.locator('[data-testid="stStatusWidget"]').count() == 0:
            return
        page.wait_for_timeout(200)


def shot(page, name: str) -> None:
    """Save the whole page at laptop width (Streamlit scrolls inside its main container, so the
    viewport is stretched to the content's height for the picture, then restored)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    height = page.evaluate("() => { const m = document.querySelector('[data-testid=\"stMain\"]');"
                           " return m ? m.scrollHeight : document.body.scrollHeight; }") or 768
    page.set_viewport_size({"width": 1366, "height": max(768, min(int(height), 6000))})
    page.wait_for_timeout(300)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
    page.set_viewport_size({"width": 1366, "height": 768})


def test_home(page, server):
    open_page(page, server, "", "Ruleslinger")
    for label in ["Lone Cowboy score sheet", "Cactus Town", "Outlaws", "Verification"]:
        expect(page.get_by_text(label).first).to_be_visible()
    assert page.locator('[data-testid="stException"]').count() == 0


def test_wagons_sheet(page, server):
    open_page(page, server, "wagons_sheet", "Lone Cowboy score sheet")
    expect(page.get_by_text("Player total").first).to_be_visible()
    expect(page.get_by_text("Opponent total").first).to_be_visible()
    expect(page.get_by_text("The player wins 20 to 18")).to_be_visible()
    assert page.locator('[data-testid="stException"]').count() == 0


def test_cactus(page, server):
    open_page(page, server, "cactus", "Cactus Town")
    expect(page.get_by_text("Earliest round")).to_be_visible()
    # 3 players: the exact odds change (the earliest round is 8 with the default readings)
    page.get_by_text("3 players").click()
    wait_idle(page)
    expect(page.get_by_test_id("stMetricValue").first).to_have_text("8")
    page.get_by_role("tab", name="Lone ranger's turn").click()
    expect(page.get_by_text("Closest outlaw(s):")).to_be_visible()
    assert page.locator('[data-testid="stException"]').count() == 0
