"""The games Ruleslinger knows: the one list of them.

Each game has its registration in its own package (``solver/<game>/registration.py``, a
:class:`solver.registration.GameRegistration`); this module lists the registrations. Every module outside the games'
own packages that needs "each game" reads :data:`GAMES` here instead of naming the games (only this registry, the
command line's root and the dashboard's navigation name all three).
"""

from __future__ import annotations

from solver.cactus.registration import GAME as CACTUS
from solver.errors import BadInput
from solver.outlaws.registration import GAME as OUTLAWS
from solver.registration import GameRegistration
from solver.wagons.registration import GAME as WAGONS

GAMES: tuple[GameRegistration, ...] = (WAGONS, CACTUS, OUTLAWS)
"""Every game, in the order they are shown."""

BY_ID: dict[str, GameRegistration] = {g.id: g for g in GAMES}


def ids() -> tuple[str, ...]:
    """The games' ids, in the order they are shown."""
    return tuple(BY_ID)


def game(game_id: str) -> GameRegistration:
    """The game ``game_id``; BadInput naming the known ones otherwise."""
    if game_id not in BY_ID:
        raise BadInput(f"unknown game '{str(game_id)[:40]}' (known: {', '.join(BY_ID)})")
    return BY_ID[game_id]


def titles() -> dict[str, str]:
    """{game id: title}, in order."""
    return {g.id: g.title for g in GAMES}
