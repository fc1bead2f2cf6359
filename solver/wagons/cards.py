"""Card fronts: 2x2 territories, each a terrain and an icon (rule:W-cards, rule:W-rotation).

A card covers (x, y), (x+1, y), (x, y+1), (x+1, y+1); ``card_cells`` gives the four cells as
offsets for rotation 0 or 180 (a 180-degree turn maps top-left <-> bottom-right and
top-right <-> bottom-left; 90-degree turns do not exist).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from solver.errors import BadInput
from solver.wagons.data import ICONS, TERRAINS, load_data

__all__ = ["TERRAINS", "ICONS", "Territory", "Card", "card_cells", "load_cards", "ROTATIONS"]

ROTATIONS = (0, 180)
OFFSETS = ((0, 0), (1, 0), (0, 1), (1, 1))  # tl, tr, bl, br


@dataclass(frozen=True)
class Territory:
    terrain: str
    icon: str


@dataclass(frozen=True)
class Card:
    id: int
    tl: Territory
    tr: Territory
    bl: Territory
    br: Territory
    back: str = ""             # scoring condition on the back: UNVERIFIED pairing (rule:W9)
    checked_against: str = ""

    @property
    def territories(self) -> tuple[Territory, Territory, Territory, Territory]:
        return (self.tl, self.tr, self.bl, self.br)


def card_cells(card: Card, rot: int) -> tuple[tuple[tuple[int, int], Territory], ...]:
    """The 4 cells ((dx, dy), Territory) of ``card`` turned by ``rot`` (0 or 180). rule:W-rotation"""
    if rot == 0:
        ts = (card.tl, card.tr, card.bl, card.br)
    elif rot == 180:
        ts = (card.br, card.bl, card.tr, card.tl)
    else:
        raise BadInput(f"card {card.id}: rotation must be 0 or 180, got {rot!r}")
    return tuple(zip(OFFSETS, ts))


@lru_cache(maxsize=8)
def load_cards(cards_path: str | None = None) -> tuple[Card, ...]:
    """The 18 card fronts, index = id (from ``scenarios/wagons/cards.json``)."""
    out = []
    for c in load_data(cards_path).cards:
        t = [Territory(*cell) for cell in c.cells]
        out.append(Card(c.id, t[0], t[1], t[2], t[3], c.back, c.checked_against))
    return tuple(out)


def card_by_id(card_id: int, cards: tuple[Card, ...] | None = None) -> Card:
    cards = cards or load_cards()
    if isinstance(card_id, bool) or not isinstance(card_id, int) or not 0 <= card_id < len(cards):
        raise BadInput(f"card {card_id!r}: card ids are 0..{len(cards) - 1}")
    return cards[card_id]


# Integer codes used by the fast scorer: terrain index 0-5, icon index 0-5.
T_INDEX = {t: i for i, t in enumerate(TERRAINS)}
I_INDEX = {i: n for n, i in enumerate(ICONS)}


@lru_cache(maxsize=8)
def card_codes(cards_path: str | None = None) -> tuple[tuple[tuple[tuple[int, int, int, int], ...], ...], ...]:
    """``codes[card][0 or 1]`` = 4 tuples (dx, dy, terrain index, icon index) for rot 0 / 180."""
    out = []
    for card in load_cards(cards_path):
        per_rot = []
        for rot in ROTATIONS:
            per_rot.append(tuple((dx, dy, T_INDEX[t.terrain], I_INDEX[t.icon])
                                 for (dx, dy), t in card_cells(card, rot)))
        out.append(tuple(per_rot))
    return tuple(out)
