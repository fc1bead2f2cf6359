"""Circle the Wagons: Lone Cowboy.

The game contract (the same surface as :mod:`solver.cactus` and :mod:`solver.outlaws`, see
``docs/conventions.md``): ``Rules``, ``initial_state(seed, rules, scenario)``, ``legal_actions(state)``,
``apply(state, action)`` (pure), ``outcomes(state, action)`` (one certain outcome: nothing is left to
chance after the seeded set-up), ``is_terminal(state)``, ``winner(state)``, ``to_json(state)`` /
``from_json(doc)`` and ``action_to_json`` / ``action_from_json``. The engine is
:mod:`solver.wagons.game`.
"""

from solver.wagons.game import GameState as State
from solver.wagons.game import apply, initial_state, is_terminal, legal_actions, outcomes, winner
from solver.wagons.game_json import action_from_json, action_to_json
from solver.wagons.game_json import state_from_json as from_json
from solver.wagons.game_json import state_to_json as to_json
from solver.wagons.rules import Rules

__all__ = ["Rules", "State", "initial_state", "legal_actions", "apply", "outcomes", "is_terminal", "winner",
           "to_json", "from_json", "action_to_json", "action_from_json"]
