"""Each shipped Lone Cowboy example question, answered through the command line, gets its recorded answer."""

from __future__ import annotations

import json

import pytest

from solver.ask.examples import examples
from solver.cli import main

SLOW = {"wagons-greedy-win-chance", "wagons-badlands-six-cards", "wagons-badlands-boxed-both-ways",
        "wagons-deal-winnable"}
"""The examples that take more than a few seconds (a CP-SAT or deal search, 200 whole games, 91,220 towns)."""
NAMES = [e.name for e in examples() if e.question.game == "wagons"]


def test_there_are_at_least_eight_and_the_players_questions_are_among_them():
    assert len(NAMES) >= 8
    titles = {e.question.title for e in examples() if e.question.game == "wagons"}
    assert "In Gold Rush, can the opponent take Claim Jumpers from me when I hold more Mines?" in titles
    assert "What is the most Badlands can give with these six cards?" in titles


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.slow) if n in SLOW else n for n in NAMES])
def test_the_command_line_gets_the_recorded_answer(name, capsys):
    assert main(["ask", "--examples", name, "--json", "--quiet"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["as_expected"], (out["answer"], out["expected"])
    if out["verdict"] in ("yes", "value") and out["witness"] is not None:
        assert out["witness"]["kind"] in ("town", "game")


def test_a_forall_sentence_reads_naturally(capsys):
    assert main(["ask", "--examples", "wagons-claim-jumpers-always-taken", "--quiet"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("For every town of cards 1, 6 in Gold Rush against the opponent pile 10, does it hold")
