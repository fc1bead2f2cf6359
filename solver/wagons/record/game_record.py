"""A Lone Cowboy game file: how the game started and every action since, replayed to its state.

``game_record(state)`` is ``{"game": "lone-cowboy", "version": 1, "scenario", "rules", "seed",
"actions"}``: a seeded deal (rule:W-setup) has its seed, a followed game (rule:W-reveal) has
``"seed": null`` and its reveals among the actions (``{"reveal": card}``). The actions come from the
state's log (:func:`solver.wagons.game.actions_from_log`); a state whose log does not replay to it is
refused. ``game_from_record(doc)`` checks every field (one-line BadInput each) and replays the
actions; an illegal action is named by its index and the reason. This is the file the dashboard
downloads and uploads and the URL carries; undo is a replay of a prefix.
"""

from __future__ import annotations

from typing import Any

from solver.errors import BadInput
from solver.io.numbers import MAX_SEED, short_repr
from solver.io.read import as_int
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
from solver.wagons.rules import Rules

__all__ = ["game_record", "game_from_record", "record_start", "RECORD_GAME", "RECORD_VERSION", "RECORD_KEYS"]

RECORD_GAME = "lone-cowboy"
RECORD_VERSION = 1
RECORD_KEYS = ("game", "version", "scenario", "rules", "seed", "actions")
MAX_ACTIONS = 200
"""A whole game has at most 16 reveals, 16 drafts, 16 placements and 16 opponent turns."""


def record_start(scenario: str, rules: Rules, seed: int | None, data: WagonsData | None = None) -> GameState:
    """The state a record's actions start from: the seeded deal, or a followed game (seed None)."""
    return new_followed_game(scenario, rules, data) if seed is None else new_game(scenario, seed, rules, data)


def game_record(state: GameState) -> dict:
    """The game file of ``state``; BadInput when its log does not replay to it (e.g. an explicit deal
    typed in as a circle and deck, which has neither a seed nor reveals)."""
    actions = actions_from_log(state)
    try:
        again = replay(record_start(state.scenario, state.rules, state.seed, state.data), actions)
    except BadInput as exc:
        raise BadInput(f"game record: the state's log does not replay from its deal ({exc})") from None
    if again != state:
        raise BadInput("game record: the state's log does not replay to it (neither a seeded deal nor a followed "
                       "game with its reveals)")
    return {"game": RECORD_GAME, "version": RECORD_VERSION, "scenario": state.scenario,
            "rules": state.rules.to_json(), "seed": state.seed, "actions": [action_to_dict(a) for a in actions]}


def _header(doc: Any, data: WagonsData) -> tuple[str, Rules, int | None, list]:
    """The record's fields, each checked (one line per problem)."""
    if not isinstance(doc, dict):
        raise BadInput(f"game file: expected a JSON object, got {type(doc).__name__}")
    unknown = sorted(set(doc) - set(RECORD_KEYS), key=str)
    if unknown:
        raise BadInput(f"game file: unknown key {short_repr(unknown[0])} (known: {', '.join(RECORD_KEYS)})")
    missing = [k for k in RECORD_KEYS if k not in doc and k != "seed"]
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
        rules = Rules.from_json(doc["rules"])
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
    return scenario, rules, seed, actions


def game_from_record(doc: Any, data: WagonsData | None = None) -> GameState:
    """The state a game file describes: its start (seed or followed) after its actions, in order."""
    data = data or load_data()
    scenario, rules, seed, raw = _header(doc, data)
    actions = [action_from_dict(a, f"actions[{i}]") for i, a in enumerate(raw)]
    start = record_start(scenario, rules, seed, data)
    return replay(start, actions)
