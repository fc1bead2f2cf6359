"""A game's registration (as OpenSpiel's ``register_game``): one record per game, made in the game's own package
(``solver/<game>/registration.py``) and listed by :mod:`solver.registry`.

Everything the cross-game layers need of a game is here, so a new per-game knob touches only that game's package:
its engine (the game contract), its readings, its command-line group, its batches and their set-up flags, its
verdicts (each with its wording), its invariant checks and its question domains (:mod:`solver.ask`).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from solver.ask.model import DomainKind
from solver.contract import GameContract
from solver.execution.plans import BatchKind, Setting
from solver.readings.base import Readings
from solver.readings.verdicts import Verdict


@dataclass(frozen=True)
class GameRegistration:
    """One game: ``id`` as the command line and the files spell it, its ``title`` and ``short`` name for people, its
    ``engine`` (the game package), ``add_commands(games)`` (adds ``ruleslinger <id> ...``), ``verdicts()`` (every
    verdict the project states about it, rerun by ``ruleslinger readings impact``), ``verify(readings, options)``
    (its invariant checks, one result shape: :func:`solver.verification.report`), ``batches`` (its named batches,
    ``ruleslinger batch``) with the set-up flags they read (``batch_settings``), and ``questions`` (the domains a
    rules question of this game can range over, :mod:`solver.ask`)."""

    id: str
    title: str
    short: str
    engine: GameContract[Any, Any]
    add_commands: Callable[[argparse._SubParsersAction[Any]], None]
    verdicts: Callable[[], list[Verdict]]
    verify: Callable[..., dict[str, Any]]
    batches: tuple[BatchKind, ...] = ()
    batch_settings: tuple[Setting, ...] = ()
    questions: tuple[DomainKind, ...] = ()

    @property
    def readings(self) -> type[Readings]:
        """The game's frozen readings class (its ``Readings``)."""
        return self.engine.Readings
