"""Circle the Wagons: Lone Cowboy's registration (:class:`solver.registration.GameRegistration`): everything the
command line, the batches, the readings' verdicts, the checks and the questions know of this game."""

from __future__ import annotations

from solver import wagons
from solver.execution.plans import Setting
from solver.registration import GameRegistration
from solver.wagons import batches, questions
from solver.wagons import verify as wagons_verify
from solver.wagons.cli import commands
from solver.wagons.verify import verdicts

GAME = GameRegistration(
    id="wagons", title="Circle the Wagons: Lone Cowboy", short="Lone Cowboy", engine=wagons,
    add_commands=commands.add_commands, verdicts=verdicts.verdicts, verify=wagons_verify.report,
    batches=batches.BATCH_KINDS,
    batch_settings=(Setting("scenario", "the Lone Cowboy scenario (wagons-atlas: ids joined by commas, or ALL)"),
                    Setting("policy", "the player's policy of wagons-games (random, greedy, lookahead...)")),
    questions=questions.DOMAINS,
)
