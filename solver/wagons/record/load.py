"""Every saved shape of a Lone Cowboy game, read back through its one serialisation (rule:X-bad-input).

The game record (:mod:`solver.wagons.record.game_record`) is the one serialisation. :func:`read_game` takes it
and every shape a game was ever saved in, each problem a one-line ``BadInput``:

- the record ``{"game": "lone-cowboy", "version": 1, ...}`` (game files, downloads, `was-winnable --line-out`);
- the record with derived fields (``wagons play --json`` now): the record is replayed and the fields it
  states (town, opponent's pile, totals) must be the replay's;
- the dashboard's kept or addressed game ``{"record", "at"}``: the record, shown at step ``at``;
- the older whole-state document (``"game": "wagons"``, :func:`solver.wagons.record.game_json.state_from_json`);
- the older ``wagons play --json`` output (no record keys): a seeded game is replayed through the engine
  (rule:W-setup, rule:W-rounds) from its seed with the player's drafts and placements from its log, the
  opponent moving by the engine; a game without a seed (an explicit deal) is taken from its town and pile,
  which must hold every card not set aside with the goal cards (rule:W9).

:func:`record_of` converts any of them into the record (an older shape whose log does not replay from a seed
or a followed start has no history to convert: one line says so).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from solver.errors import BadInput
from solver.io.numbers import short_repr
from solver.wagons.cards import check_pile
from solver.wagons.data import WagonsData, load_data
from solver.wagons.game import (
    Draft,
    GameState,
    OpponentTurn,
    action_from_dict,
    apply,
    draft_mismatch,
    goal_fronts,
    is_over,
    new_game,
    replay,
    scores,
)
from solver.wagons.readings import WagonsReadings
from solver.wagons.record.game_record import RECORD_GAME, deal_start, game_record, record_parts
from solver.wagons.town import Town, town_from_dict

__all__ = ["read_game", "record_of", "completeness_problem", "DERIVED_KEYS", "SHAPES"]

DERIVED_KEYS = ("player", "opponent", "winner", "margin", "decided_by", "low_confidence", "policy", "player_cards",
                "opponent_pile", "town", "log")
"""What ``wagons play --json`` adds to the record: all derived from it by replaying (scores, towns, log)."""
SHAPES = ("a game file (\"game\": \"lone-cowboy\"), a kept game {\"record\", \"at\"}, a game state "
          "(\"game\": \"wagons\") or the JSON output of `wagons play`")
MAX_STEPS = 100
"""A game has at most 16 drafts, 16 placements and 16 opponent turns."""


def _older(doc: dict) -> bool:
    """An older shape: the whole-state document, or a `wagons play --json` output without the record."""
    if doc.get("game") == RECORD_GAME:
        return False
    return (doc.get("game") == "wagons" and "to_move" in doc) or ("log" in doc and "scenario" in doc
                                                                  and "actions" not in doc)


def _record_part(doc: dict, what: str) -> tuple[dict, int | None] | None:
    """The record inside a current shape and the step to show (None: all), or None for an older shape."""
    if "record" in doc and set(doc) <= {"record", "at"}:
        rec, at = doc["record"], doc.get("at")
        n = rec.get("actions") if isinstance(rec, dict) else None
        most = len(n) if isinstance(n, list) else 0
        if at is not None and (isinstance(at, bool) or not isinstance(at, int) or not 0 <= at <= most):
            raise BadInput(f"{what}.at: expected a step 0..{most}, got {short_repr(at)}")
        return rec, at
    if _older(doc):
        return None
    if doc.get("game") == RECORD_GAME:
        return {k: v for k, v in doc.items() if k not in DERIVED_KEYS}, None
    if "game" not in doc and "actions" not in doc:
        raise BadInput(f"{what}: expected {SHAPES}")
    return doc, None  # the strict reader names what is wrong with it


def read_game(doc: Any, what: str = "game", data: WagonsData | None = None) -> GameState:
    """The game any saved shape describes (module docstring), replayed through the engine."""
    return _read(doc, what, data)[0]


def _read(doc: Any, what: str, data: WagonsData | None) -> tuple[GameState, dict | None]:
    """The game and, for a current shape, its record (None: an older shape, no record inside)."""
    if not isinstance(doc, dict):
        raise BadInput(f"{what}: expected a JSON object ({SHAPES}), got {type(doc).__name__}")
    part = _record_part(doc, what)
    if part is not None:
        record, at = part
        start, actions = record_parts(record, data)
        state = replay(start, actions[:at] if at is not None else actions)
        if any(k in doc for k in DERIVED_KEYS):
            _check_claims(doc, state, what)
        return state, record
    if doc.get("game") == "wagons":
        from solver.wagons.record.game_json import state_from_json

        state = state_from_json(doc)
        return (state if data is None else replace(state, data=data)), None
    return _from_play_output(doc, what, data or load_data()), None


def record_of(doc: Any, what: str = "game", data: WagonsData | None = None) -> dict:
    """The one record of any saved shape: a current shape's record (checked by a replay), an older shape's
    game converted (BadInput when its log does not replay from a seed, a followed start or its deal)."""
    state, record = _read(doc, what, data)
    if record is not None:  # written again by the engine: canonical (a draft's notes dropped), every step kept
        start, actions = record_parts(record, data)
        return game_record(replay(start, actions), start)
    dealt = _deal_in_log(doc["log"]) if "to_move" not in doc else None
    begun = None if dealt is None else deal_start(state.scenario, *dealt, state.readings, state.seed, state.data)
    try:
        converted = game_record(state, begun)
    except BadInput:
        raise BadInput(f"{what}: this game has no history to convert (an explicit deal whose log does not show it "
                       "whole); play it again with `wagons play --json` for a game file") from None
    record_parts(converted, data)  # it reads back as a record: what an older shape let through (a seed past 64 bits)
    return converted                # is refused here, in one line


def _readings(doc: dict, what: str) -> WagonsReadings:
    raw = doc.get("rules", {})
    if not isinstance(raw, dict):
        raise BadInput(f"{what}.rules: expected an object of readings")
    return WagonsReadings.from_json(raw)


def _from_play_output(doc: dict, what: str, data: WagonsData) -> GameState:
    """The older `wagons play --json` output: the game replayed from its seed's deal, or from the explicit deal
    its log shows (rule:W-setup), with the player's logged actions; else an explicit deal's end."""
    scenario = doc["scenario"]
    if not isinstance(scenario, str):
        raise BadInput(f"{what}.scenario: expected a scenario id, got {short_repr(scenario)}")
    data.scenario(scenario)
    readings, seed = _readings(doc, what), doc.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        raise BadInput(f"{what}.seed: expected a whole number >= 0 or null, got {short_repr(seed)}")
    actions = _player_actions(doc, what)
    dealt = _deal_in_log(doc["log"])
    if dealt is None and seed is not None:
        state = _replay_log(new_game(scenario, seed, readings, data), actions, what)
        _check_claims(doc, state, what)
        return state
    if dealt is not None:
        try:
            state = _replay_log(deal_start(scenario, *dealt, readings, seed, data), actions, what)
            _check_claims(doc, state, what)
            return state
        except BadInput:
            pass  # not a deal the log shows whole: read the end as it stands
    return _from_town_and_pile(doc, scenario, readings, what, data)


def _deal_in_log(log: list) -> tuple[list[Any], list[Any]] | None:
    """An explicit deal (no set-up entry) read off its log: the round-1 circle in the order it was drafted,
    the preference deck as the round-1 matches took its top cards, then the round-2 circle (rule:W-rounds)."""
    entries = [e for e in log if isinstance(e, dict)]
    if not entries or any(e.get("what") == "setup" for e in entries):
        return None
    circle: tuple[list[Any], list[Any]] = ([], [])  # card ids as the log says them; the replay checks them
    deck: list[Any] = []
    for e in entries:
        if e.get("what") in ("draft", "opponent-draft") and e.get("round") in (1, 2):
            skipped = e.get("skipped", [])
            circle[e["round"] - 1].extend([*(skipped if isinstance(skipped, list) else []), e.get("card")])
            if e["round"] == 1 and e.get("deck_card") is not None:
                deck.append(e["deck_card"])
    return circle[0], deck + circle[1]


def _player_actions(doc: dict, what: str) -> list[dict]:
    """The player's drafts and placements from the log, in order."""
    log = doc["log"]
    if not isinstance(log, list):
        raise BadInput(f"{what}.log: expected a list of log entries")
    out = []
    for n, e in enumerate(log):
        if not isinstance(e, dict) or e.get("who") != "player":
            continue
        if e.get("what") == "draft":
            skipped, card = e.get("skipped", []), e.get("card")
            if not isinstance(skipped, list):
                raise BadInput(f"{what}.log[{n}].skipped: expected a list of card ids, got {short_repr(skipped)}")
            out.append({"draft": len(skipped), "card": card, "skipped": skipped, "at": n})
        elif e.get("what") == "place" and isinstance(e.get("placement"), dict):
            out.append({"place": e["placement"], "at": n})
        else:
            raise BadInput(f"{what}.log[{n}]: a player entry must be a draft or a place with a placement")
    return out


