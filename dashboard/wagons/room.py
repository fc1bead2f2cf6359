"""Circle the Wagons: Lone Cowboy's dashboard room (:class:`dashboard.room.Room`): its pages, its Verification
section, and its start-up hook (the readings the player's cards settled, :mod:`dashboard.wagons.cards.reading`)."""

from __future__ import annotations

from dashboard.ask import town as town_witness
from dashboard.room import PageInfo, Room
from dashboard.wagons import addresses, verification
from dashboard.wagons.cards import reading as card_reading

PAGES = (
    PageInfo("wagons_sheet", "wagons/sheet/page.py", "Lone Cowboy score sheet", ":material/grid_view:",
             "Build your town card by card, list the opponent's pile, and see both scores, the winner "
             "and illegal placements; ask the optimizer for the best possible layout of your cards.",
             (addresses.SHEET,), (("wagons-town", "Lone Cowboy town", "wagons_sheet"),)),
    PageInfo("wagons_play", "wagons/play_page.py", "Lone Cowboy play-along", ":material/play_circle:",
             "Play a seeded deal against the automated opponent, or follow a game at the table by tapping "
             "each card as it is revealed: a turn is two taps (a circle card, then a square of your town), "
             "the opponent plays by itself and says which rule made its draft. The game is kept in this "
             "browser, in the page's address and as a game file.",
             (addresses.LC, addresses.LC_OWN), (("wagons-game", "Lone Cowboy game", "wagons_game"),)),
    PageInfo("wagons_scenarios", "wagons/scenarios/page.py", "Lone Cowboy scenarios", ":material/bar_chart:",
             "Simulated outcomes per scenario and policy: margin histograms, win rates, difficulty."),
)

ROOM = Room("wagons", PAGES, verification, start=card_reading.restore, draw_witness=town_witness.draw)
