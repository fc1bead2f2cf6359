"""The games Ruleslinger knows: the one list of them.

Every module outside the games' own packages that needs "each game" reads :data:`GAMES` here instead of naming
the games (only this registry, the command line's root and the dashboard's navigation name all three). A game
is its package (the game contract, :class:`solver.contract.GameContract`) with an id and a title; the
package's ``Rules`` are its readings.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from solver import cactus, outlaws, wagons
from solver.ask.model import DomainKind
from solver.cactus import odds as cactus_odds
from solver.cactus import questions as cactus_questions
from solver.cactus import verify as cactus_verify
from solver.cactus.verify import verdicts as cactus_verdicts
from solver.contract import GameContract
from solver.errors import BadInput
from solver.execution.plans import BatchKind
from solver.outlaws import questions as outlaws_questions
from solver.outlaws import verify as outlaws_verify
from solver.outlaws.search import playout as outlaws_playout
from solver.outlaws.verify import verdicts as outlaws_verdicts
from solver.readings.verdicts import Verdict
from solver.wagons import batches as wagons_batches
from solver.wagons import questions as wagons_questions
from solver.wagons import verify as wagons_verify
from solver.wagons.verify import verdicts as wagons_verdicts


@dataclass(frozen=True)
class GameInfo:
    """One game: ``id`` as the command line and the files spell it, its ``title`` and ``short`` name for people,
    its ``engine`` (the game package) and what its room states: ``verdicts()`` (every verdict the project states
    about it, rerun by ``ruleslinger readings impact``), ``verify(rules, options)`` (its invariant checks, one
    result shape: :func:`solver.verification.report`) and ``batches`` (its named batches, ``ruleslinger batch``)."""

    id: str
    title: str
    short: str
    engine: GameContract
    verdicts: Callable[[], list[Verdict]]
    verify: Callable[..., dict]
    batches: tuple[BatchKind, ...] = ()
    questions: tuple[DomainKind, ...] = ()

    @property
    def rules(self) -> type:
        """The game's frozen readings class (its ``Rules``)."""
        return self.engine.Rules


GAMES: tuple[GameInfo, ...] = (
    GameInfo("wagons", "Circle the Wagons: Lone Cowboy", "Lone Cowboy", wagons, wagons_verdicts.verdicts,
             wagons_verify.report, wagons_batches.BATCH_KINDS, wagons_questions.DOMAINS),
    GameInfo("cactus", "Cactus Town: The Lone Ranger", "Cactus Town", cactus, cactus_verdicts.verdicts,
             cactus_verify.report, cactus_odds.BATCH_KINDS, cactus_questions.DOMAINS),
    GameInfo("outlaws", "Outlaws: Last Man Standing", "Outlaws", outlaws, outlaws_verdicts.verdicts,
             outlaws_verify.report, outlaws_playout.BATCH_KINDS, outlaws_questions.DOMAINS),
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
