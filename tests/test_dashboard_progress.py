"""The dashboard's long-run helper (dashboard.common.run_with_progress): the bar's text, and a run asked to
stop when the page's run ends first (Stop pressed, another widget used, the session closed)."""

from __future__ import annotations

import sys
import threading
from pathlib import Path as _Path

sys.path.insert(0, str(_Path(__file__).resolve().parent.parent))  # the dashboard package (repo root)

import pytest

from dashboard import common, impact


def test_the_bar_says_the_time_left_from_the_works_share_and_says_so_when_a_run_overruns():
    share, text = common._progress("Run", 30.0, 150.0, lambda: "3 of 12: x", lambda: 0.25)
    assert share == 0.25 and text == "Run (30 s, about 90 s left) - 3 of 12: x"
    share, text = common._progress("Run", 181.3, 150.0, None, None)
    assert share == 0.99 and text == "Run (181 s, longer than the ~150 s expected)"
    share, text = common._progress("Run", 15.0, 150.0, None, None)
    assert share == pytest.approx(0.1) and text == "Run (15.0 s of at most ~150 s)"
    # a work that reports its share, before its first report: no promise from the fixed guess
    share, text = common._progress("Run", 0.5, 300.0, None, lambda: None)
    assert share == 0.0 and text == "Run (0.5 s)"


class _PageRunEnded(BaseException):
    """Stands for Streamlit's own exception when a page's run is interrupted."""


def test_a_run_is_asked_to_stop_when_the_page_stops_waiting(monkeypatch):
    cancel: dict = {}
    finished = threading.Event()

    def work() -> str:
        while not cancel.get("stop"):
            threading.Event().wait(0.01)
        finished.set()
        return "stopped"

    def interrupted(*_args):
        raise _PageRunEnded

    monkeypatch.setattr(common, "_progress", interrupted)
    with pytest.raises(_PageRunEnded):
        common.run_with_progress(work, label="Run", expected_seconds=5.0, cancel=cancel)
    assert cancel["stop"] is True and finished.wait(5.0)


def test_a_finished_run_is_not_flagged_and_the_impact_run_stops_at_its_next_check():
    cancel: dict = {}
    assert common.run_with_progress(lambda: 7, label="Run", expected_seconds=5.0, cancel=cancel) == 7
    assert "stop" not in cancel
    box = {"stop": True}
    with pytest.raises(common.Stopped):
        impact._run("cactus", (), 2.0, 10, box)
