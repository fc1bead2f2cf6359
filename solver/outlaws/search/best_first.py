"""The search engine of :mod:`solver.outlaws.search.searches`: a position's children (every action and outcome, an action
whose own effects repeat an earlier one's left out, and, when a search asks, the 560 layouts of a sudden death held
back as one entry until wanted) and the weighted best-first search over them. What the searches look for, and
why their answers are proofs, is in :mod:`solver.outlaws.search.searches`.
"""

from __future__ import annotations

import heapq
import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass

from solver.outlaws.actions import Action, legal_actions
from solver.outlaws.apply import unlaid_sudden_death
from solver.outlaws.position import Position
from solver.outlaws.readings import OutlawsReadings
from solver.outlaws.victory import sudden_death_trigger
from solver.stopping import stopped as asked_to_stop

INF = 10 ** 6
"""An estimate meaning "never": such a child is not queued."""


# ------------------------------------------------------------------ expansion


def _outcomes_fast():
    """The engine's outcome enumeration (:func:`~solver.outlaws.apply.resolutions`) without its legality
    re-check (the actions come straight from ``legal_actions``; the re-check costs ~90% of an expansion)."""
    from solver.outlaws import apply as ap

    walk, scripted = ap.resolutions, ap.Scripted  # bound once: performance, see docstring

    def enumerate_outcomes(pos: Position, action: Action, readings: OutlawsReadings, keep=None) -> list[tuple[str, Position]]:
        found = [("; ".join(d.labels) or "certain", result) for d, result in walk(pos, action, readings, scripted, keep)]
        found.sort(key=lambda o: o[0])
        return found

    return enumerate_outcomes


_OUTCOMES = _outcomes_fast()


def successors(pos: Position, readings: OutlawsReadings = OutlawsReadings()):
    """Yield (action, outcome index, condition, next position) for every action and outcome, except the
    outcomes of an action whose own effects (before sudden death and the turn) equal, up to what the players
    know, those of an earlier action: each of them has an outcome of that action with its key (sudden death
    after a fake swap, say, lays the same 560 layouts as after any other fake swap), which is all the
    searches read of them."""
    for item in expansion(pos, readings):
        if isinstance(item, Layouts):
            yield from item.children()
        else:
            yield item


def expansion(pos: Position, readings: OutlawsReadings = OutlawsReadings(), lazy: bool = False):
    """:func:`successors`, and with ``lazy`` an action every new outcome of which ends in sudden death (rule:O11)
    as one :class:`Layouts` instead of its 560 layouts (laid when a search wants them: partial expansion)."""
    first = _FirstEffects(readings if lazy else None)
    for action in legal_actions(pos, readings):
        first.kept = first.refused = 0
        first.unlaid = []
        outs = _OUTCOMES(pos, action, readings, first)
        if first.unlaid and not first.kept:
            yield Layouts(pos, action, readings, tuple(unlaid_sudden_death(mid) for mid in first.unlaid))
            continue
        if first.unlaid or (first.refused and first.kept):  # some paths left out, not all: their numbers shift
            outs = _OUTCOMES(pos, action, readings)
        for n, (cond, nxt) in enumerate(outs):
            yield action, n, cond, nxt


class Layouts:
    """The outcomes of ``action`` in ``pos`` when each of them ends in sudden death (rule:O11), laid only when a
    search wants them. ``bounds``: for each of the action's effects, the position after it with the new tokens not
    yet laid; a win estimate of it is at most that of any of its layouts (unknown tokens may be any)."""

    def __init__(self, pos: Position, action: Action, readings: OutlawsReadings, bounds: tuple):
        self.pos, self.action, self.readings, self.bounds = pos, action, readings, bounds
        self._children: list | None = None

    def children(self) -> list:
        """(action, outcome index, condition, next position) for every layout, as :func:`successors` gives them;
        laid once (the two sides' searches share them)."""
        if self._children is None:
            self._children = [(self.action, n, cond, nxt)
                              for n, (cond, nxt) in enumerate(_OUTCOMES(self.pos, self.action, self.readings))]
        return self._children


