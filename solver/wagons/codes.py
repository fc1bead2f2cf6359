"""The six terrains and six icons a territory shows (rule:W-cards), and their integer codes.

Defined once here: the data loader, the card table, the bitboard scorer, the compiled walk and the
solver encodings all read them from this module. A code is the name's index in :data:`TERRAINS` or
:data:`ICONS` (bit lane, array value or table column).
"""

from __future__ import annotations

__all__ = ["TERRAINS", "ICONS", "TERRAIN_CODE", "ICON_CODE", "DESERT", "FOREST", "MOUNTAINS", "PLAINS", "SNOW",
           "WATER", "BEER", "COW", "FORT", "GUN", "MINE", "WAGON"]

TERRAINS = ("Desert", "Forest", "Mountains", "Plains", "Snow", "Water")
ICONS = ("Beer", "Cow", "Fort", "Gun", "Mine", "Wagon")
DESERT, FOREST, MOUNTAINS, PLAINS, SNOW, WATER = range(len(TERRAINS))
BEER, COW, FORT, GUN, MINE, WAGON = range(len(ICONS))
TERRAIN_CODE = {t: i for i, t in enumerate(TERRAINS)}
ICON_CODE = {t: i for i, t in enumerate(ICONS)}
