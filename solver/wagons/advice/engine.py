"""What if? The expected result of every choice at a player's decision (rule:W-advice).

:func:`advise` takes a state where the player is to move (a draft, or a placement of the card in hand), turns it
into what the player knows (:func:`~.information.information_state`: the unseen cards stay unknown), and plays
each legal action out to the end of the game on orders of the unseen cards (:mod:`.orders`), the player's later
decisions made by a named continuation policy (:mod:`.rollout`), the opponent by its rules. Each action gets its
expected final margin and win chance over those orders with a 95% interval (:mod:`.stats`), exact when every
order was played.

Racing (successive halving on common random numbers): every action is played on the first few orders (2 when
there are many actions, as for a placement, else 4); then the better half (at least :data:`MIN_KEEP`; minus any
action whose paired difference from the leader is surely negative) is played on twice as many, and so on until
the leaders have all ``samples`` orders. An action dropped early keeps its figures with its own (smaller) sample
count and wider interval. The list is ordered best first: the actions played on the most orders first (the
others were dropped as worse), each group by expected margin. ``keep`` actions are never dropped (the review
asks for the player's own choice at full strength).

Then the close calls (:mod:`.choice`): an action shown above the leader, or one not told apart from it with its
figure inside the leader's interval, is played on more orders (doubling, at least :data:`~.stats.MIN_ORDERS`) up
to the leader's; when the leaders still cannot be told apart on all ``samples`` orders, they are played on twice
as many, and so on up to :data:`EXTEND` times ``samples``, while the paired differences say that about that many
would separate them. The advised action (:func:`~.choice.advised_index`) is listed first, then the others as above,
each with how it stands against it (:class:`~.choice.Standing`); a choice shown above the advised one (a run cut
short) is within its interval, and :attr:`~.result.Advice.note` says so.

Time: the search stops at ``time_limit`` (wall seconds) or when the run's :class:`~solver.stopping.StopSignal`
is set, and answers with what it has, ``complete`` False. Once every card to come is known, the deal search's
proven bound is given beside the estimates (:mod:`.bound`).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from solver.errors import BadInput
from solver.execution.progress import OnProgress, Progress
from solver.io.numbers import seconds
from solver.stopping import capped
from solver.wagons.advice.choice import advised_index, near, overlap_note, separated, standing
from solver.wagons.advice.information import information_state
from solver.wagons.advice.orders import deal_orders, order_count, sampled_orders
from solver.wagons.advice.result import ActionAdvice, Advice, action_advice, action_words, card_and_skipped
from solver.wagons.advice.rollout import CONTINUATIONS, Outcome, Rollouts, continuation
from solver.wagons.advice.stats import MIN_ORDERS, orders_to_separate, paired_upper
from solver.wagons.game import Action, GameState, apply, legal_actions, unseen_cards

__all__ = ["advise", "DEFAULT_SAMPLES", "DEFAULT_POLICY", "DEFAULT_TIME_LIMIT", "MIN_KEEP", "MAX_SAMPLES", "EXTEND"]

DEFAULT_SAMPLES = 32
"""Deal orders the leading actions are played on by default (bench/wagons/bench_wagons_advice.py: within 10 s per decision)."""
DEFAULT_POLICY = CONTINUATIONS[0]
DEFAULT_TIME_LIMIT = 60.0
"""Wall seconds by default (the default samples take a few seconds; the limit is the safety net)."""
MAX_SAMPLES = 5040
"""Most deal orders asked for (every order of 7 unseen cards, the most a decision has)."""
MIN_KEEP = 3
"""Actions kept at each round of the race (the leaders whose figures matter most)."""
EXTEND = 4
"""Close calls are played on up to this many times ``samples`` orders (a sampled decision; an exact one has all)."""
MANY = 16
"""More actions than this (placements) start on 2 orders each, fewer (drafts) on 4."""

@dataclass
class _Race:
    """The state of one decision's race: the positions after each action, and each one's outcomes so far."""

    roll: Rollouts
    starts: list[GameState]
    orders: list[tuple[int, ...]]
    deadline: float
    results: list[list[Outcome]] = field(default_factory=list)
    planned: int = 1
    stopped: bool = False
    unseen: tuple[int, ...] = ()
    seed: int = 0
    every: bool = False

    def rows(self, info: GameState, actions: Sequence[Action]) -> list[ActionAdvice]:
        """Each action's figures so far (exact: played on every order of an exact list)."""
        return [action_advice(info, a, self.results[i], self.every and len(self.results[i]) == len(self.orders))
                for i, a in enumerate(actions)]

    def grow(self, n: int) -> None:
        """At least ``n`` orders listed (more sampled orders, the ones played first kept)."""
        if n > len(self.orders) and not self.every:
            self.orders = sampled_orders(self.unseen, n, self.seed)

    def margins(self, i: int) -> list[int]:
        return [o.margin for o in self.results[i]]

    def mean(self, i: int) -> float:
        r = self.results[i]
        return sum(o.margin for o in r) / len(r) if r else -math.inf

    def extend(self, i: int, n: int, report: Callable[[], None]) -> bool:
        """Play action ``i`` on the orders up to the ``n``-th; False once the time is up or the run stopped."""
        while len(self.results[i]) < n:
            if time.monotonic() > capped(self.deadline):
                self.stopped = True
                return False
            k = len(self.results[i])
            self.results[i].append(self.roll.outcome(i, self.starts[i], self.orders[k]))
            report()
        return True


