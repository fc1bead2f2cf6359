"""Outlaws as the game contract: a :class:`Game` is a :class:`~solver.outlaws.position.Position` with the
readings in force, a :class:`Play` is an engine :class:`~solver.outlaws.actions.Action` with the
answers to the reactions it may call for.

The engine resolves an action in one go and lists the players' choices (the Sheriff saving his
Governor, rule:O6; the Reverend cancelling an arrest or immobilization, rule:O7; keeping a token or
immobilizing the Bandit, rule:O16) as separate outcomes, because a player chooses them. The contract keeps chance and choice apart: a reaction is a choice,
so it is part of the play (``reactions``: the answers, in the order the questions arise), and
:func:`outcomes` lists only what chance decides (reserve draws, rule:O2; hidden characters and
tokens; the sudden-death shuffle, rule:O11), whose probabilities sum to 1. The resolution itself is
the engine's (:func:`solver.outlaws.apply.resolve`); this module only answers its questions.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from solver.contract import Outcome
from solver.errors import BadInput
from solver.outlaws import actions as ac
from solver.outlaws import apply as ap
from solver.outlaws.characters import TABLE
from solver.outlaws.position import Position, Side, initial_position
from solver.outlaws.position_json import position_from_json, position_to_json
from solver.outlaws.readings import OutlawsReadings
from solver.outlaws.victory import winner as victory

__all__ = ["Game", "Play", "initial_state", "legal_actions", "outcomes", "is_terminal", "winner", "outcome",
           "state_to_json", "state_from_json", "action_to_json", "action_from_json"]


@dataclass(frozen=True)
class Game:
    """A position and the readings it is played under."""

    position: Position
    readings: OutlawsReadings = OutlawsReadings()


@dataclass(frozen=True)
class Play:
    """An engine action and the answers (True = react) to the reaction questions it raises."""

    action: ac.Action
    reactions: tuple[bool, ...] = ()


class _Walk(ap.Decider):
    """Walks one path of the resolution: chance and unplanned choices from ``prefix`` (option
    indices), the reaction questions answered from ``reactions`` when given."""

    def __init__(self, prefix: list[int], reactions: tuple[bool, ...] | None):
        self.prefix, self.reactions = prefix, reactions
        self.sizes: list[int] = []
        self.replies: list[bool] = []
        self._num, self._den = 1, 1  # the path's chance as an integer ratio (a sudden death walks 560 paths)

    @property
    def prob(self) -> Fraction:
        return Fraction(self._num, self._den)

    def choose(self, label, options, chance):
        if not chance and self.reactions is not None:
            if len(self.replies) >= len(self.reactions):
                raise BadInput(f"reaction {len(self.replies) + 1} is not answered: {options[0][0]}?")
            value = self.reactions[len(self.replies)]
            if value not in [v for _, _, v in options]:
                raise BadInput(f"reaction {len(self.replies) + 1}: {value!r} is not an answer")
            self.replies.append(value)
            self.sizes.append(1)
            return value
        k = len(self.sizes)
        idx = self.prefix[k] if k < len(self.prefix) else 0
        self.sizes.append(len(options))
        _, weight, value = options[idx]
        if chance:
            self._num *= weight
            self._den *= sum(w for _, w, _ in options)
        else:
            self.replies.append(value)
        return value


def _paths(pos: Position, action: ac.Action, readings: OutlawsReadings, reactions: tuple[bool, ...] | None):
    """Every (probability, replies, position) leaf of the resolution (the engine's own walk order)."""
    for walk, result in ap.resolutions(pos, action, readings, lambda prefix: _Walk(prefix, reactions)):
        yield walk.prob, tuple(walk.replies), result


def _replies(pos: Position, action: ac.Action, readings: OutlawsReadings, reactions: tuple[bool, ...] | None) -> list[tuple]:
    """The replies of every path of the action's own part (:func:`solver.outlaws.apply.act`), in the engine's walk
    order. What follows it (:func:`solver.outlaws.apply.finish`: the sudden-death shuffle, rule:O11, and the turn)
    asks no player, so its paths are not walked (a take that triggers sudden death would walk its 560 layouts)."""
    walks: list[_Walk] = []
    found: list[tuple] = []

    def start(prefix: list[int]) -> _Walk:
        walks.append(_Walk(prefix, reactions))
        return walks[-1]

    def seen(_mid: Position) -> bool:
        found.append(tuple(walks[-1].replies))
        return False  # the path ends here: finish is not run

    for _ in ap.resolutions(pos, action, readings, start, seen):
        pass
    return found


def _plans(pos: Position, action: ac.Action, readings: OutlawsReadings) -> list[tuple[bool, ...]]:
    """The answer sequences that settle every reaction ``action`` can raise, in first-seen order."""
    if action.kind != "take" and (action.kind != "ability" or not TABLE[action.actor].reacts):
        return [()]  # only a Take (keeping the token, rule:O16) and the abilities that react (the Hitman's and the
        # Sheriff's: rule:O6, rule:O7, immobilizing the Bandit, rule:O16) raise a player's choice
    plans = list(dict.fromkeys(_replies(pos, action, readings, None)))
    out = []
    for plan in plans:
        try:
            _replies(pos, action, readings, plan)
        except BadInput:  # a question this plan leaves open on some chance path
            continue
        out.append(plan)
    return out


def initial_state(seed: int = 0, readings: OutlawsReadings = OutlawsReadings()) -> Game:
    """The shuffled set-up, fully known (rule:O-setup, rule:O13)."""
    return Game(initial_position(seed, readings), readings)


def legal_actions(game: Game) -> tuple[Play, ...]:
    """Every legal action of the side to move (rule:O-actions), each with every reaction plan."""
    if is_terminal(game):
        return ()
    pos, readings = game.position, game.readings
    return tuple(Play(a, plan) for a in ac.legal_actions(pos, readings) for plan in _plans(pos, a, readings))


def outcomes(game: Game, play: Play, check: bool = True) -> list[tuple[Fraction, Game]]:
    """What chance makes of ``play``: (probability, game), equal positions merged, summing to 1. ``check=False``
    skips re-checking that the action is legal (for callers iterating :func:`legal_actions`: the check lists
    every legal action again, most of the cost of a walk over a game tree)."""
    if is_terminal(game):
        raise BadInput("the game is over")
    if check and play.action not in ac.legal_actions(game.position, game.readings):
        raise BadInput(f"illegal action for {game.position.to_move} in this position: {play.action.to_json()}")
    merged: dict[Position, Fraction] = {}
    for p, _, pos in _paths(game.position, play.action, game.readings, play.reactions):
        merged[pos] = merged.get(pos, Fraction(0)) + p
    return [(p, Game(pos, game.readings)) for pos, p in merged.items()]


def is_terminal(game: Game) -> bool:
    """Someone has won (rule:O-victory-good, rule:O-victory-bad, rule:O-victory-ugly)."""
    return game.position.winner is not None


def outcome(game: Game) -> Outcome | None:
    """How the game ended: ``Outcome(side, way)`` (rule:O-victory-good, rule:O-victory-bad, rule:O-victory-ugly),
    else None."""
    return victory(game.position)


def winner(game: Game) -> Side | None:
    """The winning side, "A" or "B" (a :class:`~solver.outlaws.position.Side`), else None."""
    won = victory(game.position)
    return won.winner if won else None


def state_to_json(game: Game) -> dict:
    return {"game": "outlaws", "position": position_to_json(game.position), "rules": game.readings.to_json()}


def state_from_json(doc: Any) -> Game:
    """A :class:`Game` from :func:`state_to_json`'s document; the position is checked as any position file."""
    if not isinstance(doc, dict) or set(doc) - {"game", "position", "rules"} or "position" not in doc:
        raise BadInput("game: expected an object with 'position' (a position document) and 'rules'")
    if doc.get("game", "outlaws") != "outlaws":
        raise BadInput("game.game: expected \"outlaws\"")
    if not isinstance(doc["position"], dict):
        raise BadInput("game.position: expected a position object")
    return Game(position_from_json(doc["position"]), OutlawsReadings.from_json(doc.get("rules")))


def action_to_json(play: Play) -> dict:
    return {**play.action.to_json(), "reactions": list(play.reactions)}


def action_from_json(doc: Any) -> Play:
    if not isinstance(doc, dict):
        raise BadInput("action: expected an object")
    rest = dict(doc)
    reactions = rest.pop("reactions", [])
    if not isinstance(reactions, list) or not all(isinstance(r, bool) for r in reactions):
        raise BadInput("action.reactions: expected a list of true/false answers")
    return Play(ac.Action.from_json(rest), tuple(reactions))
