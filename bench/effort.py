"""CP-SAT's deterministic time and CPU seconds beside the wall clock, for the Lone Cowboy benches (issue 31).

On this shared 2-core machine the same proof took 28 s on one run and was still open at 60 s on the next, from
load alone; CP-SAT's *deterministic time* (its own count of work) does not move with the load, so a comparison of
two CP-SAT methods reads it: a row's ``ratio`` is taken from it, and the row carries ``det``, ``cpu`` and ``wall``
(each ``[value, baseline]``) for ``bench/run_all.py``'s table. A deal search's proof workers report their solves
with every message (:mod:`solver.wagons.optimizer.proofworkers`): a proof paused or abandoned between messages is
counted up to its last one, so a can-win's deterministic time is a lower bound of its work (its CPU and wall
seconds are not).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

from solver.wagons.optimizer.cpsat.solve import measuring

FIGURES = ("det", "cpu", "wall")
"""The three figures of a measured call: CP-SAT's deterministic seconds, its CPU seconds, the wall seconds."""


def measured(call: Callable[..., Any], *args, **kwargs) -> tuple[Any, dict[str, float]]:
    """``call(*args, **kwargs)`` and what it cost: ``{"det", "cpu", "wall"}`` (CP-SAT's work inside it, and the
    wall clock)."""
    start = time.perf_counter()
    with measuring() as spent:
        out = call(*args, **kwargs)
    return out, {"det": spent.deterministic, "cpu": spent.cpu, "wall": time.perf_counter() - start}


def medians(costs: list[dict[str, float]]) -> dict[str, float] | None:
    """The median of each figure over ``costs`` (None for none)."""
    return {k: statistics.median(c[k] for c in costs) for k in FIGURES} if costs else None


def totals(costs: list[dict[str, float]]) -> dict[str, float] | None:
    return {k: sum(c[k] for c in costs) for k in FIGURES} if costs else None


def columns(mine: dict[str, float] | None, base: dict[str, float] | None = None) -> dict[str, list]:
    """The row's ``det``, ``cpu`` and ``wall`` columns: ``[value, baseline]`` (baseline None without one)."""
    if mine is None:
        return {}
    return {k: [round(mine[k], 3), round(base[k], 3) if base else None] for k in FIGURES}


def det_ratio(base: dict[str, float] | None, mine: dict[str, float] | None) -> float | None:
    """baseline / value of the deterministic time (above 1: the new method did less work)."""
    if not base or not mine or not mine["det"]:
        return None
    return round(base["det"] / mine["det"], 2)
