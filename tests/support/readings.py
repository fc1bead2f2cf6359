"""The suite's record of exercised readings (tests/conftest.py): which listed alternatives no test built."""

from __future__ import annotations

from collections.abc import Iterable

from solver.readings.base import canon
from solver.readings.options import GAMES, game_readings, value_key


def unexercised(seen: Iterable[tuple[str, str, str]]) -> list[str]:
    """``game.reading=value`` for every listed alternative no recorded rules object had; ``seen``
    holds (game, reading, :func:`value_key`) triples. A numeric parameter needs one value other than
    its default; a reading with named values (or a bool) needs each of them."""
    seen = set(seen)
    missing = []
    for game in GAMES:
        for r in game_readings(game):
            if r.kind == "number":
                if not any(g == game and n == r.name and k != value_key(r.default) for g, n, k in seen):
                    missing.append(f"{game}.{r.name}=<any value but {canon(r.default)}>")
                continue
            missing += [f"{game}.{r.name}={canon(v)}" for v in r.values if (game, r.name, value_key(v)) not in seen]
    return missing