class _FirstEffects:
    """Says whether an action's own effects (:func:`~solver.outlaws.apply.act`) are new in this expansion
    (by :func:`position_key`), counting the answers of the current action; with ``readings``, new effects whose
    sudden-death trigger holds are kept aside in ``unlaid`` instead (their layouts are not walked)."""

    def __init__(self, readings: OutlawsReadings | None = None):
        self.seen: set = set()
        self.readings = readings
        self.kept = self.refused = 0
        self.unlaid: list = []

    def __call__(self, mid: Position) -> bool:
        key = position_key(mid)
        if key in self.seen:
            self.refused += 1
            return False
        self.seen.add(key)
        if self.readings is not None and mid.winner is None and sudden_death_trigger(mid, self.readings):
            self.unlaid.append(mid)
            return False
        self.kept += 1
        return True


def position_key(pos: Position) -> tuple:
    """Canonical key: everything but what the players know (which never affects legality or results)."""
    return (pos.to_move, pos.actions_left, tuple(pos.street), tuple(pos.saloon), pos.tokens, pos.reserve,
            tuple(pos.supply), pos.discard, pos.immobilized, pos.front_page, pos.sudden_death, pos.winner)


# ------------------------------------------------------------------ best-first search


@dataclass
class SearchResult:
    found: Position | None
    line: list
    nodes: int
    exhausted: bool  # every reachable position was expanded (nothing cut by the depth bound)
    depth_reached: int
    elapsed: float
    stopped: str = ""  # "", "time", "nodes"
    complete: bool = False  # every position within the depth bound was checked against the goal
    checked: int = 0  # distinct positions generated and checked against the goal


def _line_entry(pos: Position, action: Action, n: int, cond: str) -> dict:
    return {"side": pos.to_move, "action": action.to_json(), "outcome": n, "condition": cond}


class Expansion:
    """The children of one position (:func:`expansion`), kept once generated in full: the two sides' win
    searches from the same start share its expansion (after sudden death it holds every layout of every action,
    or with ``lazy`` one :class:`Layouts` per action, laid once for both)."""

    def __init__(self, pos: Position, lazy: bool = False):
        self.pos, self.lazy, self.children, self.complete = pos, lazy, [], False

    def of(self, pos: Position, readings: OutlawsReadings):
        """The children of ``pos``: from the record when it is this expansion's position and complete."""
        if pos is not self.pos:
            yield from expansion(pos, readings, self.lazy)
        elif self.complete:
            yield from self.children
        else:
            self.children = []
            for child in expansion(pos, readings, self.lazy):
                self.children.append(child)
                yield child
            self.complete = True


@dataclass(frozen=True)
class _Unlaid:
    """A queued :class:`Layouts`: the layouts of one action from ``parent`` (at ``depth``), laid when popped."""

    layouts: Layouts
    parent: Position
    key: tuple
    depth: int


def best_first(start: Position, goal: Callable[[Position], bool], estimate: Callable[[Position], int],
               readings: OutlawsReadings = OutlawsReadings(), max_depth: int = 12, time_limit: float = 10.0,
               max_nodes: int = 20_000, weight: float | None = 2.0, shared: Expansion | None = None,
               clock: Callable[[], float] | None = None) -> SearchResult:
    """Weighted best-first search from ``start`` for a position satisfying ``goal``.

    Priority: depth + ``weight`` * estimate, or (``weight=None``) the estimate alone (greedy); ties
    go to the deeper position. Children with ``estimate == INF`` are pruned (they can never reach the goal). ``complete``: every
    position within ``max_depth`` actions was checked (then "not found" is a proof within the bound);
    ``exhausted``: moreover nothing lay beyond the bound (a proof without bound). ``shared``: the start's
    expansion, kept for another search from the same start; when it is ``lazy``, an action that ends in sudden
    death is queued once, at the estimate of its layouts' bound (at most each layout's when ``estimate`` reads a
    hidden token as any token, as :func:`estimate_win` does), and its 560 layouts are laid only when it comes up.
    ``clock``: the time limit's clock (None: wall seconds, ``time.perf_counter``; a verdict's search counts CPU
    seconds, ``time.process_time``).
    """
    return _BestFirst(start, goal, estimate, readings, max_depth, time_limit, max_nodes, weight,
                      shared or Expansion(start), clock or time.perf_counter).run()


