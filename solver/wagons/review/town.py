"""The after-game review of a Lone Cowboy game: the best layout of the player's own cards, and where
the points were lost, part by part (rule:W-opt-layout, rule:W7).

:func:`review` takes a finished game (:class:`solver.wagons.game.GameState`), :func:`review_town`
a town and the opponent's pile. Both ask :func:`solver.wagons.optimizer.layout.best_layout` for the
best legal town of the same cards in the order the player received them (each placed legally when
it arrived, rule:W-place), under the same readings and against the same pile (the comparing goal
cards, rule:W6), within a time limit. The best town is re-scored by the ordinary scorer
(:func:`solver.wagons.scoring.final_scores`), and the player's score and the best one are compared
part by part: the largest group of each of the six terrains (rule:W-groups) and the scenario's two
goal cards. The gaps add up to the whole gap.

When the time limit cuts the search short, the answer is "best found, not proven"; when the best
found is below the player's own town, the player's town is the best known layout (gap 0, not proven).
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.errors import BadInput
from solver.execution.progress import OnProgress
from solver.wagons.codes import TERRAINS
from solver.wagons.data import WagonsData, load_data
from solver.wagons.game import GameState, is_over
from solver.wagons.optimizer.problem import LAYOUT_METHOD
from solver.wagons.readings import WagonsReadings
from solver.wagons.scoring import COMPARING, FinalScores, final_scores
from solver.wagons.town import Placement, Town, place, visible_grid

__all__ = ["Part", "Review", "review", "review_town", "aligned", "DEFAULT_TIME_LIMIT"]

DEFAULT_TIME_LIMIT = 60.0
"""Seconds, as `wagons best-layout --time-limit` (its default)."""


@dataclass(frozen=True)
class Part:
    """One scoring part: the player's points and the best layout's, and what the difference means."""

    kind: str        # "group" (largest group of a terrain, rule:W-groups) or "goal" (a goal card, rule:W7)
    name: str        # the terrain or the goal card's name
    label: str       # plain English, e.g. "Largest Forest group", "Goal card: Cool Water"
    player: int
    best: int
    explanation: str

    @property
    def gap(self) -> int:
        """Points the best layout scores more here (negative: it gives points up here)."""
        return self.best - self.player

    def to_dict(self) -> dict:
        return {"kind": self.kind, "name": self.name, "label": self.label, "player": self.player,
                "best": self.best, "gap": self.gap, "explanation": self.explanation}


@dataclass(frozen=True)
class Review:
    """The review: both towns, their scores, the parts, and whether the best layout is proven optimal."""

    scenario: str
    readings: WagonsReadings
    cards: tuple[int, ...]
    pile: tuple[int, ...]
    town: Town
    best_town: Town
    mine: FinalScores
    best: FinalScores
    proven: bool
    bound: int | None          # proven upper bound on the best score (== best total when proven)
    own_town_kept: bool        # the search found nothing as good as the player's town in time
    parts: tuple[Part, ...]
    elapsed: float
    time_limit: float
    method: str

    @property
    def gap(self) -> int:
        """Points the best layout scores more than the player's town (the parts' gaps add up to it)."""
        return self.best.player.total - self.mine.player.total

    def headline(self) -> str:
        """One plain-English sentence on the result."""
        you, top = self.mine.player.total, self.best.player.total
        status = "proven optimal" if self.proven else (
            f"best found in {self.time_limit:g} s, not proven optimal"
            + (f" (no layout scores more than {self.bound})" if self.bound is not None else ""))
        if self.gap == 0:
            if self.proven:
                return f"Your town scores {you}: no layout of the same cards scores more (proven optimal)."
            return f"Your town scores {you}; the search found no better layout of the same cards ({status})."
        return (f"Your town scores {you}; the best layout of the same cards scores {top} ({status}): "
                f"{self.gap} point{'s' if self.gap != 1 else ''} left on the table.")

    def outcome_line(self) -> str:
        """Who would have won with the best layout (its comparing goal cards may change the opponent's score)."""
        b = self.best
        them = b.opponent.total
        if b.winner == "player":
            return f"With the best layout the player would win {b.player.total} to {them}."
        if b.winner == "opponent":
            return f"Even with the best layout the opponent would win, {them} to {b.player.total}."
        return f"With the best layout the game would be a tie at {b.player.total}."

    def to_dict(self) -> dict:
        return {"scenario": self.scenario, "rules": self.readings.to_json(), "cards": list(self.cards),
                "pile": list(self.pile), "town": [p.to_dict() for p in self.town.placements],
                "best_town": [p.to_dict() for p in self.best_town.placements],
                "mine": self.mine.to_dict(), "best": self.best.to_dict(), "proven": self.proven,
                "bound": self.bound, "own_town_kept": self.own_town_kept, "gap": self.gap,
                "parts": [p.to_dict() for p in self.parts], "headline": self.headline(),
                "outcome": self.outcome_line(), "elapsed": round(self.elapsed, 3), "time_limit": self.time_limit,
                "method": self.method, "rule": "W-opt-layout"}


def review(state: GameState, time_limit: float = DEFAULT_TIME_LIMIT, progress: OnProgress | None = None,
           method: str = LAYOUT_METHOD) -> Review:
    """The review of a finished game: its town and the opponent's pile, under the game's readings and data."""
    if not isinstance(state, GameState):
        raise BadInput(f"review: expected a Lone Cowboy game, got {type(state).__name__}")
    if not is_over(state):
        raise BadInput("review: the game is not over yet (cards are still to draft or place)")
    return review_town(state.town, state.pile, state.scenario, state.readings, time_limit, progress, method, state.data)


def review_town(town: Town, pile, scenario_id: str, readings: WagonsReadings = WagonsReadings(), time_limit: float = DEFAULT_TIME_LIMIT,
                progress: OnProgress | None = None, method: str = LAYOUT_METHOD, data: WagonsData | None = None) -> Review:
    """The review of ``town`` (placements in the order the cards arrived) against the opponent's ``pile``."""
    from solver.wagons.optimizer.layout import best_layout  # loads ortools, z3 and numba

    if not isinstance(town, Town) or not town.placements:
        raise BadInput("review: the town has no cards to lay out")
    data = data or load_data()
    pile = tuple(pile)
    mine = final_scores(town, pile, scenario_id, readings, data)
    res = best_layout(list(town.card_ids), scenario_id, pile, readings, time_limit, progress, method=method, data=data)
    best_town, kept = res.town, False
    if res.score < mine.player.total:  # cut short below the player's own town: that town is the best known
        if res.proven_optimal:
            raise AssertionError(f"best layout proven at {res.score}, below the player's town at {mine.player.total}")
        best_town, kept = town, True
    best_town = aligned(best_town, town)
    best = final_scores(best_town, pile, scenario_id, readings, data)
    if not kept and best.player.total != res.score:
        raise AssertionError(f"best layout re-scored at {best.player.total}, reported {res.score}")
    goals = {g.name: g for g in data.for_readings(readings).goals}
    parts = tuple(_parts(mine, best, goals))
    return Review(scenario_id, readings, town.card_ids, pile, town, best_town, mine, best, res.proven_optimal,
                  res.bound, kept, parts, res.elapsed, float(time_limit), res.method)


def _half_turn(town: Town) -> Town:
    """The whole town turned 180 degrees: a card at (x, y) goes to (-x-1, -y-1), turned. Contact and
    covering are kept and every scoring rule is symmetric under the half turn (rule:W-rotation)."""
    return Town(tuple(Placement(p.card, -p.x - 1, -p.y - 1, (p.rot + 180) % 360) for p in town.placements))


def _shifted(town: Town, dx: int, dy: int) -> Town:
    return Town(tuple(Placement(p.card, p.x + dx, p.y + dy, p.rot) for p in town.placements))


def aligned(best: Town, town: Town) -> Town:
    """``best`` moved (and turned half round if that fits better) to lie over ``town`` where the most
    visible territories agree, so both can be drawn on one grid. Moving or turning the whole town
    changes no score; the result is replayed through the engine (every placement legal, rule:W-place)."""
    mine = visible_grid(town)
    choice, top = best, (-1, 0, 0)
    for turned, candidate in enumerate((best, _half_turn(best))):
        grid = visible_grid(candidate)
        shifts = {(x - bx, y - by) for (x, y), t in mine.items() for (bx, by), u in grid.items() if t == u}
        for dx, dy in shifts or {(0, 0)}:
            same = sum(mine.get((x + dx, y + dy)) == t for (x, y), t in grid.items())
            rank = (same, -turned, -(abs(dx) + abs(dy)))
            if rank > top:
                choice, top = _shifted(candidate, dx, dy), rank
    out = Town()
    for p in choice.placements:
        out = place(out, p)
    return out


def _parts(mine: FinalScores, best: FinalScores, goals: dict) -> list[Part]:
    """The player's scoring parts in the scorer's order: six terrain groups, then the goal cards."""
    out = []
    for terrain in TERRAINS:
        a, b = mine.player.groups.get(terrain, 0), best.player.groups.get(terrain, 0)
        out.append(Part("group", terrain, f"Largest {terrain} group", a, b, _group_line(terrain, a, b)))
    for name, a in mine.player.goals.items():
        b = best.player.goals.get(name, 0)
        goal = goals.get(name)
        out.append(Part("goal", name, f"Goal card: {name}", a, b, _goal_line(name, goal, a, b)))
    return out


def _points(n: int) -> str:
    return f"{n} point{'s' if abs(n) != 1 else ''}"


def _lost(n: int) -> str:
    return f"{_points(n)} {'was' if n == 1 else 'were'} lost here"


def _group_line(terrain: str, a: int, b: int) -> str:
    """Where the points of one terrain's largest group went (1 point per territory, rule:W-groups)."""
    if a == b == 0:
        return f"{terrain}: no {terrain} territory shows in either town."
    if a == b:
        return f"{terrain}: your largest group has {a} territor{'y' if a == 1 else 'ies'}, as in the best layout."
    if b > a:
        return (f"{terrain}: your largest group has {a} territor{'y' if a == 1 else 'ies'}; the best layout joins {b}, "
                f"so {_lost(b - a)} (territories left apart or covered).")
    return (f"{terrain}: your largest group has {a} territories, the best layout's only {b}: it gives up "
            f"{_points(a - b)} here to score more elsewhere.")


def _goal_line(name: str, goal, a: int, b: int) -> str:
    """Where a goal card's points went; a comparing card depends on the opponent's town too (rule:W7)."""
    how = f" ({goal.text})" if goal is not None and goal.text else ""
    against = " It compares your town with the opponent's." if goal is not None and goal.kind in COMPARING else ""
    if a == b:
        return f"{name}{how}: you scored {a}, as the best layout does.{against}"
    if b > a:
        return f"{name}{how}: you scored {a}, the best layout scores {b}, so {_lost(b - a)}.{against}"
    return (f"{name}{how}: you scored {a}, the best layout only {b}: it gives up {_points(a - b)} here to score "
            f"more elsewhere.{against}")