def _replay_log(state: GameState, actions: list[dict], what: str) -> GameState:
    """The seed's game with the logged player actions; the opponent moves by the engine."""
    queue = list(actions)
    for _ in range(MAX_STEPS):
        if is_over(state):
            break
        if state.to_move == "opponent":
            state = apply(state, OpponentTurn())
            continue
        if not queue:
            raise BadInput(f"{what}: the log ends before the game does (the player still has a move)")
        a = queue.pop(0)
        recorded = {k: v for k, v in a.items() if k != "at" and v is not None}
        try:
            action = action_from_dict(recorded, "entry")
            why = draft_mismatch(state, recorded) if isinstance(action, Draft) else ""
            if why:
                raise BadInput(f"does not fit the replayed game: {why}")
            state = apply(state, action)
        except BadInput as exc:
            raise BadInput(f"{what}.log[{a['at']}]: {exc}") from None
    if queue:
        raise BadInput(f"{what}.log[{queue[0]['at']}]: the game is over before this player entry")
    return state


def _check_claims(doc: dict, state: GameState, what: str) -> None:
    """The file's own town, pile and totals, where it states them, must be the replay's."""
    town = doc.get("town")
    if town is not None and town_from_dict(town, f"{what}.town").placements != state.town.placements:
        raise BadInput(f"{what}.town: differs from the town its actions build")
    pile = doc.get("opponent_pile")
    if pile is not None and (not isinstance(pile, list) or pile != list(state.pile)):
        raise BadInput(f"{what}.opponent_pile: differs from the pile the replayed game builds ({list(state.pile)})")
    log = doc.get("log")
    if log is not None and doc.get("game") == RECORD_GAME and log != [e.to_dict() for e in state.log]:
        raise BadInput(f"{what}.log: differs from the log its actions write (the log is derived from them)")
    final = scores(state)
    for side, total in (("player", final.player.total), ("opponent", final.opponent.total)):
        claim = doc.get(side, {}).get("total") if isinstance(doc.get(side), dict) else None
        if claim is not None and claim != total:
            raise BadInput(f"{what}.{side}.total: the file says {short_repr(claim)}, the replayed game scores {total}")


