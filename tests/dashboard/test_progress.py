"""The dashboard's long-run helper (dashboard.shared.runs.run_with_progress): the bar's text, and a run asked to
stop when the page's run ends first (Stop pressed, another widget used, the session closed)."""

from __future__ import annotations

import threading

import pytest

from dashboard.shared import runs as common
from dashboard.verification import impact
from solver.execution.progress import Progress
from solver.stopping import StopSignal, stopped, stopping
from tests.support.limits import HANG_GUARD


def test_the_bar_says_the_time_left_from_the_works_share_and_says_so_when_a_run_overruns():
    share, text = common._progress("Run", 30.0, 150.0, Progress(3, 12, "checks", "x"))
    assert share == 0.25 and text == "Run (30 s, about 90 s left) - 3 of 12 checks, x"
    share, text = common._progress("Run", 181.3, 150.0, None)
    assert share == 0.99 and text == "Run (181 s, longer than the ~150 s expected)"
    share, text = common._progress("Run", 15.0, 150.0, None)
    assert share == pytest.approx(0.1) and text == "Run (15.0 s of at most ~150 s)"
    # a counted work that has done nothing yet: no promise from the fixed guess
    share, text = common._progress("Run", 0.5, 300.0, Progress(0, 40, "play-outs"))
    assert share == 0.0 and text == "Run (0.5 s) - 0 of 40 play-outs"
    # a search: its best and bound in words, the bar against the time limit
    share, text = common._progress("Run", 15.0, 150.0, Progress(unit="margin", best=5, bound=9))
    assert share == pytest.approx(0.1) and text == "Run (15.0 s of at most ~150 s) - best margin 5, none above 9"


def test_the_box_keeps_the_latest_report_and_with_stops_ends_a_stopped_work():
    box, signal = common.ProgressBox(), StopSignal()
    box(Progress(1, 3))
    box(Progress(2, 3))
    assert box.latest == Progress(2, 3)
    signal.set()
    with stopping(signal):
        box(Progress(3, 3))  # without ``stops`` the work's own end is its business
        with pytest.raises(common.Stopped):
            common.ProgressBox(stops=True)(Progress(1, 3))


def test_the_time_left_only_falls_while_the_work_runs():
    """The verdicts' estimate grew from 468 s to 1,085 s while they ran (issue 32): fast early checks, then slow
    ones. With the bar's countdown the time left said never grows; once it is used up the bar says so."""
    countdown = common.Countdown()
    shares = [(10.0, 0.1), (40.0, 0.15), (100.0, 0.2), (130.0, 0.3), (600.0, 0.5), (700.0, 0.9)]
    said = []
    for elapsed, share in shares:
        _bar, text = common._progress("Run", elapsed, 300.0, Progress(round(share * 100), 100), countdown)
        said.append(text)
    assert said[:2] == ["Run (10 s, about 90 s left) - 10 of 100",
                        "Run (40 s, about 60 s left) - 15 of 100"]  # 90 less the 30 s since, not the 227 s of the share
    assert said[2:] == [f"Run ({e:.0f} s, longer than estimated) - {round(s * 100)} of 100"
                        for e, s in shares[2:]]  # never raised again
    fresh = common.Countdown()  # a run that keeps to its estimate: it falls with the time and with the work
    assert [fresh.left(t, left) for t, left in ((5, 100.0), (10, 120.0), (20, 70.0))] == [100.0, 95.0, 70.0]


class _PageRunEnded(BaseException):
    """Stands for Streamlit's own exception when a page's run is interrupted."""


def _interrupt_the_page(monkeypatch) -> None:
    def interrupted(*_args):
        raise _PageRunEnded

    monkeypatch.setattr(common, "_progress", interrupted)


def test_a_run_is_asked_to_stop_when_the_page_stops_waiting(monkeypatch):
    cancel = StopSignal()
    finished = threading.Event()

    def work() -> str:
        while not stopped():  # the work runs under the signal (stopping): its own thread sees it
            threading.Event().wait(0.01)
        finished.set()
        return "stopped"

    _interrupt_the_page(monkeypatch)
    with pytest.raises(_PageRunEnded):
        common.run_with_progress(work, label="Run", expected_seconds=5.0, cancel=cancel)
    assert cancel.is_set() and finished.wait(HANG_GUARD)  # a hang guard: the stopped work ends at once


