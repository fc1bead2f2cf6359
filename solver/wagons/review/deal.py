"""After a game: could this deal have been won at all? (rule:W-opt-canwin on a played game's deal.)

A finished game knows its whole deal: a seeded game has its seed (rule:W-setup), a followed game
(rule:W-reveal) revealed every card, in deal order (the circle's 8 cards, then the preference deck from
its top), by the end. :func:`deal_of` reads that deal back; :func:`was_winnable` asks
:func:`solver.wagons.optimizer.canwin.can_win` about it (:func:`deal_winnable` asks about any whole
deal) and, when it is winnable, turns the winning line into a game file of the same kind as the game
played (:func:`line_record`): a seeded game's line
is a seeded game file, a followed game's line is a followed game file whose reveals are the same deal,
so it can be loaded on the game table and stepped through. Every action in it is checked by the
engine's ``apply``; the file replays to the can-win answer's margin (checked here).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from solver.errors import BadInput
from solver.execution.progress import OnProgress
from solver.wagons.data import WagonsData
from solver.wagons.game import (
    GameState,
    Reveal,
    actions_from_log,
    apply,
    is_chance_node,
    new_followed_game,
    new_game,
    scores,
)
from solver.wagons.optimizer.canwin import CanWin, can_win
from solver.wagons.optimizer.lines import deal_state
from solver.wagons.policies import ScriptedPolicy
from solver.wagons.readings import WagonsReadings
from solver.wagons.record.game_record import game_record
from solver.wagons.simulate import play_out

__all__ = ["Deal", "deal_of", "followed_record", "line_record", "deal_winnable", "was_winnable", "DEAL_SIZE"]

DEAL_SIZE = 16
"""Cards dealt (rule:W-setup): 18 fronts less the 2 set aside with the goal cards, 8 to the circle and 8 to the deck."""
CIRCLE = 8


@dataclass(frozen=True)
class Deal:
    """A whole deal: its seed (a seeded game) or None (followed), the circle and the deck (top first)."""

    seed: int | None
    circle: tuple[int, ...]
    deck: tuple[int, ...]

    @property
    def cards(self) -> tuple[int, ...]:
        return self.circle + self.deck


def _reveals(state: GameState) -> tuple[int, ...]:
    return tuple(a.card for a in actions_from_log(state) if isinstance(a, Reveal))


def deal_of(state: GameState) -> Deal:
    """The deal ``state`` was dealt: the seed's (rule:W-setup), or a followed game's reveals in order
    (rule:W-reveal: the k-th card revealed is the deal's k-th card). BadInput while cards are unseen."""
    if state.seed is not None:
        start = new_game(state.scenario, state.seed, state.readings, state.data)
        return Deal(state.seed, start.circle, start.deck)
    cards = _reveals(state)
    if len(cards) != DEAL_SIZE:
        raise BadInput(f"the deal is not known yet: {len(cards)} of its {DEAL_SIZE} cards have been revealed")
    return Deal(None, cards[:CIRCLE], cards[CIRCLE:])


def followed_record(start: GameState, actions: Sequence, deal: Deal) -> dict:
    """The game file of a followed game (seed null) that reveals ``deal`` and takes ``actions`` (the
    player's and the opponent's, no reveals): each chance node reveals the deal's next card."""
    state, k = new_followed_game(start.scenario, start.readings, start.data), 0

    def reveal_due(s: GameState) -> GameState:
        nonlocal k
        while is_chance_node(s):
            if k >= len(deal.cards):
                raise BadInput("followed record: the deal has fewer cards than the game reveals")
            s, k = apply(s, Reveal(deal.cards[k])), k + 1
        return s

    for action in actions:
        state = apply(reveal_due(state), action)
    return game_record(reveal_due(state))


def _start(scenario: str, deal: Deal, readings: WagonsReadings, data: WagonsData | None) -> GameState:
    """The deal's starting state: the seeded deal itself, or the explicit circle and deck."""
    if deal.seed is not None:
        return deal_state(scenario, deal.seed, readings=readings, data=data)
    return deal_state(scenario, None, deal.circle, deal.deck, readings, data)


def line_record(scenario: str, deal: Deal, readings: WagonsReadings, answer: CanWin, data: WagonsData | None = None) -> dict:
    """The winning line of ``answer`` as a game file of the deal's kind: seeded when the deal has a
    seed, else followed with the deal's cards as its reveals (module docstring)."""
    if not answer.winnable:
        raise BadInput("no winning line: the answer is not a win")
    start = _start(scenario, deal, readings, data)
    end = play_out(start, ScriptedPolicy(tuple(answer.actions))).state
    if scores(end).margin != answer.margin or scores(end).winner != "player":
        raise AssertionError("the winning line does not replay to the can-win answer")
    if deal.seed is not None:
        return game_record(end)
    return followed_record(start, actions_from_log(end), deal)


def deal_winnable(scenario: str, deal: Deal, readings: WagonsReadings = WagonsReadings(), time_limit: float = 30.0,
                  progress: OnProgress | None = None, data: WagonsData | None = None
                  ) -> tuple[CanWin, dict | None]:
    """Could ``deal`` be won (rule:W-opt-canwin)? The answer and, when it could, the winning line as a
    game file (:func:`line_record`)."""
    seeded = deal.seed is not None
    answer = can_win(scenario, deal.seed, None if seeded else deal.circle, None if seeded else deal.deck,
                     readings, time_limit, progress, data)
    return answer, (line_record(scenario, deal, readings, answer, data) if answer.winnable else None)


def was_winnable(played: GameState, time_limit: float = 30.0,
                 progress: OnProgress | None = None) -> tuple[CanWin, dict | None]:
    """:func:`deal_winnable` for the deal ``played`` was dealt (:func:`deal_of`)."""
    return deal_winnable(played.scenario, deal_of(played), played.readings, time_limit, progress, played.data)
