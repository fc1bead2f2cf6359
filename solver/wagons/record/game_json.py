"""A whole solo game (:class:`solver.wagons.game.GameState`) and its actions as JSON documents.

``state_to_json`` writes every field of the frozen state (the log included), ``state_from_json``
reads it back to an equal state. Reading checks what the engine relies on, each problem a one-line
``BadInput``: known keys only, the scenario and its goal cards (rule:W9), card ids 0..17 each in
exactly one place (set aside, circle, deck, town, pile, hand; rule:W-setup), a town whose placements
are legal in order (rule:W-place), and a turn structure the engine can continue from (rule:W-rounds).
The game file (``game_record`` / ``game_from_record``, re-exported from
:mod:`solver.wagons.record.game_record`) holds the start and the actions instead of the state.
A followed game (rule:W-reveal) adds ``hidden_circle``, ``hidden_deck`` and ``resume``; they are
written only when they differ from their defaults, so a seeded game's document is unchanged.
"""

from __future__ import annotations

from typing import Any

from solver.errors import BadInput
from solver.io.numbers import short_repr
from solver.io.read import as_int, require
from solver.wagons.cards import load_cards
from solver.wagons.data import load_data
from solver.wagons.game import (
    CHANCE,
    DEAL,
    Action,
    GameState,
    LogEntry,
    action_from_dict,
    action_to_dict,
    goal_fronts,
)
from solver.wagons.readings import WagonsReadings
from solver.wagons.record.game_record import game_from_record, game_record
from solver.wagons.town import Placement, town_from_dict, town_to_json

__all__ = ["state_to_json", "state_from_json", "action_to_json", "action_from_json", "game_record",
           "game_from_record"]

_KEYS = ("game", "scenario", "rules", "goal_cards", "removed", "round", "turn", "to_move", "circle", "deck",
         "town", "pile", "hand", "drafted", "after_round_1", "log", "seed", "hidden_circle", "hidden_deck", "resume")
_LOG_KEYS = ("turn", "round", "who", "what", "rule", "card", "skipped", "deck_card", "placement", "note")
_MOVERS = ("player", "opponent", CHANCE, None)
_CHANCE_KEYS = ("hidden_circle", "hidden_deck", "resume")
"""Fields of a followed game, written only when set (a seeded game's document has none of them)."""


def state_to_json(state: GameState) -> dict:
    """Every field of ``state`` as plain JSON (``state_from_json`` reads it back)."""
    doc = _fields(state)
    doc.update({k: getattr(state, k) for k in _CHANCE_KEYS if getattr(state, k) not in (0, None)})
    return doc


def _fields(state: GameState) -> dict:
    return {"game": "wagons", "scenario": state.scenario, "rules": state.readings.to_json(),
            "goal_cards": list(state.goal_cards), "removed": list(state.removed), "round": state.round,
            "turn": state.turn, "to_move": state.to_move, "circle": list(state.circle), "deck": list(state.deck),
            "town": town_to_json(state.town), "pile": list(state.pile), "hand": list(state.hand),
            "drafted": state.drafted,
            "after_round_1": list(state.after_round_1) if state.after_round_1 is not None else None,
            "log": [e.to_dict() for e in state.log], "seed": state.seed}


def _cards(doc: dict, key: str) -> tuple[int, ...]:
    items = require(doc, key, list, "game")
    n = len(load_cards())
    return tuple(as_int(c, f"game.{key}[{i}]", 0, n - 1) for i, c in enumerate(items))


def _log_entry(raw: Any, where: str) -> LogEntry:
    if not isinstance(raw, dict):
        raise BadInput(f"{where}: expected an object")
    unknown = sorted(set(raw) - set(_LOG_KEYS))
    if unknown:
        raise BadInput(f"{where}: unknown key '{unknown[0]}'")
    texts = {k: require(raw, k, str, where) for k in ("who", "what", "rule")}
    note = raw.get("note", "")
    if not isinstance(note, str):
        raise BadInput(f"{where}.note: expected a string")
    card = raw.get("card")
    deck_card = raw.get("deck_card")
    skipped = raw.get("skipped", [])
    if not isinstance(skipped, list):
        raise BadInput(f"{where}.skipped: expected a list of card ids")
    placement = None
    if raw.get("placement") is not None:
        p = require(raw, "placement", dict, where)
        placement = Placement(*(as_int(require(p, k, int, f"{where}.placement"), f"{where}.placement.{k}")
                                for k in ("card", "x", "y", "rot")))
    return LogEntry(as_int(require(raw, "turn", int, where), f"{where}.turn", 0),
                    as_int(require(raw, "round", int, where), f"{where}.round", 1, 2), **texts,
                    card=None if card is None else as_int(card, f"{where}.card"),
                    skipped=tuple(as_int(c, f"{where}.skipped") for c in skipped),
                    deck_card=None if deck_card is None else as_int(deck_card, f"{where}.deck_card"),
                    placement=placement, note=note)


def _check_turns(s: GameState) -> None:
    """The turn structure the engine continues from (rule:W-rounds, rule:W-player-draft)."""
    if s.round == 1 and s.after_round_1 is not None:
        raise BadInput("game.after_round_1: only known once round 2 has begun")
    if s.round == 2 and (s.deck or s.after_round_1 is None):
        raise BadInput("game: in round 2 the deck is empty and after_round_1 holds the round-1 counts")
    if s.hand and (s.resume if s.to_move == CHANCE else s.to_move) != "player":
        raise BadInput("game.hand: cards in hand are the player's to place, so the player must be to move")
    if s.drafted and not s.hand:
        raise BadInput("game.drafted: a drafted card is placed at once, so the hand cannot be empty")
    if s.to_move is None and (s.circle or s.hidden_circle or s.hand):
        raise BadInput("game.to_move: null means the game is over, but cards are still to draft or place")
    if s.to_move is not None and not s.circle and not s.hidden_circle and not s.hand:
        raise BadInput("game.to_move: the circle is empty and nothing is in hand, so the game is over (null)")