class _BestFirst:
    """One :func:`best_first` search: its queue, the shallowest depth of each position seen and the way back."""

    def __init__(self, start, goal, estimate, readings, max_depth, time_limit, max_nodes, weight, shared, clock):
        self.start, self.goal, self.estimate, self.readings = start, goal, estimate, readings
        self.max_depth, self.time_limit, self.max_nodes, self.shared, self.clock = (max_depth, time_limit, max_nodes,
                                                                                  shared, clock)
        self.prio = (lambda d, h: h) if weight is None else (lambda d, h: d + weight * h)  # noqa: E731
        self.t0 = clock()
        self.tie = itertools.count()
        self.parents: dict[tuple, tuple] = {position_key(start): (None, None)}
        self.best: dict[tuple, int] = {position_key(start): 0}  # shallowest depth seen (a shallower path re-opens)
        # queued: (priority, -depth, 1 for an action's unlaid layouts, order, item); ties: deeper first, then a
        # position before layouts (laid, their best is often as good as their bound)
        self.heap = [(self.prio(0, estimate(start)), 0, 0, next(self.tie), start)]
        self.nodes, self.cut, self.deepest, self.stopped = 0, False, 0, ""

    def _out_of_time(self) -> bool:
        if self.clock() - self.t0 > self.time_limit or asked_to_stop():  # (the page's Stop: solver.stopping)
            self.stopped = "time"
        return bool(self.stopped)

    def _line_to(self, key) -> list:
        out = []
        while True:
            parent, entry = self.parents[key]
            if parent is None:
                break
            out.append(_line_entry(*entry))
            key = parent
        return list(reversed(out))

    def _result(self, found: Position | None = None, key=None, depth: int = 0) -> SearchResult:
        elapsed = round(self.clock() - self.t0, 4)
        if found is not None:
            return SearchResult(found, self._line_to(key), self.nodes, False, depth, elapsed, checked=len(self.best))
        complete = not self.heap and not self.stopped
        return SearchResult(None, [], self.nodes, complete and not self.cut, self.deepest, elapsed, self.stopped,
                            complete, len(self.best))

    def _next(self):
        """The next position to expand and its children, or None when the search ends here."""
        _, neg_depth, _, _, item = heapq.heappop(self.heap)
        if isinstance(item, _Unlaid):  # an action's sudden-death layouts, laid now (not a node of its own)
            if self.best.get(item.key, item.depth) < item.depth:
                return None  # its position was reached again by a shorter path since
            return item.parent, item.key, item.depth, item.layouts.children()
        depth, key = -neg_depth, position_key(item)
        if self.best.get(key, depth) < depth:
            return None  # reached again by a shorter path since it was queued
        if depth >= self.max_depth:
            self.cut = True
            return None
        self.nodes += 1
        return item, key, depth, self.shared.of(item, self.readings)

    def run(self) -> SearchResult:
        if self.goal(self.start):
            return SearchResult(self.start, [], 0, False, 0, 0.0, complete=True)
        while self.heap:
            if self._out_of_time():
                break
            if self.nodes >= self.max_nodes:
                self.stopped = "nodes"
                break
            step = self._next()
            if step is None:
                continue
            pos, key, depth, children = step
            for child in children:
                if self._out_of_time():  # an expansion can be large (560 layouts)
                    break
                if isinstance(child, Layouts):
                    h = min(self.estimate(b) for b in child.bounds)
                    if h < INF:
                        item = _Unlaid(child, pos, key, depth)
                        heapq.heappush(self.heap, (self.prio(depth + 1, h), -(depth + 1), 1, next(self.tie), item))
                    continue
                found = self._offer(pos, key, depth, *child)
                if found is not None:
                    return found
            if self.stopped:
                break
        return self._result()

    def _offer(self, pos: Position, key: tuple, depth: int, action: Action, n: int, cond: str, nxt: Position):
        """Queue one child (unless seen as shallow); the search's result when it is the goal."""
        nkey = position_key(nxt)
        if self.best.get(nkey, INF) <= depth + 1:
            return None
        self.best[nkey] = depth + 1
        self.parents[nkey] = (key, (pos, action, n, cond))  # its line entry is written if it is on the line
        if self.goal(nxt):
            return self._result(nxt, nkey, depth + 1)
        h = self.estimate(nxt)
        if h < INF:
            self.deepest = max(self.deepest, depth + 1)
            heapq.heappush(self.heap, (self.prio(depth + 1, h), -(depth + 1), 0, next(self.tie), nxt))
        return None