def completeness_problem(town: Town, pile: Sequence[int], scenario_id: str, data: WagonsData | None = None) -> str | None:
    """Why ``town`` and ``pile`` are not the two towns of a finished solo game, or None when they are:
    at the end every card not set aside with the scenario's two goal cards (rule:W9, rule:W-setup) lies
    in exactly one of the towns (rule:W-rounds: the game ends when the round-2 circle is drafted and
    placed). A score of such a position is a score, not a result: no winner is named for it."""
    data = data or load_data()
    scenario = data.scenario(scenario_id)
    aside = set(goal_fronts(scenario.goals, data))
    mine, theirs = list(town.card_ids), list(pile)
    both = sorted(set(mine) & set(theirs))
    if both:
        return f"card {both[0]} is in both towns"
    placed = set(mine) | set(theirs)
    if placed & aside:
        return (f"card {min(placed & aside)} is set aside in {scenario.name} with the goal cards "
                f"{' and '.join(scenario.goals)} (their fronts; the pairing is unverified, rule W9), so it cannot "
                "be in either town")
    missing = sorted({c.id for c in data.cards} - aside - placed)
    if missing:
        n = len(data.cards) - len(aside)
        return (f"the game is not over: {len(missing)} of the {n} cards in play are in neither town yet "
                f"(card{'s' if len(missing) > 1 else ''} {', '.join(map(str, missing))})")
    return None


def _from_town_and_pile(doc: dict, scenario: str, readings: WagonsReadings, what: str, data: WagonsData) -> GameState:
    """An explicit deal's finished game: its town and pile hold every card in play (rule:W9)."""
    if "town" not in doc or "opponent_pile" not in doc:
        raise BadInput(f"{what}: a game without a seed needs its 'town' and 'opponent_pile'")
    town = town_from_dict(doc["town"], f"{what}.town")
    pile = check_pile(doc["opponent_pile"], town.card_ids)
    why = completeness_problem(town, pile, scenario, data)
    if why:
        raise BadInput(f"{what}: {why}")
    base = new_game(scenario, 0, readings, data)
    return replace(base, circle=(), deck=(), town=town, pile=tuple(pile), to_move=None, round=2, seed=None, log=())

