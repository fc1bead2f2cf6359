"""The one Z3 check runner: a fresh ``z3.Context`` per check, the check's clock and time limit, and every solve of
the check run through it (each solve gets what is left of the limit as Z3's timeout)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import z3

from solver.z3check.outcome import Finding, Outcome


class Z3Run:
    """One check's run: a fresh context (nothing Z3 is shared between checks), when it started, and its limits.

    ``time_limit``: seconds for the whole check (None: no overall limit); ``solve_limit``: seconds for any one
    solve (None: only the overall limit). A solve started after the limit answers ``unknown`` at once."""

    def __init__(self, time_limit: float | None = None, solve_limit: float | None = None) -> None:
        self._ctx: z3.Context | None = None
        self.started = time.perf_counter()
        self.deadline = None if time_limit is None else self.started + time_limit
        self.solve_limit = solve_limit

    @property
    def ctx(self) -> z3.Context:
        """This run's own context, made at its first use (a run that only times its parts makes none)."""
        if self._ctx is None:
            self._ctx = z3.Context()
        return self._ctx

    def elapsed(self) -> float:
        """Seconds since the run started."""
        return time.perf_counter() - self.started

    def remaining(self) -> float | None:
        """Seconds left for the next solve (None: no limit)."""
        left = None if self.deadline is None else self.deadline - time.perf_counter()
        if self.solve_limit is not None:
            left = self.solve_limit if left is None else min(left, self.solve_limit)
        return left

    def out_of_time(self) -> bool:
        """Whether the whole check's limit has passed."""
        return self.deadline is not None and time.perf_counter() >= self.deadline

    def limit(self, solver: Any) -> Any:
        """``solver`` (a Solver, an Optimize, a tactic's solver) with what is left as its timeout; returns it."""
        left = self.remaining()
        if left is not None:
            solver.set("timeout", max(1, int(left * 1000)))
        return solver

    def solver(self) -> z3.Solver:
        """A new solver in this run's context, limited as :meth:`limit` says."""
        return self.limit(z3.Solver(ctx=self.ctx))

    def check(self, solver: Any, *assumptions: Any) -> z3.CheckSatResult:
        """``solver.check(*assumptions)`` within what is left of the limits; ``unknown`` when nothing is left."""
        if self.out_of_time():
            return z3.CheckSatResult(z3.Z3_L_UNDEF)
        return self.limit(solver).check(*assumptions)

    def finish(self, finding: Finding) -> Outcome:
        """The outcome of ``finding``, timed from the start of the run."""
        return Outcome.of(finding, self.elapsed())


def run_check(body: Callable[[Z3Run], Finding], time_limit: float | None = None,
              solve_limit: float | None = None) -> Outcome:
    """Run one check: ``body`` gets a fresh :class:`Z3Run` and returns its :class:`Finding`; the runner returns the
    :class:`Outcome` (status, counterexample, elapsed)."""
    run = Z3Run(time_limit, solve_limit)
    return run.finish(body(run))
