"""Which choice the advice names, and how every other choice stands against it (rule:W-advice).

Every action was played on the first orders of one shared list (common random numbers), so two actions are
compared on the orders they share, by the 95% interval of their paired differences (:func:`~.stats.paired_interval`).
They are **told apart** (:func:`separated`) when both figures are exact and differ, or when they share at least
:data:`MIN_ORDERS` orders and that interval leaves 0. A figure from fewer sampled orders has no honest interval
(two orders that both end at -1 give the interval ``[-1, -1]``): it is marked too few (:func:`too_few`) and never
tells anything apart.

The advised action (:func:`advised_index`) is the highest expected margin among the actions played on the most
orders; then, while an action shown higher beats it surely on the orders they share, that one is advised instead.
So a choice shown above the advised one is never surely better: it is *within its interval* (not told apart), and
the answer says so with about how many more orders would separate them, or, played on fewer orders than the
advised one, it is surely worse on the orders both were played on (its own figure is higher from its fewer orders).
The engine (:mod:`.engine`) plays every challenger shown above on as many orders as the leader before it answers,
so both cases are left only when the time limit or Stop cut the search short.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from solver.wagons.advice.result import ActionAdvice
from solver.wagons.advice.stats import MIN_ORDERS, orders_to_separate, paired_interval

__all__ = ["MIN_ORDERS", "Standing", "too_few", "separated", "beats", "advised_index", "standing", "near", "overlap_note"]


def too_few(row: ActionAdvice) -> bool:
    """A sampled figure from fewer than :data:`~.stats.MIN_ORDERS` orders (no honest interval)."""
    return row.too_few


def _difference(a: ActionAdvice, b: ActionAdvice) -> tuple[float, float, float] | None:
    """(mean, low, high) of a - b on their common orders (exact when both are)."""
    return paired_interval(a.margins, b.margins, a.exact and b.exact)


def separated(a: ActionAdvice, b: ActionAdvice) -> bool:
    """Whether ``a`` and ``b`` are told apart (module docstring)."""
    if not a.samples or not b.samples:
        return False
    if a.exact and b.exact:
        return a.expected != b.expected
    if min(a.samples, b.samples) < MIN_ORDERS:
        return False
    d = _difference(a, b)
    return d is not None and (d[1] > 0 or d[2] < 0)


def beats(a: ActionAdvice, b: ActionAdvice) -> bool:
    """``a`` is surely better than ``b`` on the orders they share."""
    if not separated(a, b):
        return False
    if a.exact and b.exact:
        return a.expected > b.expected
    d = _difference(a, b)
    return d is not None and d[1] > 0


def _mean(row: ActionAdvice) -> float:
    return float(row.expected)


def advised_index(rows: Sequence[ActionAdvice]) -> int | None:
    """The advised action's index in ``rows`` (module docstring); None when none was played."""
    played = [i for i, r in enumerate(rows) if r.samples]
    if not played:
        return None
    most = max(rows[i].samples for i in played)
    best = max((i for i in played if rows[i].samples == most), key=lambda i: _mean(rows[i]))
    while True:
        better = [i for i in played if _mean(rows[i]) > _mean(rows[best]) and beats(rows[i], rows[best])]
        if not better:
            return best
        best = max(better, key=lambda i: _mean(rows[i]))


def near(row: ActionAdvice, lead: ActionAdvice) -> bool:
    """A challenger worth more orders: shown above the leader (told apart or not: on fewer orders, its own figure
    and the orders they share may disagree), or not told apart from it with its expected margin inside the
    leader's interval."""
    if not row.samples:
        return False
    if _mean(row) > _mean(lead):
        return True
    return not separated(row, lead) and lead.interval is not None and _mean(row) >= lead.interval[0]


@dataclass(frozen=True)
class Standing:
    """How one action stands against the advised one."""

    above: bool              # shown higher: its expected margin is above the advised one's
    within: bool             # not told apart from the advised one (within its 95% interval, or too few orders)
    more_orders: int | None  # about how many more orders would separate them (None: told apart, or cannot say)
    worse_on_shared: bool = False  # told apart as worse on the orders both were played on

    @property
    def answered(self) -> bool:
        """Nothing to explain, or explained: not shown above, or within the interval, or worse on the shared
        orders (shown higher only from fewer orders)."""
        return not self.above or self.within or self.worse_on_shared

    def to_dict(self) -> dict:
        return {"above_advised": self.above, "within_interval_of_advised": self.within,
                "orders_to_separate": self.more_orders, "worse_on_shared_orders": self.worse_on_shared}


def standing(row: ActionAdvice, advised: ActionAdvice) -> Standing:
    """``row`` against ``advised`` (:class:`Standing`); an unplayed row is neither above nor within."""
    if not row.samples:
        return Standing(False, False, None)
    within = not separated(row, advised)
    more = None
    if within and not (row.exact and advised.exact):
        more = orders_to_separate(row.margins, advised.margins, MIN_ORDERS)
    return Standing(_mean(row) > _mean(advised), within, more, not within and beats(advised, row))


def _one(row: ActionAdvice, advised: ActionAdvice, s: Standing) -> str:
    if s.worse_on_shared:
        shared = min(row.samples, advised.samples)
        more = f"worse than the advised one on the {shared} orders both were played on"
    elif s.more_orders and min(row.samples, advised.samples) < MIN_ORDERS:
        more = f"within its 95% interval; at least {s.more_orders} more orders before they can be told apart"
    elif s.more_orders:
        more = f"within its 95% interval; about {s.more_orders} more orders would separate them"
    else:
        more = "within its 95% interval; too few orders yet to say how many more would separate them"
    return f"{row.words} ({_mean(row):+.1f}, {row.how}; {more})"


def overlap_note(advised: ActionAdvice | None, rows: Sequence[ActionAdvice], standings: Sequence[Standing | None],
                 most: int = 3) -> str | None:
    """The sentence for the choices shown above the advised one (each within its interval), None when there is
    none: they are named (at most ``most``) with about how many more orders would separate each from it."""
    above = [(r, s) for r, s in zip(rows, standings) if s is not None and s.above]
    if advised is None or not above:
        return None
    named = "; ".join(_one(r, advised, s) for r, s in above[:most])
    rest = f"; and {len(above) - most} more" if len(above) > most else ""
    return (f"Shown above the advised {advised.words} ({_mean(advised):+.1f}, {advised.how}), yet not surely "
            f"better: {named}{rest}.")
