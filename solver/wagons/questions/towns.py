"""Question domains over towns (rule:W-place): the legal towns of given cards, and the towns of any k cards of the deck.

- ``towns``: the cards given are placed in that order, each legally on arrival, later ones on top (as best-layout
  places them, :mod:`.layouts`), in a scenario, against an opponent pile (none by default). Every town counts once;
  a town and its half turn are one town. Up to 4 cards the towns are listed; from 5 the CP-SAT town model decides
  (:mod:`.search`, :mod:`.conditions`), and a chance over 5 to 7 cards is estimated from towns drawn uniformly.
- ``any-cards``: every ordered choice of ``k`` cards of the scenario's deck (the 16 fronts left once its goal cards
  are set aside, rule:W9, without the opponent pile's), each with every legal town of them; small ``k`` only. A
  chance over it too large to enumerate is estimated from seeded uniform draws.

Witness (both): ``{"kind": "town", "scenario", "town": {"placements": [{card, x, y, rot}, ...]}, "pile": [ids],
"scores": final_scores(...).to_dict()}``, the town as ``town_from_dict`` reads it and the sheet draws it.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from solver.ask.model import Found, Goal, Measure, Value
from solver.contract import draw
from solver.errors import BadInput
from solver.wagons.cards import check_card_ids, check_pile
from solver.wagons.data import WagonsData, load_data
from solver.wagons.game import goal_fronts
from solver.wagons.optimizer.problem import check_cards
from solver.wagons.questions import layouts
from solver.wagons.questions.measures import Position, position_measures, position_values
from solver.wagons.readings import WagonsReadings
from solver.wagons.scoring import final_scores, placements_features
from solver.wagons.town import Placement, Town, legal_placements

__all__ = ["TownsDomain", "AnyCardsDomain", "build_towns", "build_any_cards", "MOST_TOWNS", "MAX_K"]

MOST_TOWNS = 200_000
"""The most towns enumerated to decide a question: every town of 4 cards (182,440 when each later card looks
different turned; a few seconds), none of 5 (about 16 million)."""
MAX_K = 3
"""The most cards of ``any-cards``: every ordered choice of 3 of 16 cards has about 8 million towns (a chance is
estimated), 4 would have 2.7 billion."""


def _names(ids: Iterable[int]) -> str:
    return ", ".join(str(c) for c in ids)


def _scenario_name(data: WagonsData, scenario_id: str) -> str:
    return data.scenario(scenario_id).name


def _witness(town: Town, pile: tuple[int, ...], scenario: str, readings: WagonsReadings, data: WagonsData) -> dict:
    return {"kind": "town", "scenario": scenario, "town": {"placements": [p.to_dict() for p in town.placements]},
            "pile": list(pile), "scores": final_scores(town, pile, scenario, readings, data).to_dict()}


@dataclass(frozen=True)
class _Base:
    """What both town domains share: the scenario, the pile, the readings and the goals data read under them."""

    scenario: str
    pile: tuple[int, ...]
    readings: WagonsReadings
    data: WagonsData
    chance: bool = False
    noun: str = "town"
    _measures: dict = field(default_factory=dict, compare=False)

    def measures(self) -> Mapping[str, Measure]:
        if not self._measures:
            self._measures.update(position_measures(self.scenario, self.data, self.held()))
        return self._measures

    def held(self) -> int:
        return 16

    def values(self, element: Position, names: frozenset[str]) -> Mapping[str, Value]:
        return position_values(element, self.scenario, self.readings, self.data, names)

    def witness(self, element: Position) -> dict:
        return _witness(element.town, element.pile, self.scenario, self.readings, self.data)

    def against(self) -> str:
        return f" against the opponent pile {_names(self.pile)}" if self.pile else ""


@dataclass(frozen=True)
class TownsDomain(_Base):
    """The legal towns of ``cards`` in this order (module docstring)."""

    cards: tuple[int, ...] = ()
    most: int = MOST_TOWNS
    samples: int = 4_000
    """Towns drawn for an estimated chance (5 to 7 cards): fixed, so the estimate is reproducible."""

    @property
    def description(self) -> str:
        return (f"a town of cards {_names(self.cards)} in {_scenario_name(self.data, self.scenario)}"
                + self.against())

    def held(self) -> int:
        return len(self.cards)

    def size(self) -> int | None:
        n = layouts.town_count(self.cards)
        if n is None:
            raise BadInput(f"domain: the towns of {len(self.cards)} cards are far too many to list (more than "
                           f"{layouts.town_count(self.cards[:len(layouts.POSITION_SEQUENCES) - 1]):,}); at most "
                           f"{_most_cards()} cards are listed, or ask for the most or least of a total or a goal")
        return n

    def size_or_none(self) -> int | None:
        """The number of towns, None when too many to count (no error)."""
        return layouts.town_count(self.cards)

    def elements(self) -> Iterator[tuple[Fraction, Position]]:
        one = Fraction(1)
        for town, f in layouts.towns_of(self.cards):
            yield one, Position(town, f, self.pile)

    def sample(self, rng: random.Random) -> tuple[Fraction, Position]:
        """One town drawn uniformly (:func:`~.layouts.draw_town`), for a chance over 5 to 7 cards."""
        town = layouts.draw_town(self.cards, rng)
        return Fraction(1), Position(town, placements_features(town.placements), self.pile)

    def search(self, goal: Goal) -> Found | None:
        from solver.wagons.questions.search import town_search

        return town_search(self, goal)


def _most_cards() -> int:
    return max(n for n, k in enumerate(layouts.POSITION_SEQUENCES) if k * 2 ** max(n - 1, 0) <= MOST_TOWNS)


@dataclass(frozen=True)
class AnyCardsDomain(_Base):
    """Every ordered choice of ``k`` cards of the deck, with every legal town of them (module docstring)."""

    k: int = 2
    deck: tuple[int, ...] = ()

    @property
    def description(self) -> str:
        return (f"a town of any {self.k} cards of the deck in {_scenario_name(self.data, self.scenario)}"
                + self.against())

    def held(self) -> int:
        return self.k

    def card_orders(self) -> Iterator[tuple[int, ...]]:
        return itertools.permutations(self.deck, self.k)

    def size(self) -> int:
        return sum(layouts.town_count(c) or 0 for c in self.card_orders())

    def elements(self) -> Iterator[tuple[Fraction, Position]]:
        one = Fraction(1)
        for cards in self.card_orders():
            for town, f in layouts.towns_of(cards):
                yield one, Position(town, f, self.pile)

    def sample(self, rng: random.Random) -> tuple[Fraction, Position]:
        """One town drawn uniformly: a choice of cards by its number of towns, then a position sequence and turns."""
        orders = list(self.card_orders())
        weights = [math.prod(layouts.turns(c) for c in cards[1:]) for cards in orders]
        cards = orders[draw(weights, rng)]
        spots = rng.choice(layouts.position_sequences(self.k))
        town = Town()
        for i, (card, (x, y)) in enumerate(zip(cards, spots)):
            rot = 0 if i == 0 or layouts.turns(card) == 1 else rng.choice((0, 180))
            p = Placement(card, x, y, rot)
            if p not in legal_placements(town, card):
                raise AssertionError(f"position sequence {spots} is not legal for cards {cards}")
            town = Town(town.placements + (p,))
        return Fraction(1), Position(town, placements_features(town.placements), self.pile)


def _readings_data(readings: Any) -> tuple[WagonsReadings, WagonsData]:
    readings = readings if isinstance(readings, WagonsReadings) else WagonsReadings()
    return readings, load_data().for_readings(readings)


def _scenario(params: Mapping[str, Any], data: WagonsData) -> str:
    return data.scenario(str(params.get("scenario"))).id  # BadInput naming the known ones


def build_towns(params: Mapping[str, Any], readings: Any) -> TownsDomain:
    readings, data = _readings_data(readings)
    cards = check_cards(params.get("cards"))
    pile = check_pile(params.get("pile") or (), cards)
    return TownsDomain(_scenario(params, data), pile, readings, data, cards=cards)


def build_any_cards(params: Mapping[str, Any], readings: Any) -> AnyCardsDomain:
    readings, data = _readings_data(readings)
    scenario = _scenario(params, data)
    k = params.get("k")
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= MAX_K:
        raise BadInput(f"domain: k must be a whole number 1..{MAX_K} (more cards have billions of towns), got {k!r}")
    pile = check_card_ids(params.get("pile") or (), "pile")
    removed = goal_fronts(data.scenario(scenario).goals, data)
    set_aside = sorted(set(pile) & set(removed))
    if set_aside:
        raise BadInput(f"pile: card {set_aside[0]} is set aside with the scenario's goal cards (rule W9)")
    deck = tuple(c for c in range(len(data.cards)) if c not in removed and c not in pile)
    return AnyCardsDomain(scenario, pile, readings, data, k=k, deck=deck)
