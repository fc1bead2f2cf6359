"""Ending a running search early, as its time limit would (the dashboard's **Stop** button).

A :class:`StopSignal` is set from another thread (the page whose run ended); a search running under
:func:`stopping` in its own thread sees its time run out at once. The Lone Cowboy optimizer
(``solver.wagons.optimizer``): its deadlines go through :func:`capped` (``Problem.deadline``, the CP-SAT solve, the local search, the Z3
loop's calls, a deal search's time left, the draft-line enumeration; the exhaustive oracle, at most 5
cards, reads its time once), every CP-SAT solve it runs is stopped (``CpSolver.stop_search``), a deal
search's proof slices end and its workers are killed as at its time limit. The answer is what a time
limit gives at that moment: the best found so far, unproven unless the proof was already complete
(rule:W-opt-layout, rule:W-opt-bestplay). The Outlaws searches (``solver.outlaws.search.searches``: can either
side still win, dead positions) read :func:`stopped` with their clock and end as at their time limit.
The signal is per run, so sessions on other threads are untouched; it lives in a ``ContextVar``, which
a new thread does not inherit.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

__all__ = ["StopSignal", "stopping", "capped", "stopped", "watching"]


STOP_RETRY_SECONDS = 10.0


class StopSignal:
    """Set once (from any thread) to end the run it was given to; like ``threading.Event``, plus the CP-SAT
    solvers running under it, which :meth:`set` stops."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._solvers: set[Any] = set()
        self.at: float | None = None  # monotonic time when it was set; None until then

    def set(self) -> None:
        with self._lock:
            first = self.at is None
            if first:
                self.at = time.monotonic()
        if first:
            threading.Thread(target=self._stop_solvers, daemon=True, name="optimizer-stop").start()

    def _stop_solvers(self) -> None:
        """Stop every watched solver, again every 0.1 s while any is still watched (at most
        :data:`STOP_RETRY_SECONDS`): ``stop_search`` is a no-op on a solver whose ``solve`` has not yet begun,
        and a solver is watched from just before it begins."""
        until = time.monotonic() + STOP_RETRY_SECONDS
        while True:
            with self._lock:
                solvers = list(self._solvers)
            for s in solvers:
                s.stop_search()
            if not solvers or time.monotonic() > until:
                return
            time.sleep(0.1)

    def is_set(self) -> bool:
        return self.at is not None

    def _add(self, solver) -> bool:
        """Register a solver about to run; False when the signal is already set (then it should not run)."""
        with self._lock:
            if self.at is not None:
                return False
            self._solvers.add(solver)
            return True

    def _remove(self, solver) -> None:
        with self._lock:
            self._solvers.discard(solver)


_SIGNAL: ContextVar[StopSignal | None] = ContextVar("optimizer_stop", default=None)


@contextmanager
def stopping(signal: StopSignal | None) -> Iterator[StopSignal | None]:
    """Run the block's searches under ``signal`` (None: no early stop)."""
    token = _SIGNAL.set(signal)
    try:
        yield signal
    finally:
        _SIGNAL.reset(token)


def stopped() -> bool:
    """Whether the run in this context was asked to stop."""
    signal = _SIGNAL.get()
    return signal is not None and signal.is_set()


def capped(deadline: float) -> float:
    """``deadline``, or the moment the run was asked to stop when that came first."""
    signal = _SIGNAL.get()
    at = signal.at if signal is not None else None
    return deadline if at is None else min(deadline, at)


@contextmanager
def watching(solver) -> Iterator[bool]:
    """Register a CP-SAT solver for the block (its search is stopped when the signal is set); yields False
    when the run was already asked to stop, and the block should then not solve."""
    signal = _SIGNAL.get()
    if signal is None:
        yield True
        return
    if not signal._add(solver):
        yield False
        return
    try:
        yield True
    finally:
        signal._remove(solver)
