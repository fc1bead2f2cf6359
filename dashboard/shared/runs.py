"""Long runs on a page: a worker thread with a progress bar and an estimate of the time left, a Stop button, and the hand-over of a stopped run's best so far to the next run.

The bar shows the run's own reports through the dashboard's one progress adapter, :class:`ProgressBox` (an
:data:`~solver.execution.progress.OnProgress` the run calls with each :class:`~solver.execution.progress.Progress`)."""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Callable
from typing import Any

import streamlit as st

from solver.execution.progress import Progress
from solver.stopping import StopSignal, stopped, stopping

STOP_GRACE_SECONDS = 5.0
"""How long a stopped run may take to hand over its best so far (the optimizer ends within a second)."""
PROGRESS_EVERY = 0.5
"""Seconds between two drawings of a run's progress bar: the browser draws the page again for each (on a phone, at a
cost in battery: 0.26 CPU s of Chromium for each second of a run drawn every 0.15 s), while the run's end is still
noticed within 0.15 s."""


class Stopped(Exception):
    """Raised inside a run's own progress callback once the page asked it to stop (:func:`run_with_progress`)."""


class ProgressBox:
    """The dashboard's progress adapter: the work's ``progress`` callback (called from the work's thread), keeping
    its latest :class:`~solver.execution.progress.Progress` for the page's bar (``run_with_progress(box=...)``).

    With ``stops``, a report made once the page stopped waiting raises :class:`Stopped`: for work that does not
    end at the stop signal itself (the optimizer and the searches do, and hand over their best so far)."""

    def __init__(self, stops: bool = False) -> None:
        self.stops = stops
        self.latest: Progress | None = None

    def __call__(self, report: Progress) -> None:
        if self.stops and stopped():
            raise Stopped
        self.latest = report


def run_with_progress(fn: Callable[..., Any], *args: Any, label: str, expected_seconds: float,
                      box: ProgressBox | None = None, cancel: StopSignal | None = None, keep: Keeper | None = None,
                      **kwargs: Any) -> Any:
    """Run ``fn`` in a worker thread while a progress bar counts toward ``expected_seconds``.

    The page keeps drawing while ``fn`` runs; exceptions (BadInput included) are re-raised
    here. ``fn`` may be an ``st.cache_data`` function: the worker carries the script's context,
    so a cached input returns at once. ``box`` (given to the run as its ``progress`` callback) adds the run's
    latest report to the bar's text (:meth:`~solver.execution.progress.Progress.text`: the count, the best so
    far); a report counted against a known total drives the bar and an estimate of the time left.

    With ``cancel`` (a fresh :class:`~solver.stopping.StopSignal`), a **Stop** button is
    shown, ``fn`` runs under it (``stopping``), and it is set when the page's run ends before ``fn``
    does: Stop pressed, another widget used, the session closed. So nothing keeps computing for a page no
    one is looking at: the optimizer ends as at its time limit, other runs read ``stopped()`` in their own
    progress callback and raises :class:`Stopped` (a :class:`ProgressBox` with ``stops``). With ``keep`` as
    well (a :class:`Keeper`, from :func:`keep_stopped`), the run gets :data:`STOP_GRACE_SECONDS` to end and what it returned (the
    optimizer's best so far) is handed to the page's next run, which waits for it.
    """
    from streamlit.runtime.scriptrunner import add_script_run_ctx, get_script_run_ctx

    outcome: dict[str, Any] = {}

    def call() -> None:
        try:
            with stopping(cancel):
                outcome["value"] = fn(*args, **kwargs)
        except BaseException as exc:  # re-raised in the page's thread
            outcome["error"] = exc

    worker = threading.Thread(target=call, daemon=True)
    ctx = get_script_run_ctx()
    if ctx is not None:
        add_script_run_ctx(worker, ctx)
    worker.start()
    bar = st.progress(0.0, text=label)
    stop = st.empty()
    if cancel is not None:
        stop.button("Stop", key=f"stop_{label}", icon=":material/stop_circle:",
                    help="Stop this run and show the best found so far" if keep is not None
                    else "Stop this run (what it found so far is not kept)")
    start = time.monotonic()
    if keep is not None:
        keep.begin()  # from here the session's next run waits for this one's hand-over (Handover.take)
    handed: list = []
    countdown = Countdown()
    drawn = start - PROGRESS_EVERY
    try:
        while worker.is_alive():
            worker.join(0.15)
            now = time.monotonic()
            if now - drawn >= PROGRESS_EVERY:
                drawn = now
                bar.progress(*_progress(label, now - start, expected_seconds, None if box is None else box.latest,
                                        countdown))
    finally:  # the page's run ended first (Stop, another widget, the session closed): ask the work to stop
        if cancel is not None and worker.is_alive():
            cancel.set()
            if keep is not None:
                worker.join(STOP_GRACE_SECONDS)
                if not worker.is_alive() and "value" in outcome:
                    handed.append(outcome["value"])
        if keep is not None:
            keep.end(*handed)
    bar.empty()
    stop.empty()
    if "error" in outcome:
        raise outcome["error"]
    return outcome.get("value")


