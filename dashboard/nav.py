"""The dashboard's navigation: every page, its file, its address and its section (one per game).

Each game's pages, Verification section and start-up hook are its room's record (``dashboard/<game>/room.py``,
:class:`dashboard.room.Room`); this module lists the rooms, adds the pages that belong to no game (Home, My games,
the Verification and Ask pages) and gathers what the app needs of all of them. ``name`` is a page's address (``/wagons_sheet``),
kept stable so bookmarks keep working; section titles are the games' titles from :mod:`solver.registry`.

The navigation is one of the three places that name every game (with :mod:`solver.registry` and the command line's
root).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import streamlit as st

from dashboard.ask import addresses as ask_addresses
from dashboard.cactus.room import ROOM as CACTUS
from dashboard.outlaws.room import ROOM as OUTLAWS
from dashboard.room import PageInfo, Room, VerificationSection
from dashboard.shared.readings import READINGS
from dashboard.shared.work.urldoc import Address
from dashboard.wagons.room import ROOM as WAGONS
from solver.registry import BY_ID

ROOMS: tuple[Room, ...] = (WAGONS, CACTUS, OUTLAWS)
"""Every game's room, in the order of the navigation."""

HOME = PageInfo("home", "home.py", "Home", ":material/home:", "What each section does.")
MY_GAMES = PageInfo("my_games", "shared/my_games.py", "My games", ":material/bookmarks:",
                    "The games and towns saved in this browser: resume, rename or delete them. Each page's work "
                    "is also kept as you go, so a reload, a closed tab or a restarted server loses nothing.")
VERIFICATION = PageInfo("verification", "verification/page.py", "Verification", ":material/verified:",
                        "Every invariant check of the three games (holds or fails, counterexamples, the rule "
                        "passage), every verdict across the readings, and the rules register, where you choose the "
                        "reading of each open question.",
                        tabs=("Invariant checks", "Verdicts across readings", "Rules register and readings"))

ASK = PageInfo("ask", "ask/page.py", "Ask a rules question", ":material/contact_support:",
               "Put a rules question of your own to any game: what it ranges over, what it asks, conditions "
               "from the game's own measures. The answer comes with its proof or estimate, the example or "
               "counterexample drawn, and the readings it rests on; the shipped questions are one tap each.",
               (ask_addresses.ASK,), (("ask-question", "Rules question and its answer", "ask_question"),))

PAGES: dict[str, list[PageInfo]] = {
    "Ruleslinger": [HOME, MY_GAMES],
    **{BY_ID[room.game].title: list(room.pages) for room in ROOMS},
    "Verify and ask": [VERIFICATION, ASK],
}

VERIFICATION_SECTIONS: dict[str, VerificationSection] = {room.game: room.verification for room in ROOMS}
"""Each game's section of the Verification page (its room's ``verification.py``), by game id."""

WITNESSES: dict[str, Callable[[dict[str, Any]], bool]] = {room.game: room.draw_witness for room in ROOMS
                                                           if room.draw_witness is not None}
"""Each game's drawing of an answer's witness on the "Ask a rules question" page (its room's; True when drawn, else
the page shows it as a table), by game id."""

BY_NAME: dict[str, PageInfo] = {p.name: p for entries in PAGES.values() for p in entries}

DOCUMENTS: tuple[Address, ...] = (READINGS, *(a for entries in PAGES.values() for p in entries for a in p.addresses))
"""Every work document an address may carry: the readings and each page's own (a game's room defines them,
``dashboard/<game>/addresses.py``)."""


def page_file(name: str) -> str:
    """The file of page ``name`` relative to ``dashboard/`` (what ``st.switch_page`` and ``st.page_link`` take)."""
    return BY_NAME[name].file


def page(name: str) -> PageInfo:
    return BY_NAME[name]


def all_pages() -> list[PageInfo]:
    """Every page, in the order of the navigation."""
    return [p for entries in PAGES.values() for p in entries]


def start_rooms() -> None:
    """Each room's start-up hook, once at the start of every page run (before the page)."""
    for room in ROOMS:
        if room.start is not None:
            room.start()


def page_header(name: str) -> None:
    """Title and one-line purpose of the page ``name``."""
    from dashboard.shared.fit import whole_titles

    info = page(name)
    whole_titles()
    st.title(info.title)
    st.caption(info.what)
