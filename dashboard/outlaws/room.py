"""Outlaws: Last Man Standing's dashboard room (:class:`dashboard.room.Room`): its pages and its Verification
section."""

from __future__ import annotations

from dashboard.ask import street as witness_street
from dashboard.outlaws import addresses, verification
from dashboard.room import PageInfo, Room

PAGES = (
    PageInfo("outlaws", "outlaws/page.py", "Outlaws", ":material/groups:",
             "Edit a position, see every legal action, victory and sudden-death banners, whether "
             "either side can still win (with a witnessing line), dead positions, and playout statistics.",
             (addresses.POS,), (("outlaws-position", "Outlaws position", "outlaws_position"),)),
    PageInfo("outlaws_table", "outlaws/table_page.py", "Outlaws table", ":material/playing_cards:",
             "Play a position forward: click a legal action, pick or draw what hidden information decides "
             "(exact chances), undo and step through the line, save and load it; Main Street as each player "
             "knows it.", (addresses.LINE,), (("outlaws-line", "Outlaws line of play", "outlaws_line"),)),
)

ROOM = Room("outlaws", PAGES, verification, draw_witness=witness_street.draw)
