"""The ONE serialisation of a Lone Cowboy game: how it started and every action since (as
OpenSpiel's game-and-history), the position derived by replaying the actions through the engine's
pure ``apply``.

``game_record(state)`` is ``{"game": "lone-cowboy", "version": 1, "scenario", "rules", "seed",
"actions"}``: a seeded deal (rule:W-setup) has its seed, a followed game (rule:W-reveal) has
``"seed": null`` and its reveals among the actions (``{"reveal": card}``), and an explicit deal (a
circle and a preference deck typed in) adds ``"deal": {"circle", "deck"}`` (its seed, if any, only
seeds a policy). The actions come from the state's log (:func:`solver.wagons.game.actions_from_log`);
a state whose log does not replay to it is refused. ``game_from_record(doc)`` checks every field
(one-line BadInput each) and replays the actions; an illegal action is named by its index and the
reason. Every other form is derived from it: the dashboard keeps, addresses, downloads and uploads
this record (with the step it shows), ``wagons play --json`` prints it with derived fields (scores,
log, towns), and :mod:`solver.wagons.record.load` converts the older shapes into it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from solver.errors import BadInput
from solver.io.numbers import MAX_SEED, short_repr
from solver.io.read import as_int
from solver.wagons.cards import check_card_ids
from solver.wagons.data import WagonsData, load_data
from solver.wagons.game import (
    GameState,
    action_from_dict,
    action_to_dict,
    actions_from_log,
    new_followed_game,
    new_game,
    replay,
)
from solver.wagons.readings import WagonsReadings

__all__ = ["game_record", "game_from_record", "record_start", "deal_start", "record_parts", "RECORD_GAME",
           "RECORD_VERSION", "RECORD_KEYS", "MAX_ACTIONS"]

RECORD_GAME = "lone-cowboy"
RECORD_VERSION = 1
RECORD_KEYS = ("game", "version", "scenario", "rules", "seed", "deal", "actions")
"""Every key a record may have; ``deal`` only for an explicit deal, ``seed`` may be left out (null)."""
_OPTIONAL = ("seed", "deal")
MAX_ACTIONS = 200
"""A whole game has at most 16 reveals, 16 drafts, 16 placements and 16 opponent turns."""


def record_start(scenario: str, readings: WagonsReadings, seed: int | None, data: WagonsData | None = None,
                 deal: tuple[tuple[int, ...], tuple[int, ...]] | None = None) -> GameState:
    """The state a record's actions start from: an explicit ``deal`` (circle, deck), else the seeded
    deal, else a followed game (seed None)."""
    if deal is not None:
        return deal_start(scenario, deal[0], deal[1], readings, seed, data)
    return new_followed_game(scenario, readings, data) if seed is None else new_game(scenario, seed, readings, data)


def deal_start(scenario: str, circle: Sequence[int], deck: Sequence[int] | None, readings: WagonsReadings = WagonsReadings(), seed: int | None = None,
               data: WagonsData | None = None) -> GameState:
    """The start of an explicit deal (rule:W-setup): ``circle`` (the next card first) and the preference
    ``deck`` (top first), none of them set aside with the scenario's goal cards (rule:W9)."""
    base = new_game(scenario, 0, readings, data)
    circle = check_card_ids(circle, "circle", unique=False)
    deck = check_card_ids(deck or (), "deck", unique=False)
    every = circle + deck
    if not circle:
        raise BadInput("circle: give at least one card")
    if len(set(every)) != len(every):
        raise BadInput("deal: a card appears twice in the circle and deck")
    aside = set(every) & set(base.removed)
    if aside:
        raise BadInput(f"deal: card {min(aside)} is set aside with the scenario's goal cards (rule:W9)")
    return replace(base, circle=circle, deck=deck, seed=seed, log=())


