"""The towns of given cards: the count of position sequences, and the count against the towns listed."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.ask.engine import wilson
from solver.ask.model import Domain
from solver.wagons.questions import DOMAINS
from solver.wagons.questions.layouts import (
    MOST_PLACES,
    POSITION_SEQUENCES,
    draw_town,
    position_sequences,
    town_count,
    towns_of,
)
from solver.wagons.readings import WagonsReadings
from solver.wagons.town import Placement, Town, legal_placements


def _shape_counts(n: int, most: list | None = None) -> int:
    """Position sequences of ``n`` cards by counting occupied shapes, from the engine's placements of one card on
    each shape (a card that looks different turned, unturned), independent of :func:`position_sequences`;
    ``most`` gets the most places a card has on a shape of each number of cards."""
    block = ((0, 0), (1, 0), (0, 1), (1, 1))
    layer = Counter({((0, 0),): 1})  # the cards' corners, one list per occupied shape (translated to 0, 0)
    shapes: dict = {}
    for _ in range(n - 1):
        nxt: Counter = Counter()
        places = 0
        for corners, many in layer.items():
            town = Town(tuple(Placement(c, x, y) for c, (x, y) in enumerate(corners)))
            spots = {(p.x, p.y) for p in legal_placements(town, 17)}
            places = max(places, len(spots))
            for x, y in spots:
                grown = corners + ((x, y),)
                cells = {(a + dx, b + dy) for a, b in grown for dx, dy in block}
                mx, my = min(a for a, _ in cells), min(b for _, b in cells)
                key = frozenset((a - mx, b - my) for a, b in cells)
                first = shapes.setdefault(key, tuple((a - mx, b - my) for a, b in grown))
                nxt[first] += many
        layer = nxt
        if most is not None:
            most.append(places)
    return sum(layer.values())


def test_the_position_sequence_counts_are_recounted_from_the_shapes():
    for n in (1, 2, 3, 4):
        assert _shape_counts(n) == POSITION_SEQUENCES[n] == len(position_sequences(n))
    most: list = []
    assert _shape_counts(5, most) == POSITION_SEQUENCES[5]
    assert most == list(MOST_PLACES[1:5])


def test_a_drawn_town_is_uniform_over_the_towns():
    cards = (4, 8, 9)
    towns = [t for t, _f in towns_of(cards)]
    rng = random.Random(3)
    counts = Counter(draw_town(cards, rng) for _ in range(4000))
    assert set(counts) <= set(towns)
    first_places = Counter(t.placements[1] for t in towns)  # a skewed event: the second card's place
    for place, many in list(first_places.items())[:6]:
        hits = sum(c for t, c in counts.items() if t.placements[1] == place)
        lo, hi = wilson(hits, 4000, z=3.29)
        assert lo <= many / len(towns) <= hi, place


@pytest.mark.deep
def test_the_six_card_count_is_recounted_from_the_shapes():
    most: list = []
    assert _shape_counts(6, most) == POSITION_SEQUENCES[6]
    assert most == list(MOST_PLACES[1:6])


@settings(max_examples=30, deadline=None)
@given(st.permutations(range(18)), st.integers(1, 3))
def test_the_count_is_the_number_of_towns_listed(order, n):
    cards = tuple(order[:n])
    towns = [t for t, _f in towns_of(cards)]
    assert len(towns) == town_count(cards) == len(set(towns))
    assert all(t.placements[0] == Placement(cards[0], 0, 0, 0) for t in towns)


def test_every_domain_meets_the_protocol_and_cites_its_rules():
    for kind in DOMAINS:
        params = {p.name: p.default for p in kind.params}
        params["cards"] = params.get("cards") or [3, 7]
        domain = kind.build(params, WagonsReadings())
        assert isinstance(domain, Domain)
        assert kind.source.startswith("rule:")
        for m in domain.measures().values():
            assert m.source.startswith("rule:"), m.name
