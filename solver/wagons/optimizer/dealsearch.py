"""The search over a deal's draft lines that best play and ``can-win`` share (rule:W-opt-bestplay, rule:W-opt-canwin).

A deal's draft lines (:mod:`.lines`) each fix the player's cards in order and the opponent's pile, so
each is a best-layout problem with the margin as objective. A :class:`DealSearch` keeps, per line, a
proven upper bound on its best margin (first :func:`~.bounds.margin_bound`, from the cards held alone)
and the best town found (engine-valued). The work, cheapest first:

1. bounds: every line whose bound does not beat the target (0 for a win, the best margin so far for
   best play) is settled without a layout;
2. heuristics on the lines still open, most promising first: the greedy town (milliseconds), then
   the iterated local search (:func:`~.local.improve`) on the best of them, to reach a good target early;
3. proofs (:func:`~.layout.best_layout` with ``floor``: "a town beating the target, or a proof that
   none exists", with the layout strategy ``method``), in passes of growing time per line (iterative
   deepening), the most promising line first. With ``schedule="resume"`` (the default) each line's proof
   runs in a worker process that the passes pause and resume (:mod:`.proofworkers`): a later pass
   continues the proof where the last one stopped, one worker computing at a time, and at most
   :data:`PAUSED_CAP` kept paused (lines beyond them restart); every worker is killed when the search
   ends, however it ends. Every town a worker sends is rebuilt and valued by the engine here. A proof
   paused at an old floor (best play's floor rises) stays valid: it proves nothing above that floor or
   finds a town. ``schedule="restart"``: a new in-process solve every pass (the model built again).

Sharing: lines with the same cards and the same pile (Boomtown's two round-1 cases of one draft line)
share one solve without the round-1 condition: its town settles every case whose condition it
meets, and its proven optimum bounds them all (the condition only removes towns). The proven facts
per line (upper bound, best town) are cached for the process, so ``can-win`` and best play on the
same deal (the atlas runs both) do no proof twice. Results are facts, not solver state. Within one search a
later proof pass on a line solves a copy of the CP-SAT model its first pass built
(:func:`~.cpsat.reusing_models`, a store owned by the search: models, never solvers).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from solver.errors import BadInput
from solver.execution.progress import OnProgress, Progress
from solver.stopping import capped, stopped
from solver.wagons.data import WagonsData
from solver.wagons.game import GameState, scores
from solver.wagons.optimizer.bounds import margin_bound
from solver.wagons.optimizer.cpsat.proof import reusing_models
from solver.wagons.optimizer.layout import METHODS, STRATEGIES, layout_with
from solver.wagons.optimizer.lines import Line, draft_lines, play_out
from solver.wagons.optimizer.problem import (
    EncodingMismatch,
    card_quads,
    greedy_layout,
    meets_round1,
    normal_xyr,
    objective_value,
    town_of,
)
from solver.wagons.optimizer.proofworkers import Message, NotReady, ProofWorker, WorkerLost, available, warm
from solver.wagons.optimizer.walk.local import improve
from solver.wagons.town import Town

__all__ = ["LineFindings", "DealSearch", "clear_cache", "check_method_fits", "DEFAULT_METHOD", "DEFAULT_SCHEDULE",
           "SCHEDULES"]

DEFAULT_METHOD = "cpsat"
"""The layout strategy the proofs use unless told (a name of :data:`~.layout.METHODS`, the project's default)."""

LOCAL_PATIENCE = 40
"""Kicks without improvement before the local search on one line stops (about 0.3 s on 8 cards)."""
FIRST_SLICE = 1.5
"""Seconds per line of the first proof pass (:meth:`DealSearch.settle`)."""
GROWTH = 4
"""Each later pass gives a line still open this many times the previous pass's time. Measured on the 30 lines of
Through the Desert seed 2 above 0 (their proof times with no limit: 0.7-7 s, three over 15 s): a first slice of
1.5 s growing 4x wastes 18 s on restarts over the 27 provable lines, 1 s growing 2x 43 s (a CP-SAT solve restarts
its search from nothing; its model is a copy of the one the line's first pass built, :func:`~.cpsat.reusing_models`)."""

SCHEDULES = ("resume", "restart")
"""How a line's proof continues in a later pass: its paused worker resumed (:mod:`.proofworkers`), or a new
in-process solve (the model built again, the search lost)."""
DEFAULT_SCHEDULE = "resume"
"""Measured the better (``docs/history/wagons-canwin.md``); where workers cannot be paused (no Linux pidfds) the
search restarts."""
PAUSED_CAP = 12
"""At most this many line proofs are kept paused at once (memory); lines beyond them restart each pass."""

_FACTS: dict[tuple, tuple[WagonsData, int, int | None, Town | None]] = {}
"""(scenario, cards, sorted pile, round1, rules, data id) -> (the data, proven bound, best value, its town); a hit
counts only for the very same data object (an id can be reused once a user's goals file is gone)."""


def check_method_fits(method: str, lines) -> None:
    """Refuse, before any search or progress line, a layout strategy that cannot take the deal's lines: the
    exhaustive oracle takes at most :data:`~.oracle.ORACLE_MAX_CARDS` cards, and on Boomtown's lines with the
    round-1 condition (rule:W5-boomtown) at most :data:`~.oracle.ORACLE_MAX_CARDS_ROUND1` (BadInput, one line)."""
    from solver.wagons.optimizer.oracle import ORACLE_MAX_CARDS, ORACLE_MAX_CARDS_ROUND1

    if method != "oracle":
        return
    longest = max((len(li.cards) for li in lines), default=0)
    if longest > ORACLE_MAX_CARDS:
        raise BadInput(f"method oracle: this deal's draft lines hold up to {longest} cards and the oracle takes at "
                       f"most {ORACLE_MAX_CARDS} (the walk grows about 40x per card); use cpsat")
    split = max((len(li.cards) for li in lines if li.round1 is not None), default=0)
    if split > ORACLE_MAX_CARDS_ROUND1:
        raise BadInput(f"method oracle: this Boomtown deal's lines with the round-1 condition hold up to {split} "
                       f"cards and the oracle's walk under it takes at most {ORACLE_MAX_CARDS_ROUND1} (minutes per "
                       f"line at 5); use cpsat")


def clear_cache() -> None:
    """Forget the proven facts per line (benchmarks that time a cold start)."""
    _FACTS.clear()


@dataclass
class LineFindings:
    """What is known of one line: a proven upper bound on its margin and the best town found."""

    line: Line
    bound: int
    value: int | None = None
    town: Town | None = None

    def offer(self, town: Town, value: int) -> None:
        if meets_round1(town, self.line.round1) and (self.value is None or value > self.value):
            self.town, self.value = town, value

    def tighten(self, bound: int) -> None:
        self.bound = min(self.bound, bound)

    def open_above(self, target: int) -> bool:
        """Could this line still give a margin above ``target`` that is not found yet?"""
        return self.bound > target and (self.value is None or self.value <= target)


class DealSearch:
    """The lines of one deal with their bounds and towns; see the module docstring."""

    def __init__(self, state: GameState, data: WagonsData, start: float, time_limit: float,
                 progress: OnProgress | None = None, max_lines: int = 20000, method: str = DEFAULT_METHOD,
                 schedule: str = DEFAULT_SCHEDULE, prover=None, line_bound: Callable | None = None):
        """``prover``: the layout strategy of the proofs in place of ``method``'s (a benchmark's earlier method,
        reported as ``method``); ``line_bound(cards, scenario, pile, readings, data)``: the bound of a line from its
        cards (:func:`~.bounds.margin_bound` by default; a benchmark's earlier bound). ``progress`` gets the best
        margin found (None: no town yet) and the proven upper bound on every line (None: not all enumerated)."""
        if method not in METHODS:
            raise BadInput(f"method: '{method}' is not one of {', '.join(METHODS)}")
        if schedule not in SCHEDULES:
            raise BadInput(f"schedule: '{schedule}' is not one of {', '.join(SCHEDULES)}")
        self.schedule = schedule if schedule == "restart" or available() else "restart"  # no pidfds: restart
        self._workers: dict[tuple, ProofWorker] = {}
        self._finished: set[tuple] = set()
        self._lost: set[tuple] = set()
        self.state, self.data, self.start, self.time_limit = state, data, start, time_limit
        self.method = method
        self.prover = prover if prover is not None else STRATEGIES[method]
        self.progress = progress
        self.readings, self.scenario = state.readings, state.scenario
        lines = draft_lines(state, data, max_lines, deadline=start + time_limit / 2)
        check_method_fits(method, lines)
        self.complete = getattr(lines, "complete", True)
        bound = line_bound or margin_bound
        self.items = [self._known(LineFindings(li, bound(li.cards, self.scenario, li.pile, self.readings, data)))
                      for li in lines]
        self.solves = 0
        self._last_report = 0.0
        self._models: dict = {}  # CP-SAT models built by this search's proofs, reused by its later passes

    # ---------------------------------------------------------------- facts
    def _key(self, line: Line, round1) -> tuple:
        return (self.scenario, line.cards, tuple(sorted(line.pile)), round1, self.readings, id(self.data))

    def _known(self, it: LineFindings) -> LineFindings:
        hit = _FACTS.get(self._key(it.line, it.line.round1))
        if hit is not None and hit[0] is self.data:
            it.tighten(hit[1])
            if hit[3] is not None:
                it.offer(hit[3], hit[2])
        return it

    def _remember(self, it: LineFindings) -> None:
        if len(_FACTS) > 100_000:
            _FACTS.clear()
        _FACTS[self._key(it.line, it.line.round1)] = (self.data, it.bound, it.value, it.town)

    # ---------------------------------------------------------------- reading
    def elapsed(self) -> float:
        return time.monotonic() - self.start

    def remaining(self) -> float:
        """Seconds left: 0 or less past the time limit, or once the run was asked to stop (:mod:`.stopping`)."""
        return capped(self.start + self.time_limit) - time.monotonic()

    def best(self) -> LineFindings | None:
        found = [it for it in self.items if it.value is not None]
        return max(found, key=lambda it: it.value) if found else None

    def best_value(self) -> int | None:
        b = self.best()
        return None if b is None else b.value

    def upper(self) -> int | None:
        """A proven upper bound on the deal's best margin (None when the lines were not all enumerated)."""
        return max(it.bound for it in self.items) if self.complete else None

    def open_lines(self, target: int) -> list[LineFindings]:
        """The lines that may still beat ``target``, the most promising first."""
        out = [it for it in self.items if it.open_above(target)]
        return sorted(out, key=lambda it: (it.value is None, -(it.value or 0), -it.bound))

    def report(self, force: bool = False) -> None:
        now = time.monotonic()
        if self.progress is not None and (force or now - self._last_report >= 0.5):
            self._last_report = now
            self.progress(Progress(unit="margin", best=self.best_value(), bound=self.upper(), elapsed=self.elapsed()))

    # ---------------------------------------------------------------- heuristics
    def greedy(self, target: Callable[[], int], stop: Callable[[], bool]) -> None:
        """The greedy town of every line that may beat the target (the highest bound first); past the time
        limit only until some line has a town (an answer is a replayed line, never nothing)."""
        for it in sorted(self.items, key=lambda it: -it.bound):
            if stop() or (self.remaining() <= 0 and self.best() is not None):
                return
            if it.value is not None or not it.bound > target():
                continue
            town, v = greedy_layout(it.line.cards, self.scenario, it.line.pile, self.readings, "margin", self.data)
            it.offer(town, v)
            self.report()

    def local(self, target: Callable[[], int], stop: Callable[[], bool], budget: float) -> None:
        """The iterated local search from the greedy town of the open lines, the best first, for ``budget`` s."""
        until = time.monotonic() + max(0.0, min(budget, self.remaining()))
        if self.schedule == "resume" and self.open_lines(target()):
            warm()  # the proof workers' zygote imports the optimizer while the local search runs
        for it in self.open_lines(target()):
            if stop() or time.monotonic() > capped(until):
                return
            if it.town is None or len(it.line.cards) < 2:
                continue
            quads = card_quads(it.line.cards)
            found = improve(it.line.cards, self.scenario, it.line.pile, normal_xyr(it.town, quads), "margin",
                            self.data.for_readings(self.readings), until, patience=LOCAL_PATIENCE)
            if found is not None:
                town = town_of(it.line.cards, found[1])
                it.offer(town, objective_value(town, self.scenario, it.line.pile, self.readings, "margin",
                                               self.data.for_readings(self.readings)))
                self.report()

    # ---------------------------------------------------------------- proofs
    def _solve(self, line: Line, round1, floor: int, budget: float):
        self.solves += 1
        with reusing_models(self._models):  # a later pass on this line solves a copy of its model
            return layout_with(self.prover, self.method, line.cards, self.scenario, line.pile, self.readings,
                               time_limit=max(0.05, budget), objective="margin", data=self.data, seed_greedy=False,
                               floor=floor, round1=round1)

    @staticmethod
    def _record(it: LineFindings, town: Town | None, value: int | None, proven: bool, bound: int | None,
                floor: int) -> None:
        """What a solve above ``floor`` showed for ``it``: its best town and value, whether that is proven
        best (no town: nothing beats ``floor``) and its bound (also when solved without the line's round-1
        condition: that condition only removes towns, so every bound holds, and a town counts when it meets it)."""
        if town is not None:
            it.offer(town, value)
        if proven:
            it.tighten(value if town is not None else floor)
        if bound is not None:
            it.tighten(max(bound, floor))

    def _record_result(self, it: LineFindings, r, floor: int) -> None:
        """:meth:`_record` of an in-process solve's :class:`~.problem.LayoutResult`, remembered for the process."""
        self._record(it, Town(r.placements) if r.placements else None, r.value, r.proven_optimal, r.bound, floor)
        self._remember(it)

    def _twins(self, it: LineFindings) -> list[LineFindings]:
        """``it`` and the lines with its cards and pile in Boomtown's other round-1 case."""
        if it.line.round1 is None:
            return [it]
        return [o for o in self.items if o.line.round1 is not None and o.line.cards == it.line.cards
                and sorted(o.line.pile) == sorted(it.line.pile)]

    def prove(self, it: LineFindings, floor: int, budget: float) -> None:
        """One proof attempt for ``it`` above ``floor`` within ``budget`` s, shared with its round-1 twins."""
        twins = self._twins(it)
        if len(twins) > 1:
            budget /= 2
            r = self._solve(it.line, None, floor, budget)
            for o in twins:
                self._record_result(o, r, floor)
            if not it.open_above(floor):
                return
        self._record_result(it, self._solve(it.line, it.line.round1, floor, budget), floor)

    def settle(self, target: Callable[[], int], stop: Callable[[], bool]) -> None:
        """Proof passes over the open lines until none is open, ``stop()``, or the time limit: iterative
        deepening, each pass giving every line still open :data:`GROWTH` times the previous pass's time (at
        least an even share of the time left), so no hard line holds up the others. The target is read
        again before every solve: a better town found on one line raises the floor of the next ones.
        With ``schedule="resume"`` a line's slice continues its paused proof (:meth:`advance`), with
        ``"restart"`` it is a new solve (:meth:`prove`); every worker is ended however this returns."""
        try:
            self._passes(target, stop)
        finally:
            self.close()

    def _passes(self, target: Callable[[], int], stop: Callable[[], bool]) -> None:
        budget = FIRST_SLICE
        while True:
            todo = self.open_lines(target())
            self._prune(target())
            if not todo:
                return
            for n, it in enumerate(todo):
                left = self.remaining()
                if stop() or left <= 0.05:
                    return
                if not it.open_above(target()):
                    continue
                share = min(left, max(budget, left / (len(todo) - n)))
                if self.schedule == "resume":
                    self.advance(it, target(), share, stop)
                else:
                    self.prove(it, target(), share)
                self.report()
            budget *= GROWTH

    # ---------------------------------------------------------------- proofs paused and resumed
    def advance(self, it: LineFindings, floor: int, budget: float, stop: Callable[[], bool]) -> None:
        """``budget`` s more for the proof of ``it`` in its worker (:mod:`.proofworkers`), started above
        ``floor`` if it has none (Boomtown's round-1 twins first share one without the condition, as in
        :meth:`prove`); past :data:`PAUSED_CAP` workers, or when its worker was lost, a restart (:meth:`prove`)."""
        twins = self._twins(it)
        shared = len(twins) > 1 and self._key(it.line, None) not in self._finished
        round1 = None if shared else it.line.round1
        key = self._key(it.line, round1)
        worker = self._workers.get(key)
        if worker is None:
            if len(self._workers) >= PAUSED_CAP or key in self._finished or key in self._lost:
                self.prove(it, floor, budget)
                return
            try:
                worker = self._start(it.line, round1, floor, key, twins if shared else [it])
            except WorkerLost as exc:  # no worker now (the zygote starting, or gone): this pass restarts
                if not isinstance(exc, NotReady):
                    self._lost.add(key)
                self.prove(it, floor, budget)
                return
        self._slice(worker, key, budget, stop)

    def _start(self, line: Line, round1, floor: int, key: tuple, lines: list[LineFindings]) -> ProofWorker:
        """A worker proving ``line`` above ``floor`` until the deal's deadline (its clock runs while it is stopped)."""
        job = dict(strategy=self.prover, method=self.method, cards=line.cards, scenario_id=self.scenario,
                   opponent_pile=line.pile, readings=self.readings, time_limit=self.remaining() + 1.0, objective="margin",
                   data=self.data, seed_greedy=False, floor=floor, round1=round1)
        worker = ProofWorker(job, wait=0.0)
        self.solves += 1
        worker.lines = lines
        self._workers[key] = worker
        return worker

    def _slice(self, worker: ProofWorker, key: tuple, budget: float, stop: Callable[[], bool]) -> None:
        """Run ``worker`` for ``budget`` s, taking every town it sends; ends early on its result or ``stop()``."""
        until = time.monotonic() + budget
        while True:
            try:
                msg = worker.run(until, interrupted=stopped)
            except WorkerLost:
                self._lost.add(key)
                self._drop(key)
                return
            if msg is None:
                return
            self._take(worker.lines, msg, worker.floor)
            self.report()
            if msg.kind == "done":
                self._finished.add(key)
                self._drop(key)
                return
            if stop():
                return

    def _take(self, lines: list[LineFindings], msg: Message, floor: int) -> None:
        """A worker's town rebuilt from its (x, y, rot) list and valued by the engine (it must be what the
        worker claimed), offered to its lines; its result's proof tightens their bounds (:meth:`_record`)."""
        line = lines[0].line
        town = town_of(line.cards, msg.xyr) if msg.xyr is not None else None
        value = msg.value
        if town is not None:
            value = objective_value(town, self.scenario, line.pile, self.readings, "margin", self.data.for_readings(self.readings))
            if value != msg.value:
                raise EncodingMismatch(f"proof worker: the engine values its town {value}, it claimed {msg.value}")
        done = msg.kind == "done"
        for it in lines:
            self._record(it, town, value, done and msg.proven, msg.bound if done else None, floor)
            self._remember(it)

    def _prune(self, target: int) -> None:
        """End the workers whose lines are all settled (their proofs are no longer needed)."""
        for key, worker in list(self._workers.items()):
            if not any(it.open_above(target) for it in worker.lines):
                self._drop(key)

    def _drop(self, key: tuple) -> None:
        self._workers.pop(key).kill()

    def close(self) -> None:
        """End every worker of this search (paused or running) and reap it."""
        while self._workers:
            self._drop(next(iter(self._workers)))

    # ---------------------------------------------------------------- the line played out
    def replay(self, it: LineFindings) -> GameState:
        """The line with its town played through the engine; its margin must be the recorded one."""
        final_state = play_out(self.state, it.line, it.town)
        margin = scores(final_state).margin
        if margin != it.value:
            raise AssertionError(f"deal search: replay gives margin {margin}, the search recorded {it.value}")
        return final_state
