"""What the Lone Cowboy pages keep in their address (rule:X-bad-input): the play-along's game (``?lc=``, ``?lc_own=``)
and the score sheet (``?sheet=``), each read by :func:`dashboard.shared.work.urldoc.decode` against the schema here;
the game record goes through the engine's own loader. The navigation lists them with their pages
(:mod:`dashboard.nav`), and :data:`dashboard.shared.work.addresses.DOCUMENTS` gathers every page's."""

from __future__ import annotations

from dashboard.shared.work.urldoc import Address, Fields, ListOf, Loaded, Nullable, Text, Whole
from solver.wagons.record.game_record import MAX_ACTIONS, game_from_record

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
