"""The dashboard's navigation: every page, its file, its address and its section (one per game).

Page files live in one room per game (``dashboard/wagons/``, ``dashboard/cactus/``, ``dashboard/outlaws/``) and
the checks' room (``dashboard/checks/``); ``name`` is the page's address (``/wagons_sheet``), kept stable so
bookmarks keep working. Section titles are the games' titles from :mod:`solver.registry`. A page also names what
it keeps in its address (``addresses``: the schemas of its room's ``addresses.py``) and the kinds of saved item it
resumes from My games (``saves``: kind -> its label for people and the work key the page mirrors).

The navigation is one of the three places that name every game (with :mod:`solver.registry` and the command line's
root): :data:`CHECKS` gives each game's section of the Verification page, from its room's ``checks.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from dashboard.ask import addresses as ask_addresses
from dashboard.ask import deck as cactus_witness
from dashboard.ask import street as outlaws_witness
from dashboard.ask import town as wagons_witness
from dashboard.cactus import addresses as cactus_addresses
from dashboard.cactus import checks as cactus_checks
from dashboard.checks.results import CheckRoom
from dashboard.outlaws import addresses as outlaws_addresses
from dashboard.outlaws import checks as outlaws_checks
from dashboard.shared.state.urlstate import Address
from dashboard.wagons import addresses as wagons_addresses
from dashboard.wagons import checks as wagons_checks
from solver.registry import BY_ID


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


HOME = PageInfo("home", "home.py", "Home", ":material/home:", "What each section does.")
MY_GAMES = PageInfo("my_games", "shared/my_games.py", "My games", ":material/bookmarks:",
                    "The games and towns saved in this browser: resume, rename or delete them. Each page's work "
                    "is also kept as you go, so a reload, a closed tab or a restarted server loses nothing.")

PAGES: dict[str, list[PageInfo]] = {
    "Ruleslinger": [HOME, MY_GAMES],
    BY_ID["wagons"].title: [
        PageInfo("wagons_sheet", "wagons/sheet/page.py", "Lone Cowboy score sheet", ":material/grid_view:",
                 "Build your town card by card, list the opponent's pile, and see both scores, the winner "
                 "and illegal placements; ask the optimizer for the best possible layout of your cards.",
                 (wagons_addresses.SHEET,), (("wagons-town", "Lone Cowboy town", "wagons_sheet"),)),
        PageInfo("wagons_play", "wagons/play_page.py", "Lone Cowboy play-along", ":material/play_circle:",
                 "Play a seeded deal against the automated opponent, or follow a game at the table by tapping "
                 "each card as it is revealed: a turn is two taps (a circle card, then a square of your town), "
                 "the opponent plays by itself and says which rule made its draft. The game is kept in this "
                 "browser, in the page's address and as a game file.",
                 (wagons_addresses.LC, wagons_addresses.LC_OWN), (("wagons-game", "Lone Cowboy game", "wagons_game"),)),
        PageInfo("wagons_scenarios", "wagons/scenarios/page.py", "Lone Cowboy scenarios", ":material/bar_chart:",
                 "Simulated outcomes per scenario and policy: margin histograms, win rates, difficulty."),
    ],
    BY_ID["cactus"].title: [
        PageInfo("cactus", "cactus/page.py", "Cactus Town", ":material/location_city:",
                 "Marshal-arrival odds per round (exact fractions), a round companion that follows a real game "
                 "(the live odds given the cards seen), the lone ranger's actions in a 5x5 town you set up, and "
                 "duel odds.", (cactus_addresses.CACTUS,),
                 (("cactus-town", "Cactus Town: the lone ranger's town", "cactus_town"),
                  ("cactus-game", "Cactus Town: a followed game", "cactus_record"))),
    ],
    BY_ID["outlaws"].title: [
        PageInfo("outlaws", "outlaws/page.py", "Outlaws", ":material/groups:",
                 "Edit a position, see every legal action, victory and sudden-death banners, whether "
                 "either side can still win (with a witnessing line), dead positions, and playout statistics.",
                 (outlaws_addresses.POS,), (("outlaws-position", "Outlaws position", "outlaws_position"),)),
        PageInfo("outlaws_table", "outlaws/table_page.py", "Outlaws table", ":material/playing_cards:",
                 "Play a position forward: click a legal action, pick or draw what hidden information decides "
                 "(exact chances), undo and step through the line, save and load it; Main Street as each player "
                 "knows it.", (outlaws_addresses.LINE,), (("outlaws-line", "Outlaws line of play", "outlaws_line"),)),
    ],
    "Checks": [
        PageInfo("verification", "checks/page.py", "Verification", ":material/verified:",
                 "Every invariant check of the three games (holds or fails, counterexamples, the rule "
                 "passage), every verdict across the readings, and the rules register, where you choose the "
                 "reading of each open question."),
        PageInfo("ask", "ask/page.py", "Ask a rules question", ":material/contact_support:",
                 "Put a rules question of your own to any game: what it ranges over, what it asks, conditions "
                 "from the game's own measures. The answer comes with its proof or estimate, the example or "
                 "counterexample drawn, and the readings it rests on; the shipped questions are one tap each.",
                 (ask_addresses.ASK,), (("ask-question", "Rules question and its answer", "ask_question"),)),
    ],
}

CHECKS: dict[str, CheckRoom] = {"wagons": wagons_checks, "cactus": cactus_checks, "outlaws": outlaws_checks}
"""Each game's section of the Verification page (its room's ``checks.py``), by game id."""

WITNESSES: dict[str, Callable[[Any], bool]] = {"wagons": wagons_witness.draw, "cactus": cactus_witness.draw,
                                               "outlaws": outlaws_witness.draw}
"""Each game's drawing of an answer's witness on the "Ask a rules question" page (True when drawn; else the page shows
it as a table), by game id."""

BY_NAME: dict[str, PageInfo] = {p.name: p for entries in PAGES.values() for p in entries}


def page_file(name: str) -> str:
    """The file of page ``name`` relative to ``dashboard/`` (what ``st.switch_page`` and ``st.page_link`` take)."""
    return BY_NAME[name].file


def page(name: str) -> PageInfo:
    return BY_NAME[name]


def all_pages() -> list[PageInfo]:
    """Every page, in the order of the navigation."""
    return [p for entries in PAGES.values() for p in entries]
