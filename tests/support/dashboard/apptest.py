"""Helpers for the dashboard's AppTest suites (``tests/dashboard/``): open a page of the
real app and read its charts' Vega-Lite specs. Not used by the app itself."""

from __future__ import annotations

import json
import re

from streamlit.testing.v1 import AppTest

from dashboard.nav import page_file
from tests.support.paths import APP as APP_PATH

APP = str(APP_PATH)


def open_page(name: str, timeout: float = 60, state: dict | None = None) -> AppTest:
    """The app run once, switched to the page ``name`` (:mod:`dashboard.nav`) (with ``state`` preset)."""
    at = AppTest.from_file(APP, default_timeout=timeout)
    at.run()
    if name != "home":
        at.switch_page(page_file(name))
    for k, v in (state or {}).items():
        at.session_state[k] = v
    at.run()
    return at


def reloaded(at: AppTest, name: str, timeout: float = 60) -> AppTest:
    """A reload of ``at``'s page: a new session with the same address (query parameters), on ``name``."""
    again = AppTest.from_file(APP, default_timeout=timeout)
    for k, v in dict(at.query_params).items():
        again.query_params[k] = v[0] if isinstance(v, list) else v
    again.run()
    again.switch_page(page_file(name))
    again.run()
    return again


def charts(at: AppTest) -> list[dict]:
    """Vega-Lite specs of every Altair chart on the page."""
    return [json.loads(e.proto.spec) for e in at.get("vega_lite_chart")]


def texts(at: AppTest) -> str:
    """All markdown, captions, alerts and metric values on the page as one string."""
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption]
    parts += [e.value for kind in ("success", "info", "warning", "error") for e in getattr(at, kind)]
    parts += [f"{m.label}={m.value}" for m in at.metric]
    return "\n".join(str(p) for p in parts)


def errors(at: AppTest) -> list[str]:
    """The error lines as the page shows them: Markdown's backslash escapes (text shown as plain text) read."""
    return [shown(e.value) for e in at.error]


def shown(markdown: str) -> str:
    """What Streamlit shows of a Markdown line whose only markup is backslash escapes."""
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", markdown)


def page_timings() -> list[tuple[str, float, float]]:
    """(page, first load seconds, cached rerun seconds) for every page, in a fresh AppTest each."""
    import time

    from dashboard.nav import PAGES

    out = []
    for entries in PAGES.values():
        for name in (info.name for info in entries):
            start = time.perf_counter()
            at = open_page(name, timeout=300)
            first = time.perf_counter() - start
            start = time.perf_counter()
            at.run()
            out.append((name, first, time.perf_counter() - start))
    return out


if __name__ == "__main__":  # .venv/bin/python -m tests.support.dashboard.apptest
    for name, first, again in page_timings():
        print(f"{name:18s} first load {first:6.2f} s   rerun (cached) {again:5.2f} s")


def open_editor(at: AppTest) -> None:
    """Open the Outlaws page's Position editor (drawn only while open)."""
    if "ol_editor" not in at.session_state or not at.session_state["ol_editor"]:
        at.session_state["ol_editor"] = True
        at.run()


def outlaws_start_doc(seed: int = 1) -> dict:
    """The Outlaws set-up of ``seed`` as the position document the page's editor takes."""
    from solver.outlaws.position import initial_position
    from solver.outlaws.position_json import position_to_json
    from solver.outlaws.readings import OutlawsReadings

    return position_to_json(initial_position(seed=seed, readings=OutlawsReadings()))


def outlaws_position(at: AppTest) -> dict:
    """The Outlaws page's position, as its kept work holds it."""
    from dashboard.outlaws import position_work

    return at.session_state[position_work.KEY]["position"]


def apply_outlaws_json(at: AppTest, doc) -> None:
    """Type ``doc`` into the Outlaws position editor's JSON box and apply it."""
    open_editor(at)
    at.text_area(key=f"ol_json_{at.session_state['ol_ver']}").set_value(json.dumps(doc))
    at.button(key="ol_apply_json").click().run()
