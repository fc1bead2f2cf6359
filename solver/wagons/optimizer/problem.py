"""The best-layout problem (rule:W-opt-layout), the best town so far and the one result builder.

A :class:`Problem` is everything a method needs: the cards in the order received, the scenario, the
opponent's pile, the rules readings, the goals data, the objective, the time limit (and for
best play a floor and Boomtown's round-1 condition). An :class:`Incumbent` holds the best town
found so far, the best proven bound and the progress callback; every method (a strategy with
``prove(problem, incumbent) -> proven``) offers its towns to it, and :meth:`Incumbent.result`
builds the :class:`LayoutResult`. Every town offered is the engine's (replayed with
:func:`solver.wagons.town.place`) and valued by the ordinary scorer
(:func:`solver.wagons.scoring.score_player` / ``final_scores``); a model that claims more than
that is an encoding bug (:class:`EncodingMismatch`).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property

from solver.errors import BadInput
from solver.execution.progress import OnProgress, Progress
from solver.stopping import capped
from solver.wagons.cards import check_card_ids, check_pile, load_cards
from solver.wagons.data import ScenarioSpec, WagonsData, load_data
from solver.wagons.readings import WagonsReadings
from solver.wagons.scoring import (
    PileCounts,
    features_plus,
    final_scores,
    frame_features,
    growth_frame,
    margin_of,
    opponent_fixed,
    pile_counts,
    score_player,
    town_features,
)
from solver.wagons.town import Placement, Town, legal_placements, place

__all__ = ["Problem", "Incumbent", "LayoutResult", "EncodingMismatch", "make_problem", "check_cards", "greedy_layout",
           "card_quads", "normal_xyr", "town_of", "objective_value", "OBJECTIVES", "MAX_CARDS",
           "meets_round1"]

OBJECTIVES = ("score", "margin")
MAX_CARDS = 16
"""A player's town never holds more than the 16 dealt cards (18 minus the two goal cards)."""



class EncodingMismatch(AssertionError):
    """A model claims more than the ordinary scorer gives (or returns an illegal town): the encoding is wrong."""


def check_cards(cards) -> tuple[int, ...]:
    """Card ids in placement order: whole numbers 0..17, no repeats, 1..16 of them."""
    ids = check_card_ids(cards, "cards")
    if not ids:
        raise BadInput("cards: give at least one card id")
    if len(ids) > MAX_CARDS:
        raise BadInput(f"cards: {len(ids)} cards; a town holds at most {MAX_CARDS}")
    return ids


def card_quads(ids: Sequence[int]) -> list[tuple[tuple[str, str], ...]]:
    """The four (terrain, icon) territories of each card, in printed order (tl, tr, bl, br): what the
    CP-SAT and Z3 models and :func:`normal_xyr` read."""
    cards_data = load_cards()
    return [tuple((t.terrain, t.icon) for t in cards_data[c].territories) for c in ids]


def objective_value(town: Town, scenario_id: str, pile, readings: WagonsReadings, objective: str, data: WagonsData) -> int:
    """The objective's value of a town by the ordinary scorer: the player's total or the final margin."""
    if objective == "score":
        return score_player(town, scenario_id, pile, readings, data).total
    return final_scores(town, pile, scenario_id, readings, data).margin


def town_of(cards: Sequence[int], xyr) -> Town:
    """The town of ``(x, y, rot)`` per card, replayed through the engine; a model's illegal town is a bug."""
    town = Town()
    for cid, (x, y, rot) in zip(cards, xyr):
        try:
            town = place(town, Placement(cid, x, y, rot))
        except BadInput as exc:  # the encoding let through an illegal town: a bug, not bad input
            raise EncodingMismatch(f"optimizer produced an illegal town: {exc}") from None
    return town


def normal_xyr(town: Town, quads) -> list[tuple[int, int, int]]:
    """A town as (x, y, rot) per card with the first card at (0, 0) unturned (a half turn of the whole
    town changes no score), as the CP-SAT model and the local search state it; cards that look the
    same turned are unturned."""
    ps = town.placements
    x0, y0 = ps[0].x, ps[0].y
    half = ps[0].rot == 180
    out = []
    for p, q in zip(ps, quads):
        x, y, rot = p.x - x0, p.y - y0, p.rot
        if half:
            x, y, rot = -x, -y, (0 if rot == 180 else 180)
        if (q[0], q[1]) == (q[3], q[2]):
            rot = 0
        out.append((x, y, rot))
    return out


def greedy_layout(cards: Sequence[int], scenario_id: str, pile=(), readings: WagonsReadings = WagonsReadings(),
                  objective: str = "score", data: WagonsData | None = None) -> tuple[Town, int]:
    """Place each card where it raises the objective most now (ties: first found); a lower bound."""
    data = (data or load_data()).for_readings(readings)  # rule:W11
    pile = tuple(pile)
    fixed = opponent_fixed(pile, scenario_id, readings, data) if objective == "margin" else 0
    town = Town()
    for cid in cards:
        frame = growth_frame(town)
        base = frame_features(town, frame)
        best = None
        for p in legal_placements(town, cid):
            f = features_plus(base, frame, p)
            if objective == "score":
                v = score_player(Town(town.placements + (p,)), scenario_id, pile, readings, data, f).total
            else:
                v = margin_of(f, pile, scenario_id, readings, data, opponent_base=fixed)
            if best is None or v > best[0]:
                best = (v, p)
        town = Town(town.placements + (best[1],))
    return town, objective_value(town, scenario_id, pile, readings, objective, data)


