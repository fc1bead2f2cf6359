"""What the browser tests share (``tests/browser/``): Debian's Chromium driven by Playwright against
``streamlit run`` on a free port, waiting for Streamlit's runs to finish, and screenshots in tests/screenshots/.
The fixtures (``server``, ``browser``, ``page``) are in ``tests/browser/conftest.py``."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest

from dashboard.verification.impact import AHEAD_ENV
from tests.support.paths import ROOT

try:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    from playwright.sync_api import expect

    expect.set_options(timeout=45_000)  # pages compute on first load; the machine may be busy
except ImportError:  # the browser fixture skips with a reason
    expect = None
    PlaywrightTimeout = TimeoutError

CHROMIUM = Path("/usr/bin/chromium")
SHOTS = ROOT / "tests" / "screenshots"
PHONE_FIRST = pytest.mark.parametrize("size", ["phone", pytest.param("laptop", marks=pytest.mark.deep)])
"""A flow at the phone's width in every run and at the laptop's in the deep run, where the laptop's own tests cover
the same page at 1366 px (tests/browser/test_pages.py). The flows the table companion must pass at both widths (a
Lone Cowboy game to the end in two taps a turn, a followed game, work kept across pages, reloads and a restart) run
as one walk each that crosses from one width to the other, in every run."""
ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-component-update",
        "--no-first-run", "--disable-gpu"]

BROWSER = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's Chromium (/usr/bin/chromium) is not installed"),
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def streamlit_server(script: Path):
    """``streamlit run script`` on a free port; yields its address once /_stcore/health answers ok. Stopped by a kill
    of its process group, not a graceful stop (which waits seconds for the pages' running work): what a restarted
    server must find is in the store already, each run writes it. Nothing is computed ahead (``AHEAD_ENV``): no test
    waits for it, and it would take the processors the suite runs on."""
    port = _free_port()
    cmd = [sys.executable, "-m", "streamlit", "run", str(script),
           "--server.port", str(port), "--server.address", "127.0.0.1", "--server.headless", "true",
           "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"]
    log = tempfile.TemporaryFile()  # not a pipe: nobody reads it while the server runs, and a full pipe would stop it
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=log,
                            env=os.environ | {"PYTHONUNBUFFERED": "1", AHEAD_ENV: "off"}, start_new_session=True)
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
                log.seek(0)
                pytest.fail("streamlit exited: " + log.read().decode(errors="replace")[-2000:])
            if time.monotonic() > deadline:
                pytest.fail("streamlit did not answer /_stcore/health within 60 s")
            time.sleep(0.3)
        yield url
    finally:
        with contextlib.suppress(ProcessLookupError):  # the server and what it started: its own process group
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)
        log.close()


_FORGET = "() => { try { localStorage.clear(); sessionStorage.clear(); } catch (e) {} }"


class Screens:
    """A module's browsers, one Playwright context per screen (its viewport and options such as ``is_mobile``). A tab
    opened by :meth:`tab` starts with no cookie and no stored setting, so to the dashboard it is a browser of its own,
    yet it finds Streamlit's scripts already loaded and compiled by the module's earlier tabs: a new context costs
    Chromium about 1 CPU s more a tab (docs/history/suite-time.md). One tab a screen is open at a time (a second would
    clear the first's cookies): a test that needs two browsers at once opens the second with ``browser.new_context``."""

    def __init__(self, browser) -> None:
        self.browser = browser
        self.contexts: dict[tuple, object] = {}
        self.open: set[tuple] = set()

    @contextlib.contextmanager
    def tab(self, viewport: dict, timeout_ms: int = 45_000, cookies: list | None = None, **options):
        """A new tab of a browser with no cookie but ``cookies`` (given: the same browser opened again)."""
        key = (viewport["width"], viewport["height"], tuple(sorted(options.items())))
        if key in self.open:
            raise RuntimeError("a tab of this screen is open: open a second browser with browser.new_context")
        ctx = self.contexts.get(key)
        if ctx is None:
            ctx = self.contexts[key] = self.browser.new_context(viewport=dict(viewport), **options)
        ctx.clear_cookies()
        if cookies:
            ctx.add_cookies(cookies)
        page = ctx.new_page()
        page.set_default_timeout(timeout_ms)
        self.open.add(key)
        try:
            yield page
        finally:
            self.open.discard(key)
            with contextlib.suppress(Exception):  # a page that has crashed or closed forgets nothing more
                page.evaluate(_FORGET)
            page.close()

    def close(self) -> None:
        for ctx in self.contexts.values():
            ctx.close()


def open_page(page, server: str, path: str, heading: str):
    page.goto(f"{server}/{path}")
    page.get_by_role("heading", name=heading).first.wait_for()
    wait_idle(page)
    return page


def wait_idle(page, timeout: float = 60, first_pause: bool = True) -> None:
    """Wait until Streamlit has finished the current script run: the app root reports a live connection
    and the script state ``notRunning`` (the attributes Streamlit's own browser tests wait on). The
    first pause lets a click's rerun request reach the server before the state is read, and covers the run a page's
    ``st.rerun`` starts a moment after the one before ends (a wait that returned when the run an input asked for had
    ended lost such taps: docs/history/suite-time.md); a caller that has already seen the run's new output may
    leave it out (``first_pause=False``)."""
    if first_pause:
        page.wait_for_timeout(300)
    ms = int(timeout * 1000)
    page.wait_for_selector("[data-testid='stApp'][data-test-connection-state='CONNECTED']", timeout=ms,
                           state="attached")
    page.wait_for_selector("[data-testid='stApp'][data-test-script-state='notRunning']", timeout=ms,
                           state="attached")


def app_state(page) -> str:
    """The app's state in one line, for a failure's message: its connection and script states, the page's address,
    and the first lines of any exception it shows (a lost tap, a server that stopped answering and a page that failed
    each read differently)."""
    state = page.evaluate("""() => {
      const app = document.querySelector('[data-testid="stApp"]');
      const errors = [...document.querySelectorAll('[data-testid="stException"]')].map((e) => e.innerText);
      return {connection: app && app.dataset.testConnectionState, script: app && app.dataset.testScriptState,
              errors: errors.map((t) => t.split("\\n").slice(0, 2).join(" ")).slice(0, 2)};
    }""")
    return (f"connection {state['connection']}, script {state['script']}, at {page.url[:160]}"
            + (f", exceptions: {state['errors']}" if state["errors"] else ""))


def pick_option(page, box, option, took=None, typed: str | None = None, tries: int = 3) -> None:
    """Open the select box ``box`` (a tap, or ``typed`` typed into it: the list filtered to it), take its option
    ``option`` (a name or a pattern) once the list shows it (a long list, which draws a few options at a time, swiped
    down to it), close the list (a multi-select's stays open, and Streamlit takes its choices once it closes), then
    wait for the page's run. ``took``: what the page draws once it has taken the choice (a multi-select's chip, a new
    row), else the list closing is enough. A choice a busy machine lost (the list never opened, a key pressed before
    the list had caught up with the typing, a tap the page never took) is made again after the page's run has ended,
    at most ``tries`` times in all; the failure's message says the app's state (:func:`app_state`)."""
    listbox = page.get_by_role("listbox")
    for _try in range(tries):
        wait_idle(page)
        if took is not None and took.count():  # a slow earlier try took it after all
            return
        box.click()
        if typed is not None:
            box.fill(typed)
        wanted = page.get_by_role("option", name=option)
        if _swiped_to(page, listbox, wanted.first):
            wanted.first.click()
            if not reached(listbox, "hidden", 1_000):  # a multi-select's list stays open; its choice counts once closed
                page.keyboard.press("Escape")
            if reached(listbox, "hidden", 5_000) and (took is None or reached(took, "attached", 30_000)):
                page.evaluate(_LEAVE)  # as a tap elsewhere: a box still holding the focus eats the next tap's click
                wait_idle(page)
                return
        page.keyboard.press("Escape")
    raise AssertionError(f"{option!r}: the page took none of {tries} choices ({app_state(page)})")


_LEAVE = "() => { if (document.activeElement) document.activeElement.blur(); }"


def _swiped_to(page, listbox, wanted, swipes: int = 80) -> bool:
    """Whether ``wanted`` shows in the open list, the list swiped down (a wheel's turn at a time, not a tap) until
    it does."""
    if not reached(listbox, "visible", 10_000):
        return False
    for _ in range(swipes):
        if wanted.count():
            return reached(wanted, "visible", 10_000)
        listbox.hover()
        page.mouse.wheel(0, 120)
        page.wait_for_timeout(80)
    return False


def reached(locator, state: str, timeout_ms: int) -> bool:
    """Whether ``locator`` reaches ``state`` ("attached", "visible", "hidden") within the time."""
    try:
        locator.wait_for(state=state, timeout=timeout_ms)
    except PlaywrightTimeout:
        return False
    return True


_SCROLL_WATCH = """() => {
  window.__rsScroll = performance.now();
  if (!window.__rsScrollWatched) {
    window.__rsScrollWatched = true;
    document.addEventListener('scroll', () => { window.__rsScroll = performance.now(); }, true);
  }
}"""


def open_expander(page, label: str, quiet_ms: int = 150) -> None:
    """Open the expander titled ``label`` and wait until it has finished opening: Streamlit animates the opening by
    scrolling the expander's box for a few hundred milliseconds, and a box's list of options opened meanwhile is
    closed by that scroll (a choice typed then and taken with Enter takes nothing)."""
    page.evaluate(_SCROLL_WATCH)
    page.get_by_text(label, exact=True).click()
    page.wait_for_function("(quiet) => performance.now() - window.__rsScroll >= quiet", arg=quiet_ms, polling=50)


def scroll_into_view(page, locator, quiet_ms: int = 300) -> None:
    """Scroll ``locator`` into view and wait until nothing has scrolled for ``quiet_ms`` and the page's run is over:
    a tap on a box still moving (a smooth scroll, a run drawing widgets above it) can miss it."""
    page.evaluate(_SCROLL_WATCH)
    locator.scroll_into_view_if_needed()
    page.wait_for_function("(quiet) => performance.now() - window.__rsScroll >= quiet", arg=quiet_ms, polling=50)
    wait_idle(page)


def relaid(page) -> None:
    """After a change of the viewport's size: two frames drawn (the layout at the new size), then 100 ms for the
    charts, which redraw themselves at their new width."""
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    page.wait_for_timeout(100)


def shot(page, name: str) -> None:
    """Save the whole page at laptop width (Streamlit scrolls inside its main container, so the
    viewport is stretched to the content's height for the picture, then restored)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    height = page.evaluate("() => { const m = document.querySelector('[data-testid=\"stMain\"]');"
                           " return m ? m.scrollHeight : document.body.scrollHeight; }") or 768
    page.set_viewport_size({"width": 1366, "height": max(768, min(int(height), 6000))})
    relaid(page)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
    page.set_viewport_size({"width": 1366, "height": 768})
