"""The event-deck domain of a rules question: every way the decks of a game can play out, with its exact chance.

A :class:`Deal` is one shuffle of the decks as drawn, round by round: the event drawn each round (rule:C-event-draw)
with Train, Stagecoach and the lone ranger's duel discards applied (rule:C-ev-train, rule:C-ev-stagecoach,
rule:C-duel-discard, rule:C4), the solo deck's planning draws in solo mode (rule:C-solo-planning,
rule:C-solo-marshal, rule:C1), up to the round the marshal arrives. The decks are dealt and played by the engines
(:func:`solver.cactus.odds.deck_layouts`, :func:`solver.cactus.companion.follow` for the rounds already seen, the game
contract's :func:`solver.cactus.game.outcomes` for every later round), so the weights are exact probabilities
summing to 1. Only the cards a question's measures read are told apart (Train, Stagecoach and the marshal always;
an event a measure names as well; every other card is "other": they act alike for the deck), so the domain stays
small and every chance stays exact. Deals are played out as they are checked (a time limit or Stop ends the walk);
more than :data:`MOST` deck layouts are refused by their number, or, for a chance, estimated from real deals.

Measures: ``marshal.round`` (99 when he never arrives: the event deck used up without him under rule:C4
``discarded``, or a solo game past round 40), the yes/no ``marshal.never``, ``marshal.how``; for each event kind
``event.<key>.round`` (the round it is first drawn, 99 if never) and ``event.<key>.times``; ``before.<a>.<b>``
(yes when ``a`` is first drawn in an earlier round than ``b``, or ``b`` is never drawn while ``a`` is).

Witness document (``cactus-deck-order/1``; the deal trace :func:`dashboard.cactus.check_words.deal_words` says)::

    {"format": "cactus-deck-order/1", "players": 4, "from_round": 1,
     "deck_top_first": ["other", "train", ..., "marshal", "other"],   # the event deck at from_round (null in solo)
     "rounds": [{"round": 1, "event": "other", "seen": false,       # a card kind; null: no event this round
                 "stagecoach_puts_on_top": ["train"],                 # only after a Stagecoach
                 "lone_ranger_wins_duel": true, "duel_wins": 1,       # only when he discards events
                 "solo_deck": [1, 2, 3, 4, "M"], "marshal_programmed": false}],   # solo only
     "ends_in_round": 9, "end_cause": "event"}                       # null / "never" when he never arrives
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from solver.ask.model import Measure, Value
from solver.cactus import companion, odds
from solver.cactus import events as ev
from solver.cactus import game as gm
from solver.cactus.readings import CactusReadings
from solver.contract import sample
from solver.errors import BadInput
from solver.io.read import as_int

NEVER = 99
"""``marshal.round`` and ``event.<key>.round`` when it never happens."""
HORIZON = companion.HORIZON
MOST = 15_000
"""The most deck layouts dealt to decide a question (one event told apart beside Train and Stagecoach, two with
a short deck): about half a minute on a loaded 2-core machine."""
KINDS = tuple(e.key for e in ev.table().events if not e.ends_game)
"""Every event kind a measure can name (the marshal's arrival has its own measures)."""
CAUSES = tuple(c.value for c in (ev.EndCause.SOLO_DECK, *ev.EVENT_DECK_ENDS)) + ("never",)
NEXT = gm.NextRound()


@dataclass(frozen=True)
class Deal:
    """One way the decks play out: ``drawn`` the event of each round from round 1 (a key, the placeholder for any
    card not told apart, None for no event), ``end_round`` (None: never) and ``cause``; ``start`` and ``path`` are one
    shuffle that plays it (the decks at the first round not seen, then after each round), for the witness."""

    drawn: tuple
    end_round: int | None
    cause: str
    start: Any = field(default=None, compare=False)
    path: tuple = field(default=(), compare=False)


def _name(key: str) -> str:
    return ev.table().get(key).name


def measures_for(events: bool) -> dict[str, Measure]:
    """The measures of a domain (the event ones only where there is an event deck)."""
    out = [Measure("marshal.round", "round the marshal arrives", "number", "rule:C-ev-marshal", 1, NEVER,
                   help=f"{NEVER} when he never arrives (see marshal.never)"),
           Measure("marshal.never", "the marshal never arrives", "yes/no", "rule:C4",
                   help=f"the event deck is used up without him, or a solo game goes past round {HORIZON}"),
           Measure("marshal.how", "how the marshal arrives", "choice", "rule:C-solo-marshal", choices=CAUSES,
                   help="solo-deck: among the lone ranger's programmed cards; event: drawn as the round's event; "
                        "train: discarded by a Train; duel: discarded by a duel win (rule C4)")]
    if events:
        for k in KINDS:
            out.append(Measure(f"event.{k}.round", f"round {_name(k)} is first drawn", "number", "rule:C-event-draw",
                               1, NEVER, help=f"{NEVER} when it is never drawn"))
            out.append(Measure(f"event.{k}.times", f"times {_name(k)} is drawn", "number", "rule:C-ev-stagecoach",
                               0, 2 * ev.table().get(k).count + 2,
                               help="a Stagecoach can bring a drawn event back"))
        for a in KINDS:
            for b in KINDS:
                if a != b:
                    out.append(Measure(f"before.{a}.{b}", f"{_name(a)} is drawn before {_name(b)}", "yes/no",
                                       "rule:C-event-draw", help=f"{_name(a)} is first drawn in an earlier round "
                                                                 f"than {_name(b)} (or {_name(b)} never is)"))
    return {m.name: m for m in out}


def kinds_read(names: frozenset[str]) -> tuple[str, ...]:
    """The event kinds the measures ``names`` tell apart."""
    out: list[str] = []
    for n in sorted(names):
        parts = n.split(".")
        if parts[0] == "event":
            out.append(parts[1])
        elif parts[0] == "before":
            out += parts[1:]
    return tuple(dict.fromkeys(k for k in out if k in KINDS))


def values_of(deal: Deal, names: frozenset[str]) -> dict[str, Value]:
    """The measures ``names`` on ``deal``."""
    def first(k: str) -> int:
        return next((r for r, d in enumerate(deal.drawn, 1) if d == k), NEVER)

    out: dict[str, Value] = {}
    for n in names:
        parts = n.split(".")
        if n == "marshal.round":
            out[n] = deal.end_round if deal.end_round is not None else NEVER
        elif n == "marshal.never":
            out[n] = deal.end_round is None
        elif n == "marshal.how":
            out[n] = deal.cause
        elif parts[0] == "event":
            out[n] = first(parts[1]) if parts[2] == "round" else sum(d == parts[1] for d in deal.drawn)
        elif parts[0] == "before":
            out[n] = first(parts[1]) < first(parts[2])
    return out


@dataclass(frozen=True)
class Setting:
    """What fixes a domain: ``players`` (1: solo), the readings, the event deck's size (``cards``, 0: the rule
    book's), the rounds ``seen`` (companion records) and the event kinds told apart beside Train and Stagecoach."""

    players: int
    readings: CactusReadings
    cards: int = 0
    seen: tuple = ()
    kinds: tuple[str, ...] = ()

    @property
    def solo(self) -> bool:
        return self.players == 1

    @property
    def events(self) -> bool:
        return not self.solo or self.readings.solo_events

    def deck_size(self) -> int | None:
        if not self.events:
            return None
        if self.cards:
            return self.cards
        return self.readings.solo_event_cards if self.solo else ev.deck_size(self.players)


def setting_from(params: Mapping[str, Any], readings: CactusReadings) -> Setting:
    """The setting of a domain's parameters; BadInput naming the bad one."""
    players = as_int(params.get("players", 4), "players", 1, 5)
    cards = as_int(params.get("cards", 0), "cards", 0, len(ev.table().cards()))
    if cards == 1:
        raise BadInput("cards: an event deck holds at least 2 cards (0: the rulebook's count)")
    if cards and players == 1 and not readings.solo_events:
        raise BadInput("cards: a solo game has no event deck unless the reading solo_events (C1) is on")
    seen = params.get("seen") or ()
    if not isinstance(seen, (list, tuple)):
        raise BadInput("seen: expected a list of rounds, each {event, train_discard, duel_discards, programmed, "
                       "second_shot}")
    if len(seen) > HORIZON:
        raise BadInput(f"seen: {len(seen)} rounds; a game followed here has at most {HORIZON}")
    try:
        records = tuple(companion.record_from_json(dict(r) if isinstance(r, Mapping) else r, n)
                        for n, r in enumerate(seen, 1))
    except BadInput as exc:
        raise BadInput(f"seen: {exc}") from None
    return Setting(players, readings, cards, records)


class EventDecks:
    """Every shuffle of a game's decks (see the module docstring); a chance domain."""

    chance = True
    noun = "deck order"

    def __init__(self, setting: Setting):
        self.setting = setting
        s = setting
        who = "the solo deck" + (" and a solo event deck" if s.events else "") if s.solo else \
            f"the event deck of a {s.players}-player game"
        size = f" of {s.cards} cards" if s.cards else ""
        seen = f", after the {len(s.seen)} round{'s' if len(s.seen) != 1 else ''} seen" if s.seen else ""
        self.description = f"a shuffle of {who}{size}{seen}"

    def focus(self, names: frozenset[str]) -> EventDecks:
        kinds = kinds_read(names) if self.setting.events else ()
        return type(self)(replace(self.setting, kinds=kinds))

    def measures(self) -> Mapping[str, Measure]:
        return measures_for(self.setting.events)

    def _told(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys((*odds.DECK_KINDS, *self.setting.kinds)))

    def layouts(self) -> int:
        """How many event decks are dealt (1 without an event deck)."""
        size = self.setting.deck_size()
        return 1 if size is None else odds.layout_count(size, self._told())

    def size(self) -> int | None:
        """The deck layouts dealt when they are too many (the question is refused); else None: the deals are played
        out as they are checked (a Stagecoach's draw and the duels branch), so their number is known at the end."""
        n = self.layouts()
        return n if n > MOST else None

    def elements(self) -> Iterator[tuple[Fraction, Deal]]:
        n = self.layouts()
        if n > MOST:
            raise BadInput(f"domain: {n:,} deck layouts are too many to deal here (at most {MOST:,})")
        s = self.setting
        beliefs = companion.follow(None if s.solo else s.players, s.readings, s.seen, kinds=self._told(),
                                   cards=s.cards or None)
        yield from play_out(beliefs[-1], tuple(r.event for r in s.seen))

    def values(self, element: Deal, names: frozenset[str]) -> Mapping[str, Value]:
        return values_of(element, names)

    def witness(self, element: Deal) -> dict:
        return witness(element, self.setting)


class ShuffledDecks(EventDecks):
    """:class:`EventDecks` with nothing seen: it can also deal the real 17 cards for a seeded estimate."""

    def sample(self, rng: random.Random) -> tuple[Fraction, Deal]:
        """One game dealt from the real cards and played by the contract, every chance drawn by ``rng``."""
        s = self.setting
        g = gm.initial_state(0, s.readings, None if s.solo else s.players)
        size = s.deck_size()
        if size is not None:
            order = list(ev.table().cards())
            rng.shuffle(order)
            g = replace(g, events=ev.EventsInPlay(ev.build_deck(order, size, rng.randrange(3))))
        start, path = g, []
        while not gm.is_terminal(g) and g.round < HORIZON:
            g = sample(gm.outcomes(g, NEXT), rng)
            path.append(g)
        return Fraction(1), _deal((), start, tuple(path))


def _deal(prefix: tuple, start: gm.Game, path: tuple) -> Deal:
    last = path[-1] if path else start
    drawn = prefix + tuple(g.events.current if g.events is not None else None for g in path)
    if last.end_cause is None:
        return Deal(drawn, None, "never", start, path)
    return Deal(drawn, last.round, str(last.end_cause), start, path)


def play_out(belief: Mapping[gm.Game, Fraction], prefix: tuple) -> Iterator[tuple[Fraction, Deal]]:
    """Every way the decks play out from ``belief`` (the contract's outcomes, round by round, up to the marshal or
    :data:`HORIZON`), one at a time, with its exact chance."""
    known: dict[tuple, list] = {}  # the next round's outcomes, shared by the decks that reach the same state
    stack: list[tuple[Fraction, gm.Game, gm.Game, tuple[gm.Game, ...]]] = [(w, g, g, ()) for g, w in belief.items()]
    while stack:
        w, start, g, path = stack.pop()
        if gm.is_terminal(g) or g.round >= HORIZON:
            yield w, _deal(prefix, start, path)
            continue
        key = _state_key(g)
        nxt = known.get(key)
        if nxt is None:
            nxt = known[key] = gm.outcomes(g, NEXT)
        for p, g2 in nxt:
            stack.append((w * p, start, g2, path + (g2,)))


def _state_key(g: gm.Game) -> tuple:
    """What the next round's outcomes depend on (the event drawn last and a Stagecoach's draw do not: a round starts
    afresh, :func:`solver.cactus.events.start_round`); the readings are the domain's own."""
    e = g.events
    return g.round, g.solo_deck, None if e is None else (e.deck, e.discard, e.ended)


def _kind(key: str | None, told: tuple[str, ...]) -> str | None:
    if key is None:
        return None
    return "marshal" if key == ev.MARSHAL else key if key in told else "other"


def _row(before: gm.Game, after: gm.Game, told: tuple[str, ...]) -> dict:
    row: dict[str, Any] = {"round": after.round, "event": None, "seen": False}
    if after.events is not None and before.events is not None:
        e, deck = after.events, before.events.deck
        row["event"] = _kind(e.current, told)
        if e.stagecoach_drew:
            row["stagecoach_puts_on_top"] = [_kind(k, told) for k in e.stagecoach_drew]
        left = len(deck) - (1 + (e.current == ev.TRAIN and len(deck) > 1) - len(e.stagecoach_drew)
                            if e.current is not None else 0)
        if left - len(e.deck) > 0:
            row["lone_ranger_wins_duel"], row["duel_wins"] = True, left - len(e.deck)
    if before.solo_deck is not None:
        row["solo_deck"] = list(before.solo_deck)
        row["marshal_programmed"] = after.end_cause == ev.EndCause.SOLO_DECK
    return row


def witness(deal: Deal, s: Setting) -> dict:
    """The deal as its document (the module docstring)."""
    told = tuple(dict.fromkeys((*odds.DECK_KINDS, *s.kinds)))
    start = deal.start
    rows = [{"round": n, "event": r.event, "seen": True} for n, r in enumerate(s.seen, 1)]
    before = start
    for g in deal.path:
        rows.append(_row(before, g, told))
        before = g
    deck = None if start is None or start.events is None else [_kind(k, told) for k in start.events.deck]
    return {"format": "cactus-deck-order/1", "players": None if s.solo else s.players, "from_round": len(s.seen) + 1,
            "deck_top_first": deck, "rounds": rows, "ends_in_round": deal.end_round, "end_cause": deal.cause}


def build(params: Mapping[str, Any], readings: CactusReadings) -> EventDecks:
    """The domain of these parameters under ``readings`` (BadInput on a bad parameter or a history that cannot be)."""
    s = setting_from(params, readings)
    if s.seen:  # a history that cannot happen is refused here, naming its round
        companion.follow(None if s.solo else s.players, s.readings, s.seen, cards=s.cards or None)
        return EventDecks(s)
    return ShuffledDecks(s)
