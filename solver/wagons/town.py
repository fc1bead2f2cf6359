"""A player's town: cards placed in order, later ones on top (rule:W-place, rule:W-cover).

Placement legality (rule:W-place): the first card goes anywhere; every later card must share at
least one territory edge with the town or cover at least one of its territories; corner-only
contact is illegal; cards turn 0 or 180 degrees only (rule:W-rotation); a card is placed once.
Covered territories no longer count (rule:W-cover).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from solver.errors import BadInput
from solver.io.numbers import short_repr
from solver.io.read import is_whole, read_json
from solver.wagons.cards import ROTATIONS, Territory, card_by_id, card_cells, load_cards

__all__ = ["Placement", "Town", "visible_grid", "placement_problem", "place", "legal_placements",
           "load_town", "read_town", "town_from_dict", "town_to_json", "COORD_LIMIT"]

COORD_LIMIT = 1000
"""Largest |x| or |y| accepted in a town file: far beyond any real town (16 cards)."""


@dataclass(frozen=True)
class Placement:
    card: int
    x: int
    y: int
    rot: int = 0

    def cells(self) -> tuple[tuple[tuple[int, int], Territory], ...]:
        """The 4 board cells ((x, y), Territory) this placement covers."""
        return tuple(((self.x + dx, self.y + dy), t) for (dx, dy), t in card_cells(card_by_id(self.card), self.rot))

    def to_dict(self) -> dict:
        return {"card": self.card, "x": self.x, "y": self.y, "rot": self.rot}


@dataclass(frozen=True)
class Town:
    placements: tuple[Placement, ...] = ()

    @property
    def card_ids(self) -> tuple[int, ...]:
        return tuple(p.card for p in self.placements)


def visible_grid(town: Town) -> dict[tuple[int, int], Territory]:
    """Each occupied cell's top territory (later placements cover earlier ones). rule:W-cover"""
    grid: dict[tuple[int, int], Territory] = {}
    for p in town.placements:
        for xy, t in p.cells():
            grid[xy] = t
    return grid


def _occupied(town: Town) -> set[tuple[int, int]]:
    return {(p.x + dx, p.y + dy) for p in town.placements for dx in (0, 1) for dy in (0, 1)}


def placement_problem(town: Town, placement: Placement) -> str | None:
    """None when ``placement`` is legal on ``town``, else why not (naming the card). rule:W-place"""
    p = placement
    if not is_whole(p.card) or not 0 <= p.card < len(load_cards()):
        return f"card {short_repr(p.card)}: no such card (ids are 0..{len(load_cards()) - 1})"
    for name in ("x", "y"):
        v = getattr(p, name)
        if not is_whole(v) or abs(v) > COORD_LIMIT:
            return f"card {p.card}: {name} must be a whole number within +-{COORD_LIMIT}, got {short_repr(v)}"
    if not is_whole(p.rot) or p.rot not in ROTATIONS:
        return f"card {p.card}: rotation must be 0 or 180 (cards never turn 90 degrees), got {short_repr(p.rot)}"
    if p.card in town.card_ids:
        return f"card {p.card}: already placed in this town"
    if not town.placements:
        return None
    occ = _occupied(town)
    new = [(p.x + dx, p.y + dy) for dx in (0, 1) for dy in (0, 1)]
    if any(c in occ for c in new):
        return None
    for (x, y) in new:
        if any(n in occ for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1))):
            return None
    if any((x + ex, y + ey) in occ for (x, y) in new for ex in (-1, 1) for ey in (-1, 1)):
        return f"card {p.card} at ({p.x},{p.y}): touches the town only at a corner; it must share an edge or cover a territory"
    return f"card {p.card} at ({p.x},{p.y}): does not touch the town; it must share an edge or cover a territory"


def place(town: Town, placement: Placement) -> Town:
    """The town with ``placement`` on top; BadInput (naming the card and why) when illegal."""
    why = placement_problem(town, placement)
    if why:
        raise BadInput(f"illegal placement: {why}")
    return Town(town.placements + (placement,))


def legal_placements(town: Town, card_id: int) -> tuple[Placement, ...]:
    """All distinct legal placements of ``card_id`` on ``town`` (rule:W-place), row by row (y, then x).

    An empty town gets the canonical position (0, 0) in both rotations. Placements giving the
    same visible result (a card whose 180-degree turn looks the same) are listed once.
    A card at (x, y) shares an edge with the town or covers part of it exactly when one of its 4
    cells is occupied or next to an occupied cell, so the positions are those 4 offsets of every
    such cell.
    """
    c = card_by_id(card_id)
    if card_id in town.card_ids:
        return ()
    rots = ROTATIONS if (c.tl, c.tr) != (c.br, c.bl) else (0,)  # the turned card looks different
    if not town.placements:
        return tuple(Placement(card_id, 0, 0, r) for r in rots)
    occ = _occupied(town)
    touch = set(occ)
    for (x, y) in occ:
        touch.update(((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)))
    corners = set()
    for (x, y) in touch:
        corners.update(((y, x), (y, x - 1), (y - 1, x), (y - 1, x - 1)))
    return tuple(Placement(card_id, x, y, r) for y, x in sorted(corners) for r in rots)


def town_from_dict(doc: Any, what: str = "town") -> Town:
    """A town from the contracts.md JSON shape; every problem is a one-line BadInput."""
    if not isinstance(doc, dict) or "placements" not in doc:
        raise BadInput(f"{what}: expected an object with a 'placements' list")
    items = doc["placements"]
    if not isinstance(items, list):
        raise BadInput(f"{what}.placements: expected a list")
    if len(items) > len(load_cards()):
        raise BadInput(f"{what}.placements: {len(items)} placements, but there are only {len(load_cards())} cards")
    town = Town()
    for n, item in enumerate(items):
        where = f"{what}.placements[{n}]"
        if not isinstance(item, dict):
            raise BadInput(f"{where}: expected an object with card, x, y, rot")
        for key in ("card", "x", "y"):
            if key not in item:
                raise BadInput(f"{where}: missing field '{key}'")
        rot = item.get("rot", 0)
        p = Placement(item["card"], item["x"], item["y"], rot)
        why = placement_problem(town, p)
        if why:
            raise BadInput(f"{where}: illegal placement: {why}")
        town = Town(town.placements + (p,))
    return town


def read_town(path: str | Path) -> Town:
    """A town from a town file on this machine (the CLI's argument); documents go to :func:`town_from_dict`."""
    if not isinstance(path, (str, Path)):
        raise BadInput(f"town file: expected a path, got {type(path).__name__}")
    return town_from_dict(read_json(path), str(path))


def load_town(source: Path | dict) -> Town:
    """Compatibility: a ``pathlib.Path`` is read as a file, a dict is a document; anything else (a
    ``str`` included: it could be a JSON string) is refused. New code calls :func:`read_town` or
    :func:`town_from_dict`."""
    if isinstance(source, Path):
        return read_town(source)
    return town_from_dict(source)


def town_to_json(town: Town) -> dict:
    return {"placements": [p.to_dict() for p in town.placements]}
