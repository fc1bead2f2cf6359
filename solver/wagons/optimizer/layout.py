"""Best layout of an ordered list of cards, proven optimal (rule:W-opt-layout).

Given the cards a player received, in the order they arrived, :func:`best_layout` finds a legal
placement sequence (rule:W-place, each later card on top, rule:W-cover) that maximises the player's
score (rule:W7) in a scenario, or the final margin over the opponent's pile (``objective="margin"``).

A greedy town gives a first lower bound; then one method, a strategy with the face
``prove(problem, incumbent) -> proven`` (chosen by measurement, ``docs/wagons-optimizer.md``):

- ``"cpsat"``: the iterated local search's town (:mod:`.local`), then the CP-SAT model
  (:mod:`.cpsat`): CP-SAT's search without LP, hinted with that town, for a town beating the best
  one; "infeasible" proves it optimal;
- ``"cpsat-core"``: the same model, a primal phase, the local search again, then core-based search:
  slower to a proof, but it proves an upper bound while it runs (a tighter bound when unproven);
- ``"cpsat-bound"`` (default, :data:`~.problem.LAYOUT_METHOD`): ``"cpsat"`` for three quarters of the
  time, then the local search again and CP-SAT's objective lower-bound search (the highest value first,
  the bound lowered one proven step at a time): a town left unproven comes with a bound as tight as
  ``"cpsat-core"``'s;
- ``"incremental"``: the Z3 model (:mod:`.z3`), an incremental ``Solver`` asked again and again for a
  town scoring more than the best one, until unsat;
- ``"oracle"``: the exhaustive walk over every placement sequence (:mod:`.oracle`; at most 5 cards).
- ``"bnb"``: the compiled branch and bound over that walk with an admissible bound at every node
  (:mod:`.bnb`): the iterated local search's town, then a depth-first search that ends in a proof.

All return the best found when the time limit runs out (``proven_optimal=False``). Every town found
is re-scored by the ordinary scorer; a model's own value must never exceed it
(:class:`~.problem.EncodingMismatch`).
"""

from __future__ import annotations

import time

from solver.errors import BadInput
from solver.execution.progress import OnProgress
from solver.wagons.data import WagonsData
from solver.wagons.optimizer.bnb.search import BranchAndBound
from solver.wagons.optimizer.cpsat.proof import CpSatProof
from solver.wagons.optimizer.oracle import Exhaustive
from solver.wagons.optimizer.problem import (
    LAYOUT_METHOD,
    OBJECTIVES,
    EncodingMismatch,
    Incumbent,
    LayoutResult,
    greedy_layout,
    make_problem,
)
from solver.wagons.optimizer.z3solver.incremental import Z3Loop
from solver.wagons.readings import WagonsReadings

__all__ = ["LayoutResult", "best_layout", "layout_with", "greedy_layout", "EncodingMismatch", "METHODS", "OBJECTIVES", "STRATEGIES"]

STRATEGIES = {s.name: s for s in (CpSatProof("search"), CpSatProof("core"), CpSatProof("bound"), Z3Loop(), Exhaustive(),
                                  BranchAndBound())}
"""Method name -> strategy (``prove(problem, incumbent) -> proven``)."""
METHODS = tuple(STRATEGIES)


def best_layout(cards, scenario_id: str, opponent_pile=(), readings: WagonsReadings = WagonsReadings(), time_limit: float = 60.0,
                progress: OnProgress | None = None, objective: str = "score", method: str = LAYOUT_METHOD,
                data: WagonsData | None = None, seed_greedy: bool = True, floor: int | None = None,
                round1: tuple[int, int, bool] | None = None) -> LayoutResult:
    """The best legal town for ``cards`` (in placement order) in ``scenario_id`` (rule:W-opt-layout).

    ``objective``: "score" (the player's total, contracts.md ``best-layout``) or "margin" (player
    total minus the opponent's total; the opponent's comparing goal cards depend on the town).
    ``progress`` gets a :class:`~solver.execution.progress.Progress` (best, bound or None, the objective as its
    unit) on every improvement and at the end.
    Returns the best town found within ``time_limit`` seconds and whether it is proven optimal.

    ``floor``: only towns whose objective exceeds ``floor`` are wanted (best-play bounding); when
    none exists the result has ``placements == ()``, ``value == floor`` and ``proven_optimal`` says
    whether that was proven. ``round1 = (m, opponent_territories, behind)`` (Boomtown, rule:W5):
    after the first ``m`` cards the opponent's territory count must be tied with or below the
    player's (``behind``) or above it (not ``behind``); the greedy seed is skipped.
    """
    if method not in STRATEGIES:
        raise BadInput(f"method: '{method}' is not one of {', '.join(METHODS)}")
    return layout_with(STRATEGIES[method], method, cards, scenario_id, opponent_pile, readings, time_limit, progress,
                       objective, data, seed_greedy, floor, round1)


def layout_with(strategy, method: str, cards, scenario_id: str, opponent_pile=(), readings: WagonsReadings = WagonsReadings(),
                time_limit: float = 60.0, progress: OnProgress | None = None, objective: str = "score",
                data: WagonsData | None = None, seed_greedy: bool = True, floor: int | None = None,
                round1: tuple[int, int, bool] | None = None) -> LayoutResult:
    """:func:`best_layout` with a given strategy (``prove(problem, incumbent) -> proven``) reported as
    ``method``: what the benches use to run a baseline beside the default."""
    problem = make_problem(cards, scenario_id, opponent_pile, readings, time_limit, objective, data, floor, round1,
                           start=time.monotonic())
    incumbent = Incumbent(problem, progress)
    if seed_greedy and round1 is None:
        incumbent.seed_greedy()
        if time.monotonic() >= problem.deadline:  # no time left (or stopped): the greedy town, not proven
            return incumbent.result(method, proven=False)
    return incumbent.result(method, strategy.prove(problem, incumbent))