def game_record(state: GameState, start: GameState | None = None) -> dict:
    """The game file of ``state``: its actions from its seed's deal or a followed game's start, or from
    ``start`` when that is an explicit deal. BadInput when its log does not replay to it from there."""
    explicit = start is not None and not start.log  # a typed-in deal has no set-up entry (a mid-game start does)
    if start is None or not explicit:
        start = record_start(state.scenario, state.readings, state.seed, state.data)
    actions = actions_from_log(state)[len(actions_from_log(start)):]
    try:
        again = replay(start, actions)
    except BadInput as exc:
        raise BadInput(f"game record: the state's log does not replay from its deal ({exc})") from None
    if again != state:
        raise BadInput("game record: the state's log does not replay to it (neither a seeded deal nor a followed "
                       "game with its reveals)")
    doc = {"game": RECORD_GAME, "version": RECORD_VERSION, "scenario": state.scenario,
           "rules": state.readings.to_json(), "seed": state.seed}
    if explicit:
        doc["deal"] = {"circle": list(start.circle), "deck": list(start.deck)}
    return doc | {"actions": [action_to_dict(a) for a in actions]}


def _header(doc: Any, data: WagonsData) -> tuple[str, WagonsReadings, int | None, list]:
    """The record's fields, each checked (one line per problem)."""
    if not isinstance(doc, dict):
        raise BadInput(f"game file: expected a JSON object, got {type(doc).__name__}")
    unknown = sorted(set(doc) - set(RECORD_KEYS), key=str)
    if unknown:
        raise BadInput(f"game file: unknown key {short_repr(unknown[0])} (known: {', '.join(RECORD_KEYS)})")
    missing = [k for k in RECORD_KEYS if k not in doc and k not in _OPTIONAL]
    if missing:
        raise BadInput(f"game file: missing field '{missing[0]}'")
    if doc["game"] != RECORD_GAME:
        raise BadInput(f"game file: game must be \"{RECORD_GAME}\", got {short_repr(doc['game'])}")
    if doc["version"] != RECORD_VERSION or isinstance(doc["version"], bool):
        raise BadInput(f"game file: version {short_repr(doc['version'])} is not supported (this program reads "
                       f"version {RECORD_VERSION})")
    scenario = doc["scenario"]
    if not isinstance(scenario, str):
        raise BadInput(f"game file: scenario must be a scenario id, got {short_repr(scenario)}")
    known = [s.id for s in data.scenarios]
    if scenario not in known:
        raise BadInput(f"game file: unknown scenario {short_repr(scenario)} (known: {', '.join(known)})")
    if not isinstance(doc["rules"], dict):
        raise BadInput(f"game file: rules must be an object of readings, got {short_repr(doc['rules'])}")
    try:
        readings = WagonsReadings.from_json(doc["rules"])
    except TypeError as exc:  # a reading of the wrong type the dataclass cannot take
        raise BadInput(f"game file: rules: {exc}") from None
    seed = doc.get("seed")
    if seed is not None:
        seed = as_int(seed, "game file: seed", 0, MAX_SEED)
    actions = doc["actions"]
    if not isinstance(actions, list):
        raise BadInput(f"game file: actions must be a list, got {type(actions).__name__}")
    if len(actions) > MAX_ACTIONS:
        raise BadInput(f"game file: {len(actions)} actions; a whole game has at most {MAX_ACTIONS}")
    return scenario, readings, seed, actions


def _deal(doc: dict) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """The record's explicit deal (circle, deck), or None."""
    raw = doc.get("deal")
    if raw is None:
        return None
    if not isinstance(raw, dict) or set(raw) != {"circle", "deck"}:
        raise BadInput(f"game file: deal must be {{\"circle\": [...], \"deck\": [...]}}, got {short_repr(raw)}")
    return (check_card_ids(raw["circle"], "game file: deal.circle", unique=False),
            check_card_ids(raw["deck"], "game file: deal.deck", unique=False))


def record_parts(doc: Any, data: WagonsData | None = None) -> tuple[GameState, list]:
    """A game file's start and its actions, each checked (the actions not yet applied)."""
    data = data or load_data()
    scenario, readings, seed, raw = _header(doc, data)
    start = record_start(scenario, readings, seed, data, _deal(doc))
    return start, [action_from_dict(a, f"actions[{i}]") for i, a in enumerate(raw)]


def game_from_record(doc: Any, data: WagonsData | None = None) -> GameState:
    """The state a game file describes: its start (seed, followed or explicit deal) after its actions, in order."""
    start, actions = record_parts(doc, data)
    return replay(start, actions)
