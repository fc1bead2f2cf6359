"""Long commands keep standard output one JSON document with ``--json`` and show their progress on standard error
(unless ``--quiet``), as ``advise`` does: run in-process with small settings."""

import json

import pytest

from solver.cli import main

LONG_COMMANDS = {
    "wagons verify": ["wagons", "verify", "--scenario", "gold-rush", "--check", "playability", "--time-limit", "20"],
    "wagons simulate": ["wagons", "simulate", "--scenario", "gold-rush", "--policy", "random", "--games", "2"],
    "outlaws playouts": ["outlaws", "playouts", "--n", "1", "--max-actions", "40"],
    "cactus verify": ["cactus", "verify", "--players", "2", "--quick"],
    "readings impact cactus": ["readings", "impact", "cactus", "--verdict", "marshal-odds/p2", "--executor", "serial"],
}


@pytest.mark.parametrize("label", list(LONG_COMMANDS))
def test_json_on_stdout_and_progress_on_stderr(capsys, label):
    code = main([*LONG_COMMANDS[label], "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    json.loads(out)  # the whole of standard output is one JSON document
    assert out.count("\n") == 1
    assert f"[{label}]" in err, err  # the progress lines


@pytest.mark.parametrize("label", list(LONG_COMMANDS))
def test_quiet_silences_the_progress(capsys, label):
    code = main([*LONG_COMMANDS[label], "--json", "--quiet"])
    out, err = capsys.readouterr()
    assert code == 0 and json.loads(out) is not None
    assert f"[{label}]" not in err
