"""The dashboard's navigation: every page, its file, its address and its section (one per game).

Page files live in one room per game (``dashboard/wagons/``, ``dashboard/cactus/``, ``dashboard/outlaws/``) and
the checks' room (``dashboard/checks/``); ``name`` is the page's address (``/wagons_sheet``), kept stable so
bookmarks keep working. Section titles are the games' titles from :mod:`solver.registry`.
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.registry import BY_ID


@dataclass(frozen=True)
class PageInfo:
    """One page: its address ``name``, its ``file`` (relative to ``dashboard/``), title, icon and purpose."""

    name: str
    file: str
    title: str
    icon: str
    what: str


HOME = PageInfo("home", "home.py", "Home", ":material/home:", "What each section does.")
MY_GAMES = PageInfo("my_games", "shared/my_games.py", "My games", ":material/bookmarks:",
                    "The games and towns saved in this browser: resume, rename or delete them. Each page's work "
                    "is also kept as you go, so a reload, a closed tab or a restarted server loses nothing.")

PAGES: dict[str, list[PageInfo]] = {
    "Ruleslinger": [HOME, MY_GAMES],
    BY_ID["wagons"].title: [
        PageInfo("wagons_sheet", "wagons/sheet/page.py", "Lone Cowboy score sheet", ":material/grid_view:",
                 "Build your town card by card, list the opponent's pile, and see both scores, the winner "
                 "and illegal placements; ask the optimizer for the best possible layout of your cards."),
        PageInfo("wagons_play", "wagons/play_page.py", "Lone Cowboy play-along", ":material/play_circle:",
                 "Play a seeded deal against the automated opponent, or follow a game at the table by tapping "
                 "each card as it is revealed: a turn is two taps (a circle card, then a square of your town), "
                 "the opponent plays by itself and says which rule made its draft. The game is kept in this "
                 "browser, in the page's address and as a game file."),
        PageInfo("wagons_scenarios", "wagons/scenarios/page.py", "Lone Cowboy scenarios", ":material/bar_chart:",
                 "Simulated outcomes per scenario and policy: margin histograms, win rates, difficulty."),
    ],
    BY_ID["cactus"].title: [
        PageInfo("cactus", "cactus/page.py", "Cactus Town", ":material/location_city:",
                 "Marshal-arrival odds per round (exact fractions), a round companion that follows a real game "
                 "(the live odds given the cards seen), the lone ranger's actions in a 5x5 town you set up, and "
                 "duel odds."),
    ],
    BY_ID["outlaws"].title: [
        PageInfo("outlaws", "outlaws/page.py", "Outlaws", ":material/groups:",
                 "Edit a position, see every legal action, victory and sudden-death banners, whether "
                 "either side can still win (with a witnessing line), dead positions, and playout statistics."),
        PageInfo("outlaws_table", "outlaws/table_page.py", "Outlaws table", ":material/playing_cards:",
                 "Play a position forward: click a legal action, pick or draw what hidden information decides "
                 "(exact chances), undo and step through the line, save and load it; Main Street as each player "
                 "knows it."),
    ],
    "Checks": [
        PageInfo("verification", "checks/page.py", "Verification", ":material/verified:",
                 "Every invariant check of the three games (holds or fails, counterexamples, the rule "
                 "passage), every verdict across the readings, and the rules register, where you choose the "
                 "reading of each open question."),
    ],
}

BY_NAME: dict[str, PageInfo] = {p.name: p for entries in PAGES.values() for p in entries}


def page_file(name: str) -> str:
    """The file of page ``name`` relative to ``dashboard/`` (what ``st.switch_page`` and ``st.page_link`` take)."""
    return BY_NAME[name].file


def page(name: str) -> PageInfo:
    return BY_NAME[name]
