"""Outlaws: Last Man Standing.

The game contract (the same surface as :mod:`solver.wagons` and :mod:`solver.cactus`, see
``docs/conventions.md``): ``Readings``, ``initial_state(seed, readings)``, ``legal_actions(state)``,
``outcomes(state, play)`` (what chance makes of a play, probabilities summing to 1),
``is_terminal(state)``, ``winner(state)``, ``outcome(state)`` (who won and how: a
:class:`solver.contract.Outcome`), ``to_json(state)`` / ``from_json(doc)`` and
``action_to_json`` / ``action_from_json``. A state is :class:`solver.outlaws.game.Game` (a position
and its readings); the engine is :mod:`solver.outlaws.position`, ``actions`` and ``apply``.
"""

from solver.outlaws.game import Game as State
from solver.outlaws.game import (
    action_from_json,
    action_to_json,
    initial_state,
    is_terminal,
    legal_actions,
    outcome,
    outcomes,
    winner,
)
from solver.outlaws.game import state_from_json as from_json
from solver.outlaws.game import state_to_json as to_json
from solver.outlaws.readings import OutlawsReadings as Readings

__all__ = ["Readings", "State", "initial_state", "legal_actions", "outcomes", "is_terminal", "winner", "outcome",
           "to_json", "from_json", "action_to_json", "action_from_json"]
