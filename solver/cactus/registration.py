"""Cactus Town: The Lone Ranger's registration (:class:`solver.registration.GameRegistration`): everything the
command line, the batches, the readings' verdicts, the checks and the questions know of this game."""

from __future__ import annotations

from solver import cactus
from solver.cactus import cli, odds, questions
from solver.cactus import verify as cactus_verify
from solver.cactus.verify import verdicts
from solver.execution.plans import Setting
from solver.registration import GameRegistration

GAME = GameRegistration(
    id="cactus", title="Cactus Town: The Lone Ranger", short="Cactus Town", engine=cactus,
    add_commands=cli.add_commands, verdicts=verdicts.verdicts, verify=cactus_verify.report,
    batches=odds.BATCH_KINDS,
    batch_settings=(Setting("players", "the number of players of cactus-montecarlo, 2..5 (default: solo)", whole=True),),
    questions=questions.DOMAINS,
)
