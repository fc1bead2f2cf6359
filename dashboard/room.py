"""What a game's dashboard room gives the app: one record per game (its ``room.py``), listed by :mod:`dashboard.nav`.

A room holds all the dashboard knows of its game: its pages (:class:`PageInfo`: address, file, what it keeps in its
address, which saved items it resumes and its tabs), its section of the Verification page (:class:`VerificationSection`), its start-up
hook (run once at the start of every page run, before the page), and how it draws a question's witness
(:mod:`solver.ask`). The navigation, the app and the Verification page iterate the rooms; nothing else names a game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from dashboard.shared.work.urldoc import Address


@dataclass(frozen=True)
class PageInfo:
    """One page: its address ``name``, its ``file`` (relative to ``dashboard/``), title, icon and purpose."""

    name: str
    file: str
    title: str
    icon: str
    what: str
    addresses: tuple[Address, ...] = ()
    saves: tuple[tuple[str, str, str], ...] = ()
    """The kinds of saved item the page resumes: (kind, its label for people, the work key the page mirrors)."""
    tabs: tuple[str, ...] = ()
    """The labels of the page's tabs, in order (the page draws its tabs from them; the browser tests open each)."""


class VerificationSection(Protocol):
    """What a game's room gives the Verification page (its ``verification.py``): its section of the Invariant checks tab,
    and how its verdicts across the readings run."""

    IMPACT_SECONDS: float
    """A measured full run of the game's verdicts across the readings (the progress bar's estimate)."""
    IMPACT_GAMES: bool
    """Whether its verdicts play simulated games ("Games per scenario" applies)."""

    def section(self, title: str) -> None:
        """The game's checks: options, Run, and the last answer for these options."""


@dataclass(frozen=True)
class Room:
    """A game's room: ``game`` (its id in :mod:`solver.registry`), its ``pages``, its ``verification`` section, its
    ``start`` hook (None: nothing to do at the start of a run) and ``draw_witness(document)``, its drawing of a
    question's witness (True when drawn; None or False: the question page shows it as a table)."""

    game: str
    pages: tuple[PageInfo, ...]
    verification: VerificationSection
    start: Callable[[], None] | None = None
    draw_witness: Callable[[dict[str, Any]], bool] | None = None
