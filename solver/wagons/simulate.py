"""Playing whole games with a policy, and batches of them into Polars (rule:W-rounds).

``play_row(scenario, policy, seed, readings)`` plays ONE game and returns a flat, picklable dict
(module-level function: safe to ship to a process pool or Dask); ``simulate_rows`` streams rows;
``simulate`` collects them into a ``polars.DataFrame``. Everything is deterministic under the seed:
game ``i`` of a batch uses seed ``seed + i`` for the deal and for the policy's random choices.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field

from solver.errors import BadInput
from solver.wagons.data import WagonsData
from solver.wagons.game import GameState, apply, is_chance_node, is_over, legal_actions, new_game, scores
from solver.wagons.policies import policy_by_name
from solver.wagons.readings import WagonsReadings
from solver.wagons.record.game_record import game_record
from solver.wagons.scoring import FinalScores

__all__ = ["GameResult", "play_game", "play_out", "play_row", "simulate_rows", "simulate", "DECISION_RULES"]

DECISION_RULES = ("W1", "W1-next", "W4", "W4-next", "W4-later", "W5-boomtown", "W5-gold-rush",
                  "W5-through-the-desert", "W5-out-drink-the-competition", "W5-water-the-herd",
                  "W5-cattle-drive")
MAX_STEPS = 500
"""A game has at most 16 drafts, 16 placements and 16 opponent turns; more means a broken policy."""


@dataclass(frozen=True)
class GameResult:
    """A whole game played out: its end, scores and policy, and the deal it started from."""
    state: GameState
    scores: FinalScores
    policy: str
    start: GameState | None = field(default=None, compare=False, repr=False)
    """The deal the game started from (None: its seed's deal); an explicit deal's record names it."""

    def to_dict(self) -> dict:
        """The game's record (:func:`game_record`, the one serialisation) plus what is derived from it: the
        scores, the policy, both towns and the log (``wagons play --json``)."""
        d = game_record(self.state, self.start)
        d.update(self.scores.to_dict())
        d.update({"policy": self.policy, "player_cards": list(self.state.town.card_ids),
                  "opponent_pile": list(self.state.pile),
                  "town": {"placements": [p.to_dict() for p in self.state.town.placements]},
                  "log": [e.to_dict() for e in self.state.log]})
        return d


def policy_rng(seed: int) -> random.Random:
    return random.Random(f"wagons-policy-{seed}")


def play_game(scenario_id: str, policy, seed: int, readings: WagonsReadings = WagonsReadings(),
              data: WagonsData | None = None) -> GameResult:
    """One whole solo game; ``policy`` is a name ("random", "greedy") or a policy object;
    ``data`` the cards, goals and scenarios to play and score with (None = the shipped files)."""
    return play_out(new_game(scenario_id, seed, readings, data), policy)


def play_out(state: GameState, policy) -> GameResult:
    """Play ``state`` (a fresh deal: a seed's or an explicit one) to the end with ``policy``; the
    policy's random choices follow the deal's seed (0 for an explicit deal without one)."""
    pol = policy_by_name(policy) if isinstance(policy, str) else policy
    rng = policy_rng(state.seed if state.seed is not None else 0)
    start = state
    for _ in range(MAX_STEPS):
        if is_over(state):
            return GameResult(state, scores(state), pol.name, start)
        if is_chance_node(state):
            raise BadInput("a followed game's next card is unknown: reveal it first (play_out plays known deals)")
        actions = legal_actions(state)
        action = actions[0] if state.to_move == "opponent" else pol.choose(state, actions, rng)
        state = apply(state, action)
    raise BadInput(f"game did not finish in {MAX_STEPS} steps (scenario {state.scenario}, seed {state.seed})")


def play_row(scenario_id: str, policy: str, seed: int, readings: dict | WagonsReadings | None = None,
             data: WagonsData | None = None) -> dict:
    """One game as a flat row (seed, scenario, policy, both scores, margin, winner, cards, decisions)."""
    r = readings if isinstance(readings, WagonsReadings) else WagonsReadings.from_json(readings or {})
    res = play_game(scenario_id, policy, seed, r, data)
    s, f = res.state, res.scores
    row = {"seed": seed, "scenario": scenario_id, "policy": res.policy, "edition": r.edition,
           "player_total": f.player.total, "opponent_total": f.opponent.total, "margin": f.margin,
           "winner": f.winner, "player_groups": sum(f.player.groups.values()),
           "player_goals": sum(f.player.goals.values()), "opponent_common": f.opponent.common,
           "opponent_goals": sum(f.opponent.goals.values()),
           "player_card_count": len(s.town.placements), "opponent_card_count": len(s.pile),
           "player_cards": ",".join(map(str, s.town.card_ids)), "opponent_cards": ",".join(map(str, s.pile))}
    for rid in DECISION_RULES:
        row["rule_" + rid] = sum(1 for e in s.log if e.who == "opponent" and e.rule == rid)
    return row




def simulate_rows(n: int, scenario_id: str, policy: str, seed: int = 0,
                  readings: dict | WagonsReadings | None = None, data: WagonsData | None = None) -> Iterator[dict]:
    """Stream ``n`` game rows; game i uses seed ``seed + i``."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise BadInput(f"n: expected a whole number >= 0, got {n!r}")
    for i in range(n):
        yield play_row(scenario_id, policy, seed + i, readings, data)


def simulate(n: int, scenario_id: str, policy: str, seed: int = 0, readings: dict | WagonsReadings | None = None,
             data: WagonsData | None = None):
    """``n`` games into a ``polars.DataFrame`` (one row per game)."""
    import polars as pl

    return pl.DataFrame(list(simulate_rows(n, scenario_id, policy, seed, readings, data)))
