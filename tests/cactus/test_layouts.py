"""The exact deck layouts that tell apart any event kinds (``odds.deck_layouts(size, kinds)``) and the companion
following a game with them: lumping the untold cards is exact for what the told ones show."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import permutations
from math import perm

import pytest

from solver.cactus import companion, odds
from solver.cactus import events as ev
from solver.cactus.readings import CactusReadings


@pytest.mark.parametrize("kinds", [(), ("sandstorm",), ("fast-draw", "tumbleweed")])
def test_the_layouts_are_the_shuffles_of_the_real_cards_lumped(kinds):
    """Every ordered draw of 3 of the 17 physical cards, the untold ones renamed, has the layouts' chances."""
    cards = ev.table().cards()
    told = (*odds.DECK_KINDS, *kinds)
    fill = odds.placeholder(told)
    naive: Counter = Counter()
    for idx in permutations(range(len(cards)), 3):
        prefix = tuple(cards[i] if cards[i] in told else fill for i in idx)
        for slot in range(3):
            naive[ev.build_deck(prefix, 3, slot)] += Fraction(1, perm(len(cards), 3) * 3)
    layouts: Counter = Counter()
    for w, deck in odds.deck_layouts(3, kinds):
        layouts[deck] += w
    assert layouts == naive and len(layouts) == odds.layout_count(3, kinds)
    assert sum(layouts.values()) == 1 and fill not in kinds


def test_the_placeholder_is_never_a_told_kind():
    assert odds.placeholder() == odds.PLACEHOLDER
    assert odds.placeholder(("tumbleweed",)) not in (ev.TRAIN, ev.STAGECOACH, "tumbleweed")
    plain = [e.key for e in ev.table().events if not e.ends_game and e.deck_action is None]
    assert odds.placeholder(plain) is None


def test_the_companion_gives_the_same_odds_whatever_kinds_it_tells_apart():
    history = [companion.Record(event="sandstorm"), companion.Record(event="train", train_discard="shootout")]
    plain = companion.arrival(companion.follow(2, CactusReadings(), history)[-1])
    told = companion.arrival(companion.follow(2, CactusReadings(), history, kinds=("sandstorm", "shootout"))[-1])
    assert plain == told and sum(told.values()) == 1


def test_a_shortened_deck_ends_with_its_last_three_cards():
    dist = companion.arrival(companion.prior(3, CactusReadings(), cards=4))
    assert min(dist) == 2 and sum(dist.values()) == 1
