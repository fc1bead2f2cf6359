"""Cactus Town: The Lone Ranger's dashboard room (:class:`dashboard.room.Room`): its page and its Verification
section."""

from __future__ import annotations

from dashboard.ask import deck as deck_witness
from dashboard.cactus import addresses, verification
from dashboard.room import PageInfo, Room

PAGES = (
    PageInfo("cactus", "cactus/page.py", "Cactus Town", ":material/location_city:",
             "Marshal-arrival odds per round (exact fractions), a round companion that follows a real game "
             "(the live odds given the cards seen), the lone ranger's actions in a 5x5 town you set up, and "
             "duel odds.", (addresses.CACTUS,),
             (("cactus-town", "Cactus Town: the lone ranger's town", "cactus_town"),
              ("cactus-game", "Cactus Town: a followed game", "cactus_record")),
             tabs=("Marshal's arrival", "Follow a game", "Lone ranger's turn", "Duel odds")),
)

ROOM = Room("cactus", PAGES, verification, draw_witness=deck_witness.draw)
