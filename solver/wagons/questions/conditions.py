"""A question's condition over the towns of given cards, stated in the optimizer's CP-SAT town model
(rule:W-opt-layout), so that "is there", "for every" and a conditioned most / least are decided by the model where
the towns are too many to list (5 cards and more).

The model is built *exact* (:class:`~solver.wagons.optimizer.cpsat.town.CpTown` ``exact``: every largest group,
The Herd's too, is forced to be a largest one, not only at a maximum), so each measure is a linear expression equal
to the scorer's on every town, with one freedom left: between tied largest Water groups the model may pick the one
that scores Cool Water less, where the scorer takes the best. Every town of the real game is so a solution of the
model with its true values: "no town" and a bound from the model are proofs. A town the model returns is replayed
by the engine and re-scored; when the condition or the value does not hold there (a Cool Water tie), the search
gives up and the question is listed town by town (or refused by size).

Measures that do not depend on the town (the opponent's pile, where each card is) are constants read from the
scorer; ``winner`` is the sign of the margin (with the Guns tie-break, rule:W8, the Guns shown decide a zero
margin). A comparison with a value that is not a whole number is not stated (None).
"""

from __future__ import annotations

import time
from fractions import Fraction
from typing import Any

from solver.ask import condition as cond_mod
from solver.ask.model import Found, Goal
from solver.wagons.codes import GUN, ICONS, TERRAINS
from solver.wagons.optimizer.problem import card_quads, town_of
from solver.wagons.questions.measures import Position, slug
from solver.wagons.scoring import COMPARING, opponent_fixed, pile_counts, placements_features
from solver.wagons.town import Placement, Town

__all__ = ["condition_search", "CONSTANT_PREFIXES"]

CONSTANT_PREFIXES = ("opponent.icon.", "opponent.terrain.", "opponent.territories", "opponent.cards", "card.",
                     "player.cards", "opponent.common")
"""Measures of a town of given cards that do not depend on its layout (read from the cards apart)."""


class _NotStated(Exception):
    """The condition names something the model does not state."""


class _Terms:
    """The exact model's expression of each measure, built as the condition names them."""

    def __init__(self, domain: Any, model: Any, total: Any, parts: dict, theirs: dict):
        self.domain, self.model, self.total, self.parts, self.theirs = domain, model, total, parts, theirs
        apart = Town(tuple(Placement(c, 3 * i, 0, 0) for i, c in enumerate(domain.cards)))  # for the constants only
        self.fixed_pos = Position(apart, placements_features(apart.placements), domain.pile)
        self.opponent_total = opponent_fixed(domain.pile, domain.scenario, domain.readings, domain.data) + \
            sum(theirs.values())

    def count(self, symbol: str = "") -> Any:
        m = self.model
        return m.count([m.vis[s] for s in m.slots if not symbol or symbol in (m.terrain_of(s), m.icon_of(s))])

    def expr(self, name: str) -> Any:
        """The measure ``name`` as a linear expression (or a constant)."""
        d = self.domain
        if name.startswith(CONSTANT_PREFIXES) or name.startswith("opponent.goal.") and not self._comparing(name):
            return d.values(self.fixed_pos, frozenset({name}))[name]
        table = {"player.total": self.total, "opponent.total": self.opponent_total,
                 "margin": self.total - self.opponent_total, "player.territories": self.count()}
        if name in table:
            return table[name]
        for t in TERRAINS:
            if name == f"group.{slug(t)}":
                return self.parts[t]
            if name == f"player.terrain.{slug(t)}":
                return self.count(t)
        for i in ICONS:
            if name == f"player.icon.{slug(i)}":
                return self.count(i)
        for g in d.data.scenario(d.scenario).goals:
            if name == f"goal.{slug(g)}":
                return self.parts[g]
            if name == f"opponent.goal.{slug(g)}":
                return self.theirs[g]
        raise _NotStated(name)

    def _comparing(self, name: str) -> bool:
        d = self.domain
        return any(name == f"opponent.goal.{slug(g)}" and d.data.goal(g).kind in COMPARING
                   for g in d.data.scenario(d.scenario).goals)

    def compare(self, expr: Any, op: str, value: Any) -> Any:
        """A literal (or a Python bool) equal to ``expr op value``."""
        if isinstance(value, Fraction) and value.denominator != 1 or isinstance(value, (bool, str)):
            raise _NotStated(str(value))
        v = int(value)
        if isinstance(expr, int):
            return cond_mod.holds(cond_mod.Compare("x", op, v), {"x": expr})
        negate = {"==": "!=", "!=": "==", "<": ">=", "<=": ">", ">": "<=", ">=": "<"}
        b = self.model.m.new_bool_var("")
        self.model.m.add(_relation(expr, op, v)).only_enforce_if(b)
        self.model.m.add(_relation(expr, negate[op], v)).only_enforce_if(~b)
        return b

    def winner(self, who: str) -> Any:
        margin = self.margin_lits()
        if self.domain.readings.tie_break != "guns":
            return {"player": margin[">"], "opponent": margin["<"], "tie": margin["=="]}[who]
        guns_o = pile_counts(self.domain.pile).icon[GUN]
        guns = self.compare(self.count("Gun"), ">", guns_o), self.compare(self.count("Gun"), "<", guns_o)
        m = self.model
        ahead = m.or_([margin[">"], m.and_([margin["=="], guns[0]])])
        behind = m.or_([margin["<"], m.and_([margin["=="], guns[1]])])
        return {"player": ahead, "opponent": behind, "tie": m.and_([m.not_(ahead), m.not_(behind)])}[who]

    def margin_lits(self) -> dict:
        margin = self.expr("margin")
        return {op: self.compare(margin, op, 0) for op in (">", "<", "==")}

    def lit(self, cond: Any) -> Any:
        """The condition as a literal of the model (or a Python bool)."""
        m = self.model
        if isinstance(cond, cond_mod.Not):
            return m.not_(self.lit(cond.part))
        if isinstance(cond, cond_mod.All):
            return m.and_([self.lit(p) for p in cond.parts])
        if isinstance(cond, cond_mod.Any_):
            return m.or_([self.lit(p) for p in cond.parts])
        if cond.measure == "winner":
            yes = self.winner(str(cond.value))
            return yes if cond.op == "==" else m.not_(yes)
        if cond.measure.startswith("card."):
            same = self.expr(cond.measure) == cond.value
            return same if cond.op == "==" else not same
        return self.compare(self.expr(cond.measure), cond.op, cond.value)


