"""What each page may keep in its address: one schema per parameter, read by :func:`dashboard.shared.work.urldoc.decode`.

Each :class:`~dashboard.shared.work.urldoc.Address` says what the parameter's work document may hold, in the small
shape language of :mod:`dashboard.shared.work.urldoc`; the parts the solver has a loader for (a Lone Cowboy game
record, an Outlaws line, a Cactus Town round, each game's readings) are handed to that loader, so a document the
engine would refuse is refused here, in one line, before the page uses it (rule:X-bad-input).
"""

from __future__ import annotations

from dashboard.shared.readings import OPTIONS, READINGS
from dashboard.shared.work.urldoc import Address, Text, Whole
from solver.io.numbers import MAX_INT

__all__ = ["OPTIONS", "READINGS", "AT", "tab"]

AT = Address("at", "the step in the address", Whole(0, MAX_INT), plain=True)
"""``?at=``: the step of the line shown (ASCII digits; a step past the line's end shows its end)."""


# ----------------------------------------------------------------------------- tabs (any page)

def tab(labels: list[str], name: str = "tab") -> Address:
    """``?tab=``: the open tab of a page with tabs ``labels`` (the first one leaves the address clean)."""
    return Address(name, "the tab in the address", Text(200, choices=tuple(labels), noun="tab"), plain=True)
