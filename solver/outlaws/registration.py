"""Outlaws: Last Man Standing's registration (:class:`solver.registration.GameRegistration`): everything the command
line, the batches, the readings' verdicts, the checks and the questions know of this game."""

from __future__ import annotations

from solver import outlaws
from solver.outlaws import cli, questions
from solver.outlaws import verify as outlaws_verify
from solver.outlaws.search import playout
from solver.outlaws.verify import verdicts
from solver.registration import GameRegistration

GAME = GameRegistration(
    id="outlaws", title="Outlaws: Last Man Standing", short="Outlaws", engine=outlaws,
    add_commands=cli.add_commands, verdicts=verdicts.verdicts, verify=outlaws_verify.report,
    batches=playout.BATCH_KINDS, questions=questions.DOMAINS,
)
