"""Replaying the verifier's Z3 games through the engine (the cross-check, rule:W-verify).

A Z3 trace (:meth:`solver.wagons.verify.model.GameModel.trace`) names a deal, the player's drafts
and, in Boomtown, the player's territory count after round 1. :func:`replay` plays it through the
engine (``game.apply``) with placements that give that count (every card beside the town = 4 per
card, or every card on the first = 4) and compares every opponent turn with the trace.
:func:`random_games` plays engine games with random drafts, to pin the Z3 model on them.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from solver.errors import BadInput
from solver.wagons.game import Draft, GameState, Place, apply, is_over, legal_actions
from solver.wagons.optimizer.bestplay import deal_state
from solver.wagons.readings import WagonsReadings
from solver.wagons.scoring import town_features
from solver.wagons.town import Placement, Town, legal_placements

MAX_ACTIONS = 200


def _spread(town: Town, card: int) -> Placement:
    """A legal placement covering nothing (beside the town): +4 visible territories."""
    occ = {(p.x + dx, p.y + dy) for p in town.placements for dx in (0, 1) for dy in (0, 1)}
    for p in legal_placements(town, card):
        cells = {(p.x + dx, p.y + dy) for dx in (0, 1) for dy in (0, 1)}
        if not cells & occ:
            return p
    return legal_placements(town, card)[0]


def _stack(town: Town, card: int) -> Placement:
    """On the first card exactly (legal: it covers the town), so the town shows 4 territories."""
    if not town.placements:
        return Placement(card, 0, 0, 0)
    first = town.placements[0]
    return Placement(card, first.x, first.y, 0)


def _opponent_entry(state):
    """The log entry of the opponent's last draft (a round-2 deal may follow it)."""
    return next(e for e in reversed(state.log) if e.what == "opponent-draft")


@dataclass(frozen=True)
class EngineReplay:
    """A Z3 trace played through the engine: whether every turn agrees with the trace and where it first differs,
    the engine's turns (JSON), and (unless a player draft was illegal) the final state, whether the game is over and
    the territory counts after round 1."""

    agrees: bool
    mismatch: str | None
    turns: tuple[dict, ...]
    state: GameState | None = None
    over: bool = False
    after_round_1: tuple[int, ...] | None = None


def replay(scenario: str, trace: dict, readings: WagonsReadings = WagonsReadings(), max_turns: int | None = None) -> EngineReplay:
    """Play ``trace`` through the engine; returns the engine's turns, the final state and whether
    every opponent turn agrees with the trace (``agrees``) and where it first differs."""
    state = deal_state(scenario, circle=trace["circle"], deck=trace["deck"], readings=readings)
    stack = trace.get("opponent_behind_after_round_1") is False
    drafts = list(trace["player_drafts"])
    engine_turns, steps = [], 0
    while not is_over(state) and steps < MAX_ACTIONS:
        steps += 1
        if state.to_move == "opponent":
            before = state
            state = apply(state, legal_actions(state)[0])
            e = _opponent_entry(state)
            engine_turns.append({"who": "opponent", "round": before.round, "circle": list(before.circle),
                                 "k": len(e.skipped), "deck_card": e.deck_card, "rule": e.rule,
                                 "pile_top": before.pile[-1] if before.pile else None})
        elif state.hand:
            card = state.hand[0]
            p = _stack(state.town, card) if stack and state.round == 1 else _spread(state.town, card)
            state = apply(state, Place(p))
        else:
            if not drafts:
                break
            k = drafts.pop(0)
            if not 0 <= k < len(state.circle):
                return EngineReplay(False, f"player draft {k} is not legal in the engine", tuple(engine_turns))
            engine_turns.append({"who": "player", "round": state.round, "circle": list(state.circle), "k": k})
            state = apply(state, Draft(k))
        if max_turns is not None and len(engine_turns) >= max_turns and not state.hand:
            break
    mismatch = _compare(trace["turns"], engine_turns, max_turns)
    after = None if state.after_round_1 is None else tuple(state.after_round_1)
    return EngineReplay(mismatch is None, mismatch, tuple(engine_turns), state, is_over(state), after)


def _compare(model_turns: list, engine_turns: list, max_turns: int | None) -> str | None:
    n = len(model_turns) if max_turns is None else min(max_turns, len(model_turns))
    for i in range(n):
        m = model_turns[i]
        if i >= len(engine_turns):
            return f"turn {i + 1}: the Z3 game goes on, the engine's game is over"
        e = engine_turns[i]
        if m["who"] != e["who"] or m["circle"] != e["circle"]:
            return f"turn {i + 1}: Z3 has {m['who']} with circle {m['circle']}, the engine {e['who']} with {e['circle']}"
        if m["k"] != e["k"]:
            return f"turn {i + 1} ({m['who']}): Z3 takes circle card {m['k']}, the engine {e['k']}"
        if m["who"] == "opponent" and m.get("deck_match") != (e["deck_card"] is not None):
            return f"turn {i + 1}: Z3 says deck match {m.get('deck_match')}, the engine took deck card {e['deck_card']}"
    if max_turns is None and len(engine_turns) != len(model_turns):
        return f"the Z3 game has {len(model_turns)} turns, the engine's {len(engine_turns)}"
    return None


def random_games(scenario: str, n: int, seed: int = 0, readings: WagonsReadings = WagonsReadings()) -> list[dict]:
    """``n`` engine games with uniformly random drafts (placements spread or stacked at random):
    each as a trace-like dict (deal, drafts, Boomtown count) with the engine's turns."""
    rng = random.Random(f"wagons-verify-{scenario}-{seed}")
    base = deal_state(scenario, seed=0, readings=readings)
    cards = list(base.circle + base.deck)
    out = []
    for _ in range(n):
        rng.shuffle(cards)
        state = replace(base, circle=tuple(cards[:8]), deck=tuple(cards[8:]), log=())
        stack = rng.random() < 0.5
        drafts, turns = [], []
        for _step in range(MAX_ACTIONS):
            if is_over(state):
                break
            if state.to_move == "opponent":
                before = state
                state = apply(state, legal_actions(state)[0])
                e = _opponent_entry(state)
                turns.append({"who": "opponent", "circle": list(before.circle), "k": len(e.skipped),
                              "deck_card": e.deck_card, "deck_match": e.deck_card is not None})
            elif state.hand:
                card = state.hand[0]
                state = apply(state, Place(_stack(state.town, card) if stack else _spread(state.town, card)))
            else:
                k = rng.randrange(len(state.circle))
                drafts.append(k)
                turns.append({"who": "player", "circle": list(state.circle), "k": k})
                state = apply(state, Draft(k))
        else:
            raise BadInput("random game did not finish")
        game = {"circle": cards[:8], "deck": cards[8:], "player_drafts": drafts, "turns": turns,
                "town": list(state.town.card_ids), "pile": list(state.pile)}
        if state.after_round_1 is not None:
            game["after_round_1"] = list(state.after_round_1)
        out.append(game)
    return out


def territories(town: Town) -> int:
    return town_features(town).territories
