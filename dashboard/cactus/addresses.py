"""What the Cactus Town page keeps in its address (rule:X-bad-input): the round companion's game (``?cactus=``), read by
:func:`dashboard.shared.work.urldoc.decode` against the schema here, each recorded round through the engine's own
loader. The navigation lists it with its page (:mod:`dashboard.nav`)."""

from __future__ import annotations

from typing import Any

from dashboard.shared.work.urldoc import Address, AnyOf, Fields, ListOf, Loaded, Nullable, Text, Whole
from solver.cactus import solo_deck
from solver.cactus.companion import record_from_json

MAX_ROUNDS = 100
"""Most rounds (and duel discards in a round) a followed game in the address may hold: far above any real game."""

_SOLO_CARD = AnyOf((Whole(), Text(1, choices=(solo_deck.MARSHAL,), noun="card")))
_ROUND = Fields(optional={"event": Nullable(Text(60)), "train_discard": Nullable(Text(60)),
                          "duel_discards": ListOf(Text(60), most=MAX_ROUNDS),
                          "programmed": ListOf(_SOLO_CARD, most=len(solo_deck.NUMBERED) + 1),
                          "second_shot": Nullable(_SOLO_CARD)})


def _rounds(history: list[Any]) -> None:
    """Each recorded round read by the engine's loader, numbered as the page numbers them."""
    for n, rnd in enumerate(history, start=1):
        record_from_json(rnd, n)


CACTUS = Address("cactus", "the Cactus Town game in the address", Fields(required={
    "players": Nullable(Whole()),
    "marked": ListOf(Whole(), most=len(solo_deck.NUMBERED)),
    "history": Loaded(_rounds, ListOf(_ROUND, most=MAX_ROUNDS)),
}))
"""``?cactus=``: the round companion's game: players (null for solo), the marked solo cards, the rounds seen."""
