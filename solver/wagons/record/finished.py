"""A finished Lone Cowboy game read from a file: what the review and the BG Stats export take.

Three documents are read, each problem a one-line ``BadInput`` (rule:X-bad-input):

- the game file (:func:`solver.wagons.record.game_record.game_from_record`, ``"game": "lone-cowboy"``): a seeded
  or a followed game with every action, replayed through the engine;
- the whole game state (:func:`solver.wagons.record.game_json.state_to_json`, ``"game": "wagons"``), read by
  :func:`~solver.wagons.record.game_json.state_from_json`;
- the JSON that ``ruleslinger wagons play --json`` prints. A seeded game is replayed through the
  engine (rule:W-setup, rule:W-rounds): the set-up of its seed, then the player's drafts and
  placements from its log, the opponent's turns by the engine; the replay must end the game with
  the town, the pile and the scores the file states. A game without a seed (an explicit deal) is
  taken from its town and pile, which must hold every card not set aside with the goal cards
  (rule:W9): the game is over exactly when all 16 are placed.

The game must be over: a review or a play record of a half-played game is refused.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from solver.errors import BadInput
from solver.io.numbers import short_repr
from solver.io.read import read_json
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
    scores,
)
from solver.wagons.rules import Rules
from solver.wagons.town import town_from_dict

__all__ = ["read_finished_game", "finished_game_from_json", "completeness_problem"]

MAX_STEPS = 100
"""A game has at most 16 drafts, 16 placements and 16 opponent turns."""


def read_finished_game(path: str | Path, data: WagonsData | None = None) -> GameState:
    """The finished game in a file on this machine (the CLI's argument)."""
    return finished_game_from_json(read_json(path), str(path), data)


def finished_game_from_json(doc: Any, what: str = "game", data: WagonsData | None = None) -> GameState:
    """A finished game from a game file, a game-state document or a `wagons play --json` output."""
    if not isinstance(doc, dict):
        raise BadInput(f"{what}: expected a JSON object (a game file, a game state or the output of `wagons play --json`)")
    if doc.get("game") == "lone-cowboy":
        from solver.wagons.record.game_record import game_from_record

        state = game_from_record(doc, data)
    elif doc.get("game") == "wagons" and "to_move" in doc:
        from solver.wagons.record.game_json import state_from_json

        state = state_from_json(doc)
        if data is not None:
            state = replace(state, data=data)
    elif "log" in doc and "scenario" in doc:
        state = _from_play_output(doc, what, data or load_data())
    else:
        raise BadInput(f"{what}: expected a game file (\"game\": \"lone-cowboy\"), a game state (\"game\": \"wagons\") "
                       "or the JSON output of `wagons play`")
    if not is_over(state):
        raise BadInput(f"{what}: the game is not over yet (cards are still to draft or place)")
    return state


def _rules(doc: dict, what: str) -> Rules:
    raw = doc.get("rules", {})
    if not isinstance(raw, dict):
        raise BadInput(f"{what}.rules: expected an object of readings")
    return Rules.from_json(raw)


def _from_play_output(doc: dict, what: str, data: WagonsData) -> GameState:
    scenario = doc["scenario"]
    if not isinstance(scenario, str):
        raise BadInput(f"{what}.scenario: expected a scenario id, got {short_repr(scenario)}")
    data.scenario(scenario)
    rules, seed = _rules(doc, what), doc.get("seed")
    if seed is None:
        state = _from_town_and_pile(doc, scenario, rules, what, data)
    else:
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise BadInput(f"{what}.seed: expected a whole number >= 0 or null, got {short_repr(seed)}")
        state = _replay(new_game(scenario, seed, rules, data), _player_actions(doc, what), what)
        _check_claims(doc, state, what)
    return state


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


def _replay(state: GameState, actions: list[dict], what: str) -> GameState:
    """The seed's game with the recorded player actions; the opponent moves by the engine."""
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
        raise BadInput(f"{what}.town: differs from the town its log builds")
    pile = doc.get("opponent_pile")
    if pile is not None and (not isinstance(pile, list) or pile != list(state.pile)):
        raise BadInput(f"{what}.opponent_pile: differs from the pile the replayed game builds ({list(state.pile)})")
    final = scores(state)
    for side, total in (("player", final.player.total), ("opponent", final.opponent.total)):
        claim = doc.get(side, {}).get("total") if isinstance(doc.get(side), dict) else None
        if claim is not None and claim != total:
            raise BadInput(f"{what}.{side}.total: the file says {short_repr(claim)}, the replayed game scores {total}")


def completeness_problem(town, pile, scenario_id: str, data: WagonsData | None = None) -> str | None:
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


def _from_town_and_pile(doc: dict, scenario: str, rules: Rules, what: str, data: WagonsData) -> GameState:
    """An explicit deal's finished game: its town and pile hold every card in play (rule:W9)."""
    if "town" not in doc or "opponent_pile" not in doc:
        raise BadInput(f"{what}: a game without a seed needs its 'town' and 'opponent_pile'")
    town = town_from_dict(doc["town"], f"{what}.town")
    pile = check_pile(doc["opponent_pile"], town.card_ids)
    why = completeness_problem(town, pile, scenario, data)
    if why:
        raise BadInput(f"{what}: {why}")
    base = new_game(scenario, 0, rules, data)
    return replace(base, circle=(), deck=(), town=town, pile=tuple(pile), to_move=None, round=2, seed=None, log=())
