"""What each page may keep in its address: one schema per parameter, read by :func:`dashboard.shared.state.urlstate.decode`.

Each :class:`~dashboard.shared.state.urlstate.Address` says what the parameter's state document may hold, in the small
shape language of :mod:`dashboard.shared.state.urlstate`; the parts the solver has a loader for (a Lone Cowboy game
record, an Outlaws line, a Cactus Town round, each game's readings) are handed to that loader, so a document the
engine would refuse is refused here, in one line, before the page uses it (rule:X-bad-input).
"""

from __future__ import annotations

from functools import partial
from typing import Any

from dashboard.shared.readings import rules_from_doc
from dashboard.shared.state.urlstate import (
    Address,
    AnyOf,
    Fields,
    ListOf,
    Loaded,
    MapOf,
    Nullable,
    Scalar,
    Text,
    Whole,
)
from solver.cactus import solo_deck
from solver.cactus.companion import record_from_json
from solver.io.numbers import MAX_INT
from solver.io.read import as_int
from solver.outlaws.line import line_from_json
from solver.outlaws.state import position_from_json
from solver.registry import GAMES
from solver.wagons.record.game_record import MAX_ACTIONS, game_from_record

# ----------------------------------------------------------------------------- every page: the readings

OPTIONS = MapOf(Text(60), Scalar(), most=60)
"""One game's readings as the address keeps them: {option: value}, only those not at their default."""

READINGS = Address("readings", "the readings in the address", Fields(
    optional={g.id: Loaded(partial(rules_from_doc, g.id), OPTIONS) for g in GAMES}, noun="game"))
"""``?readings=``: {game id: {option: value}}, each game's options checked by its engine's ``Rules``."""

# ----------------------------------------------------------------------------- Lone Cowboy

_GAME = Fields(required={"record": Loaded(game_from_record)}, optional={"at": Whole(0, MAX_ACTIONS)})
"""{"record": the engine's game record, "at": how many of its actions are applied}."""

LC = Address("lc", "the Lone Cowboy game in the address", _GAME)
"""``?lc=``: the play-along's game (:mod:`dashboard.wagons.game`)."""

LC_OWN = Address("lc_own", "your own game in the address", _GAME)
"""``?lc_own=``: the player's own game while another line (a winning line) is on the table."""

_CELL = Nullable(Whole())
SHEET = Address("sheet", "the score sheet in the address", Fields(required={
    "scenario": Text(40),
    "rows": ListOf(Fields(optional={"card": _CELL, "x": _CELL, "y": _CELL, "rot": _CELL}), most=40),
    "pile": ListOf(Whole(), most=40),
}))
"""``?sheet=``: the score sheet as its table holds it (each cell a whole number or empty); the scenario, the cells'
ranges and the pile's cards are then checked by the page with the engine's data."""

# ----------------------------------------------------------------------------- Cactus Town

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

# ----------------------------------------------------------------------------- Outlaws

LINE = Address("line", "the game in the address", Loaded(line_from_json))
"""``?line=``: the Outlaws table's line (a start position and the plays), replayed by the engine."""

def _outlaws_work(doc: Any) -> None:
    """The Outlaws page's work: {"position", "seed"} or a bare position, read by the engine's loader."""
    if isinstance(doc, dict) and set(doc) == {"position", "seed"}:
        if doc["seed"] is not None:
            as_int(doc["seed"], "the position's seed", 0, MAX_INT)
        doc = doc["position"]
    position_from_json(doc)


POS = Address("pos", "the Outlaws position in the address", Loaded(_outlaws_work))
"""``?pos=``: the Outlaws page's position and the seed it was dealt from (:mod:`dashboard.outlaws.position_work`)."""

AT = Address("at", "the step in the address", Whole(0, MAX_INT), plain=True)
"""``?at=``: the step of the line shown (ASCII digits; a step past the line's end shows its end)."""


# ----------------------------------------------------------------------------- tabs (any page)

def tab(labels: list[str], name: str = "tab") -> Address:
    """``?tab=``: the open tab of a page with tabs ``labels`` (the first one leaves the address clean)."""
    return Address(name, "the tab in the address", Text(200, choices=tuple(labels), noun="tab"), plain=True)


DOCUMENTS: tuple[Address, ...] = (READINGS, LC, LC_OWN, SHEET, CACTUS, LINE, POS)
"""Every encoded parameter of the dashboard (plain ones: :data:`AT` and :func:`tab`)."""
