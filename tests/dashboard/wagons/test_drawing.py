"""The one Lone Cowboy renderer (:mod:`dashboard.wagons.drawing`): every terrain and icon the engine's cards carry
has its colour and badge, and a terrain looks the same in a town, on a card, in the key and on the town you build by
tapping."""

from __future__ import annotations

import re

import pytest

from dashboard.wagons import drawing, town_grid
from dashboard.wagons import view as wv
from solver.wagons.cards import load_cards
from tests.support.dashboard.kept import svg_text

TERRAINS = sorted({t.terrain for c in load_cards() for t in c.territories})
ICONS = sorted({t.icon for c in load_cards() for t in c.territories})


def test_every_terrain_and_icon_of_the_cards_has_its_colour_and_badge():
    assert set(TERRAINS) <= set(drawing.TERRAIN_COLOURS) and set(ICONS) <= set(drawing.ICONS)
    cards = "".join(wv.card_preview(c.id) for c in load_cards())
    assert f">{drawing.UNKNOWN_ICON[1]}</span>" not in cards and "#fafafa" not in cards  # no unknown icon or terrain
    assert sorted(set(re.findall(r"<b>(\w+)</b>", cards))) == ICONS  # each icon named on the cards


@pytest.mark.parametrize("terrain", TERRAINS)
def test_a_terrain_has_one_colour_in_every_drawing(terrain):
    colour = drawing.TERRAIN_COLOURS[terrain]
    town = svg_text(drawing.town_svg({(0, 0): {"terrain": terrain, "icon": "Cow", "card": 3}}, caption="One square"))
    assert f"fill='{colour}'" in town and f">{terrain}</text>" in town
    assert f"background:{colour}" in drawing.card_html(3, [(terrain, "Cow")] * 4)
    assert f"background:{colour}'></span> {terrain}" in drawing.legend_html()
    assert f"background:{colour}!important" in town_grid._cell_css("k", {"terrain": terrain, "icon": "Cow"}, False)


def test_the_overlay_and_the_town_draw_the_same_square_alike():
    cell = {"terrain": "Water", "icon": "Fort", "card": 5}
    alone = svg_text(drawing.town_svg({(1, 2): cell}))
    both = svg_text(drawing.overlay_svg({(1, 2): cell}, {(1, 2): cell}))
    colour, (badge, letter) = drawing.TERRAIN_COLOURS["Water"], drawing.ICONS["Fort"]
    for svg in (alone, both):
        assert f"fill='{colour}'" in svg and f"fill='{badge}'" in svg and f">{letter}</text>" in svg
    assert "class='differs'" not in both  # the same territory in both towns: nothing outlined
