"""How fast each dashboard page shows its content in a real browser, on a warm server (issue 32, "Fast pages").

Starts ``streamlit run dashboard/app.py`` on a free port with a temporary store, opens every page once to warm the
server (imports, caches, stored rows), then opens each page ``--runs`` times in Debian's Chromium (Playwright) and
reports per page the median seconds from the request to

- **title**: the page's heading on screen (its first content),
- **complete**: the script run over and every element drawn (no loading placeholder left),

both for a new browser (a fresh context: nothing cached in the browser) and for a reload in the same browser. The
ratio column is each page's complete time over the Home page's, measured in the same process (the baseline).

    .venv/bin/python bench/bench_dashboard_pages.py [--runs 3] [--pages wagons_sheet,wagons_play] [--width 1366]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from dashboard.nav import BY_NAME  # noqa: E402
from tests.support.dashboard.browser import ARGS, CHROMIUM, streamlit_server  # noqa: E402

DONE = ("() => { const a = document.querySelector('[data-testid=stApp]');"
        " return !!a && a.getAttribute('data-test-script-state') === 'notRunning'"
        " && a.getAttribute('data-test-connection-state') === 'CONNECTED'"
        " && !document.querySelector('[data-testid=stSkeleton]') && !!document.querySelector('h1'); }")


def _timed(page, url: str, reload: bool) -> tuple[float, float]:
    start = time.perf_counter()
    if reload:
        page.reload(wait_until="commit")
    else:
        page.goto(url, wait_until="commit")
    page.locator("h1").first.wait_for(state="visible", timeout=120_000)
    title = time.perf_counter() - start
    page.wait_for_timeout(200)  # the run's state attribute is set once the first message arrives
    page.wait_for_function(DONE, timeout=180_000, polling=50)
    return title, time.perf_counter() - start


def measure(url: str, names: list[str], runs: int, width: int) -> dict[str, dict[str, float]]:
    from playwright.sync_api import sync_playwright

    out: dict[str, dict[str, float]] = {}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        warm = browser.new_context(viewport={"width": width, "height": 800}).new_page()
        for name in names:  # warm the server: imports, caches, stored rows
            _timed(warm, f"{url}/{name}", reload=False)
        for name in names:
            fresh, again = [], []
            for _ in range(runs):
                ctx = browser.new_context(viewport={"width": width, "height": 800})
                page = ctx.new_page()
                fresh.append(_timed(page, f"{url}/{name}", reload=False))
                again.append(_timed(page, f"{url}/{name}", reload=True))
                ctx.close()
            out[name] = {"title": statistics.median(t for t, _ in fresh),
                         "complete": statistics.median(c for _, c in fresh),
                         "reload title": statistics.median(t for t, _ in again),
                         "reload complete": statistics.median(c for _, c in again)}
        browser.close()
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--pages", default=",".join(BY_NAME), help="comma-separated page names (dashboard/nav.py)")
    parser.add_argument("--width", type=int, default=1366)
    args = parser.parse_args(argv)
    names = ["home"] + [n for n in args.pages.split(",") if n and n != "home"]
    os.environ["RULESLINGER_STORE"] = str(Path(tempfile.mkdtemp(prefix="ruleslinger-bench-")) / "store.sqlite3")
    with streamlit_server(ROOT / "dashboard" / "app.py") as url:
        got = measure(url, names, args.runs, args.width)
    base = got["home"]["complete"]
    print(f"first content on a warm server, {args.width} px wide, median of {args.runs} (seconds; ratio: complete / Home)")
    print(f"{'page':18s} {'title':>6s} {'complete':>9s} {'ratio':>6s} {'reload title':>13s} {'reload complete':>16s}")
    for name, t in got.items():
        print(f"{name:18s} {t['title']:6.2f} {t['complete']:9.2f} {t['complete'] / base:6.2f} "
              f"{t['reload title']:13.2f} {t['reload complete']:16.2f}")
    print(f"load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