def test_the_bar_is_redrawn_at_most_every_half_second(monkeypatch):
    """Each drawing of the bar is a new page in the browser: a run is drawn every ``PROGRESS_EVERY`` s at most (the
    loop still looks at the work every 0.15 s, so the run's end is not held back)."""
    import time

    calls = []
    monkeypatch.setattr(common, "_progress", lambda *args: calls.append(args) or (0.0, "Run"))
    start = time.monotonic()
    assert common.run_with_progress(time.sleep, 1.3, label="Run", expected_seconds=2.0) is None
    elapsed = time.monotonic() - start
    assert 1 <= len(calls) <= elapsed / common.PROGRESS_EVERY + 1, (len(calls), elapsed)


def test_a_stopped_optimizer_hands_its_best_so_far_to_the_page(monkeypatch):
    """With ``keep``, the page gets the best layout found when it stopped, unproven, long before the limit."""
    from solver.wagons.optimizer.layout import best_layout

    cards, pile = (6, 9, 11, 3, 4, 2, 15, 5), (8, 16, 14, 17, 1, 7, 12, 13)  # no minute has proven its best
    handover = common.Handover()
    calls = []

    def progress_then_interrupt(*args):
        calls.append(args)
        if len(calls) > 2:  # about 1 s of work (the bar is redrawn every PROGRESS_EVERY s)
            raise _PageRunEnded
        return 0.0, "Run"

    monkeypatch.setattr(common, "_progress", progress_then_interrupt)
    with pytest.raises(_PageRunEnded):
        common.run_with_progress(best_layout, cards, "through-the-desert", pile, time_limit=120.0, label="Run",
                                 expected_seconds=120.0, cancel=StopSignal(), keep=handover.keeper("best", lambda r: r))
    kept = handover.take(0.0)  # handed over before run_with_progress ended: nothing to wait for
    assert list(kept) == ["best"] and kept["best"].placements and not kept["best"].proven_optimal
    assert kept["best"].elapsed < HANG_GUARD  # a hang guard, not a speed claim


def test_the_next_run_waits_for_a_stopped_run_to_hand_over():
    """Streamlit may start the next run while the stopped one still waits for its work: take() waits for every
    run that began a hand-over, and a run that ended normally hands over nothing."""
    handover = common.Handover()
    first, second = handover.keeper("a", lambda v: ("a", v)), handover.keeper("b", lambda v: v)
    first.begin()
    second.begin()
    second.end()  # finished normally: nothing for the next run
    threading.Timer(0.3, first.end, args=(7,)).start()
    assert handover.take(5.0) == {"a": ("a", 7)}
    assert handover.take(0.0) == {}


def test_a_stopped_result_reaches_the_page_on_its_next_run():
    """keep_stopped's result waits in the session's inbox (no st call is allowed while a run is stopped) and
    deliver_stopped puts it under the page's key, marked stopped_early."""
    from streamlit.testing.v1 import AppTest

    def page():
        import streamlit as st

        from dashboard.shared.runs import deliver_stopped, keep_stopped

        deliver_stopped()
        if "kept" not in st.session_state:
            keeper = keep_stopped("my_result", ("inputs",))
            keeper.begin()
            keeper.end({"score": 3})
        st.session_state.kept = True

    at = AppTest.from_function(page).run()
    assert "my_result" not in at.session_state
    at.run()
    assert at.session_state["my_result"] == (("inputs",), {"score": 3, "stopped_early": True})


def test_a_finished_run_is_not_flagged_and_the_impact_run_stops_at_its_next_check():
    cancel = StopSignal()
    assert common.run_with_progress(lambda: 7, label="Run", expected_seconds=5.0, cancel=cancel) == 7
    assert not cancel.is_set()
    signal = StopSignal()
    signal.set()
    with pytest.raises(common.Stopped), stopping(signal):
        impact._run("cactus", (), 2.0, 10, common.ProgressBox(stops=True))