def _plan(actions: int, first: int, total: int, keep: int, done: int = 0) -> int:
    """Play-outs the race makes at most from a round where ``actions`` are played from ``done`` to ``first`` orders
    (for the progress bar's share)."""
    planned, active, n = 0, actions, min(first, total)
    while True:
        planned += active * (n - done)
        if n >= total:
            return max(1, planned)
        active, done, n = min(active, max(MIN_KEEP, math.ceil(active / 2)) + keep), n, min(total, 2 * n)


def _survivors(race: _Race, active: list[int], keep: set[int]) -> list[int]:
    """The actions that go on to the next round (module docstring)."""
    leader = max(active, key=race.mean)
    best = race.margins(leader)
    alive = [i for i in active if i == leader or paired_upper(race.margins(i), best) >= 0]
    alive.sort(key=race.mean, reverse=True)
    cap = max(MIN_KEEP, math.ceil(len(active) / 2))
    return sorted(set(alive[:cap]) | (keep & set(active)), key=race.mean, reverse=True)


def _run(race: _Race, n_actions: int, first: int, keep: set[int], report: Callable[..., None]) -> None:
    total = len(race.orders)
    active, n = list(range(n_actions)), min(first, total)
    race.planned = _plan(len(active), n, total, len(keep))
    report(True)  # at once: nothing played yet, of the play-outs planned
    while True:
        for i in sorted(active, key=race.mean, reverse=True):
            if not race.extend(i, n, report):
                return
        if n >= total:
            return
        active, n = _survivors(race, active, keep), min(total, 2 * n)
        race.planned = race.roll.rollouts + _plan(len(active), n, total, len(keep), done=n // 2)


def _targets(rows: list[ActionAdvice], lead: int, cap: int) -> dict[int, int]:
    """The close calls' next order counts (module docstring): the challengers up to the leader's, else the
    leaders beyond it while more orders would likely separate them; empty when nothing is left to do."""
    top = rows[lead]
    most = max(r.samples for r in rows)
    todo = {i: min(top.samples, max(MIN_ORDERS, 2 * r.samples)) for i, r in enumerate(rows)
            if i != lead and r.samples < top.samples and near(r, top)}
    if top.samples < most:  # an action played on fewer orders beat the leader on them: it catches up
        todo[lead] = most
    if todo or top.samples >= cap:
        return todo
    n = min(cap, 2 * top.samples)
    close = []
    for i, r in enumerate(rows):
        more = None if i == lead or r.samples != top.samples or separated(r, top) else \
            orders_to_separate(r.margins, top.margins, MIN_ORDERS)
        if more is not None and top.samples + more <= cap:
            close.append(i)
    return {i: n for i in [lead, *close]} if close else {}


def _resolve(race: _Race, info: GameState, actions: Sequence[Action], cap: int, report: Callable[[], None]) -> None:
    """Play the close calls on more orders until they separate, the cap, or the time (module docstring)."""
    while not race.stopped:
        rows = race.rows(info, actions)
        lead = advised_index(rows)
        todo = {} if lead is None else _targets(rows, lead, cap)
        if not todo:
            return
        race.grow(max(todo.values()))
        race.planned = race.roll.rollouts + sum(n - len(race.results[i]) for i, n in todo.items())
        for i, n in sorted(todo.items(), key=lambda kv: -race.mean(kv[0])):
            if not race.extend(i, n, report):
                return


def _check(samples, policy: str, time_limit) -> tuple[int, float]:
    if isinstance(samples, bool) or not isinstance(samples, int) or not 1 <= samples <= MAX_SAMPLES:
        raise BadInput(f"samples: expected a whole number 1..{MAX_SAMPLES}, got {samples!r:.40}")
    if policy not in CONTINUATIONS:
        raise BadInput(f"policy: '{policy!s:.40}' is not one of {', '.join(CONTINUATIONS)}")
    return samples, seconds(time_limit, "time limit")


def advise(state: GameState, samples: int = DEFAULT_SAMPLES, policy: str = DEFAULT_POLICY,
           time_limit: float = DEFAULT_TIME_LIMIT, progress: OnProgress | None = None, keep: Sequence[Action] = (),
           full: bool = False, bound: bool = True, seed: int = 0, resolve: bool = True) -> Advice:
    """The expected final margin and win chance of every legal action at the player's decision in ``state``
    (module docstring). ``full``: every action on every order (no race); ``bound``: the deal search's bound once
    every card to come is known; ``seed``: which orders are drawn (the same for every action); ``resolve``: the
    close calls played on more orders (off: the race alone, as the advice was before)."""
    samples, limit = _check(samples, policy, time_limit)
    start, cpu = time.monotonic(), time.thread_time()
    info = information_state(state)
    actions = legal_actions(info)
    unseen = unseen_cards(info)
    orders, every = deal_orders(unseen, samples, seed)
    roll = Rollouts(continuation(policy))
    race = _Race(roll, [apply(info, a) for a in actions], orders, start + limit, [[] for _ in actions],
                 unseen=unseen, seed=seed, every=every)
    keep_idx = {actions.index(a) for a in keep if a in actions}
    first = len(orders) if full else (2 if len(actions) > MANY else 4)
    report = _reporter(race, info, actions, progress, start)
    _run(race, len(actions), len(orders) if full else first, keep_idx, report)
    if resolve:
        _resolve(race, info, actions, len(orders) if every else min(MAX_SAMPLES, EXTEND * samples), report)
    rows = race.rows(info, actions)
    found = None
    if bound and not unseen and not race.stopped:
        from solver.wagons.advice.bound import deal_bound

        found = deal_bound(info, start + limit)
        rows = [r.with_bound(found.for_action(r.action)) for r in rows]
    return _answer(info, rows, resolve, len(orders), every, policy, start, cpu, race, found)


def _answer(info: GameState, rows: list[ActionAdvice], resolve: bool, samples: int, every: bool, policy: str,
            start: float, cpu: float, race: _Race, found) -> Advice:
    """The :class:`Advice`: the advised action first, then the others by orders played and expected margin, each
    with its standing against the advised one (``resolve`` off: the race's order alone, as before)."""
    rows.sort(key=lambda r: (-r.samples, -(r.mean if r.samples else -math.inf)))
    lead = advised_index(rows) if resolve else (0 if rows and rows[0].samples else None)
    if lead:
        rows.insert(0, rows.pop(lead))
    advised = rows[0] if lead is not None else None
    standings = tuple(None if k == 0 or advised is None else standing(r, advised) for k, r in enumerate(rows))
    return Advice("place" if info.hand else "draft", tuple(rows), samples, order_count(len(race.unseen)),
                  race.unseen, every, policy, time.monotonic() - start, time.thread_time() - cpu, not race.stopped,
                  race.roll.rollouts, race.roll.decisions, found, standings, max((r.samples for r in rows), default=0),
                  overlap_note(advised, rows, standings))


def _reporter(race: _Race, info: GameState, actions: Sequence[Action], progress: OnProgress | None,
              start: float) -> Callable[..., None]:
    """A call after each play-out: the play-outs done of those planned and the leader so far, to ``progress`` (at
    most 5 times a second; ``report(True)``, once the play-outs are planned, is sent whatever the time)."""
    last = [0.0]

    def report(at_once: bool = False) -> None:
        now = time.monotonic()
        if progress is None or (now - last[0] < 0.2 and not at_once):
            return
        if not at_once:
            last[0] = now
        played = [i for i in range(len(actions)) if race.results[i]]
        leader = max(played, key=race.mean) if played else None
        words = None if leader is None else action_words(actions[leader], *card_and_skipped(info, actions[leader]))
        done = race.roll.rollouts
        what = "" if leader is None else f"leading: {words} ({race.mean(leader):+.1f} expected)"
        progress(Progress(done, max(race.planned, done + 1), "play-outs", what, elapsed=now - start))
    return report
