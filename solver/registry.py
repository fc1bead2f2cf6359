"""The games Ruleslinger knows: the one list of them.

Every module outside the games' own packages that needs "each game" reads :data:`GAMES` here instead of naming
the games (only this registry, the command line's root and the dashboard's navigation name all three). A game
is its package (the game contract, :class:`solver.contract.GameContract`) with an id and a title; the
package's ``Rules`` are its readings.
"""

from __future__ import annotations

from dataclasses import dataclass

from solver import cactus, outlaws, wagons
from solver.contract import GameContract
from solver.errors import BadInput


@dataclass(frozen=True)
class GameInfo:
    """One game: ``id`` as the command line and the files spell it, its ``title`` and ``short`` name for people,
    and its ``engine`` (the game package)."""

    id: str
    title: str
    short: str
    engine: GameContract

    @property
    def rules(self) -> type:
        """The game's frozen readings class (its ``Rules``)."""
        return self.engine.Rules


GAMES: tuple[GameInfo, ...] = (
    GameInfo("wagons", "Circle the Wagons: Lone Cowboy", "Lone Cowboy", wagons),
    GameInfo("cactus", "Cactus Town: The Lone Ranger", "Cactus Town", cactus),
    GameInfo("outlaws", "Outlaws: Last Man Standing", "Outlaws", outlaws),
)

BY_ID: dict[str, GameInfo] = {g.id: g for g in GAMES}


def ids() -> tuple[str, ...]:
    """The games' ids, in the order they are shown."""
    return tuple(BY_ID)


def game(game_id: str) -> GameInfo:
    """The game ``game_id``; BadInput naming the known ones otherwise."""
    if game_id not in BY_ID:
        raise BadInput(f"unknown game '{str(game_id)[:40]}' (known: {', '.join(BY_ID)})")
    return BY_ID[game_id]


def titles() -> dict[str, str]:
    """{game id: title}, in order."""
    return {g.id: g.title for g in GAMES}