STOPPED_INBOX = "_stopped_results"
"""Session key of the session's :class:`Handover`."""


class Handover:
    """The results of a session's stopped runs, for its next run.

    When a page's run is stopped, Streamlit refuses every ``st`` call in it (writing ``st.session_state``
    included) and may start the next run at once, on another thread, while the stopped one still waits for
    its best so far. So a run that may hand over a result says so first (:meth:`Keeper.begin`), puts
    the result in this plain object, and the next run waits for it (:meth:`take`, from
    :func:`deliver_stopped`)."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._pending = 0
        self._results: dict[str, Any] = {}

    def keeper(self, name: str, shape: Callable[[Any], Any]) -> Keeper:
        return Keeper(self, name, shape)

    def _begin(self) -> None:
        with self._cond:
            self._pending += 1

    def _end(self, name: str, value: tuple) -> None:
        """A run that began a hand-over is over; ``value`` is ``(result,)`` when it hands one over under ``name``."""
        with self._cond:
            if value:
                self._results[name] = value[0]
            self._pending -= 1
            self._cond.notify_all()

    def take(self, timeout: float) -> dict[str, Any]:
        """The results handed over, once no run is still handing one over (at most ``timeout`` s)."""
        with self._cond:
            self._cond.wait_for(lambda: self._pending == 0, timeout)
            out, self._results = self._results, {}
            return out


@dataclasses.dataclass(frozen=True)
class Keeper:
    """``keep`` of :func:`run_with_progress`: one run's hand-over of its result under ``name`` (as ``shape(value)``)."""

    handover: Handover
    name: str
    shape: Callable[[Any], Any]

    def begin(self) -> None:
        self.handover._begin()

    def end(self, *value: Any) -> None:
        """The run is over: with ``value``, it was stopped and this is what its function returned."""
        self.handover._end(self.name, tuple(self.shape(v) for v in value))


def keep_stopped(name: str, inputs: Any = None, shape: Callable[[Any], Any] | None = None) -> Keeper:
    """``keep`` for :func:`run_with_progress`: a stopped run's result (a dict, marked ``stopped_early``) to be
    ``st.session_state[name] = (inputs, result)`` from the next run on, where the page keeps a finished run's
    (``shape(result)`` instead, when given); it travels through the session's :class:`Handover`."""
    handover = st.session_state.setdefault(STOPPED_INBOX, Handover())
    return handover.keeper(name, shape or (lambda value: (inputs, {**value, "stopped_early": True}
                                                          if isinstance(value, dict) else value)))


def deliver_stopped() -> None:
    """Put the results of runs stopped in an earlier run where their pages read them (app.py, every run)."""
    handover = st.session_state.get(STOPPED_INBOX)
    if handover is not None:
        for name, value in handover.take(STOP_GRACE_SECONDS + 1.0).items():
            st.session_state[name] = value


def stopped_note(result: dict) -> None:
    """The line under a result the user stopped (:func:`keep_stopped`), else nothing."""
    if result.get("stopped_early"):
        st.caption(f"You stopped this search after {result.get('elapsed', 0):.0f} s: this is what it had found by "
                   "then.")


@dataclasses.dataclass
class Countdown:
    """The time left as the bar says it: it only falls (an estimate that grew from 468 s to 1,085 s
    while the run went on helps no one). Each new estimate from the share done is taken only when it is lower than
    the last one said, less the time since; once it reaches zero the bar says the run takes longer than
    estimated."""

    said: float | None = None
    at: float = 0.0

    def left(self, elapsed: float, estimate: float) -> float:
        if self.said is not None:
            estimate = min(estimate, max(0.0, self.said - (elapsed - self.at)))
        self.said, self.at = estimate, elapsed
        return estimate


def _progress(label: str, elapsed: float, expected: float, report: Progress | None,
              countdown: Countdown | None = None) -> tuple[float, str]:
    """The bar's share and text, with the run's latest ``report`` in words: its own share done and time left when
    it is counted against a total (with a ``countdown``, a time left that only falls), else the time against the
    expected time (and plainly so once the run takes longer than expected)."""
    text = report.text() if report is not None else ""
    extra = f" - {text}" if text else ""
    done = report.fraction if report is not None else None
    if done:
        left = elapsed * (1 - done) / done
        if countdown is not None:
            left = countdown.left(elapsed, left)
            if left < 0.5 and done < 1:
                return min(0.99, done), f"{label} ({elapsed:.0f} s, longer than estimated){extra}"
        return min(0.99, done), f"{label} ({elapsed:.0f} s, about {left:.0f} s left){extra}"
    if done is not None:  # the run is counted, nothing done yet: no promise from a fixed guess
        return 0.0, f"{label} ({elapsed:.1f} s){extra}"
    if elapsed > expected:
        return 0.99, f"{label} ({elapsed:.0f} s, longer than the ~{expected:.0f} s expected){extra}"
    return min(0.99, elapsed / max(expected, 0.1)), f"{label} ({elapsed:.1f} s of at most ~{expected:.0f} s){extra}"
