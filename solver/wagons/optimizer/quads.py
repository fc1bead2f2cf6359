"""What the solver models (CP-SAT and Z3) share about a town's cards: a card as its four territories
(``Quad`` = (terrain, icon), table positions 0 tl, 1 tr, 2 bl, 3 br), slots ``(card index, position)``,
and the time limit running out while a model is built."""

from __future__ import annotations

Quad = tuple[str, str]  # (terrain, icon)
Slot = tuple[int, int]  # (card index in placement order, table position 0..3)


class EncodeTimeout(Exception):
    """The time limit ran out while the model was being built."""


class QuadSlots:
    """Slot helpers for a model town holding its cards' territories in ``quads`` (card by card)."""

    quads: tuple | list

    @property
    def n(self) -> int:
        return len(self.quads)

    @property
    def slots(self) -> list[Slot]:
        return [(i, k) for i in range(self.n) for k in range(4)]
