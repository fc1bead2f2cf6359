"""Every legal town of an ordered list of cards, as the engine places them (rule:W-place, rule:W-cover,
rule:W-rotation): each card in the order given, legally on arrival, later ones on top.

A town and its half turn are the same town seen from across the table (every scoring rule is unchanged by it, as
the optimizer's oracle argues), and moving a whole town changes nothing, so the first card lies unturned at (0, 0);
every later card goes to each of :func:`~solver.wagons.town.legal_placements` in turn. Which cells a card may go to
depends only on the cells already occupied, never on the cards' faces, so the number of towns is the number of
*position sequences* of that many cards (:data:`POSITION_SEQUENCES`) times two turns for each later card that looks
different turned: :func:`town_count`, cheap.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Sequence
from functools import lru_cache

from solver.errors import BadInput
from solver.wagons.cards import card_by_id
from solver.wagons.scoring import (
    TownFeatures,
    features_plus,
    frame_features,
    growth_frame,
    placements_features,
)
from solver.wagons.town import Placement, Town, legal_placements

__all__ = ["POSITION_SEQUENCES", "MOST_PLACES", "turns", "town_count", "towns_of", "position_sequences", "draw_town"]

POSITION_SEQUENCES = (1, 1, 21, 617, 22_805, 1_005_193, 51_148_373, 2_939_116_729)
"""How many position sequences ``n`` cards have (index ``n``), the first card at (0, 0): 21 places for a second card
touching or covering a first, and so on. Computed by counting the occupied shapes card by card with
:func:`~solver.wagons.town.legal_placements`' positions (``tests/ask/wagons`` recounts 1-5 cards, 6 in its deep run,
and checks the product against the towns enumerated; 7 was counted once the same way, in about 11 minutes)."""


MOST_PLACES = (0, 21, 32, 43, 54, 65, 76)
"""The most places a card can go once ``k`` cards lie (index ``k``), over every town of them: what a uniform draw of a
town (:func:`draw_town`) bounds its walk with. Counted over the occupied shapes as :data:`POSITION_SEQUENCES` is
(``tests/ask/wagons`` recounts 1-4 from the engine's placements, 5 in its deep run; 6 counted once)."""


def turns(card: int) -> int:
    """How many ways up a card can lie: 1 when its half turn looks the same, else 2 (rule:W-rotation)."""
    c = card_by_id(card)
    return 1 if (c.tl, c.tr) == (c.br, c.bl) else 2


def town_count(cards: Sequence[int]) -> int | None:
    """How many towns :func:`towns_of` yields for ``cards`` (None beyond :data:`POSITION_SEQUENCES`)."""
    if not cards:
        return 0
    if len(cards) >= len(POSITION_SEQUENCES):
        return None
    return POSITION_SEQUENCES[len(cards)] * math.prod(turns(c) for c in cards[1:])


def towns_of(cards: Sequence[int]) -> Iterator[tuple[Town, TownFeatures]]:
    """Every legal town of ``cards`` in this order (first card unturned at (0, 0)), with its bitboards; the last
    card's placements reuse the town before it (as the optimizer's oracle does)."""
    first = Town((Placement(cards[0], 0, 0, 0),))
    if len(cards) == 1:
        yield first, placements_features(first.placements)
        return
    yield from _grow(first, tuple(cards), 1)


def _grow(town: Town, cards: tuple[int, ...], k: int) -> Iterator[tuple[Town, TownFeatures]]:
    if k == len(cards) - 1:
        frame = growth_frame(town)
        base = frame_features(town, frame)
        for p in legal_placements(town, cards[k]):
            yield Town(town.placements + (p,)), features_plus(base, frame, p)
        return
    for p in legal_placements(town, cards[k]):
        yield from _grow(Town(town.placements + (p,)), cards, k + 1)


@lru_cache(maxsize=4)
def position_sequences(n: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Every position sequence of ``n`` cards (the first at (0, 0)): the engine's own placements of ``n`` cards that
    look different turned, each taken unturned (what a uniform draw of a town picks from; small ``n`` only)."""
    probes = [c for c in range(18) if turns(c) == 2][:n]
    out: list[tuple[tuple[int, int], ...]] = []

    def grow(town: Town) -> None:
        k = len(town.placements)
        if k == n:
            out.append(tuple((p.x, p.y) for p in town.placements))
            return
        for p in legal_placements(town, probes[k]):
            if p.rot == 0:
                grow(Town(town.placements + (p,)))

    grow(Town((Placement(probes[0], 0, 0, 0),)))
    return tuple(out)


def draw_town(cards: Sequence[int], rng: random.Random) -> Town:
    """One town of ``cards`` (as :func:`towns_of` lists them) drawn uniformly: a walk that places each card at a
    uniformly chosen legal placement, kept with chance (the product of the numbers of placements met) / (the product
    of their bounds, :data:`MOST_PLACES` times the card's turns), so every town has the same chance, 1 / that
    product; walked again otherwise (about 2 in 3 walks of 5 cards are kept)."""
    if len(cards) > len(MOST_PLACES):
        raise BadInput(f"cards: towns of at most {len(MOST_PLACES)} cards are drawn, got {len(cards)}")
    bound = math.prod(MOST_PLACES[k] * turns(c) for k, c in enumerate(cards) if k)
    while True:
        town, met = Town((Placement(cards[0], 0, 0, 0),)), 1
        for c in cards[1:]:
            options = legal_placements(town, c)
            met *= len(options)
            town = Town(town.placements + (options[rng.randrange(len(options))],))
        if rng.randrange(bound) < met:
            return town
