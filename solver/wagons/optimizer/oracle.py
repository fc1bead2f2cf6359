"""Exhaustive search over every legal placement sequence: the optimizer's test oracle (``method="oracle"``,
rule:W-opt-layout).

Two independent paths, both with no bound and no pruning of any kind (so it is not a branch and
bound like the optimizers it checks):

``fast=False`` (the original oracle): built only on the engine's own rules
(:func:`solver.wagons.town.legal_placements`, rule:W-place) and scorer
(:func:`solver.wagons.scoring.score_player` / ``margin_of``), breadth first. Towns are merged when
they look the same up to a translation (same visible territories at the same relative cells, see
:func:`town_key`): what can still be placed legally depends only on the occupied cells and the final
score only on the visible grid (rule:W-cover), so merging loses no score (``merge=False`` turns it
off). About 60-80k towns/s: 28.8 million towns, 352-495 s, for a 5-card instance.

``fast=True`` (default): the depth-first walk of :mod:`.board` over every legal placement sequence,
compiled with numba, on a board of cell codes, with its own scorer (a second implementation of
rule:W-groups and the goal cards; ``tests/wagons/optimizer/test_oracle.py`` checks it against
``score_player`` on thousands of random towns in all six scenarios, both objectives, with and
without an opponent pile). Exactness:

- the legal moves are those of rule:W-place: the first card anywhere (translation changes nothing,
  so it is put at (0, 0)), every later card at each position where one of its 4 cells is occupied
  or shares an edge with an occupied cell (covering, rule:W-cover, or edge contact; corner-only
  contact is never listed), turned 0 or 180 degrees (rule:W-rotation), a card whose turned face
  looks the same once (exactly as ``legal_placements``);
- the only merging is a half turn of the whole town: turning every placement (card at (x, y), rot)
  to (card at (-x-1, -y-1), rot + 180) maps a legal sequence to a legal sequence (contact and
  covering are kept by any isometry) whose visible grid is the half-turned grid, and every scoring
  rule (largest groups, adjacency, "between two Deserts" left/right or above/below, row and column
  runs, counts) is unchanged by a half turn (``tests/wagons/optimizer/test_oracle.py`` checks this against
  ``score_player`` and ``final_scores``). So the first card is placed unturned only: every sequence
  whose first card is turned has a twin with the same value;
- every other sequence is scored: 16.1 million final towns for 5 cards, ~3 million per second
  (5.3 s against 352-495 s for ``fast=False``; ``bench/wagons/bench_wagons_oracle.py``).

The best town found is replayed through the engine (:func:`solver.wagons.town.place`) and re-scored
with ``score_player`` / ``final_scores``; a disagreement raises ``AssertionError``.
Goal cards whose parameters the compiled scorer does not handle (a hand-edited goals file with
unusual values) fall back to the slow path.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from solver.errors import BadInput
from solver.wagons.cards import check_pile
from solver.wagons.data import WagonsData, load_data
from solver.wagons.optimizer.problem import OBJECTIVES, Incumbent, Problem, check_cards, meets_round1
from solver.wagons.optimizer.walk.board import WALK, board_size, card_arrays, walk
from solver.wagons.optimizer.walk.scorer import goal_tables
from solver.wagons.readings import WagonsReadings
from solver.wagons.scoring import (
    features_plus,
    final_scores,
    frame_features,
    growth_frame,
    margin_of,
    opponent_fixed,
    score_player,
)
from solver.wagons.town import Placement, Town, legal_placements, place, visible_grid

__all__ = ["ExhaustiveResult", "exhaustive_best", "town_key", "Exhaustive"]


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


def exhaustive_best(cards: Sequence[int], scenario_id: str, opponent_pile=(), readings: WagonsReadings = WagonsReadings(),
                    objective: str = "score", merge: bool = True, data: WagonsData | None = None,
                    time_limit: float | None = None, fast: bool = True, round1=None) -> ExhaustiveResult:
    """The best objective over all legal placement sequences of ``cards`` in order.

    ``fast=True``: the compiled depth-first walk (module docstring); ``fast=False``: the engine's
    own ``legal_placements`` and ``score_player``, breadth first (``merge`` applies to it only).
    ``round1 = (m, opponent_territories, behind)`` (Boomtown's best play, rule:W5-boomtown): only sequences whose first
    ``m`` cards show at least (``behind``) or fewer than the opponent's territories count; the engine's path
    takes it (value None when no sequence meets it)."""
    start = time.monotonic()
    data = (data or load_data()).for_readings(readings)  # rule:W11
    ids = check_cards(cards)
    pile = check_pile(opponent_pile, ids)
    data.scenario(scenario_id)
    if objective not in OBJECTIVES:
        raise BadInput(f"objective: expected one of {', '.join(OBJECTIVES)}, got {objective!r}")
    if fast and round1 is None:
        tables = goal_tables(scenario_id, pile, data)
        if tables is not None:
            return _fast_best(ids, scenario_id, pile, readings, objective, data, tables, time_limit, start)
    return _slow_best(ids, scenario_id, pile, readings, objective, merge, data, time_limit, start, round1)


def _slow_best(ids, scenario_id, pile, readings, objective, merge, data, time_limit, start,
               round1=None) -> ExhaustiveResult:
    """The original oracle: breadth first over ``legal_placements``, scored by ``score_player``; with
    ``round1``, the towns of its ``m`` cards that miss the condition are dropped (the merge keeps the territory
    count, which depends on the visible grid alone)."""
    layer = [Town()]
    for placed, cid in enumerate(ids[:-1]):
        if round1 is not None and placed == round1[0]:
            layer = [t for t in layer if meets_round1(t, round1)]
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
            if round1 is not None and not meets_round1(t, round1):
                continue
            if objective == "score":
                v = score_player(t, scenario_id, pile, readings, data, f).total
            else:
                v = margin_of(f, pile, scenario_id, readings, data)
            towns += 1
            if best is None or v > best:
                best, best_town = v, t
        if time_limit is not None and n % 64 == 0 and time.monotonic() - start > time_limit:
            return ExhaustiveResult(None, (), towns, time.monotonic() - start, True)
    return ExhaustiveResult(best, best_town.placements if best_town else (), towns, time.monotonic() - start)



def _fast_best(ids, scenario_id, pile, readings, objective, data, tables, time_limit, start) -> ExhaustiveResult:
    """The compiled walk, one part per placement of the second card (the time limit is checked
    between parts); the winner is replayed through the engine and re-scored by it."""
    score_player(Town((Placement(ids[0], 0, 0, 0),)), scenario_id, pile, readings, data)  # same BadInput as the slow path
    if not WALK.ready_by(math.inf if time_limit is None else start + time_limit):  # compiling counts in the limit
        return ExhaustiveResult(None, (), 0, time.monotonic() - start, True)
    cc, nrot = card_arrays(ids)
    n = len(ids)
    B, O = board_size(n)
    margin = objective == "margin"
    best, best_codes, towns = None, None, 0
    every, every_free = np.zeros(n, np.int64), np.ones(n, np.bool_)  # no card kept anywhere
    pick, parts = 0, 1
    while pick < parts:
        v, t, codes, n_second = walk(cc, nrot, B, O, every, every_free, pick if n > 1 else -1, margin, *tables)
        parts = n_second if n > 1 else 1
        towns += int(t)
        if t and (best is None or v > best):
            best, best_codes = int(v), codes.copy()
        pick += 1
        if time_limit is not None and time.monotonic() - start > time_limit and pick < parts:
            return ExhaustiveResult(None, (), towns, time.monotonic() - start, True)
    town = Town()
    for k, code in enumerate(best_codes):
        pos, r = int(code) >> 1, int(code) & 1
        town = place(town, Placement(ids[k], pos % B - O, pos // B - O, 180 if r else 0))
    if margin:
        best -= opponent_fixed(pile, scenario_id, readings, data)
        check = final_scores(town, pile, scenario_id, readings, data).margin
    else:
        check = score_player(town, scenario_id, pile, readings, data).total
    if check != best:
        raise AssertionError(f"fast oracle: compiled scorer {best} != engine {check} on {town}")
    return ExhaustiveResult(best, town.placements, towns, time.monotonic() - start)



ORACLE_MAX_CARDS_ROUND1 = 4
"""The most cards ``method="oracle"`` takes on a line with Boomtown's round-1 condition: the engine's breadth-first
path it then runs scores about 60-80 thousand towns a second (4 cards: under a second; 5 cards: minutes)."""

ORACLE_MAX_CARDS = 5
"""The most cards ``method="oracle"`` takes: the walk grows about 40x per card (5 cards: 16 million towns,
a few seconds) and checks its time limit once per placement of the second card (under a second apart
at 5 cards, minutes apart at 7)."""


@dataclass(frozen=True)
class Exhaustive:
    """``prove(problem, incumbent)``: the exhaustive walk (no bound, no pruning) within the time limit;
    proven when it finishes; with Boomtown's round-1 condition, the engine's breadth-first path."""

    name: str = "oracle"

    def prove(self, problem: Problem, incumbent: Incumbent) -> bool:
        if len(problem.cards) > ORACLE_MAX_CARDS:
            raise BadInput(f"method oracle: at most {ORACLE_MAX_CARDS} cards (the walk grows about 40x per card), "
                           f"got {len(problem.cards)}; use cpsat")
        left = max(0.0, problem.deadline - time.monotonic())
        res = exhaustive_best(problem.cards, problem.scenario_id, problem.pile, problem.readings, problem.objective,
                              data=problem.data, time_limit=left, round1=problem.round1)
        incumbent.iterations += res.towns
        if res.timed_out:
            return False
        beat = incumbent.to_beat()
        if res.value is not None and (beat is None or res.value > beat):
            incumbent.offer(Town(res.placements), res.value)
        return True
