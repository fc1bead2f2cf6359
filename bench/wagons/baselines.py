"""The earlier Lone Cowboy methods the benches compare against, kept here, not in the product (issue 31: the
product keeps only what it uses). Import it as ``bench.wagons.baselines`` (the repository root on the path): a
deal search's proof workers unpickle these provers by that name.

- :func:`full_triangles`: the CP-SAT offset clauses as built before issue 20's encoding round, every contradiction
  clause three times; :func:`unique_triangles`: the same clause set once each. The product's build is
  :func:`solver.wagons.optimizer.cpsat.encode.add_triangles`; pass one of these as ``CpSatProof(triangles=...)``.
- :class:`FreshModels`: the CP-SAT prover without model reuse across a deal search's proof passes (every pass
  builds its model), the method before that round.
- :func:`best_play_each_line`: best play as before the deal search: a greedy town per draft line, then one proof
  per line above the best so far, with no bound and no sharing (the method before issue 20).
- :func:`counts_only_bound`: the card-set bound from the symbol counts alone (before the layout-aware Badlands
  bound of issue 20's second round).
"""

from __future__ import annotations

import functools
import itertools
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from solver.errors import BadInput
from solver.execution.progress import OnProgress, Progress
from solver.stopping import capped
from solver.wagons.data import WagonsData, load_data
from solver.wagons.game import scores
from solver.wagons.optimizer.bestplay import BestPlay
from solver.wagons.optimizer.bounds import margin_bound
from solver.wagons.optimizer.cpsat.encode import triangle_clauses
from solver.wagons.optimizer.cpsat.proof import CpSatProof
from solver.wagons.optimizer.dealsearch import DEFAULT_METHOD, check_method_fits
from solver.wagons.optimizer.layout import best_layout
from solver.wagons.optimizer.lines import deal_state, draft_lines, entry_action, greedy_margin, play_out
from solver.wagons.optimizer.problem import greedy_layout, meets_round1
from solver.wagons.readings import WagonsReadings
from solver.wagons.town import Town

_OFFSETS = range(-2, 3)
_APART = [(a, b, c) for a in _OFFSETS for b in _OFFSETS for c in _OFFSETS if c != a + b]


# ---------------------------------------------------------------- the triangle clauses before the encoding round

def full_triangles(m, n, axis, town) -> None:
    """For each pair of three cards playing the derived part and every three offsets, the clause "two offsets
    imply the third's literal, or its negation": each contradiction clause stated three times (up to 10 cards)."""
    if n > 10:
        return

    def lit(name, i, j, d):
        return axis.get((name, i, j, d)) if i < j else axis.get((name, j, i, -d))

    for i, j, k in itertools.combinations(range(n), 3):
        town.tick()
        for name in "xy":
            for p, q, r in (((i, j), (j, k), (i, k)), ((j, i), (i, k), (j, k)), ((i, k), (k, j), (i, j))):
                for d1 in _OFFSETS:
                    for d2 in _OFFSETS:
                        l1, l2 = lit(name, *p, d1), lit(name, *q, d2)
                        for d3 in _OFFSETS:
                            l3 = lit(name, *r, d3)
                            m.add_bool_or([~l1, ~l2, l3 if d3 == d1 + d2 else ~l3])


def unique_triangles(m, n, axis, town) -> None:
    """:func:`full_triangles`' clause set, each clause once: the positive clauses of every agreeing triple and
    every contradiction clause (no at-most-one)."""
    if n > 10:
        return
    triangle_clauses(m, n, axis, town, _APART)


@dataclass(frozen=True)
class FreshModels(CpSatProof):
    """The CP-SAT prover building every proof pass's model afresh (no reuse inside ``reusing_models``)."""

    def model(self, problem):
        return self.build(problem)


def encoding_round_prover() -> CpSatProof:
    """The prover before issue 20's encoding round: every triangle clause three times, every model built afresh."""
    return FreshModels("search", triangles=full_triangles)


def counts_only_bound() -> Callable:
    """The deal search's card-set bound before the layout-aware Badlands bound (``layouts=False``)."""
    return functools.partial(margin_bound, layouts=False)


