"""Cactus Town: The Lone Ranger: event deck, solo action deck, exact marshal odds, the lone
ranger's decisions on a position, duel odds and Z3 checks (``solver.cactus.verify.checks``; see docs/cactus.md).

The game contract (the same surface as :mod:`solver.wagons` and :mod:`solver.outlaws`, see
``docs/conventions.md``): ``Readings`` (:class:`CactusReadings`), ``initial_state(seed, readings, players)``,
``legal_actions(state)``, ``outcomes(state, action)`` (exact chances summing to 1),
``is_terminal(state)``, ``winner(state)``, ``outcome(state)`` (who won and how the game ended),
``to_json(state)`` / ``from_json(doc)`` and ``action_to_json`` / ``action_from_json``: the round structure of
:mod:`solver.cactus.game`.
"""

from solver.cactus.duel import duel_odds
from solver.cactus.game import Game as State
from solver.cactus.game import (
    action_from_json,
    action_to_json,
    initial_state,
    is_terminal,
    legal_actions,
    outcome,
    outcomes,
    winner,
)
from solver.cactus.game import state_from_json as from_json
from solver.cactus.game import state_to_json as to_json
from solver.cactus.odds import marshal_odds
from solver.cactus.ranger import decide
from solver.cactus.readings import CactusReadings
from solver.cactus.readings import CactusReadings as Readings

__all__ = ["Readings", "CactusReadings", "State", "initial_state", "legal_actions", "outcomes", "is_terminal", "winner",
           "outcome", "to_json", "from_json", "action_to_json", "action_from_json", "marshal_odds", "decide", "duel_odds"]
