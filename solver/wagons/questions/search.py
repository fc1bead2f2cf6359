"""The most / least of a town of given cards by the optimizer's own CP-SAT town model (rule:W-opt-layout), where
listing every town is out of reach (5 cards and more).

- ``player.total`` and ``margin`` (most): :func:`~solver.wagons.optimizer.layout.best_layout`, its default method.
- A goal card's points for the player (``goal.<card>``, not a comparing card) or a terrain's largest group
  (``group.<terrain>``), most: the CP-SAT model of the town (:func:`~.cpsat.encode.encode`,
  :func:`~.cpsat.goals.player_score`) with that part alone as its objective; least only for the goal cards the model
  states exactly (positions and counts reified both ways), as the most of its negation.

Only questions without a condition go here (a condition would need the model to state every measure exactly both
ways); everything else is listed town by town, or refused by size. Every town the model returns is replayed by the
engine and re-scored by the ordinary scorer; a model value the scorer does not give is an encoding bug.
"""

from __future__ import annotations

import time
from typing import Any

from solver.ask.model import Found, Goal
from solver.wagons import goal_kinds
from solver.wagons.optimizer.problem import EncodingMismatch, card_quads, town_of
from solver.wagons.questions.measures import Position, slug
from solver.wagons.scoring import pile_counts, placements_features
from solver.wagons.town import Town

__all__ = ["town_search", "EXACT_KINDS"]

EXACT_KINDS = frozenset({"badlands", "happy-cows", "bootleggers", "gold-country", "wagon-train"}) | \
    frozenset(goal_kinds.COUNTING)
"""Goal kinds whose CP-SAT points equal the scorer's on every town (not only at a maximum): a least is their most
negated. The largest groups, The Herd and Cool Water are maxima the model selects, exact only when maximised."""


def town_search(domain: Any, goal: Goal) -> Found | None:
    """The engine's decision of ``goal`` over ``domain`` (a :class:`~.towns.TownsDomain`) where the CP-SAT model
    states it, else None."""
    if goal.quantifier not in ("most", "least") or goal.condition is not None:
        return None
    size = domain.size_or_none()
    if size is not None and size <= domain.most:
        return None  # listed town by town: an exact answer with every town checked
    name = goal.objective or ""
    if name in ("player.total", "margin"):
        return _layout(domain, goal, "score" if name == "player.total" else "margin") if goal.quantifier == "most" \
            else None
    part = _part(domain, name, goal.quantifier)
    return _part_search(domain, goal, part) if part is not None else None


def _part(domain: Any, name: str, quantifier: str) -> str | None:
    """The model's part for the measure ``name`` (a terrain or a goal card's name), None where it cannot be asked."""
    from solver.wagons.codes import TERRAINS

    for t in TERRAINS:
        if name == f"group.{slug(t)}" and quantifier == "most":
            return t
    for g in domain.data.scenario(domain.scenario).goals:
        kind = domain.data.goal(g).kind
        if name == f"goal.{slug(g)}" and kind not in goal_kinds.COMPARING and kind != "unknown":
            if quantifier == "most" or kind in EXACT_KINDS:
                return g
    return None


def _layout(domain: Any, goal: Goal, objective: str) -> Found:
    from solver.wagons.optimizer.cpsat.solve import measuring
    from solver.wagons.optimizer.layout import best_layout

    with measuring() as spent:
        res = best_layout(domain.cards, domain.scenario, domain.pile, domain.rules,
                          max(0.1, goal.deadline - time.monotonic()), objective=objective, data=domain.data)
    town = Town(res.placements)
    element = Position(town, placements_features(town.placements), domain.pile)
    how = "proved optimal" if res.proven_optimal else f"best found, not proven (no town beats {res.bound})"
    return Found(value=res.value, bound=res.value if res.proven_optimal else res.bound, element=element,
                 proven=res.proven_optimal, method=f"the optimizer's best layout ({res.method}), {how}",
                 checked=res.iterations, deterministic=spent.deterministic)


def _part_search(domain: Any, goal: Goal, part: str) -> Found:
    from solver.wagons.optimizer.cpsat.encode import encode
    from solver.wagons.optimizer.cpsat.goals import player_score
    from solver.wagons.optimizer.cpsat.solve import measuring, solve
    from solver.wagons.optimizer.quads import EncodeTimeout

    sign = 1 if goal.quantifier == "most" else -1
    with measuring() as spent:
        try:
            model = encode(card_quads(domain.cards), deadline=goal.deadline)
            _total, parts, _theirs = player_score(model, domain.data.scenario(domain.scenario), domain.data,
                                                  pile_counts(domain.pile))
            res = solve(model, sign * parts[part], None, goal.deadline, proof="search")
        except EncodeTimeout:
            return Found(proven=False, method="CP-SAT town model: the time ran out while building it")
    if res.xyr is None:
        return Found(proven=False, method="CP-SAT town model: no town found before the time limit",
                     deterministic=spent.deterministic)
    town = town_of(domain.cards, res.xyr)
    element = Position(town, placements_features(town.placements), domain.pile)
    value = domain.values(element, frozenset({goal.objective}))[goal.objective]
    if value != sign * res.value:
        raise EncodingMismatch(f"CP-SAT valued {part} at {sign * res.value}, the scorer at {value}")
    bound = None if res.bound is None else sign * res.bound
    how = "proved optimal" if res.proven else f"best found, not proven (bound {bound})"
    return Found(value=value, bound=value if res.proven else bound, element=element, proven=res.proven,
                 method=f"CP-SAT town model with {part} as its objective, {how}", deterministic=spent.deterministic)