# ---------------------------------------------------------------- best play, one proof per line

def best_play_each_line(scenario_id: str, seed: int | None = None, circle: Sequence[int] | None = None,
                        deck: Sequence[int] | None = None, readings: WagonsReadings = WagonsReadings(), time_limit: float = 60.0,
                        progress: OnProgress | None = None, data: WagonsData | None = None, max_lines: int = 20000,
                        method: str = DEFAULT_METHOD) -> BestPlay:
    """The earlier method: a greedy town per line, then one proof per line above the best so far, with no bound
    and no sharing (what ``best_play(search="each-line")`` ran)."""
    start = time.monotonic()
    data = data or load_data()
    if isinstance(time_limit, bool) or not isinstance(time_limit, (int, float)) or not time_limit > 0:
        raise BadInput(f"time limit: expected a positive number of seconds, got {time_limit!r}")
    state = deal_state(scenario_id, seed, circle, deck, readings, data)
    lines = draft_lines(state, data, max_lines, deadline=start + time_limit / 2)
    check_method_fits(method, lines)
    elapsed = lambda: time.monotonic() - start
    lows = _greedy_lows(lines, scenario_id, readings, data, elapsed, time_limit)
    order = sorted(range(len(lines)), key=lambda i: (lows[i][0] is None, -(lows[i][0] or 0)))
    best, best_line, best_town = None, None, None
    for i in order:
        if lows[i][0] is not None and (best is None or lows[i][0] > best):
            best, best_line, best_town = lows[i][0], lines[i], lows[i][1]
    if progress:
        progress(Progress(unit="margin", best=best, elapsed=elapsed()))
    settled = solves = 0
    for pos, i in enumerate(order):
        remaining = capped(start + time_limit) - time.monotonic()
        if remaining <= 0.05:
            break
        line = lines[i]
        share = max(remaining / (len(order) - pos), min(remaining, 5.0))  # the most promising lines first
        solves += 1
        r = best_layout(line.cards, scenario_id, line.pile, readings, time_limit=share, objective="margin",
                        method=method, data=data, seed_greedy=False, floor=best, round1=line.round1)
        if r.placements:
            best, best_line, best_town = r.value, line, Town(r.placements)
            if progress:
                progress(Progress(unit="margin", best=best, elapsed=elapsed()))
        settled += r.proven_optimal
    return _each_line_result(state, lines, best, best_line, best_town, settled, solves, elapsed(), progress)


def _greedy_lows(lines, scenario_id: str, readings: WagonsReadings, data: WagonsData, elapsed, time_limit: float) -> list:
    """(greedy margin, town) per line within half the time (the rest stay unbounded: (None, None))."""
    lows = []
    for line in lines:
        if lows and any(v is not None for v, _ in lows) and elapsed() > time_limit / 2:
            lows.append((None, None))
            continue
        town, v = greedy_layout(line.cards, scenario_id, line.pile, readings, "margin", data)
        lows.append((v, town) if meets_round1(town, line.round1) else (None, None))
    return lows


def _each_line_result(state, lines, best, best_line, best_town, settled: int, solves: int, elapsed: float,
                      progress: OnProgress | None) -> BestPlay:
    proven = settled == len(lines) and getattr(lines, "complete", True)
    if best_line is None:
        raise BadInput("no line of play found within the time limit; allow more time")
    final_state = play_out(state, best_line, best_town)
    final = scores(final_state)
    if final.margin != best:
        raise AssertionError(f"best play: replay gives margin {final.margin}, the search recorded {best}")
    actions = tuple(entry_action(e) for e in final_state.log if e.who == "player")
    if progress:
        progress(Progress(unit="margin", best=best, bound=best if proven else None, elapsed=elapsed))
    return BestPlay(best, proven, best_line.drafts, actions, final.to_dict(), len(lines), settled, elapsed,
                    greedy_margin(state), tuple(e.to_dict() for e in final_state.log),
                    bound=best if proven else None, solves=solves)
