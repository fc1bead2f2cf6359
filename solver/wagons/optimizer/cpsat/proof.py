"""The CP-SAT method of the best-layout search (``method="cpsat"``, ``"cpsat-core"``, ``"cpsat-bound"``,
rule:W-opt-layout): :class:`CpSatProof`, and the model reuse of a deal search's proof passes
(:func:`reusing_models`: a later solve of the same problem gets a fresh copy of the model built the first
time, ``CpModel.clone``, not a new build; the copy is the same model, so the same proof).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, replace
from typing import Any

from ortools.sat.python import cp_model, cp_model_helper

from solver.wagons.optimizer.cpsat.encode import encode
from solver.wagons.optimizer.cpsat.goals import player_score
from solver.wagons.optimizer.cpsat.solve import solve
from solver.wagons.optimizer.cpsat.town import ZERO, CpTown
from solver.wagons.optimizer.problem import Incumbent, Problem, normal_xyr
from solver.wagons.optimizer.quads import EncodeTimeout
from solver.wagons.optimizer.walk.local import polish

__all__ = ["CpSatProof", "reusing_models", "BuiltModel", "LOCAL_SHARE", "MAX_MODELS"]

LOCAL_SHARE = 0.15
"""The share of the time left that each local search (before CP-SAT, and after the core method's primal
phase) may use; it usually stops sooner, after ``local.PATIENCE`` kicks without a better town."""


def _polisher(problem: Problem, incumbent: Incumbent):
    """``polish(xyr)``: :func:`.local.polish` with this method's :data:`LOCAL_SHARE` of the time left."""
    return lambda xyr: polish(problem, incumbent, xyr, LOCAL_SHARE)


@dataclass(frozen=True)
class CpSatProof:
    """``prove(problem, incumbent)``: the iterated local search's town, then this model: CP-SAT's search
    without LP (``proof="search"``, ``method="cpsat"``, the field's default and a deal search's) or a
    primal phase, the local search again and core-based search (``proof="core"``, ``method="cpsat-core"``)
    or the objective lower-bound search (``proof="bound"``, ``method="cpsat-bound"``, best-layout's
    default :data:`~.problem.LAYOUT_METHOD`) for a town beating the best one until infeasible (the
    proof) or the time limit. ``speedups``: the model with its redundant bounds
    and symmetry breaking (default; ``False`` is the baseline of ``bench/wagons/bench_wagons_proofs.py``);
    ``tightened``: with them, the second round of the bound work (the territory cap and the group neighbours;
    default; ``False`` is the benches' ``current``, the prover before it); ``triangles``: what adds the redundant
    offset clauses (None: :func:`.encode.add_triangles`; the benches pass the build before the encoding round,
    ``bench/wagons/baselines.py``)."""

    proof: str = "search"
    speedups: bool = True
    tightened: bool = True
    triangles: Callable[..., None] | None = None

    @property
    def name(self) -> str:
        return {"search": "cpsat", "core": "cpsat-core", "bound": "cpsat-bound"}[self.proof]

    def prove(self, problem: Problem, incumbent: Incumbent) -> bool:
        try:
            town, target = self.model(problem)
        except EncodeTimeout:
            return False
        polish = _polisher(problem, incumbent)
        floor = incumbent.to_beat()
        hint = normal_xyr(incumbent.town, problem.quads) if incumbent.town is not None else None
        if hint is not None:
            better = polish(hint)
            if better is not None:
                hint = list(better[0])
                floor = max(floor, better[1]) if floor is not None else better[1]
        res = solve(town, target, floor, problem.deadline, hint=hint, on_bound=incumbent.tighten,
                    on_solution=incumbent.offer_xyr, polish=polish, proof=self.proof)
        if res.bound is not None:
            incumbent.bound = res.bound if incumbent.bound is None else min(incumbent.bound, res.bound)
        bound, best = incumbent.bound, incumbent.value
        # the bound of "beat the best" fell to the best: nothing beats it
        proven = res.proven or (bound is not None and best is not None and bound <= best)
        if proven and _MODELS.get() is not None:
            _MODELS.get().pop(self._key(problem), None)  # a proven problem is not asked again
        return proven

    def build(self, problem: Problem) -> tuple[CpTown, Any]:
        """(town, target): the model of ``problem`` built afresh (raises :class:`EncodeTimeout`)."""
        town = encode(problem.quads, deadline=problem.deadline, speedups=self.speedups,
                      tightened=self.tightened, triangles=self.triangles)
        total, _parts, theirs = player_score(town, problem.scenario, problem.data, problem.pile_counts)
        target = total if problem.objective != "margin" else total - sum(theirs.values()) - problem.opponent_fixed
        if problem.round1 is not None:
            m_cards, opp_terr, behind = problem.round1
            have = town.territories_after(m_cards)
            town.m.add(have >= opp_terr) if behind else town.m.add(have < opp_terr)
        return town, target

    def model(self, problem: Problem) -> tuple[CpTown, Any]:
        """(town, target) to solve ``problem`` with: inside :func:`reusing_models`, a copy of the model
        built for the same problem earlier in the block (a later proof pass on the same line), else
        :meth:`build` (keeping a copy for later when inside the block)."""
        store = _MODELS.get()
        if store is None:
            return self.build(problem)
        key = self._key(problem)
        hit = store.get(key)
        if hit is not None and hit[0] is problem.data:
            return hit[1].copy()
        town, target = self.build(problem)
        if len(store) < MAX_MODELS:  # when full, the first ones stay: a deal search's passes revisit them first
            store[key] = (problem.data, BuiltModel.keep(town, target))
        return town, target

    def _key(self, problem: Problem) -> tuple:
        return (self, problem.cards, problem.scenario_id, problem.pile, problem.readings, problem.objective,
                problem.round1, id(problem.data))


