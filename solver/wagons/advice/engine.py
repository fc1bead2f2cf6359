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

Time: the work stops at ``time_limit`` (wall seconds) or when the run's :class:`~solver.stopping.StopSignal`
is set, and answers with what it has, ``complete`` False. Once every card to come is known, the deal search's
proven bound is given beside the estimates (:mod:`.bound`).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from solver.errors import BadInput
from solver.io.numbers import seconds
from solver.stopping import capped
from solver.wagons.advice.information import information_state
from solver.wagons.advice.orders import deal_orders, order_count
from solver.wagons.advice.result import Advice, Report, action_advice, action_words, card_and_skipped
from solver.wagons.advice.rollout import CONTINUATIONS, Outcome, Rollouts, continuation
from solver.wagons.advice.stats import paired_upper
from solver.wagons.game import Action, GameState, apply, legal_actions, unseen_cards

__all__ = ["advise", "DEFAULT_SAMPLES", "DEFAULT_POLICY", "DEFAULT_TIME_LIMIT", "MIN_KEEP", "MAX_SAMPLES"]

DEFAULT_SAMPLES = 32
"""Deal orders the leading actions are played on by default (bench/wagons/bench_wagons_advice.py: within 10 s per decision)."""
DEFAULT_POLICY = CONTINUATIONS[0]
DEFAULT_TIME_LIMIT = 60.0
"""Wall seconds by default (the default samples take a few seconds; the limit is the safety net)."""
MAX_SAMPLES = 5040
"""Most deal orders asked for (every order of 7 unseen cards, the most a decision has)."""
MIN_KEEP = 3
"""Actions kept at each round of the race (the leaders whose figures matter most)."""
MANY = 16
"""More actions than this (placements) start on 2 orders each, fewer (drafts) on 4."""

Progress = Callable[[Report], None]


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


def _run(race: _Race, n_actions: int, first: int, keep: set[int], report: Callable[[], None]) -> None:
    total = len(race.orders)
    active, n = list(range(n_actions)), min(first, total)
    race.planned = _plan(len(active), n, total, len(keep))
    while True:
        for i in sorted(active, key=race.mean, reverse=True):
            if not race.extend(i, n, report):
                return
        if n >= total:
            return
        active, n = _survivors(race, active, keep), min(total, 2 * n)
        race.planned = race.roll.rollouts + _plan(len(active), n, total, len(keep), done=n // 2)


def _check(samples, policy: str, time_limit) -> tuple[int, float]:
    if isinstance(samples, bool) or not isinstance(samples, int) or not 1 <= samples <= MAX_SAMPLES:
        raise BadInput(f"samples: expected a whole number 1..{MAX_SAMPLES}, got {samples!r:.40}")
    if policy not in CONTINUATIONS:
        raise BadInput(f"policy: '{policy!s:.40}' is not one of {', '.join(CONTINUATIONS)}")
    return samples, seconds(time_limit, "time limit")


def advise(state: GameState, samples: int = DEFAULT_SAMPLES, policy: str = DEFAULT_POLICY,
           time_limit: float = DEFAULT_TIME_LIMIT, progress: Progress | None = None, keep: Sequence[Action] = (),
           full: bool = False, bound: bool = True, seed: int = 0) -> Advice:
    """The expected final margin and win chance of every legal action at the player's decision in ``state``
    (module docstring). ``full``: every action on every order (no race); ``bound``: the deal search's bound once
    every card to come is known; ``seed``: which orders are drawn (the same for every action)."""
    samples, limit = _check(samples, policy, time_limit)
    start, cpu = time.monotonic(), time.thread_time()
    info = information_state(state)
    actions = legal_actions(info)
    unseen = unseen_cards(info)
    orders, every = deal_orders(unseen, samples, seed)
    roll = Rollouts(continuation(policy))
    race = _Race(roll, [apply(info, a) for a in actions], orders, start + limit, [[] for _ in actions])
    keep_idx = {actions.index(a) for a in keep if a in actions}
    first = len(orders) if full else (2 if len(actions) > MANY else 4)
    report = _reporter(race, info, actions, progress, start)
    _run(race, len(actions), len(orders) if full else first, keep_idx, report)
    rows = [action_advice(info, a, race.results[i], every and len(race.results[i]) == len(orders))
            for i, a in enumerate(actions)]
    found = None
    if bound and not unseen and not race.stopped:
        from solver.wagons.advice.bound import deal_bound

        found = deal_bound(info, start + limit)
        rows = [r.with_bound(found.for_action(r.action)) for r in rows]
    rows.sort(key=lambda r: (-r.samples, -(r.mean if r.samples else -math.inf)))
    return Advice("place" if info.hand else "draft", tuple(rows), len(orders), order_count(len(unseen)), unseen,
                  every, policy, time.monotonic() - start, time.thread_time() - cpu, not race.stopped, roll.rollouts,
                  roll.decisions, found)


def _reporter(race: _Race, info: GameState, actions, progress: Progress | None, start: float) -> Callable[[], None]:
    """A call after each play-out: the share done and the leader so far, to ``progress`` (at most 5 times a second)."""
    last = [0.0]

    def report() -> None:
        now = time.monotonic()
        if progress is None or now - last[0] < 0.2:
            return
        last[0] = now
        played = [i for i in range(len(actions)) if race.results[i]]
        leader = max(played, key=race.mean) if played else None
        words = None if leader is None else action_words(actions[leader], *card_and_skipped(info, actions[leader]))
        progress(Report(min(0.99, race.roll.rollouts / race.planned), race.roll.rollouts, words,
                        None if leader is None else race.mean(leader), now - start))
    return report
