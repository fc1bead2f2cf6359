"""What the Outlaws pages keep in their address (rule:X-bad-input): the table's line (``?line=``) and the position page's
position and seed (``?pos=``), read by :func:`dashboard.shared.work.urldoc.decode` and handed to the engine's own
loaders. The navigation lists them with their pages (:mod:`dashboard.nav`)."""

from __future__ import annotations

from typing import Any

from dashboard.shared.work.urldoc import Address, Loaded
from solver.io.numbers import MAX_INT
from solver.io.read import as_int
from solver.outlaws.line import line_from_json
from solver.outlaws.position_json import position_from_json

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
