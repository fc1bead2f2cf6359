"""The Z3 method (``method="incremental"``, rule:W-opt-layout): the Z3 model of :mod:`.z3_model` and
:mod:`.z3_goals`, an incremental ``Solver`` asked again and again for a town scoring more than the
best one, until unsat (the proof).

An independent second encoding of the rules (rooted distance labels for connected groups, integer
positions), kept as a cross-check of the CP-SAT model and as the design's Z3-backed path; slower than
CP-SAT to a proof (``docs/history/wagons-optimizer-2026.md``). One fresh ``z3.Context`` per solve.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import z3

from solver.wagons.optimizer.problem import Incumbent, Problem
from solver.wagons.optimizer.z3solver.goals import goal_terms
from solver.wagons.optimizer.z3solver.model import EncodeTimeout, decode, encode

__all__ = ["Z3Loop", "sum_of_part_maxima"]


def sum_of_part_maxima(ctx, constraints, parts, deadline: float) -> int | None:
    """An upper bound on the score: each terrain group and goal card maximised on its own, each
    maximum proven by Z3 (unsat). None when the deadline comes first."""
    solver = z3.Solver(ctx=ctx)
    solver.set("smt.arith.solver", 2)
    solver.add(*constraints)
    total = 0
    for term in parts:
        best = None
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            solver.push()
            if best is not None:
                solver.add(term > best)
            solver.set("timeout", max(1, int(min(left, 86400.0) * 1000)))
            answer = solver.check()
            if answer == z3.sat:
                best = solver.model().eval(term, model_completion=True).as_long()
                solver.pop()
            else:
                solver.pop()
                if answer != z3.unsat or best is None:
                    return None
                break
        total += best
    return total


def _timed_out(problem: Problem, incumbent: Incumbent) -> bool:
    """The model could not be built in time: the greedy town, unless best play wants a town above its floor
    or meeting the round-1 condition (then none, not proven)."""
    if incumbent.town is None:
        incumbent.town, incumbent.value = problem.greedy()
    if problem.floor is not None and incumbent.value <= problem.floor or problem.round1 is not None:
        incumbent.town, incumbent.value = None, None
    return False


@dataclass(frozen=True)
class Z3Loop:
    """``prove(problem, incumbent)``: Z3's incremental solver asked for a better town until unsat."""

    name: str = "incremental"

    def prove(self, problem: Problem, incumbent: Incumbent) -> bool:
        ctx = z3.Context()
        callback, opp_terms = goal_terms(problem.scenario, problem.data, problem.pile_counts)
        try:
            ztown, target, parts = encode(problem.quads, callback, ctx, deadline=problem.deadline)
        except EncodeTimeout:
            return _timed_out(problem, incumbent)
        if problem.objective == "margin":
            target = target - (z3.Sum(list(opp_terms.values())) if opp_terms else 0) - problem.opponent_fixed
        if problem.round1 is not None:
            m, opp_terr, behind = problem.round1
            have = ztown.territories_after(m)
            ztown.constraints.append(have >= opp_terr if behind else have < opp_terr)
        incumbent.to_beat()
        if problem.floor is not None and incumbent.town is None:
            ztown.constraints.append(target > problem.floor)
        if problem.objective == "score" and problem.floor is None and problem.round1 is None:
            bound = sum_of_part_maxima(ctx, ztown.constraints, list(parts.values()),
                                       problem.start + problem.time_limit / 4)
            if bound is not None:
                incumbent.tighten(bound)
                if incumbent.value is not None and bound <= incumbent.value:
                    return True  # every part is at its own proven maximum: nothing can beat the best town
        return self._loop(problem, incumbent, ztown, target)

    @staticmethod
    def _loop(problem: Problem, incumbent: Incumbent, ztown, target) -> bool:
        solver = z3.Solver(ctx=ztown.ctx)
        solver.set("smt.arith.solver", 2)  # measured ~1.3-2x faster on 6-card proofs than the default (6)
        solver.add(*ztown.constraints)
        while True:
            remaining = problem.deadline - time.monotonic()  # (capped by the page's Stop: solver.stopping)
            if remaining <= 0:
                return False
            solver.set("timeout", max(1, int(min(remaining, 86400.0) * 1000)))
            if incumbent.value is not None:
                solver.add(target > incumbent.value)
            incumbent.iterations += 1
            answer = solver.check()
            if answer == z3.sat:
                model = solver.model()
                claimed = model.eval(target, model_completion=True).as_long()
                incumbent.offer(*problem.rescored(decode(ztown, model), claimed))
            elif answer == z3.unsat:
                return True  # nothing beats the best town (or the floor / round-1 condition when none found)
            else:
                return False
