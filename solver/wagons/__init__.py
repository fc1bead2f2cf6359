"""Circle the Wagons: Lone Cowboy.

The game contract (the same surface as :mod:`solver.cactus` and :mod:`solver.outlaws`, see
``docs/conventions.md``): ``Readings``, ``initial_state(seed, readings, scenario)``, ``legal_actions(state)``,
``apply(state, action)`` (pure), ``outcomes(state, action)`` (one certain outcome), ``is_terminal(state)``,
``winner(state)``, ``outcome(state)`` (who won and what decided it), ``to_json(state)`` / ``from_json(doc)`` and
``action_to_json`` / ``action_from_json``. Chance is OpenSpiel's (rule:W-reveal): a followed game
(``new_followed_game``, its deal unknown) has chance nodes (``is_chance_node``) whose legal actions are
``Reveal(card)`` for each unseen card, with their exact chances from ``chance_outcomes``; a seeded game has none.
``replay`` applies a list of actions; ``game_record`` / ``game_from_record`` write and read a game file, the one
serialisation of a game (``to_json`` is a view of one position; :mod:`solver.wagons.record.load` converts every older
saved shape into the record). The engine is :mod:`solver.wagons.game`.
"""

from solver.wagons.game import GameState as State
from solver.wagons.game import (
    Reveal,
    apply,
    chance_outcomes,
    initial_state,
    is_chance_node,
    is_terminal,
    legal_actions,
    new_followed_game,
    outcome,
    outcomes,
    replay,
    unseen_cards,
    winner,
)
from solver.wagons.readings import WagonsReadings as Readings
from solver.wagons.record.game_json import action_from_json, action_to_json
from solver.wagons.record.game_json import state_from_json as from_json
from solver.wagons.record.game_json import state_to_json as to_json
from solver.wagons.record.game_record import game_from_record, game_record

__all__ = ["Readings", "State", "initial_state", "legal_actions", "apply", "outcomes", "is_terminal", "winner",
           "outcome", "to_json", "from_json", "action_to_json", "action_from_json", "Reveal", "new_followed_game",
           "is_chance_node", "chance_outcomes", "unseen_cards", "replay", "game_record", "game_from_record"]