MAX_MODELS = 32
"""Models kept per :func:`reusing_models` block (a few MB each: an 8-card town's model has some 30,000
constraints); a proven problem's model is dropped."""

_MODELS: ContextVar[dict | None] = ContextVar("cpsat_models", default=None)


@contextmanager
def reusing_models(store: dict) -> Iterator[dict]:
    """Within the block (in this thread or task), :meth:`CpSatProof.prove` keeps in ``store`` a copy of
    each model it builds, before any solve adds to it, and solves a later proof of the same problem (same
    cards in order, pile, scenario, readings, data, objective, round-1 condition and prover) on a fresh
    copy of it instead of building it again: the copy is the very model a fresh build gives, so the
    proof is the same. The store holds model copies, never a solver; a deal search owns one per search."""
    token = _MODELS.set(store)
    try:
        yield store
    finally:
        _MODELS.reset(token)


@dataclass(frozen=True)
class BuiltModel:
    """A pristine copy of a built model (nothing solved on it, no hint, no floor) with the positions, turns
    and target bound to it; :meth:`copy` gives a town and target to solve on a fresh copy of it."""

    town: CpTown
    coeffs: tuple[int, ...]
    indices: tuple[int, ...]
    offset: int

    @staticmethod
    def keep(town: CpTown, target) -> BuiltModel:
        m = town.m.clone()
        flat = cp_model_helper.FlatIntExpr(target) if not isinstance(target, int) else None
        slim = _rebound(town, m)
        if flat is None:
            return BuiltModel(slim, (), (), int(target))
        return BuiltModel(slim, tuple(flat.coeffs), tuple(v.index for v in flat.vars), flat.offset)

    def copy(self) -> tuple[CpTown, Any]:
        m = self.town.m.clone()
        target = sum((c * m.get_int_var_from_proto_index(i) for c, i in zip(self.coeffs, self.indices)), ZERO)
        return _rebound(self.town, m), target + self.offset


def _rebound(town: CpTown, m: cp_model.CpModel) -> CpTown:
    """``town``'s positions and turns as variables of ``m`` (a clone of its model), without the literal
    tables of the build (a solve reads only the positions and turns)."""
    var = m.get_int_var_from_proto_index
    return replace(town, m=m, X=[var(x.index) for x in town.X], Y=[var(y.index) for y in town.Y],
                   R=[r if isinstance(r, int) else var(r.index) for r in town.R], rel={}, vis={}, _cache={})
