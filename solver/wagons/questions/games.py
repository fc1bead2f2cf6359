"""Question domains over whole games of a scenario (rule:W-rounds): the automaton drafts by its rules (rule:W1,
rule:W4, rule:W5), the player follows a named policy or makes any choice.

- ``games``: every deal of the scenario (the 16 cards left once its goal cards are set aside, in any order: 16!
  deals), the player following a policy (greedy, lookahead, random). The deals cannot be listed, so only a chance is
  asked, estimated from seeded uniform draws of deals (each draw a seed, the engine's own shuffle).
- ``deal``: the lines of play of one seeded deal, the player making any choice. They cannot be listed either; the
  deal search answers "is there a line the player wins" (``winner == player``: can-win, rule:W-opt-canwin) and its
  negation "does every line fail to win" (``winner != player``), "is there a line with a margin of at least k"
  (``margin >= k``) and "the most margin" (best play, rule:W-opt-bestplay); anything else is refused.

Measures: the final position's (:mod:`.measures`) and the automaton's drafts per round: ``round1.skips`` (cards it
skipped), ``round1.matches`` (drafts matching the preference deck's top card, rule:W1), ``round2.skips``,
``round2.matches`` (drafts by the scenario's rule or the icon fallback, rule:W5, rule:W4).

Witness: ``{"kind": "game", "scenario", "seed", "policy", "record": game_record(state), "town": {"placements"},
"pile", "scores", "rounds": {"1": {"skips", "matches"}, "2": {...}}}``; ``record`` is the game file the play page
replays turn by turn.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from solver.ask import condition as cond_mod
from solver.ask.model import Found, Goal, Measure, Value
from solver.errors import BadInput
from solver.wagons.data import WagonsData, load_data
from solver.wagons.game import GameState
from solver.wagons.policies import POLICIES
from solver.wagons.questions.measures import Position, position_measures, position_values
from solver.wagons.readings import WagonsReadings
from solver.wagons.scoring import placements_features

__all__ = ["GamesDomain", "DealDomain", "build_games", "build_deal", "round_counts", "DEALS"]

DEALS = 20_922_789_888_000
"""The deals of a scenario: the 16 cards left in any order (16!)."""
SEED_BITS = 48


def round_counts(state: GameState) -> dict[str, int]:
    """The automaton's skips and matches in each round, from the game's log (rule:W1, rule:W4, rule:W5)."""
    out = {"round1.skips": 0, "round1.matches": 0, "round2.skips": 0, "round2.matches": 0}
    for e in state.log:
        if e.who != "opponent" or e.what != "opponent-draft":
            continue
        r = "round1" if e.round == 1 else "round2"
        out[f"{r}.skips"] += len(e.skipped)
        matched = e.deck_card is not None if e.round == 1 else (e.rule.startswith("W5") or e.rule == "W4")
        out[f"{r}.matches"] += int(matched)
    return out


def _round_measures() -> list[Measure]:
    return [Measure("round1.skips", "the cards the opponent skipped in round 1", "number", "rule:W1", 0, 16),
            Measure("round1.matches", "the opponent's round-1 drafts matching the deck's top card", "number",
                    "rule:W1", 0, 8),
            Measure("round2.skips", "the cards the opponent skipped in round 2", "number", "rule:W5", 0, 16),
            Measure("round2.matches", "the opponent's round-2 drafts by the scenario's rule or a matching icon",
                    "number", "rule:W5", 0, 8)]


@dataclass(frozen=True)
class _Games:
    scenario: str
    readings: WagonsReadings
    data: WagonsData
    chance: bool = True
    noun: str = "game"
    _measures: dict = field(default_factory=dict, compare=False)

    def measures(self) -> Mapping[str, Measure]:
        if not self._measures:
            self._measures.update(position_measures(self.scenario, self.data))
            self._measures.update({m.name: m for m in _round_measures()})
        return self._measures

    def values(self, element: tuple[GameState, str], names: frozenset[str]) -> Mapping[str, Value]:
        state = element[0]
        town = state.town
        pos = Position(town, placements_features(town.placements), state.pile)
        out = dict(position_values(pos, self.scenario, self.readings, self.data,
                                   frozenset(n for n in names if not n.startswith("round"))))
        if any(n.startswith("round") for n in names):
            out.update(round_counts(state))
        return {n: out[n] for n in names}

    def witness(self, element: tuple[GameState, str]) -> dict:
        from solver.wagons.game import scores
        from solver.wagons.record.game_record import game_record

        state, policy = element
        rounds = round_counts(state)
        return {"kind": "game", "scenario": self.scenario, "seed": state.seed, "policy": policy,
                "record": game_record(state), "town": {"placements": [p.to_dict() for p in state.town.placements]},
                "pile": list(state.pile), "scores": scores(state).to_dict(),
                "rounds": {"1": {"skips": rounds["round1.skips"], "matches": rounds["round1.matches"]},
                           "2": {"skips": rounds["round2.skips"], "matches": rounds["round2.matches"]}}}

    def name(self) -> str:
        return self.data.scenario(self.scenario).name


@dataclass(frozen=True)
class GamesDomain(_Games):
    """Every deal, the player following ``policy`` (module docstring)."""

    policy: str = "greedy"
    samples: int = 200
    """Deals drawn for an estimate (each a whole game played: about 0.05-0.15 s greedy on this machine); fixed, so reproducible."""

    @property
    def description(self) -> str:
        return f"a game of {self.name()} (any deal) with the player playing {self.policy}"

    def size(self) -> int:
        return DEALS

    def elements(self) -> Iterator[tuple[Fraction, tuple[GameState, str]]]:
        raise BadInput(f"domain: the {DEALS:,} deals cannot be listed; ask for a chance (estimated)")

    def sample(self, rng: random.Random) -> tuple[Fraction, tuple[GameState, str]]:
        from solver.wagons.simulate import play_game

        seed = rng.getrandbits(SEED_BITS)
        return Fraction(1, DEALS), (play_game(self.scenario, self.policy, seed, self.readings, self.data).state,
                                    self.policy)


@dataclass(frozen=True)
class DealDomain(_Games):
    """The player's lines of play on the deal of ``seed`` (module docstring)."""

    seed: int = 0
    chance: bool = False
    noun: str = "line of play"

    @property
    def description(self) -> str:
        return f"a line of play of {self.name()} deal {self.seed} (any choices of yours)"

    def size(self) -> int:
        raise BadInput("domain: the lines of play of a deal cannot be listed; ask whether there is one you win "
                       "(ask = \"exists\", where = \"winner == player\") or the most margin")

    def elements(self) -> Iterator[tuple[Fraction, tuple[GameState, str]]]:
        self.size()
        return iter(())

    def search(self, goal: Goal) -> Found | None:
        import time

        left = max(0.1, goal.deadline - time.monotonic())
        win = cond_mod.Compare("winner", "==", "player")
        c = goal.condition
        if goal.quantifier == "exists" and c == win:
            return self._can_win(left)
        if goal.quantifier == "forall" and c in (cond_mod.Not(win), cond_mod.Compare("winner", "!=", "player")):
            found = self._can_win(left)  # every line loses or ties = no line wins; a winning line is the counterexample
            return replace(found, holds=None if found.holds is None else not found.holds)
        if goal.quantifier == "max" and goal.objective == "margin" and c is None:
            return self._best_play(left)
        if goal.quantifier == "exists" and isinstance(c, cond_mod.Compare) and c.measure == "margin" and \
                c.op in (">=", ">") and isinstance(c.value, int) and not isinstance(c.value, bool):
            return self._margin_at_least(left, c.value + (c.op == ">"))
        return None

    def _margin_at_least(self, seconds: float, k: int) -> Found:
        """Is there a line with a margin of at least ``k``: best play's margin (or its proven bound) decides it."""
        best = self._best_play(seconds)
        if isinstance(best.value, int) and best.value >= k:  # best play's margin: an int
            return replace(best, holds=True, proven=True, value=None, bound=None,
                           method=f"a line with margin {best.value} found by best play")
        if best.proven or isinstance(best.bound, int) and best.bound < k:
            return replace(best, holds=False, proven=True, element=None, value=None, bound=None,
                           method=f"best play proved no line reaches {k} (best margin at most "
                                  f"{best.value if best.proven else best.bound})")
        return replace(best, holds=None, proven=False, value=None, bound=None, element=None)

    def _line(self, actions: Iterable[Mapping[str, Any]]) -> tuple[GameState, str]:
        from solver.wagons.policies import ScriptedPolicy
        from solver.wagons.simulate import play_game

        return play_game(self.scenario, ScriptedPolicy(tuple(actions)), self.seed, self.readings, self.data).state, \
            "the line found"

    def _can_win(self, seconds: float) -> Found:
        from solver.wagons.optimizer.canwin import can_win
        from solver.wagons.optimizer.cpsat.solve import measuring

        with measuring() as spent:
            r = can_win(self.scenario, seed=self.seed, readings=self.readings, time_limit=seconds, data=self.data)
        element = self._line(r.actions) if r.winnable else None
        how = {True: "a winning line found by the deal search (can-win)",
               False: f"the deal search proved no line wins (best margin at most {r.bound})",
               None: f"undecided: {r.lines_open} of {r.lines} draft lines still open"}[r.winnable]
        return Found(holds=r.winnable, element=element, proven=r.proven, method=how, checked=r.lines,
                     deterministic=spent.deterministic)

    def _best_play(self, seconds: float) -> Found:
        from solver.wagons.optimizer.bestplay import best_play
        from solver.wagons.optimizer.cpsat.solve import measuring

        with measuring() as spent:
            r = best_play(self.scenario, seed=self.seed, readings=self.readings, time_limit=seconds, data=self.data)
        element = self._line(r.actions) if r.actions else None
        how = "best play, proved" if r.proven_optimal else f"best play found, not proven (bound {r.bound})"
        return Found(value=r.margin, bound=r.margin if r.proven_optimal else r.bound, element=element,
                     proven=r.proven_optimal, method=how, checked=r.lines, deterministic=spent.deterministic)


def _common(params: Mapping[str, Any], readings: Any) -> tuple[str, WagonsReadings, WagonsData]:
    readings = readings if isinstance(readings, WagonsReadings) else WagonsReadings()
    data = load_data().for_readings(readings)
    return data.scenario(str(params.get("scenario"))).id, readings, data  # BadInput naming the known ones


def build_games(params: Mapping[str, Any], readings: Any) -> GamesDomain:
    sid, readings, data = _common(params, readings)
    policy = params.get("policy")
    if policy not in POLICIES:
        raise BadInput(f"domain: policy must be one of {', '.join(POLICIES)}, got {policy!r}")
    return GamesDomain(sid, readings, data, policy=policy)


def build_deal(params: Mapping[str, Any], readings: Any) -> DealDomain:
    sid, readings, data = _common(params, readings)
    seed = params.get("seed")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2 ** 63:
        raise BadInput(f"domain: seed must be a whole number 0..2^63-1, got {seed!r}")
    return DealDomain(sid, readings, data, seed=seed)