LAYOUT_METHOD = "cpsat-bound"
"""The default method of a best layout (``best-layout``, the game review, the dashboard): on the 60 greedy
towns of ``bench/wagons/bench_wagons_proofs.py`` it proved the same 31 towns as ``"cpsat"`` in the same total time
and left the unproven ones with a bound a median 7 points above the best town instead of 17 (on 3 of 60 the
best town found was 1 point lower; docs/history/wagons-optimizer-2026.md). A deal search's per-line proofs
keep ``"cpsat"`` (``dealsearch.DEFAULT_METHOD``: not measured there)."""


def meets_round1(town: Town, round1) -> bool:
    """Boomtown's round-1 condition of a draft line (rule:W5-boomtown): the territories the first ``m`` cards show are at
    least the opponent's (``behind``) or fewer; True without one."""
    if round1 is None:
        return True
    m, opp, behind = round1
    have = town_features(Town(town.placements[:m])).territories
    return have >= opp if behind else have < opp


@dataclass(frozen=True)
class Problem:
    """One best-layout problem, validated (:func:`make_problem`)."""

    cards: tuple[int, ...]
    scenario_id: str
    pile: tuple[int, ...]
    readings: WagonsReadings
    objective: str
    data: WagonsData
    time_limit: float
    start: float
    floor: int | None = None  # only towns whose objective exceeds it are wanted (best play)
    round1: tuple[int, int, bool] | None = None  # Boomtown: (cards placed, opponent territories, behind)

    @property
    def deadline(self) -> float:
        """The end of the time limit, or the moment the run was asked to stop (:mod:`.stopping`)."""
        return capped(self.start + self.time_limit)

    def elapsed(self) -> float:
        return time.monotonic() - self.start

    @property
    def scenario(self) -> ScenarioSpec:
        return self.data.scenario(self.scenario_id)

    @cached_property
    def quads(self) -> list:
        return card_quads(self.cards)

    @cached_property
    def pile_counts(self) -> PileCounts:
        return pile_counts(self.pile)

    @cached_property
    def opponent_fixed(self) -> int:
        """The opponent's points that do not depend on the town (0 for the score objective)."""
        if self.objective != "margin":
            return 0
        return opponent_fixed(self.pile, self.scenario_id, self.readings, self.data)

    def value(self, town: Town) -> int:
        return objective_value(town, self.scenario_id, self.pile, self.readings, self.objective, self.data)

    def greedy(self) -> tuple[Town, int]:
        return greedy_layout(self.cards, self.scenario_id, self.pile, self.readings, self.objective, self.data)

    def rescored(self, xyr, claimed: int) -> tuple[Town, int]:
        """The town a model found, replayed through the engine and re-scored; a model claiming more than
        the scorer gives is an encoding bug (:class:`EncodingMismatch`)."""
        town = town_of(self.cards, xyr)
        actual = self.value(town)
        if actual < claimed:
            raise EncodingMismatch(f"model claims {claimed}, the scorer gives {actual} for {town}")
        return town, actual


def _check_number(value, what: str, positive: bool = False):
    if isinstance(value, bool) or not isinstance(value, (int, float) if positive else int):
        raise BadInput(f"{what}: expected {'a positive number of seconds' if positive else 'a whole number'}, "
                       f"got {value!r}")
    if positive and not value > 0:
        raise BadInput(f"{what}: expected a positive number of seconds, got {value!r}")
    return value


def make_problem(cards, scenario_id: str, opponent_pile=(), readings: WagonsReadings = WagonsReadings(), time_limit: float = 60.0,
                 objective: str = "score", data: WagonsData | None = None, floor: int | None = None,
                 round1: tuple[int, int, bool] | None = None, start: float | None = None) -> Problem:
    """A validated :class:`Problem`; every bad value is a one-line BadInput (rule:X-bad-input)."""
    start = time.monotonic() if start is None else start
    data = (data or load_data()).for_readings(readings)  # rule:W11
    ids = check_cards(cards)
    if not isinstance(scenario_id, str):
        raise BadInput(f"scenario: expected a scenario id, got {scenario_id!r}")
    data.scenario(scenario_id)
    pile = check_pile(opponent_pile, ids)
    if not isinstance(readings, WagonsReadings):
        raise BadInput("rules: expected a readings value")
    if objective not in OBJECTIVES:
        raise BadInput(f"objective: '{objective}' is not one of {', '.join(OBJECTIVES)}")
    _check_number(time_limit, "time limit", positive=True)
    if floor is not None:
        _check_number(floor, "floor")
    return Problem(ids, scenario_id, pile, readings, objective, data, time_limit, start, floor, round1)


