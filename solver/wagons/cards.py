"""Card fronts: 2x2 territories, each a terrain and an icon (rule:W-cards, rule:W-rotation).

The card record is :class:`solver.wagons.data.Card` (re-exported here with :class:`Territory`).

A card covers (x, y), (x+1, y), (x, y+1), (x+1, y+1); ``card_cells`` gives the four cells as
offsets for rotation 0 or 180 (a 180-degree turn maps top-left <-> bottom-right and
top-right <-> bottom-left; 90-degree turns do not exist).
"""

from __future__ import annotations

from functools import lru_cache

from solver.errors import BadInput
from solver.io.numbers import short_repr
from solver.wagons.codes import ICON_CODE, ICONS, TERRAIN_CODE, TERRAINS
from solver.wagons.data import Card, Territory, load_data

__all__ = ["TERRAINS", "ICONS", "Territory", "Card", "card_cells", "load_cards", "ROTATIONS", "card_by_id",
           "card_codes", "check_card_ids", "check_pile", "N_CARDS"]

ROTATIONS = (0, 180)
OFFSETS = ((0, 0), (1, 0), (0, 1), (1, 1))  # tl, tr, bl, br


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
    return load_data(cards_path).cards


def card_by_id(card_id: int, cards: tuple[Card, ...] | None = None) -> Card:
    cards = cards or load_cards()
    if isinstance(card_id, bool) or not isinstance(card_id, int) or not 0 <= card_id < len(cards):
        raise BadInput(f"card {card_id!r}: card ids are 0..{len(cards) - 1}")
    return cards[card_id]


N_CARDS = 18
"""Card ids are 0..17 (rule:W-cards; ``cards.json`` holds exactly these 18 fronts)."""


def check_card_ids(ids, what: str, unique: bool = True) -> tuple[int, ...]:
    """``ids`` as a tuple of card ids (whole numbers 0..17; True/False are not ids), without repeats when
    ``unique``; otherwise one BadInput naming ``what`` and the first bad entry (rule:X-bad-input)."""
    try:
        items = tuple(ids)
    except TypeError:
        raise BadInput(f"{what}: expected a list of card ids, got {short_repr(ids)}") from None
    for n, c in enumerate(items):
        if c.__class__ is not int and (isinstance(c, bool) or not isinstance(c, int)) or not 0 <= c < N_CARDS:
            raise BadInput(f"{what}[{n}]: {short_repr(c)} is not a card id 0..{N_CARDS - 1}")
    if unique and len(set(items)) != len(items):
        dup = next(c for c in items if items.count(c) > 1)
        raise BadInput(f"{what}: card {dup} is listed twice (a card id appears twice)")
    return items


def check_pile(pile, player_cards=(), what: str = "opponent pile") -> tuple[int, ...]:
    """The opponent's pile: card ids without repeats, none of them among ``player_cards`` (rule:W-pile)."""
    items = check_card_ids(pile, what)
    both = set(items).intersection(player_cards)
    if both:
        raise BadInput(f"{what}: card {min(both)} is also among the player's cards")
    return items


@lru_cache(maxsize=8)
def card_codes(cards_path: str | None = None) -> tuple[tuple[tuple[tuple[int, int, int, int], ...], ...], ...]:
    """``codes[card][0 or 1]`` = 4 tuples (dx, dy, terrain index, icon index) for rot 0 / 180."""
    out = []
    for card in load_cards(cards_path):
        per_rot = []
        for rot in ROTATIONS:
            per_rot.append(tuple((dx, dy, TERRAIN_CODE[t.terrain], ICON_CODE[t.icon])
                                 for (dx, dy), t in card_cells(card, rot)))
        out.append(tuple(per_rot))
    return tuple(out)
