"""Exhaustive search over every legal placement sequence: the optimizer's test oracle.

Built only on the engine's own rules (:func:`solver.wagons.town.legal_placements`, rule:W-place)
and scorer (:func:`solver.wagons.scoring.score_player` / ``final_scores``), so it shares no code
with the Z3 encoding it checks. Towns are merged when they look the same up to a translation
(same visible territories at the same relative cells): what can still be placed legally and the
final score depend only on that, so merging loses no score (``merge=False`` turns it off).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Sequence

from solver.wagons.data import WagonsData, load_data
from solver.wagons.optimize import check_cards, check_pile
from solver.wagons.rules import Rules
from solver.wagons.scoring import features_plus, frame_features, growth_frame, margin_of, score_player
from solver.wagons.town import Placement, Town, legal_placements, visible_grid

__all__ = ["ExhaustiveResult", "exhaustive_best", "town_key"]


@dataclass(frozen=True)
class ExhaustiveResult:
    value: int | None  # None when the time limit ran out
    placements: tuple[Placement, ...]
    towns: int  # complete towns scored
    elapsed: float
    timed_out: bool = False


def town_key(town: Town) -> frozenset:
    """The visible grid, translated so its top-left occupied cell bounds are (0, 0)."""
    grid = visible_grid(town)
    mx = min(x for x, _ in grid)
    my = min(y for _, y in grid)
    return frozenset(((x - mx, y - my), t) for (x, y), t in grid.items())


def exhaustive_best(cards: Sequence[int], scenario_id: str, opponent_pile=(), rules: Rules = Rules(),
                    objective: str = "score", merge: bool = True, data: WagonsData | None = None,
                    time_limit: float | None = None) -> ExhaustiveResult:
    """The best objective over all legal placement sequences of ``cards`` in order (breadth first)."""
    start = time.monotonic()
    data = data or load_data()
    ids = check_cards(cards)
    pile = check_pile(opponent_pile, ids)
    data.scenario(scenario_id)
    layer = [Town()]
    for cid in ids[:-1]:
        nxt, seen = [], set()
        for town in layer:
            for p in legal_placements(town, cid):
                t = Town(town.placements + (p,))
                if merge:
                    k = town_key(t)
                    if k in seen:
                        continue
                    seen.add(k)
                nxt.append(t)
            if time_limit is not None and time.monotonic() - start > time_limit:
                return ExhaustiveResult(None, (), 0, time.monotonic() - start, True)
        layer = nxt
    # the last card: score every legal placement on each town, updating bitboards in place
    best, best_town, towns = None, None, 0
    for n, town in enumerate(layer):
        frame = growth_frame(town)
        base = frame_features(town, frame)
        for p in legal_placements(town, ids[-1]):
            f = features_plus(base, frame, p)
            t = Town(town.placements + (p,))
            if objective == "score":
                v = score_player(t, scenario_id, pile, rules, data, f).total
            else:
                v = margin_of(f, pile, scenario_id, rules, data)
            towns += 1
            if best is None or v > best:
                best, best_town = v, t
        if time_limit is not None and n % 64 == 0 and time.monotonic() - start > time_limit:
            return ExhaustiveResult(None, (), towns, time.monotonic() - start, True)
    return ExhaustiveResult(best, best_town.placements, towns, time.monotonic() - start)
