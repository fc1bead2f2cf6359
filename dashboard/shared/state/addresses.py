"""What each page may keep in its address: one schema per parameter, read by :func:`dashboard.shared.state.urlstate.decode`.

Each :class:`~dashboard.shared.state.urlstate.Address` says what the parameter's state document may hold, in the small
shape language of :mod:`dashboard.shared.state.urlstate`; the parts the solver has a loader for (a Lone Cowboy game
record, an Outlaws line, a Cactus Town round, each game's readings) are handed to that loader, so a document the
engine would refuse is refused here, in one line, before the page uses it (rule:X-bad-input).
"""

from __future__ import annotations

from functools import partial

from dashboard.nav import all_pages
from dashboard.shared.readings import rules_from_doc
from dashboard.shared.state.urlstate import (
    Address,
    Fields,
    Loaded,
    MapOf,
    Scalar,
    Text,
    Whole,
)
from solver.io.numbers import MAX_INT
from solver.registry import GAMES

# ----------------------------------------------------------------------------- every page: the readings

OPTIONS = MapOf(Text(60), Scalar(), most=60)
"""One game's readings as the address keeps them: {option: value}, only those not at their default."""

READINGS = Address("readings", "the readings in the address", Fields(
    optional={g.id: Loaded(partial(rules_from_doc, g.id), OPTIONS) for g in GAMES}, noun="game"))
"""``?readings=``: {game id: {option: value}}, each game's options checked by its engine's ``Rules``."""

AT = Address("at", "the step in the address", Whole(0, MAX_INT), plain=True)
"""``?at=``: the step of the line shown (ASCII digits; a step past the line's end shows its end)."""


# ----------------------------------------------------------------------------- tabs (any page)

def tab(labels: list[str], name: str = "tab") -> Address:
    """``?tab=``: the open tab of a page with tabs ``labels`` (the first one leaves the address clean)."""
    return Address(name, "the tab in the address", Text(200, choices=tuple(labels), noun="tab"), plain=True)


DOCUMENTS: tuple[Address, ...] = (READINGS, *(a for page in all_pages() for a in page.addresses))
"""Every state document an address may carry: the readings and each page's own (:mod:`dashboard.nav` lists them
with their pages; a game's room defines them, ``dashboard/<game>/addresses.py``)."""
"""Every encoded parameter of the dashboard (plain ones: :data:`AT` and :func:`tab`)."""
