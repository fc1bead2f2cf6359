"""The figures of an estimate (rule:W-advice): means over the deal orders played, and their 95% intervals.

An expected margin over sampled orders gets Student's t interval (mean +- t * sd / sqrt(n)); a win chance gets
Wilson's score interval; a figure over every order is exact (the interval is the value itself). A comparison of
two actions on the same orders uses their paired differences (:func:`paired_upper`), which common random numbers
make much narrower than either interval.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

__all__ = ["MIN_ORDERS", "t975", "mean_interval", "wilson", "paired_upper", "paired_interval", "orders_to_separate", "Z975"]

MIN_ORDERS = 8
"""Fewest sampled orders whose 95% interval is given: from fewer the spread itself is unknown (two orders that both
end at -1 would give the interval [-1, -1]), so the figure says it rests on too few orders and has no interval."""
Z975 = 1.959963984540054
"""The standard normal's 97.5% point (two-sided 95%)."""


def t975(df: int) -> float:
    """Student's t 97.5% point with ``df`` degrees of freedom: exact for 1 and 2, else the Cornish-Fisher
    expansion in 1/df (within 0.1% from df = 3 on)."""
    if df < 1:
        raise ValueError("t975: df must be at least 1")
    if df == 1:
        return math.tan(math.pi * 0.475)
    if df == 2:
        return 0.95 / math.sqrt(2 * 0.975 * 0.025)
    z = Z975
    g1 = (z ** 3 + z) / 4
    g2 = (5 * z ** 5 + 16 * z ** 3 + 3 * z) / 96
    g3 = (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / 384
    g4 = (79 * z ** 9 + 776 * z ** 7 + 1482 * z ** 5 - 1920 * z ** 3 - 945 * z) / 92160
    return z + g1 / df + g2 / df ** 2 + g3 / df ** 3 + g4 / df ** 4


def _sd(values: Sequence[float], mean: float) -> float:
    return math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1))


def mean_interval(values: Sequence[int], exact: bool) -> tuple[Fraction | float, tuple[float, float] | None]:
    """(mean, 95% interval): exact over every order (a Fraction, the interval the value); sampled, Student's t
    (None from fewer than :data:`MIN_ORDERS` orders: too few for an honest interval)."""
    n = len(values)
    if exact:
        m = Fraction(sum(values), n)
        return m, (float(m), float(m))
    m = sum(values) / n
    if n < MIN_ORDERS:
        return m, None
    half = t975(n - 1) * _sd(values, m) / math.sqrt(n)
    return m, (m - half, m + half)


def wilson(wins: int, n: int, exact: bool) -> tuple[Fraction | float, tuple[float, float] | None]:
    """(win chance, 95% interval): exact over every order, else Wilson's score interval (None from fewer than
    :data:`MIN_ORDERS` orders)."""
    if exact:
        p = Fraction(wins, n)
        return p, (float(p), float(p))
    p = wins / n
    if n < MIN_ORDERS:
        return p, None
    z2 = Z975 ** 2
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z975 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    lo = 0.0 if wins == 0 else max(0.0, centre - half)   # the bounds are exactly 0 and 1 there (not 1 - 1e-16)
    hi = 1.0 if wins == n else min(1.0, centre + half)
    return p, (lo, hi)


def paired_upper(a: Sequence[int], b: Sequence[int]) -> float:
    """The 95% upper bound of mean(a - b) over the same orders (inf with fewer than 2: nothing is known)."""
    n = min(len(a), len(b))
    if n < 2:
        return math.inf
    d = [x - y for x, y in zip(a[:n], b[:n])]
    m = sum(d) / n
    return m + t975(n - 1) * _sd(d, m) / math.sqrt(n)


def paired_interval(a: Sequence[int], b: Sequence[int], exact: bool = False) -> tuple[float, float, float] | None:
    """(mean, low, high) of a - b over their common orders (the first ``min(len)``): the 95% t interval of the
    paired differences, the mean itself when ``exact`` (both over every order); None with fewer than 2 sampled."""
    n = min(len(a), len(b))
    d = [x - y for x, y in zip(a[:n], b[:n])]
    if exact and n:
        m = sum(d) / n
        return m, m, m
    if n < 2:
        return None
    m = sum(d) / n
    half = t975(n - 1) * _sd(d, m) / math.sqrt(n)
    return m, m - half, m + half


def orders_to_separate(a: Sequence[int], b: Sequence[int], least: int = 2) -> int | None:
    """About how many more orders each of two actions needs before the 95% interval of their paired difference
    leaves 0 (``(z * sd / mean)^2`` orders in all, at least ``least``); None when it cannot be told: fewer than 2
    common orders, or no difference seen."""
    n = min(len(a), len(b))
    if n < 2:
        return None
    d = [x - y for x, y in zip(a[:n], b[:n])]
    m = sum(d) / n
    if m == 0:
        return None
    need = max(least, math.ceil((Z975 * _sd(d, m) / abs(m)) ** 2) + 1)
    return max(1, need - n)
