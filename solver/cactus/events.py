"""The event deck for 2-5 players and the 11 event effects (data: ``scenarios/cactus/events.toml``).

rule:C-event-deck builds the deck; rule:C-event-draw draws one event per round before the action
phase. The round effects (rule:C-ev-sandstorm, rule:C-ev-disorder, rule:C-ev-distraction,
rule:C-ev-dried-well, rule:C-ev-snake, rule:C-ev-shootout, rule:C-ev-fast-draw, rule:C-ev-tumbleweed)
become a :class:`RoundEffects` value that the duel odds and the movement code read; the deck effects
(rule:C-ev-train, rule:C-ev-stagecoach, rule:C-ev-marshal) and the duel discard (rule:C-duel-discard,
rule:C4) change the :class:`EventsInPlay`. Every transition returns all its outcomes with exact
probabilities, so the odds enumerate them and the Monte Carlo samples them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from fractions import Fraction
from functools import lru_cache
from math import comb
from pathlib import Path

from solver.cactus.readings import CactusReadings
from solver.errors import BadInput
from solver.io.read import read_toml
from solver.paths import SCENARIOS

EVENTS_FILE = SCENARIOS / "cactus" / "events.toml"
MARSHAL = "marshals-arrival"
TRAIN = "train"
STAGECOACH = "stagecoach"


class EndCause(StrEnum):
    """What ended a game (equal to the strings the files carry): the marshal's arrival drawn from the solo deck
    (rule:C-solo-marshal), revealed as the round's event (rule:C-ev-marshal), reached by the Train's discard
    (rule:C-ev-train) or by a duel's discard (rule:C4 "revealed"); or, with players, the event deck used up
    without him (rule:C4 "discarded": he never comes, and nobody has won). Only the first four are a game's
    ``end_cause``; the last is the game contract's :func:`solver.cactus.game.outcome` of such an end."""

    SOLO_DECK = "solo-deck"
    EVENT = "event"
    TRAIN = "train"
    DUEL = "duel"
    DECK_USED_UP = "deck-used-up"


EVENT_DECK_ENDS = (EndCause.EVENT, EndCause.TRAIN, EndCause.DUEL)
"""The event deck's own ways to bring the marshal (an :class:`EventsInPlay`'s ``end_cause``)."""


@dataclass(frozen=True)
class Event:
    """One event card kind as printed (number, name, count, effect text) plus its encoding."""

    number: int
    key: str
    name: str
    count: int
    effect: str
    second_shot: bool = True
    may_swap_second_shot: bool = False
    initiator_modifier: int = 0
    deck_action: str | None = None
    draw: int = 0
    single_standee: str | None = None
    early_duel_modifier: int | None = None
    dice_per_roll: int = 1
    ends_game: bool = False


_EVENT_KEYS = {"number": int, "key": str, "name": str, "count": int, "effect": str, "second_shot": bool,
               "may_swap_second_shot": bool, "initiator_modifier": int, "deck_action": str, "draw": int,
               "single_standee": str, "early_duel_modifier": int, "dice_per_roll": int, "ends_game": bool}


@dataclass(frozen=True)
class EventTable:
    events: tuple[Event, ...]
    sizes: dict  # players -> cards in the event deck (excluding the marshal's arrival)
    marshal_among_bottom: int

    def get(self, key: str) -> Event:
        for e in self.events:
            if e.key == key:
                return e
        raise BadInput(f"unknown event '{key}' (known: {', '.join(e.key for e in self.events)})")

    def cards(self) -> tuple[str, ...]:
        """The 17 non-marshal event cards, one key per physical card."""
        return tuple(e.key for e in self.events if not e.ends_game for _ in range(e.count))


def load_table(path: Path = EVENTS_FILE) -> EventTable:
    """Read and validate the event table (a BadInput names the bad entry)."""
    data = read_toml(path)
    events = []
    for i, entry in enumerate(data.get("event", [])):
        where = f"{path.name}: event #{i + 1}"
        for key, value in entry.items():
            kind = _EVENT_KEYS.get(key)
            if kind is None:
                raise BadInput(f"{where}: unknown key '{key}'")
            if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
                raise BadInput(f"{where}.{key}: expected {kind.__name__}")
        for key in ("number", "key", "name", "count", "effect"):
            if key not in entry:
                raise BadInput(f"{where}: missing '{key}'")
        events.append(Event(**entry))
    if sum(e.count for e in events) != 18 or sum(e.count for e in events if e.ends_game) != 1:
        raise BadInput(f"{path.name}: expected 18 event cards with exactly one game-ending card")
    deck = data.get("deck", {})
    sizes = {int(k): int(v) for k, v in deck.get("sizes", {}).items()}
    return EventTable(tuple(events), sizes, int(deck.get("marshal_among_bottom", 3)))


@lru_cache(maxsize=1)
def table() -> EventTable:
    return load_table()


def deck_size(players: int) -> int:
    """Cards in the event deck before the marshal's arrival is added (rule:C-event-deck)."""
    sizes = table().sizes
    if players not in sizes:
        raise BadInput(f"players: {players} is not one of {', '.join(map(str, sorted(sizes)))} (the event deck is for 2-5 players)")
    return sizes[players]


