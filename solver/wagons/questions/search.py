"""The most / least of a town of given cards by the optimizer's own CP-SAT town model (rule:W-opt-layout), where
listing every town is out of reach (5 cards and more).

- ``player.total`` and ``margin`` (most): :func:`~solver.wagons.optimizer.layout.best_layout`, its default method.
- A goal card's points (``goal.<card>``; a comparing card's for the opponent too, ``opponent.goal.<card>``), a
  terrain's largest group (``group.<terrain>``) or what shows in the town (``player.icon.<icon>``,
  ``player.terrain.<terrain>``, ``player.territories``), most: the CP-SAT model of the town
  (:func:`~.cpsat.encode.encode`, :func:`~.cpsat.goals.player_score`) with that part alone as its objective; least
  only for the parts the model states exactly (:data:`EXACT_KINDS`, the counts), as the most of its negation.

A question with a condition, and "is there" / "for every", go to the exact model of :mod:`.conditions`; what
neither states is listed town by town, or refused by size. Every town the model returns is replayed by the
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
    frozenset(goal_kinds.COUNTING) | frozenset(goal_kinds.COMPARING)
"""Goal kinds whose CP-SAT points equal the scorer's on every town (not only at a maximum): positions and counts
reified both ways, the comparing cards a table of the scorer's own function; a least is their most negated. The
largest groups, The Herd and Cool Water are maxima the model selects, exact only when maximised."""


def town_search(domain: Any, goal: Goal) -> Found | None:
    """The engine's decision of ``goal`` over ``domain`` (a :class:`~.towns.TownsDomain`) where the CP-SAT model
    states it, else None."""
    if goal.quantifier not in ("max", "min", "exists", "forall"):
        return None
    size = domain.size_or_none()
    if size is not None and size <= domain.most:
        return None  # listed town by town: an exact answer with every town checked
    if goal.condition is not None or goal.quantifier in ("exists", "forall"):
        if goal.condition is None and goal.quantifier == "forall":
            return None
        from solver.wagons.questions.conditions import condition_search

        return condition_search(domain, goal)
    name = goal.objective or ""
    if name in ("player.total", "margin"):
        return _layout(domain, goal, "score" if name == "player.total" else "margin") if goal.quantifier == "max" \
            else None
    part = _part(domain, name, goal.quantifier)
    return _part_search(domain, goal, part) if part is not None else None


def _part(domain: Any, name: str, quantifier: str) -> tuple[str, str] | None:
    """How the model states the measure ``name``: ``("group", terrain)``, ``("goal", card)``, ``("theirs", card)``
    (a comparing card's points for the opponent) or ``("count", icon or terrain or "")`` (what shows in the town);
    None where it cannot be asked (a least of a part the model only states at its maximum)."""
    from solver.wagons.codes import ICONS, TERRAINS

    if name == "player.territories":
        return "count", ""
    for sym in ICONS + TERRAINS:
        if name in (f"player.icon.{slug(sym)}", f"player.terrain.{slug(sym)}") and \
                name.split(".")[1] == ("icon" if sym in ICONS else "terrain"):
            return "count", sym
    for t in TERRAINS:
        if name == f"group.{slug(t)}" and quantifier == "max":
            return "group", t
    for g in domain.data.scenario(domain.scenario).goals:
        kind = domain.data.goal(g).kind
        if kind == "unknown":
            continue
        if name == f"opponent.goal.{slug(g)}" and kind in goal_kinds.COMPARING:
            return "theirs", g
        if name == f"goal.{slug(g)}" and (quantifier == "max" or kind in EXACT_KINDS):
            return "goal", g
    return None


def _expression(model: Any, parts: dict, theirs: dict, part: tuple[str, str]) -> Any:
    """The model's linear expression of ``part`` (:func:`_part`)."""
    what, which = part
    if what in ("group", "goal"):
        return parts[which]
    if what == "theirs":
        return theirs[which]
    slots = [s for s in model.slots if not which or which in (model.terrain_of(s), model.icon_of(s))]
    return model.count([model.vis[s] for s in slots])


def _layout(domain: Any, goal: Goal, objective: str) -> Found:
    from solver.wagons.optimizer.cpsat.solve import measuring
    from solver.wagons.optimizer.layout import best_layout

    with measuring() as spent:
        res = best_layout(domain.cards, domain.scenario, domain.pile, domain.readings,
                          max(0.1, goal.deadline - time.monotonic()), objective=objective, data=domain.data)
    town = Town(res.placements)
    element = Position(town, placements_features(town.placements), domain.pile)
    how = "proved optimal" if res.proven_optimal else f"best found, not proven (no town beats {res.bound})"
    return Found(value=res.value, bound=res.value if res.proven_optimal else res.bound, element=element,
                 proven=res.proven_optimal, method=f"the optimizer's best layout ({res.method}), {how}",
                 checked=res.iterations, deterministic=spent.deterministic)


def _part_search(domain: Any, goal: Goal, part: tuple[str, str]) -> Found:
    from solver.wagons.optimizer.cpsat.encode import encode
    from solver.wagons.optimizer.cpsat.goals import player_score
    from solver.wagons.optimizer.cpsat.solve import measuring, solve
    from solver.wagons.optimizer.quads import EncodeTimeout

    sign = 1 if goal.quantifier == "max" else -1
    with measuring() as spent:
        try:
            model = encode(card_quads(domain.cards), deadline=goal.deadline)
            _total, parts, theirs = player_score(model, domain.data.scenario(domain.scenario), domain.data,
                                                  pile_counts(domain.pile))
            res = solve(model, sign * _expression(model, parts, theirs, part), None, goal.deadline, proof="search")
        except EncodeTimeout:
            return Found(proven=False, method="CP-SAT town model: the time ran out while building it")
    if res.xyr is None or res.value is None:  # a town and its value come together
        return Found(proven=False, method="CP-SAT town model: no town found before the time limit",
                     deterministic=spent.deterministic)
    town = town_of(domain.cards, res.xyr)
    element = Position(town, placements_features(town.placements), domain.pile)
    value = domain.values(element, frozenset({goal.objective}))[goal.objective]
    if value != sign * res.value:
        raise EncodingMismatch(f"CP-SAT valued {goal.objective} at {sign * res.value}, the scorer at {value}")
    bound = None if res.bound is None else sign * res.bound
    how = "proved optimal" if res.proven else f"best found, not proven (bound {bound})"
    return Found(value=value, bound=value if res.proven else bound, element=element, proven=res.proven,
                 method=f"CP-SAT town model with {goal.objective} as its objective, {how}",
                 deterministic=spent.deterministic)
