"""Solving a CP-SAT town model (rule:W-opt-layout): :func:`solve`.

A proof phase, hinted with the local search's town, is asked for a town beating the best one; "infeasible"
proves the best one optimal. The proof phase is CP-SAT's default search without LP (``proof="search"``, the
fastest to a proof measured) or, after a primal phase, its *core-based* search (``proof="core"``), which
proves a falling upper bound while it runs, or its objective lower-bound search (``proof="bound"``); when
that bound falls to the best value the search is stopped: that bound is the proof. One worker (one core), a
fresh ``CpSolver`` per solve, nothing shared between threads. Measured in ``bench/wagons/bench_wagons_optimize.py``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from ortools.sat import sat_parameters_pb2
from ortools.sat.python import cp_model

from solver.stopping import capped, watching
from solver.wagons.optimizer.cpsat.encode import decode
from solver.wagons.optimizer.cpsat.town import CpTown

__all__ = ["solve", "SolveResult", "stopped_bound", "PROOFS", "PRIMAL_SHARE", "Effort", "measuring", "record"]


@dataclass
class Effort:
    """What CP-SAT spent on the solves measured: its deterministic time (its own count of work, in
    "deterministic seconds": the same on an idle and a loaded machine, so what a comparison reads), its CPU
    seconds (the solver's user time) and its wall seconds, and how many solves."""

    deterministic: float = 0.0
    cpu: float = 0.0
    wall: float = 0.0
    solves: int = 0

    def add(self, other: Effort) -> None:
        self.deterministic += other.deterministic
        self.cpu += other.cpu
        self.wall += other.wall
        self.solves += other.solves

    def since(self, before: Effort) -> Effort:
        """What was spent after ``before`` (an earlier copy of this meter)."""
        return Effort(self.deterministic - before.deterministic, self.cpu - before.cpu, self.wall - before.wall,
                      self.solves - before.solves)

    def to_dict(self) -> dict:
        return {"deterministic": self.deterministic, "cpu": self.cpu, "wall": self.wall, "solves": self.solves}


_METERS: ContextVar[tuple[Effort, ...]] = ContextVar("cpsat_meters", default=())


@contextmanager
def measuring() -> Iterator[Effort]:
    """Within the block (this thread or task), every CP-SAT solve adds what it spent to the meter yielded (and to
    the meters of the blocks around it); the proof workers of a deal search report theirs too (:func:`record`)."""
    effort = Effort()
    token = _METERS.set(_METERS.get() + (effort,))
    try:
        yield effort
    finally:
        _METERS.reset(token)


def record(spent: Effort) -> None:
    """Add ``spent`` to every meter open here (a solve of this process, or one a proof worker reports)."""
    for meter in _METERS.get():
        meter.add(spent)

@dataclass(frozen=True)
class SolveResult:
    xyr: tuple | None  # positions of the best town found by CP-SAT (None: none beat the incumbent)
    value: int | None  # the model's value of that town
    proven: bool
    bound: int | None  # upper bound on the objective (None: nothing proven)


def _no_stratification(params) -> None:
    """Core-based search takes the objective's terms in one stratum (newer OR-Tools bind an enum type)."""
    kind = type(params.max_sat_stratification)
    params.max_sat_stratification = getattr(kind, "STRATIFICATION_NONE",
                                            sat_parameters_pb2.SatParameters.STRATIFICATION_NONE)


def _ceil(b: float) -> int:
    """An integer objective's upper bound from CP-SAT's float bound."""
    return math.ceil(b - 1e-6)


def _at_least(b: int, floor: int | None) -> int:
    """The original problem's bound from the bound of the problem restricted to values > floor."""
    return b if floor is None else max(b, floor)


def _best_of(*values: int | None) -> int | None:
    """The largest of the known values (None if none is known)."""
    known = [v for v in values if v is not None]
    return max(known) if known else None


PROOFS = ("search", "core", "bound")
"""How the second phase proves a town optimal: ``"search"`` (default), CP-SAT's default search without
LP asked for a town beating the best one (infeasible = proven); ``"core"``, core-based search, which
also proves an upper bound while it runs; ``"bound"``, CP-SAT's objective lower-bound search: the
search asked for the highest value the bound allows first, the bound lowered one proven step at a time
(as tight a bound as the core search, measured; alone it proved 10-30% slower than the search proof and
found lower towns on 2 of 20 greedy towns, and after half the time of the search it lost 3 of 32 proofs
that took the search 35-60 s, so by default it runs after three quarters: :data:`PRIMAL_SHARE`)."""


PRIMAL_SHARE = {"core": 0.25, "bound": 0.75}
"""The default share of the time for the primal phase (CP-SAT's default search, which can itself end in a
proof) before each proof phase; none before the search proof."""


class _Phases:
    """The solve's state: the best town CP-SAT found (``xyr``, ``value``) and whether the proven bound
    of the core or bound phase fell to it (``closed``)."""

    def __init__(self, town: CpTown, target, on_bound, on_solution):
        self.town, self.target = town, target
        self.on_bound, self.on_solution = on_bound, on_solution
        self.xyr, self.value = None, None
        self.closed = False  # the core or bound phase's bound fell to the best value: nothing beats it

    def hint(self, hint) -> None:
        m = self.town.m
        for (x, y, r), X, Y, R in zip(hint, self.town.X, self.town.Y, self.town.R):
            m.add_hint(X, x)
            m.add_hint(Y, y)
            if not isinstance(R, int):
                m.add_hint(R, 1 if r else 0)

    def _callback(self):
        phases = self

        class Found(cp_model.CpSolverSolutionCallback):
            def on_solution_callback(self):
                v = int(self.value(phases.target))
                if phases.value is None or v > phases.value:
                    phases.xyr, phases.value = tuple(decode(phases.town, self.value)), v
                    if phases.on_solution is not None:
                        phases.on_solution(phases.xyr, v)

        return Found()

    def _bound_callback(self, solver, floor: int | None):
        def bound(b: float) -> None:
            b = _at_least(_ceil(b), floor)
            if self.on_bound is not None:
                self.on_bound(b)
            # CP-SAT keeps searching after its proven bound falls below ``floor + 1`` (measured: an
            # idle half minute on a 7-card town); the bound is the proof, so stop there.
            best = _best_of(floor, self.value)
            if best is not None and b <= best:
                self.closed = True
                solver.stop_search()

        return bound

    def run(self, proof: str, seconds: float, floor: int | None):
        """One phase: maximise the target above ``floor`` for ``seconds`` by ``proof`` (:data:`PROOFS`)."""
        m = self.town.m
        if floor is not None:
            m.add(self.target >= floor + 1)
        m.maximize(self.target)
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        solver.parameters.max_time_in_seconds = max(0.01, seconds)
        solver.parameters.random_seed = 1
        # no LP relaxation (weak here; without it the search makes more conflicts per second), no
        # probing and no SAT inprocessing (costly here): proofs of three 8-card towns from their best
        # value took 17-23 s instead of 34-74 s (docs/history/wagons-optimizer-2026.md)
        solver.parameters.linearization_level = 0
        solver.parameters.cp_model_probing_level = 0
        solver.parameters.use_sat_inprocessing = False
        if proof == "bound":
            solver.parameters.use_objective_lb_search = True
        if proof == "core":
            solver.parameters.optimize_with_core = True
            # no stratification by weight: on 12 seeded 8-card towns it proved 4 within 60 s against 2
            # with the default, and its bounds were tighter on 10 of them (bench_wagons_optimize)
            _no_stratification(solver.parameters)
        if proof in ("core", "bound"):  # the searches that prove a falling bound
            solver.best_bound_callback = self._bound_callback(solver, floor)
        with watching(solver) as go:  # the page's Stop ends the search (stopping.StopSignal)
            if not go:
                solver.parameters.max_time_in_seconds = 0.01
            status = solver.solve(m, self._callback())
        record(Effort(solver.deterministic_time, solver.user_time, solver.wall_time, 1))
        if status == cp_model.MODEL_INVALID:
            raise AssertionError(f"CP-SAT model invalid: {m.validate()}")
        return solver, status

    def settled(self, status, floor: int | None) -> SolveResult | None:
        """The proven result of a phase (its best town, or nothing beats ``floor``), else None."""
        if self.closed:
            return SolveResult(self.xyr, self.value, True, _best_of(floor, self.value))
        if status == cp_model.OPTIMAL:
            return SolveResult(self.xyr, self.value, True, self.value)
        if status == cp_model.INFEASIBLE:
            return SolveResult(self.xyr, self.value, True, floor)  # nothing beats the best found (or the incumbent)
        return None


def solve(town: CpTown, target, incumbent: int | None, deadline: float, hint=None,
          on_bound: Callable[[int], None] | None = None, on_solution: Callable[[tuple, int], None] | None = None,
          primal_share: float | None = None, polish: Callable[[tuple], tuple | None] | None = None,
          proof: str = "search") -> SolveResult:
    """Maximise ``target`` above ``incumbent``: a primal phase (default search, hinted) for a share of
    the time, then a proof phase (``proof``, see :data:`PROOFS`) asked for a town beating the best;
    infeasible = proven.

    ``primal_share``: the primal phase's share of the time; by default none before the search proof
    (that search is hinted and finds towns itself: on the 20 seeded 8-card towns, 5 proofs within
    60 s against 4 after a quarter of primal search, and the proofs came sooner), a quarter before
    the core proof (core-based search finds few towns) and three quarters before the bound proof (the
    search proof, which proves most towns that are proven at all within that time, then the bound
    search for a tight bound on the rest: :data:`PRIMAL_SHARE`).
    ``polish(xyr)``: called between the phases with the primal phase's best town, returns a
    better ``(xyr, value)`` or None (the local search of :mod:`solver.wagons.optimizer.walk.local`)."""
    if proof not in PROOFS:
        raise ValueError(f"proof: expected one of {PROOFS}, got {proof!r}")
    if primal_share is None:
        primal_share = PRIMAL_SHARE.get(proof, 0.0)
    phases = _Phases(town, target, on_bound, on_solution)
    if hint is not None:
        phases.hint(hint)
    floor = incumbent
    left = capped(deadline) - time.monotonic()
    if left <= 0:
        return SolveResult(None, None, False, None)
    primal_bound = None
    if primal_share > 0:
        primal, status = phases.run("search", left * primal_share, floor)
        done = phases.settled(status, floor)
        if done is not None:
            return done
        primal_bound = stopped_bound(primal, floor)  # bounds every town: those at or below floor trivially
        if phases.value is not None:
            floor = phases.value
        if polish is not None and phases.xyr is not None and time.monotonic() < capped(deadline):
            better = polish(phases.xyr)  # (the hint, when there is one, is already the local search's)
            if better is not None and (floor is None or better[1] > floor):
                phases.xyr, phases.value = better
                floor = phases.value
    left = capped(deadline) - time.monotonic()
    if left <= 0:
        return SolveResult(phases.xyr, phases.value, False, primal_bound)
    solver, status = phases.run(proof, left, floor)
    done = phases.settled(status, floor)
    if done is not None:
        return done
    bounds = [b for b in (primal_bound, stopped_bound(solver, floor)) if b is not None]
    return SolveResult(phases.xyr, phases.value, False, min(bounds) if bounds else None)


def stopped_bound(solver: cp_model.CpSolver, floor: int | None) -> int | None:
    """The upper bound that a phase stopped by its time limit has proven, or None when it proved none.

    CP-SAT reports a bound of 0 when the limit struck before its search began (its presolve and loading
    take 0.5-1 s on an 8-card town's model): that number is no bound, and read as one it "proved" every
    town optimal. So: no bound unless the search ran (``num_booleans`` of the loaded model), and none at
    or below ``floor``: the model asks for more than ``floor``, so a real bound of at most ``floor`` would
    have ended the solve as infeasible. A bound above ``floor`` bounds the original problem as well."""
    if solver.response_proto.num_booleans == 0:
        return None
    try:
        bound = _ceil(solver.best_objective_bound)
    except (TypeError, ValueError, OverflowError):
        return None
    if floor is not None and bound <= floor:
        return None
    return bound