def build_deck(order: Sequence[str], size: int, marshal_slot: int) -> tuple[str, ...]:
    """The event deck, top first (rule:C-event-deck).

    ``order`` is the shuffled 17 cards (the first ``size`` are drawn face down); the marshal's
    arrival is shuffled with the bottom 2: ``marshal_slot`` 0, 1, 2 puts it 3rd-, 2nd-last or last.
    """
    cards = tuple(order[:size])
    if len(cards) < size or size < 2:
        raise BadInput(f"event deck: need {size} cards, got {len(cards)}")
    if MARSHAL in cards:
        raise BadInput("event deck: the marshal's arrival is set aside before drawing")
    if marshal_slot not in (0, 1, 2):
        raise BadInput(f"event deck: marshal slot {marshal_slot} is not 0, 1 or 2")
    head, bottom = cards[:-2], list(cards[-2:])
    bottom.insert(marshal_slot, MARSHAL)
    return head + tuple(bottom)


@dataclass(frozen=True)
class RoundEffects:
    """What the round's event changes for everyone (read by duel.py and the movement code)."""

    event: str | None = None
    second_shot: bool = True  # rule:C-ev-sandstorm
    may_swap_second_shot: bool = False  # rule:C-ev-disorder
    initiator_modifier: int = 0  # rule:C-ev-distraction
    early_duel_modifier: int | None = None  # rule:C-ev-shootout
    dice_per_roll: int = 1  # rule:C-ev-fast-draw
    single_standee: tuple[str, ...] = ()  # rule:C-ev-dried-well, rule:C-ev-snake

    def to_dict(self) -> dict:
        return {"event": self.event, "second_shot": self.second_shot,
                "may_swap_second_shot": self.may_swap_second_shot,
                "initiator_modifier": self.initiator_modifier, "early_duel_modifier": self.early_duel_modifier,
                "dice_per_roll": self.dice_per_roll, "single_standee": list(self.single_standee)}


def round_effects(key: str | None) -> RoundEffects:
    """The round effects of the event drawn this round (rule:C-ev-tumbleweed: none at all)."""
    if key is None:
        return RoundEffects()
    e = table().get(key)
    return RoundEffects(event=key, second_shot=e.second_shot, may_swap_second_shot=e.may_swap_second_shot,
                        initiator_modifier=e.initiator_modifier, early_duel_modifier=e.early_duel_modifier,
                        dice_per_roll=e.dice_per_roll,
                        single_standee=(e.single_standee,) if e.single_standee else ())


def standees_allowed(action: str, party_standees: int, effects: RoundEffects) -> int:
    """How many standees a party may move with RUN ALL / SNEAK ALL this round.

    rule:C-ev-dried-well rule:C-ev-snake: under Dried up water well (RUN ALL) or Snake in my boots
    (SNEAK ALL) only a single standee per action; parties with one standee (the lone ranger) are
    not affected.
    """
    if party_standees < 1:
        raise BadInput(f"party_standees: {party_standees} must be at least 1")
    return 1 if _action_key(action) in {_action_key(a) for a in effects.single_standee} else party_standees


def _action_key(action: str) -> str:
    """``RUN ALL``, ``run-all``, ``Run_All`` alike (the icon syntax writes RUN-ALL)."""
    return " ".join(action.upper().replace("-", " ").replace("_", " ").split())


def disorder_swap(programmed: tuple, second_shot, index: int, effects: RoundEffects) -> tuple[tuple, None]:
    """rule:C-ev-disorder: when revealing, replace the programmed card at ``index`` with the card set
    aside for the second shot; the second shot is then given up (returned as None)."""
    if not effects.may_swap_second_shot:
        raise BadInput("disorder swap: only in a Disorder round")
    if second_shot is None:
        raise BadInput("disorder swap: no second shot card was set aside")
    if not 0 <= index < len(programmed):
        raise BadInput(f"disorder swap: card {index} is not one of the {len(programmed)} programmed cards")
    return programmed[:index] + (second_shot,) + programmed[index + 1:], None


@dataclass(frozen=True)
class EventsInPlay:
    """The event deck in play: ``deck`` top first, ``discard`` as a sorted multiset."""

    deck: tuple[str, ...]
    discard: tuple[str, ...] = ()
    round: int = 0
    current: str | None = None
    ended: bool = False
    end_round: int | None = None
    end_cause: EndCause | None = None  # one of EVENT_DECK_ENDS
    stagecoach_drew: tuple[str, ...] = ()

    def effects(self) -> RoundEffects:
        return round_effects(self.current)


Outcomes = tuple[tuple[Fraction, EventsInPlay], ...]
ONE = Fraction(1)


def _discard(state: EventsInPlay, *cards: str) -> EventsInPlay:
    return replace(state, discard=tuple(sorted(state.discard + cards)))


def _end(state: EventsInPlay, cause: EndCause) -> EventsInPlay:
    return replace(state, ended=True, end_round=state.round, end_cause=cause)


