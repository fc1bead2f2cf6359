"""Cactus Town: The Lone Ranger as the game contract: the round structure that decides when the
marshal arrives and the lone ranger wins.

A :class:`Game` is what the expansion's decks hold between rounds: the solo action card draw deck
(its contents for the next round, rule:C-solo-schedule, rule:C3) in solo mode, the event deck
(rule:C-event-deck) with 2-5 players or in solo with ``readings.solo_events`` (rule:C1). Each round is one
action, :class:`NextRound`, whose :func:`outcomes` are exact: the event draw and its effect
(rule:C-event-draw, Train, Stagecoach), a duel discard with ``readings.duel_win_chance`` (rule:C4), then
the lone ranger's planning draw (rule:C-solo-planning): the marshal's arrival among his programmed
cards ends the game (rule:C-solo-marshal). The event draw comes before the action phase, so it ends
the game first in a round both could (as :func:`solver.cactus.odds.combine`).

Why the decks and not the town: the lone ranger's turn on a town needs the printed contents of the
card he reveals, which the text does not give and the project never invents (``decide`` in
:mod:`solver.cactus.ranger` resolves a card the user types). The players' own turns are the base
game's; the contract models the decks, so a game ends here only when the marshal's arrival is
revealed (the lone ranger wins, rule:C-ev-marshal), or, with players, when the event deck is used up
without it (a duel discarded it, rule:C4 ``discarded``): then nothing is left for the decks to decide.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, replace
from enum import StrEnum
from fractions import Fraction
from typing import Any

from solver.cactus import events as ev
from solver.cactus import solo_deck as sd
from solver.cactus.events import EndCause
from solver.cactus.readings import CactusReadings
from solver.contract import Outcome
from solver.errors import BadInput
from solver.io.numbers import short_repr
from solver.io.read import as_int, require

__all__ = ["Game", "NextRound", "initial_state", "legal_actions", "outcomes", "is_terminal", "winner", "outcome",
           "state_to_json", "state_from_json", "action_to_json", "action_from_json", "Winner", "LONE_RANGER"]


class Winner(StrEnum):
    """Who wins (equal to the string the files carry): the lone ranger, once the marshal arrives
    (rule:C-ev-marshal, rule:C-solo-marshal)."""

    LONE_RANGER = "lone ranger"


LONE_RANGER = Winner.LONE_RANGER
_ARRIVALS = (EndCause.SOLO_DECK, *ev.EVENT_DECK_ENDS)
SOLO_CARDS = sd.NUMBERED + (sd.MARSHAL,)


@dataclass(frozen=True)
class NextRound:
    """Play the next round: the event draw, the duels' discard, the lone ranger's planning draw."""


@dataclass(frozen=True)
class Game:
    """The decks between rounds. ``solo_deck``: the solo draw deck's contents for the next round
    (solo mode only, sorted, ``"M"`` = the marshal's arrival); ``events``: the event deck or None;
    ``end_cause``: "solo-deck", "event", "train" or "duel" once the marshal has arrived (an :class:`EndCause`)."""

    readings: CactusReadings
    players: int | None
    round: int = 0
    solo_deck: tuple | None = None
    events: ev.EventsInPlay | None = None
    end_cause: EndCause | None = None


def _solo_key(card) -> tuple:
    return (card == sd.MARSHAL, card if card != sd.MARSHAL else 0)


def _event_deck(players: int | None, readings: CactusReadings, rng: random.Random) -> ev.EventsInPlay | None:
    """The shuffled event deck, the marshal's arrival among the bottom 3 (rule:C-event-deck, rule:C1)."""
    size = ev.deck_size(players) if players is not None else (readings.solo_event_cards if readings.solo_events else None)
    if size is None:
        return None
    order = list(ev.table().cards())
    rng.shuffle(order)
    return ev.EventsInPlay(ev.build_deck(order, size, rng.randrange(3)))


def initial_state(seed: int = 0, readings: CactusReadings = CactusReadings(), players: int | None = None,
                  marked=sd.DEFAULT_MARKED) -> Game:
    """A new game: ``players`` None for solo (the 4 ``marked`` solo cards form round 1's deck), else 2-5;
    ``seed`` shuffles the event deck when there is one."""
    if players is not None:
        ev.deck_size(players)  # 2..5, else BadInput
    solo = tuple(sorted(sd._check_marked(marked))) if players is None else None
    return Game(readings, players, 0, solo, _event_deck(players, readings, random.Random(seed)))


def is_terminal(game: Game) -> bool:
    """The marshal has arrived, or (with players) the event deck is used up without him."""
    if game.end_cause is not None:
        return True
    return game.solo_deck is None and (game.events is None or not game.events.deck)


def winner(game: Game) -> Winner | None:
    """The lone ranger once the marshal's arrival is revealed (rule:C-ev-marshal, rule:C-solo-marshal)."""
    return LONE_RANGER if game.end_cause is not None else None


def outcome(game: Game) -> Outcome | None:
    """How the game ended: the lone ranger and how the marshal came, or, with players, nobody when the event deck
    is used up without him (rule:C4 "discarded"); None while it goes on."""
    if game.end_cause is not None:
        return Outcome(LONE_RANGER, EndCause(game.end_cause))
    return Outcome(None, EndCause.DECK_USED_UP) if is_terminal(game) else None


def legal_actions(game: Game) -> tuple[NextRound, ...]:
    return () if is_terminal(game) else (NextRound(),)


def _next_contents(deck: tuple, rnd: int, readings: CactusReadings) -> list[tuple[Fraction, tuple]]:
    """The solo deck for round ``rnd`` from the previous round's (rule:C-solo-schedule, rule:C3)."""
    if rnd <= 5:
        rest = [c for c in sd.NUMBERED if c not in deck]
        picks = rest[:1] if readings.added_card == "lowest_number" else rest
        return [(Fraction(1, len(picks)), tuple(sorted(deck + (c,), key=_solo_key))) for c in picks]
    if rnd == 6:
        return [(Fraction(1), deck + (sd.MARSHAL,))]
    gone = sd.archived(rnd, readings)
    return [(Fraction(1), tuple(c for c in deck if c not in gone))]


def _solo_round(game: Game) -> list[tuple[Fraction, Game]]:
    """The planning draw of round ``game.round`` (rule:C-solo-planning): the marshal's arrival among
    the programmed cards ends the game (rule:C-solo-marshal); else the deck for the next round."""
    deck = game.solo_deck
    assert deck is not None  # solo mode
    programmed, _ = sd.planning_split(len(deck), game.readings)
    p = Fraction(programmed, len(deck)) if sd.MARSHAL in deck else Fraction(0)
    out = [(p, replace(game, end_cause=EndCause.SOLO_DECK))] if p else []
    if p < 1:
        out += [((1 - p) * q, replace(game, solo_deck=nxt)) for q, nxt in _next_contents(deck, game.round + 1, game.readings)]
    return out


def outcomes(game: Game, action: NextRound) -> list[tuple[Fraction, Game]]:
    """Every way the next round can leave the decks, with its exact chance (equal games merged)."""
    if not isinstance(action, NextRound):
        raise BadInput(f"action: expected the next round, got {short_repr(action)}")
    if is_terminal(game):
        raise BadInput("the game is over")
    rnd = replace(game, round=game.round + 1)
    draws = ev.play_round(game.events, game.readings) if game.events is not None else ((Fraction(1), None),)
    out: dict[Game, Fraction] = {}
    for p, events in draws:
        after = replace(rnd, events=events)
        if events is not None and events.ended:
            ended = replace(after, end_cause=events.end_cause)
            out[ended] = out.get(ended, Fraction(0)) + p
        elif after.solo_deck is not None:
            for q, g in _solo_round(after):
                out[g] = out.get(g, Fraction(0)) + p * q
        else:
            out[after] = out.get(after, Fraction(0)) + p
    return [(p, g) for g, p in out.items() if p]


# ---------------------------------------------------------------- JSON


def _events_to_json(s: ev.EventsInPlay) -> dict:
    return {"deck": list(s.deck), "discard": list(s.discard), "round": s.round, "current": s.current,
            "ended": s.ended, "end_round": s.end_round, "end_cause": s.end_cause,
            "stagecoach_drew": list(s.stagecoach_drew)}


def state_to_json(game: Game) -> dict:
    return {"game": "cactus", "players": game.players, "round": game.round, "rules": game.readings.to_json(),
            "solo_deck": list(game.solo_deck) if game.solo_deck is not None else None,
            "events": _events_to_json(game.events) if game.events is not None else None,
            "end_cause": game.end_cause}


def _event_keys(doc: dict, key: str, where: str) -> tuple[str, ...]:
    keys = tuple(require(doc, key, list, where))
    for i, k in enumerate(keys):
        if not isinstance(k, str):
            raise BadInput(f"{where}.{key}[{i}]: expected an event key")
        ev.table().get(k)
    return keys


def _events_from_json(doc: Any, rnd: int) -> ev.EventsInPlay:
    where = "game.events"
    if not isinstance(doc, dict):
        raise BadInput(f"{where}: expected an object or null")
    deck, discard = _event_keys(doc, "deck", where), _event_keys(doc, "discard", where)
    have = Counter(ev.table().cards() + (ev.MARSHAL,))
    extra = sorted(k for k, n in Counter(deck + discard).items() if n > have[k])
    if extra:
        raise BadInput(f"{where}: more '{extra[0]}' cards in the deck and discard pile than the game has")
    current = doc.get("current")
    if current is not None:
        ev.table().get(require(doc, "current", str, where))
    end_cause = doc.get("end_cause")
    if end_cause not in (None, *ev.EVENT_DECK_ENDS):
        raise BadInput(f"{where}.end_cause: expected event, train, duel or null")
    end_round = doc.get("end_round")
    state = ev.EventsInPlay(deck, tuple(sorted(discard)), as_int(require(doc, "round", int, where), f"{where}.round", 0),
                          current, require(doc, "ended", bool, where),
                          None if end_round is None else as_int(end_round, f"{where}.end_round", 1),
                          None if end_cause is None else EndCause(end_cause), _event_keys(doc, "stagecoach_drew", where))
    if state.round != rnd:
        raise BadInput(f"{where}.round: {state.round}, but the game is after round {rnd}")
    return state


def _solo_from_json(raw: Any) -> tuple:
    if not isinstance(raw, list) or not raw:
        raise BadInput("game.solo_deck: expected a list of solo cards (1..8 and \"M\")")
    if any(c not in SOLO_CARDS or isinstance(c, bool) for c in raw) or len(set(raw)) != len(raw):
        raise BadInput(f"game.solo_deck: expected distinct cards among 1..8 and \"M\", got {short_repr(raw)}")
    return tuple(sorted(raw, key=_solo_key))


def state_from_json(doc: Any) -> Game:
    """A :class:`Game` from :func:`state_to_json`'s document; BadInput names the first problem."""
    if not isinstance(doc, dict):
        raise BadInput("game: expected a JSON object")
    known = {"game", "players", "round", "rules", "solo_deck", "events", "end_cause"}
    unknown = sorted(set(doc) - known)
    if unknown:
        raise BadInput(f"game: unknown key '{unknown[0]}' (known: {', '.join(sorted(known))})")
    if doc.get("game", "cactus") != "cactus":
        raise BadInput("game.game: expected \"cactus\"")
    players = doc.get("players")
    if players is not None:
        ev.deck_size(as_int(players, "game.players", 2, 5))
    rnd = as_int(require(doc, "round", int, "game"), "game.round", 0)
    readings = CactusReadings.from_json(require(doc, "rules", dict, "game"))
    solo = None if players is not None else _solo_from_json(doc.get("solo_deck"))
    if players is not None and doc.get("solo_deck") is not None:
        raise BadInput("game.solo_deck: only in solo mode (players null)")
    events = None if doc.get("events") is None else _events_from_json(doc["events"], rnd)
    if (players is not None or readings.solo_events) and events is None:
        raise BadInput("game.events: this game has an event deck")
    end_cause = doc.get("end_cause")
    if end_cause not in (None, *_ARRIVALS):
        raise BadInput("game.end_cause: expected solo-deck, event, train, duel or null")
    end_cause = None if end_cause is None else EndCause(end_cause)
    if events is not None and events.ended != (end_cause in ev.EVENT_DECK_ENDS):
        raise BadInput("game.end_cause: must name the event deck's ending exactly when that deck has ended")
    if solo is not None:
        _check_solo_size(solo, rnd if end_cause is not None else rnd + 1, readings)
    return Game(readings, players, rnd, solo, events, end_cause)


def _check_solo_size(deck: tuple, rnd: int, readings: CactusReadings) -> None:
    """The solo deck holds the schedule's number of cards, the marshal from round 6 (rule:C-solo-schedule)."""
    if rnd < 1:
        raise BadInput("game.round: a finished game has played at least one round")
    if len(deck) != sd.deck_size(rnd, readings) or (sd.MARSHAL in deck) != (rnd >= 6):
        raise BadInput(f"game.solo_deck: round {rnd} has {sd.deck_size(rnd, readings)} cards"
                       f"{', the marshal among them' if rnd >= 6 else ', not the marshal yet'}")


def action_to_json(action: NextRound) -> dict:
    return {"next_round": True}


def action_from_json(doc: Any) -> NextRound:
    if doc != {"next_round": True}:
        raise BadInput(f"action: expected {{\"next_round\": true}}, got {short_repr(doc)}")
    return NextRound()