def _check_chance(s: GameState) -> None:
    """A followed game's reveals (rule:W-reveal): chance moves exactly while a card must be seen."""
    if s.seed is not None and (s.hidden_circle or s.hidden_deck):
        raise BadInput("game.seed: a seeded game is fully dealt (hidden_circle and hidden_deck are 0)")
    if s.round == 2 and s.hidden_deck:
        raise BadInput("game.hidden_deck: in round 2 the deck has been dealt into the circle")
    needs = s.hidden_circle > 0 or (s.round == 1 and not s.deck and s.hidden_deck > 0)
    if needs != (s.to_move == CHANCE):
        raise BadInput("game.to_move: \"chance\" exactly while a card must be revealed (a hidden circle card, "
                       "or in round 1 a hidden deck with no known top card)")
    if s.to_move == CHANCE and s.drafted:
        raise BadInput("game.drafted: cards are revealed between turns, never after a draft")
    if (s.resume is not None) != (s.to_move == CHANCE) or s.resume not in ("player", "opponent", None):
        raise BadInput("game.resume: \"player\" or \"opponent\" while to_move is \"chance\", else absent")


def _check_cards(s: GameState) -> None:
    """Every card in exactly one place, or still unseen in a followed game (rule:W-setup, rule:W-reveal)."""
    places = s.removed + s.circle + s.deck + s.town.card_ids + s.pile + s.hand
    n = len(load_cards())
    twice = sorted({c for c in places if places.count(c) > 1})
    if twice:
        raise BadInput(f"game: card {twice[0]} is in more than one place")
    if len(places) + s.hidden_circle + s.hidden_deck != n:
        missing = sorted(set(range(n)) - set(places))
        raise BadInput(f"game: {n - len(places)} cards are unseen (card {missing[0]} first) but hidden_circle + "
                       f"hidden_deck is {s.hidden_circle + s.hidden_deck}")


def _after_round_1(doc: dict) -> tuple[int, int] | None:
    raw = doc.get("after_round_1")
    if raw is None:
        return None
    if not isinstance(raw, list) or len(raw) != 2:
        raise BadInput("game.after_round_1: expected [player, opponent] territory counts or null")
    return as_int(raw[0], "game.after_round_1[0]", 0), as_int(raw[1], "game.after_round_1[1]", 0)


def state_from_json(doc: Any) -> GameState:
    """A :class:`GameState` from :func:`state_to_json`'s document; BadInput names the first problem."""
    if not isinstance(doc, dict):
        raise BadInput("game: expected a JSON object")
    unknown = sorted(set(doc) - set(_KEYS))
    if unknown:
        raise BadInput(f"game: unknown key '{unknown[0]}' (known: {', '.join(_KEYS)})")
    if doc.get("game", "wagons") != "wagons":
        raise BadInput(f"game.game: expected \"wagons\", got {short_repr(doc.get('game'))}")
    scenario = load_data().scenario(require(doc, "scenario", str, "game"))
    removed = goal_fronts(scenario.goals, load_data())
    if doc.get("goal_cards", list(scenario.goals)) != list(scenario.goals):
        raise BadInput(f"game.goal_cards: scenario {scenario.id} sets aside {', '.join(scenario.goals)}")
    if tuple(_cards(doc, "removed")) != removed:
        raise BadInput(f"game.removed: scenario {scenario.id} sets aside the fronts {list(removed)} (rule W9)")
    to_move = doc.get("to_move")
    if to_move not in _MOVERS:
        raise BadInput(f"game.to_move: expected \"player\", \"opponent\", \"chance\" or null, got {short_repr(to_move)}")
    drafted = require(doc, "drafted", bool, "game")
    seed = doc.get("seed")
    if seed is not None:
        seed = as_int(seed, "game.seed")
    log = require(doc, "log", list, "game")
    hidden = {k: as_int(doc.get(k, 0), f"game.{k}", 0, DEAL) for k in ("hidden_circle", "hidden_deck")}
    resume = doc.get("resume")
    if resume not in ("player", "opponent", None):
        raise BadInput(f"game.resume: expected \"player\" or \"opponent\", got {short_repr(resume)}")
    state = GameState(scenario.id, WagonsReadings.from_json(require(doc, "rules", dict, "game")), scenario.goals, removed,
                      as_int(require(doc, "round", int, "game"), "game.round", 1, 2),
                      as_int(require(doc, "turn", int, "game"), "game.turn", 1), to_move,
                      _cards(doc, "circle"), _cards(doc, "deck"), town_from_dict(doc.get("town"), "game.town"),
                      _cards(doc, "pile"), _cards(doc, "hand"), drafted, _after_round_1(doc),
                      tuple(_log_entry(e, f"game.log[{i}]") for i, e in enumerate(log)), seed,
                      hidden_circle=hidden["hidden_circle"], hidden_deck=hidden["hidden_deck"], resume=resume)
    _check_cards(state)
    _check_turns(state)
    _check_chance(state)
    return state


def action_to_json(action: Action) -> dict:
    """``{"draft": k}``, ``{"place": {card, x, y, rot}}``, ``{"opponent": true}`` or ``{"reveal": card}``."""
    return action_to_dict(action)


def action_from_json(doc: Any) -> Action:
    """An action from :func:`action_to_json`'s document (BadInput otherwise)."""
    return action_from_dict(doc)