def start_round(state: EventsInPlay, readings: CactusReadings = CactusReadings()) -> Outcomes:
    """Next round: draw the top event and apply it (rule:C-event-draw); empty deck: no event."""
    if state.ended:
        return ((ONE, state),)
    state = replace(state, round=state.round + 1, current=None, stagecoach_drew=())
    if not state.deck:
        return ((ONE, state),)
    key, rest = state.deck[0], state.deck[1:]
    return apply_event(replace(state, deck=rest, current=key), key, readings)


def apply_event(state: EventsInPlay, key: str, readings: CactusReadings = CactusReadings()) -> Outcomes:
    """Apply one revealed event (already removed from the deck) and discard it."""
    e = table().get(key)
    if e.ends_game:  # rule:C-ev-marshal
        return ((ONE, _end(state, EndCause.EVENT)),)
    if e.deck_action == "discard_next":  # rule:C-ev-train
        if state.deck and state.deck[0] == MARSHAL:
            return ((ONE, _end(replace(state, deck=state.deck[1:]), EndCause.TRAIN)),)
        if state.deck:
            state = _discard(replace(state, deck=state.deck[1:]), state.deck[0])
        return ((ONE, _discard(state, key)),)
    if e.deck_action == "discard_to_top":  # rule:C-ev-stagecoach, rule:C5
        return tuple((p, _discard(s, key)) for p, s in _stagecoach(state, e.draw, readings))
    return ((ONE, _discard(state, key)),)


def _stagecoach(state: EventsInPlay, want: int, readings: CactusReadings) -> Outcomes:
    """Shuffle the discard pile (the Stagecoach itself is not in it yet), put up to 2 on top."""
    pile = state.discard
    k = min(want, len(pile))
    if readings.stagecoach_short == "none" and len(pile) < want:
        k = 0
    if k == 0:
        return ((ONE, state),)
    out: Counter = Counter()
    n = len(pile)
    total = 1
    for i in range(k):
        total *= n - i
    for picks in _ordered_picks(range(n), k):
        drawn = tuple(pile[i] for i in picks)
        left = tuple(c for i, c in enumerate(pile) if i not in picks)
        out[replace(state, deck=drawn + state.deck, discard=left, stagecoach_drew=drawn)] += Fraction(1, total)
    return tuple((p, s) for s, p in out.items())


def _ordered_picks(items, k):
    items = tuple(items)
    if k == 0:
        yield ()
        return
    for i, x in enumerate(items):
        for rest in _ordered_picks(items[:i] + items[i + 1:], k - 1):
            yield (x,) + rest


def duel_discard(state: EventsInPlay, readings: CactusReadings = CactusReadings()) -> Outcomes:
    """The lone ranger won a duel he started: discard the following event (rule:C-duel-discard);
    every win does so (rule:C10 ``every_win``), :func:`duel_wins` applies the one-a-round reading.

    rule:C4 when that card is the marshal's arrival: ``revealed`` ends the game (like Train),
    ``discarded`` puts it on the discard pile (only a Stagecoach can bring it back).
    """
    if state.ended or not state.deck:
        return ((ONE, state),)
    top, rest = state.deck[0], state.deck[1:]
    if top == MARSHAL and readings.marshal_discard == "revealed":
        return ((ONE, _end(replace(state, deck=rest), EndCause.DUEL)),)
    return ((ONE, _discard(replace(state, deck=rest), top)),)


@lru_cache(maxsize=64)
def duel_wins(readings: CactusReadings = CactusReadings()) -> tuple[tuple[int, Fraction], ...]:
    """How many event discards the lone ranger's duels make in one round, with exact chances.

    He starts ``readings.duels_per_round`` duels, each won with ``readings.duel_win_chance`` independently
    (binomial). rule:C10 ``every_win``: each win discards the next event; ``one_per_round``: at most
    one discard a round, however many he wins.
    """
    n, q = readings.duels_per_round, readings.duel_win_chance
    out: Counter = Counter()
    for k in range(n + 1):
        p = Fraction(comb(n, k)) * q ** k * (1 - q) ** (n - k)
        if p:
            out[min(k, 1) if readings.duel_discards == "one_per_round" else k] += p
    return tuple(sorted(out.items()))


def discard_times(state: EventsInPlay, times: int, readings: CactusReadings = CactusReadings()) -> EventsInPlay:
    """``times`` duel wins in a row, each discarding the following event (rule:C10, rule:C4)."""
    for _ in range(times):
        ((_, state),) = duel_discard(state, readings)
    return state


def play_round(state: EventsInPlay, readings: CactusReadings = CactusReadings()) -> Outcomes:
    """One round of the event deck: the event draw, then the duel discards of the action phase
    (:func:`duel_wins`). Outcomes with equal states are merged."""
    out: Counter = Counter()
    wins = duel_wins(readings)
    for p, s in start_round(state, readings):
        if s.ended:
            out[s] += p
            continue
        for k, q in wins:
            out[discard_times(s, k, readings)] += p * q
    return tuple((p, s) for s, p in out.items() if p)