def _relation(expr: Any, op: str, v: int) -> Any:
    return {"==": expr == v, "!=": expr != v, "<": expr < v, "<=": expr <= v, ">": expr > v, ">=": expr >= v}[op]


def condition_search(domain: Any, goal: Goal) -> Found | None:
    """``goal`` (exists, forall, or a most / least under a condition) decided by the exact model, None where it
    states neither the condition nor the measure, or a town it returns does not bear it out."""
    from solver.wagons.optimizer.cpsat.solve import measuring

    want = goal.condition if goal.quantifier != "forall" else cond_mod.Not(goal.condition)
    with measuring() as spent:
        try:
            res, sign = _solve(domain, goal, want)
        except _NotStated:
            return None
    if res is None:
        return Found(proven=False, method="CP-SAT town model: the time ran out while building it")
    element = None
    if res.xyr is not None:
        town = town_of(domain.cards, res.xyr)
        element = Position(town, placements_features(town.placements), domain.pile)
        names = cond_mod.measures_named(want) | ({goal.objective} if goal.objective else set())
        values = domain.values(element, frozenset(names))
        if not cond_mod.holds(want, values) or goal.objective and values[goal.objective] != sign * res.value:
            return None  # a Cool Water tie the model read the other way: listed instead
    return _found(goal, res, element, sign, spent.deterministic)


def _solve(domain: Any, goal: Goal, want: Any) -> tuple[Any, int]:
    from solver.wagons.optimizer.cpsat.encode import encode
    from solver.wagons.optimizer.cpsat.goals import player_score
    from solver.wagons.optimizer.cpsat.solve import solve
    from solver.wagons.optimizer.cpsat.town import ZERO
    from solver.wagons.optimizer.quads import EncodeTimeout

    try:
        model = encode(card_quads(domain.cards), deadline=goal.deadline)
        model.exact = True
        total, parts, theirs = player_score(model, domain.data.scenario(domain.scenario), domain.data,
                                            pile_counts(domain.pile))
        terms = _Terms(domain, model, total, parts, theirs)
        sign = -1 if goal.quantifier == "min" else 1
        target = sign * terms.expr(goal.objective) if goal.objective else ZERO
        if isinstance(target, int):
            target = ZERO + target
        lit = terms.lit(want) if want is not None else True
    except EncodeTimeout:
        return None, 1
    if lit is False:
        from solver.wagons.optimizer.cpsat.solve import SolveResult

        return SolveResult(None, None, True, None), sign
    if lit is not True:
        model.m.add_bool_or([lit])
    return solve(model, target, None, max(goal.deadline, time.monotonic() + 0.01), proof="search"), sign


def _found(goal: Goal, res: Any, element: Any, sign: int, deterministic: float) -> Found:
    q = goal.quantifier
    if q in ("exists", "forall"):
        some = element is not None
        holds = (some if q == "exists" else not some) if (some or res.proven) else None
        how = ("a town found" if some else "no town exists") if res.proven or some else "undecided"
        return Found(holds=holds, element=element, proven=holds is not None,
                     method=f"CP-SAT town model (exact groups): {how}", deterministic=deterministic)
    if element is None:
        return Found(proven=res.proven, method="CP-SAT town model (exact groups): " +
                     ("no town meets the condition" if res.proven else "no town found before the time limit"),
                     deterministic=deterministic)
    value = sign * res.value
    bound = value if res.proven else (None if res.bound is None else sign * res.bound)
    how = "proved optimal" if res.proven else f"best found, not proven (bound {bound})"
    return Found(value=value, bound=bound, element=element, proven=res.proven,
                 method=f"CP-SAT town model (exact groups) with {goal.objective} as its objective, {how}",
                 deterministic=deterministic)
