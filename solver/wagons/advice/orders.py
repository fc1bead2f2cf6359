"""The orders the unseen cards may come in (rule:W-reveal, rule:W-advice).

The deal was shuffled (rule:W-setup), so every order of the cards the player has not seen is equally likely,
as the engine's chance outcomes give them (:func:`solver.wagons.game.chance_outcomes`: each reveal is uniform
over the unseen cards, so a sequence of reveals is a uniform random order). When there are at most ``samples``
orders, all of them are listed (the estimate over them is exact), shuffled so that any first part of the list
is a fair sample too; otherwise ``samples`` orders are drawn uniformly and independently. The draw depends only
on the unseen cards (what the player knows), the sample count and ``seed``: every action is evaluated on the
same orders (common random numbers, so differences between actions are sharp).
"""

from __future__ import annotations

import random
from itertools import permutations
from math import factorial

__all__ = ["deal_orders", "sampled_orders", "order_count", "EXACT_LIMIT"]

EXACT_LIMIT = 5040
"""Most orders ever listed in full (7 unseen cards: 5040): beyond, listing them costs more than it is worth."""


def order_count(unseen: int) -> int:
    """How many orders ``unseen`` cards can come in."""
    return factorial(unseen)


def deal_orders(unseen: tuple[int, ...], samples: int, seed: int = 0) -> tuple[list[tuple[int, ...]], bool]:
    """(orders, every order listed): all orders of ``unseen`` when there are at most ``samples`` (and at most
    :data:`EXACT_LIMIT`), shuffled; else ``samples`` uniform random orders (module docstring)."""
    cards = sorted(unseen)
    if order_count(len(cards)) <= min(samples, EXACT_LIMIT):
        every = list(permutations(cards))
        _rng(cards, seed).shuffle(every)
        return every, True
    return sampled_orders(unseen, samples, seed), False


def _rng(cards: list[int], seed: int) -> random.Random:
    return random.Random(f"wagons-advice-{seed}-{cards}")


def sampled_orders(unseen: tuple[int, ...], count: int, seed: int = 0) -> list[tuple[int, ...]]:
    """``count`` uniform random orders of ``unseen``; a longer list begins with a shorter one (more orders for the
    actions that need them extend the ones already played)."""
    cards = sorted(unseen)
    rng = _rng(cards, seed)
    return [tuple(rng.sample(cards, len(cards))) for _ in range(count)]
