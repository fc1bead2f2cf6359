"""Builders shared by the tests/test_wagons_*.py files (no tests here)."""

from __future__ import annotations

import random

from solver.wagons.town import Town, legal_placements, place


def random_town(rng: random.Random, n: int) -> tuple[Town, tuple[int, ...]]:
    """A random legal town of ``n`` cards (each step a uniformly chosen legal placement, covers
    included) and a random opponent pile from the cards left."""
    ids = list(range(18))
    rng.shuffle(ids)
    town = Town()
    for c in ids[:n]:
        town = place(town, rng.choice(legal_placements(town, c)))
    return town, tuple(ids[n:n + rng.randint(0, 18 - n)])
