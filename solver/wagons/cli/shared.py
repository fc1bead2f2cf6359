"""What both Lone Cowboy command modules share (:mod:`solver.wagons.cli.commands`, :mod:`solver.wagons.cli.optimizer`):
the flags of the open readings, the data and opponent files, the time limit.

Bad input: one line, exit 2 (rule:X-bad-input).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from solver.errors import BadInput
from solver.io.read import read_json
from solver.wagons.cards import check_card_ids
from solver.wagons.data import WagonsData, load_data
from solver.wagons.readings import (
    WagonsReadings,
)

if TYPE_CHECKING:
    from solver.wagons.game import GameState

__all__ = ["add_readings_flags", "readings_from_args", "data_from_args", "load_opponent", "opponent_from_json",
           "state_upto", "record_upto"]


def add_readings_flags(p) -> None:
    """Every reading of the open questions as its own flag (``--icon-source town``) and as ``--rule NAME=VALUE``,
    generated from :class:`WagonsReadings` (each help line names its register entry), and ``--goals FILE``."""
    from solver.register import option_help

    WagonsReadings.add_arguments(p, rule_ids=option_help("wagons"))
    p.add_argument("--goals", metavar="FILE", default=None,
                   help="your copy of goals.toml (to correct a number from your own card)")


def readings_from_args(args) -> WagonsReadings:
    """The readings the command line gives (:meth:`WagonsReadings.from_args`); the others at their defaults."""
    return WagonsReadings.from_args(args)


def data_from_args(args) -> WagonsData:
    """The wagons data with the user's ``--goals FILE`` (None: the shipped goals): the one source
    every command passes on to the engine, the optimizer and the replays. A symbolic link loop, a NUL
    in the name or a missing file is refused by the file reader, in one line (``abspath`` only joins names)."""
    goals = getattr(args, "goals", None)
    if not goals:
        return load_data()
    try:
        return load_data(goals_path=os.path.abspath(goals))
    except BadInput as exc:
        raise BadInput(f"--goals: {exc}") from None


def load_opponent(path) -> tuple[int, ...]:
    """An opponent file ``{"pile": [ids, oldest first]}`` on this machine (contracts.md)."""
    return opponent_from_json(read_json(path), str(path))


def opponent_from_json(doc, what: str = "opponent") -> tuple[int, ...]:
    """An opponent document ``{"pile": [ids, oldest first]}``; never reads a file."""
    if not isinstance(doc, dict) or not isinstance(doc.get("pile"), list):
        raise BadInput(f"{what}: expected an object with a 'pile' list of card ids")
    return check_card_ids(doc["pile"], f"{what}: pile")


def state_upto(doc, upto: int | None, data):
    """The state a game reaches (any saved shape, :func:`solver.wagons.record.load.record_of`), or after its first
    ``upto`` actions (the whole game is checked first)."""
    return record_upto(doc, upto, data)[0]


def record_upto(doc: Any, upto: int | None, data: WagonsData | None) -> tuple[GameState, dict]:
    """:func:`state_upto`'s state and the game's record up to it (its first ``upto`` actions)."""
    from solver.wagons.game import replay
    from solver.wagons.record.game_record import record_parts
    from solver.wagons.record.load import record_of

    record = record_of(doc, "game file", data)
    start, actions = record_parts(record, data)  # checks the whole game first
    n = len(actions)
    if upto is not None and not 0 <= upto <= n:
        raise BadInput(f"--upto: expected 0..{n} (the file has {n} actions), got {upto}")
    return replay(start, actions[:upto]), {**record, "actions": record["actions"][:upto]}
