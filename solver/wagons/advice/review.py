"""After the game: the turns where the player's choice cost the most expected margin against the advice
(rule:W-advice).

:func:`review_choices` replays a game from its start and asks :func:`~.engine.advise` at each of the player's
decisions that had a choice (with the choice made kept in the race, so it is played on as many deal orders as the
advised action, the same ones). A turn's cost is the advised action's expected margin less the choice's (never
below 0: the advised one is the best estimate), with a 95% interval of the paired difference. :meth:`ChoiceReview.lines`
words the costliest turns, for instance "turn 5: drafting card 11 instead of card 3 cost about 4 points"; the
play page and ``wagons replay --review --json`` show the same sentences. In a seeded game each decision is judged
on what the player had seen then (:func:`~.information.information_state`), never on the deal's hidden cards.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

from solver.execution.progress import OnProgress, Progress
from solver.io.numbers import seconds
from solver.stopping import stopped
from solver.wagons.advice.engine import DEFAULT_POLICY, DEFAULT_SAMPLES, DEFAULT_TIME_LIMIT, advise
from solver.wagons.advice.result import ActionAdvice
from solver.wagons.advice.stats import t975
from solver.wagons.game import Draft, GameState, actions_from_log, apply, legal_actions
from solver.wagons.record.game_record import record_start

__all__ = ["TurnCost", "ChoiceReview", "review_choices", "choice_line", "SHOWN", "NOTICED"]

SHOWN = 5
"""Turns a review names at most (the costliest)."""
NOTICED = 0.5
"""Smallest cost (points of expected margin) a review names: below it the choice was as good as the advice's."""


def _place_words(a: ActionAdvice) -> str:
    p = a.action.placement
    return f"at ({p.x}, {p.y})" + (" turned 180" if p.rot else "")


def choice_line(turn: int, chosen: ActionAdvice, advised: ActionAdvice, cost: float) -> str:
    """One turn in words: "turn 5: drafting card 11 instead of card 3 cost about 4 points"."""
    points = max(1, round(cost))
    about = f"about {points} point" + ("s" if points != 1 else "")
    if isinstance(chosen.action, Draft):
        return f"turn {turn}: drafting card {chosen.card} instead of card {advised.card} cost {about}"
    return (f"turn {turn}: placing card {chosen.card} {_place_words(chosen)} instead of {_place_words(advised)} "
            f"cost {about}")


def _paired(a: tuple[int, ...], b: tuple[int, ...], exact: bool) -> tuple[float, float] | None:
    """The 95% interval of mean(a - b) over the same orders (the value itself when ``exact``)."""
    n = min(len(a), len(b))
    if n == 0:
        return None
    d = [x - y for x, y in zip(a[:n], b[:n])]
    m = sum(d) / n
    if exact:
        return (m, m)
    if n < 2:
        return None
    sd = math.sqrt(sum((x - m) ** 2 for x in d) / (n - 1))
    half = t975(n - 1) * sd / math.sqrt(n)
    return (m - half, m + half)


@dataclass(frozen=True)
class TurnCost:
    """One decision of the game: the choice made, the advised action, and what the choice cost in expected margin."""

    turn: int
    round: int
    decision: str                      # "draft" or "place"
    chosen: ActionAdvice
    advised: ActionAdvice
    cost: float
    interval: tuple[float, float] | None
    exact: bool

    @property
    def line(self) -> str:
        return choice_line(self.turn, self.chosen, self.advised, self.cost)

    def to_dict(self) -> dict:
        return {"turn": self.turn, "round": self.round, "decision": self.decision,
                "chosen": self.chosen.to_dict(), "advised": self.advised.to_dict(), "cost": round(self.cost, 3),
                "interval": None if self.interval is None else [round(x, 3) for x in self.interval],
                "exact": self.exact, "line": self.line if self.cost >= NOTICED else None}


@dataclass(frozen=True)
class ChoiceReview:
    """Every decision with a choice, in game order, and the settings they were judged with."""

    turns: tuple[TurnCost, ...]
    decisions: int                     # decisions with a choice in the game (reviewed or not)
    complete: bool                     # False: stopped before every decision was reviewed
    policy: str
    samples: int
    elapsed: float

    def costly(self, n: int = SHOWN) -> list[TurnCost]:
        """The ``n`` costliest turns that cost at least :data:`NOTICED`, costliest first."""
        return sorted((t for t in self.turns if t.cost >= NOTICED), key=lambda t: (-t.cost, t.turn))[:n]

    def lines(self, n: int = SHOWN) -> list[str]:
        return [t.line for t in self.costly(n)]

    def to_dict(self) -> dict:
        return {"lines": self.lines(), "costly": [t.to_dict() for t in self.costly()],
                "turns": [t.to_dict() for t in self.turns], "decisions": self.decisions,
                "reviewed": len(self.turns), "complete": self.complete, "policy": self.policy,
                "samples": self.samples, "elapsed": round(self.elapsed, 3), "rule": "W-advice"}


def _decisions(state: GameState, dealt: GameState | None = None) -> list[tuple[GameState, object]]:
    """(state before, action taken) for each of the player's decisions with more than one legal action, from the
    game's start: ``dealt`` (an explicit deal's start), else its seed's deal or a followed game's."""
    s = dealt or record_start(state.scenario, state.readings, state.seed, state.data)
    out = []
    for a in actions_from_log(state)[len(actions_from_log(s)):]:
        if s.to_move == "player" and len(legal_actions(s)) > 1:
            out.append((s, a))
        s = apply(s, a)
    return out


def _turn(before: GameState, chosen, advice) -> TurnCost | None:
    """The turn's cost, or None when the time ran out before the advised action and the choice were both played."""
    mine = next(r for r in advice.actions if r.action == chosen)
    best = advice.best
    if best is None or not mine.samples:
        return None
    exact = mine.exact and best.exact
    cost = max(0.0, float(best.mean) - float(mine.mean))
    return TurnCost(before.turn, before.round, advice.decision, mine, best, cost,
                    _paired(best.margins, mine.margins, exact), exact)


def review_choices(state: GameState, samples: int = DEFAULT_SAMPLES, policy: str = DEFAULT_POLICY,
                   time_limit: float = DEFAULT_TIME_LIMIT, progress: OnProgress | None = None,
                   dealt: GameState | None = None) -> ChoiceReview:
    """The review of the player's choices in ``state``'s game so far (module docstring), within ``time_limit``
    wall seconds in all (or until the run's Stop): the decisions reviewed by then, in game order, ``complete``
    False when some were left. A seeded game is replayed from its seed, a followed game from its reveals, an
    explicit deal from ``dealt`` (its start)."""
    start = time.monotonic()
    limit = seconds(time_limit, "time limit")
    todo = _decisions(state, dealt)
    turns: list[TurnCost] = []
    for n, (before, chosen) in enumerate(todo):
        left = start + limit - time.monotonic()
        if stopped() or left <= 0:
            break
        if progress is not None:
            progress(Progress(n, len(todo), "decisions reviewed", elapsed=time.monotonic() - start))
        advice = advise(before, samples, policy, left, keep=(chosen,), bound=False)
        turn = _turn(before, chosen, advice)
        if turn is None or not advice.complete:  # the time ran out (or Stop) within this decision
            break
        turns.append(turn)
    return ChoiceReview(tuple(turns), len(todo), len(turns) == len(todo), policy, samples, time.monotonic() - start)