@dataclass(frozen=True)
class LayoutResult:
    """The best town found: ``score`` (player total) and ``value`` (the objective's value)."""

    score: int
    proven_optimal: bool
    placements: tuple[Placement, ...]
    elapsed: float
    iterations: int
    value: int = 0
    objective: str = "score"
    bound: int | None = None  # proven upper bound on the objective (== value when proven)
    method: str = "cpsat"
    groups: dict = field(default_factory=dict)
    goals: dict = field(default_factory=dict)
    margin: int | None = None  # player total - opponent total, when an opponent pile was given
    greedy_value: int | None = None

    @property
    def town(self) -> Town:
        return Town(self.placements)

    def to_dict(self) -> dict:
        return {"score": self.score, "proven_optimal": self.proven_optimal,
                "placements": [p.to_dict() for p in self.placements],
                "objective": self.objective, "value": self.value, "bound": self.bound,
                "groups": dict(self.groups), "goals": dict(self.goals), "margin": self.margin,
                "elapsed": round(self.elapsed, 3), "iterations": self.iterations, "method": self.method,
                "greedy_value": self.greedy_value, "rule": "W-opt-layout"}


class Incumbent:
    """The best town found so far (engine-valued), the best proven upper bound, the solver calls made,
    and the progress callback (a :class:`~solver.execution.progress.Progress` with the best value, the bound or
    None, the objective as its unit)."""

    def __init__(self, problem: Problem, progress: OnProgress | None = None):
        self.problem = problem
        self.progress = progress
        self.town: Town | None = None
        self.value: int | None = None
        self.bound: int | None = None
        self.iterations = 0
        self.greedy_value: int | None = None

    def report(self, best: int | None, bound: int | None) -> None:
        if self.progress is not None:
            self.progress(Progress(unit=self.problem.objective, best=best, bound=bound, elapsed=self.problem.elapsed()))

    def seed_greedy(self) -> None:
        """The greedy town: the first lower bound."""
        self.town, self.value = self.problem.greedy()
        self.greedy_value = self.value
        self.report(self.value, None)

    def offer(self, town: Town, value: int) -> None:
        """Keep ``town`` (its engine value ``value``) when it beats the best so far."""
        if self.value is None or value > self.value:
            self.town, self.value = town, value
            self.report(self.value, self.bound)

    def offer_xyr(self, xyr, claimed: int) -> None:
        """A model's town: replayed, re-scored (:meth:`Problem.rescored`), offered; counts one iteration."""
        self.iterations += 1
        self.offer(*self.problem.rescored(xyr, claimed))

    def tighten(self, bound: int) -> None:
        """A proven upper bound on the objective (kept when it is the tightest so far)."""
        if self.bound is None or bound < self.bound:
            self.bound = bound
            self.report(self.value, self.bound)

    def to_beat(self) -> int | None:
        """The value a better town must exceed: the best so far, or the floor when that is higher (then the
        best so far, not wanted, is dropped)."""
        return self.problem.floor if self._drop_below_floor() else self.value

    def _drop_below_floor(self) -> bool:
        """Forget the best town when it does not beat the floor (the greedy seed, say); whether the floor is the
        value to beat."""
        floor = self.problem.floor
        if floor is not None and (self.value is None or self.value <= floor):
            self.town, self.value = None, None
            return True
        return False

    def result(self, method: str, proven: bool) -> LayoutResult:
        """The one result builder: the best town, valued by the engine; with none (nothing above the floor,
        or none meeting the round-1 condition) an empty town valued at the floor; otherwise, when no method
        found any town, the greedy one, not proven."""
        p = self.problem
        self._drop_below_floor()
        if self.town is None and (p.floor is not None or p.round1 is not None):
            low = p.floor
            self.report(low, low if proven else None)
            return LayoutResult(score=0, proven_optimal=proven, placements=(), elapsed=p.elapsed(),
                                iterations=self.iterations, value=low if low is not None else 0,
                                objective=p.objective, bound=low if proven else None, method=method,
                                greedy_value=self.greedy_value)
        if self.town is None:
            self.town, self.value = p.greedy()
            proven = False
        value = p.value(self.town)
        if value != self.value:
            raise EncodingMismatch(f"re-scoring gives {value}, the search recorded {self.value}")
        bound = self.bound
        if proven:
            bound = self.value
        elif bound is not None and bound < self.value:
            raise EncodingMismatch(f"bound {bound} is below a town the scorer values {self.value}")
        final = score_player(self.town, p.scenario_id, p.pile, p.readings, p.data)
        margin = final_scores(self.town, p.pile, p.scenario_id, p.readings, p.data).margin if p.pile else None
        self.report(self.value, bound)
        return LayoutResult(score=final.total, proven_optimal=proven, placements=self.town.placements,
                            elapsed=p.elapsed(), iterations=self.iterations, value=self.value,
                            objective=p.objective, bound=bound, method=method, groups=dict(final.groups),
                            goals=dict(final.goals), margin=margin, greedy_value=self.greedy_value)
