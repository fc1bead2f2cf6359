"""Lone Cowboy's verification room: the invariant checks (`checks`, Z3 in a fresh context each), their command line
and the verdicts the project states (`verdicts`, rerun under every reading by `ruleslinger readings impact`)."""

from __future__ import annotations

from solver.execution.progress import OnProgress


def report(readings, options: dict, progress: OnProgress | None = None) -> dict:
    """The checks' answer in the one result shape (:func:`solver.verification.report`); imported when asked, as
    the checks load the solvers."""
    from solver.wagons.verify.checks import report as run

    return run(readings, options, progress)
