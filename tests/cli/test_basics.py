"""The ruleslinger command: --help everywhere, one-line errors with exit code 2, --json."""

import argparse
import json
import subprocess
import sys

import pytest

from solver import cli
from solver.paths import REPO


def _leaf_paths(parser: argparse.ArgumentParser, prefix=()):
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if not subs:
        yield prefix
        return
    for name, child in subs[0].choices.items():
        yield from _leaf_paths(child, prefix + (name,))


def all_commands():
    return list(_leaf_paths(cli.build_parser()))


def test_commands_exist_for_every_game():
    groups = {path[0] for path in all_commands()}
    assert {"wagons", "cactus", "outlaws", "rules"} <= groups


@pytest.mark.parametrize("path", all_commands(), ids=lambda p: " ".join(p))
def test_help_for_every_command(path, capsys):
    with pytest.raises(SystemExit) as exc:
        cli.main([*path, "--help"])
    assert exc.value.code == 0
    assert "usage:" in capsys.readouterr().out


@pytest.mark.parametrize("argv", [[], ["nosuchgame"], ["wagons", "nosuchcommand"], ["rules", "--bogus"]])
def test_usage_errors_are_one_line_exit_2(argv, capsys):
    assert cli.main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("ruleslinger: error:")
    assert "\n" not in err and "Traceback" not in err


def test_rules_json(capsys):
    assert cli.main(["rules", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert any(r["id"] == "X-bad-input" for r in doc["rules"])
    assert doc["problems"] == []


def test_python_dash_m_solver_runs_the_same_command():
    done = subprocess.run([sys.executable, "-m", "solver", "rules", "--json"], capture_output=True, text=True,
                          cwd=REPO, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["rules"]


def test_bad_input_from_a_subprocess_has_no_traceback(tmp_path):
    bad = tmp_path / "town.json"
    bad.write_text("{not json")
    done = subprocess.run([sys.executable, "-m", "solver", "wagons", "score", str(bad), "--scenario", "boomtown",
                           "--json"], capture_output=True, text=True, cwd=REPO, timeout=120)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert done.stdout == ""
