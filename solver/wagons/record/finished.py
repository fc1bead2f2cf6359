"""A finished Lone Cowboy game read from a file: what the review and the BG Stats export take.

Any saved shape of a game is read by :func:`solver.wagons.record.load.read_game` (the game file, the kept
game, the ``wagons play --json`` output, and the older whole-state document and play output), each problem
a one-line ``BadInput`` (rule:X-bad-input). The game must be over: a review or a play record of a
half-played game is refused (rule:W-rounds).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from solver.errors import BadInput
from solver.io.read import read_json
from solver.wagons.data import WagonsData
from solver.wagons.game import GameState, is_over
from solver.wagons.record.load import completeness_problem, read_game

__all__ = ["read_finished_game", "finished_game_from_json", "completeness_problem"]


def read_finished_game(path: str | Path, data: WagonsData | None = None) -> GameState:
    """The finished game in a file on this machine (the CLI's argument)."""
    return finished_game_from_json(read_json(path), str(path), data)


def finished_game_from_json(doc: Any, what: str = "game", data: WagonsData | None = None) -> GameState:
    """A finished game from any saved shape (a game file, a game state or a `wagons play --json` output)."""
    state = read_game(doc, what, data)
    if not is_over(state):
        raise BadInput(f"{what}: the game is not over yet (cards are still to draft or place)")
    return state
