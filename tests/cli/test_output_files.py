"""Output files: one rule for every command that writes one, checked before any work starts, and never a file
the command reads (issue 33; solver/clikit.py ``check_output_files``, solver/io/ ``output_target``).

The commands are enumerated from the parser, so a new command with an output file is covered the day it lands.
"""

from __future__ import annotations

import argparse
import os
import shutil
from pathlib import Path

import pytest

from solver import cli, clikit
from solver.errors import BadInput
from solver.execution import batches
from tests.support.cli_fuzz import COMMANDS, base_argv, looks_like_file, run_main, valid_files_cached


def writes_a_file(action: argparse.Action) -> bool:
    """The naming rule of output options, as the contract states it: ``--out`` or ``--...-out``."""
    return action.dest == "out" or action.dest.endswith("_out")


OUTPUTS = sorted((path, action.option_strings[-1]) for path, parser in COMMANDS.items() for action in parser._actions
                 if writes_a_file(action))
"""(command, output option) for every command that writes a file."""
SUFFIX = {"batch": ".parquet", "simulate": ".parquet"}
PSEUDO = ["/proc/x", "/sys/x", "/sys/fs/x", "/proc/self/x"]
"""Folders whose permission bits say "writable" to root, where no file can be made: found by the issue 33 campaign
(``batch ... --out /proc/x.parquet`` ran the whole batch, then lost the rows in a traceback)."""


def test_every_option_that_writes_a_file_follows_the_one_rule():
    """An option whose help says it writes a file is named ``--out`` or ``--...-out`` (so it is checked)."""
    writers = [(" ".join(path), a.option_strings) for path, parser in COMMANDS.items() for a in parser._actions
               if a.option_strings and (a.help or "").lower().startswith("write")]
    assert writers and all(clikit.is_output(a[1][-1][2:].replace("-", "_")) for a in writers), writers
    assert all(clikit.is_output(a.dest) == writes_a_file(a) for parser in COMMANDS.values() for a in parser._actions)
    assert {(("wagons", "simulate"), "--out"), (("wagons", "bgstats"), "--out"), (("wagons", "was-winnable"), "--line-out"),
            (("batch",), "--out")} <= set(OUTPUTS)


def _without(path: tuple, parser: argparse.ArgumentParser, folder: Path, flag: str) -> list[str]:
    """A valid command line of ``path`` without its output option ``flag`` (which the test adds)."""
    argv, options = list(path), []
    for action, words in base_argv(path, parser, folder):
        if flag in action.option_strings:
            continue
        (options if action.option_strings else argv).extend(words)
    return argv + options


def _checked_before_work(argv: list[str]) -> BadInput:
    """Parse ``argv`` and run it with a handler that fails the test if called: the refusal must come first."""
    args = cli.build_parser().parse_args(argv)

    def work(_args):
        raise AssertionError(f"the command started its work: ruleslinger {' '.join(argv)}")

    args._handler = work
    with pytest.raises(BadInput) as info:
        clikit.run(args)
    text = str(info.value)
    assert "\n" not in text and len(text) < 300, text
    return info.value


@pytest.mark.parametrize("command,flag", OUTPUTS, ids=lambda x: " ".join(x) if isinstance(x, tuple) else x)
@pytest.mark.parametrize("where", PSEUDO)
def test_an_output_no_file_can_be_made_in_is_refused_before_any_work(command, flag, where, tmp_path_factory):
    folder = tmp_path_factory.mktemp("outputs")
    argv = _without(command, COMMANDS[command], folder, flag) + [flag, where + SUFFIX.get(command[-1], ".json")]
    error = _checked_before_work(argv)
    assert flag in str(error) and ("does not take new files" in str(error) or "is not writable" in str(error)), error


def _inputs(command: tuple, parser: argparse.ArgumentParser, folder: Path) -> list[tuple[argparse.Action, str]]:
    """(argument, a valid file for it) for every file the command reads (the fuzzer's valid files)."""
    hints = valid_files_cached(folder)
    return [(a, hints[a.dest][0]) for a in parser._actions if looks_like_file(a) and a.dest in hints
            and not writes_a_file(a)]


@pytest.mark.parametrize("command,flag", OUTPUTS, ids=lambda x: " ".join(x) if isinstance(x, tuple) else x)
@pytest.mark.parametrize("alias", ["same path", "./ path", "symbolic link", "hard link"])
def test_no_command_writes_over_a_file_it_reads(command, flag, alias, tmp_path_factory):
    """Found by the issue 33 campaign: ``wagons was-winnable GAME.json --line-out GAME.json`` overwrote the game
    it read with the winning line. Each input file of each command, given again as its output (by any path)."""
    folder = tmp_path_factory.mktemp("same")
    parser = COMMANDS[command]
    inputs = _inputs(command, parser, folder)
    if command in (("wagons", "was-winnable"), ("wagons", "bgstats")):
        assert inputs, command  # the commands of the issue read a game file
    if not inputs:
        pytest.skip(f"{' '.join(command)} reads no file")
    for action, valid in inputs:
        own = folder / f"own-{action.dest}{Path(valid).suffix}"
        shutil.copyfile(valid, own)
        before = own.read_bytes()
        out = {"same path": str(own), "./ path": os.path.join(str(own.parent), ".", own.name)}.get(alias)
        if out is None:
            out = str(folder / f"{alias.split()[0]}-{own.name}")
            os.symlink(own, out) if alias == "symbolic link" else os.link(own, out)
        argv, options = list(command), []
        for a, words in base_argv(command, parser, folder):
            if a is action or flag in a.option_strings:
                continue
            (options if a.option_strings else argv).extend(words)
        given = [action.option_strings[0], str(own)] if action.option_strings else [str(own)]
        argv = (argv + given + options) if not action.option_strings else (argv + options + given)
        error = _checked_before_work(argv + [flag, out])
        assert "is also read by this command" in str(error), error
        assert own.read_bytes() == before


@pytest.mark.parametrize("kind", [k for k, v in batches.KINDS.items() if k != "cactus-montecarlo"])
@pytest.mark.parametrize("where", ["/proc/x.parquet", "/sys/x.parquet"])
def test_a_batch_into_proc_or_sys_is_refused_before_it_runs(kind, where, monkeypatch, capsys):
    """The issue's command lines, all four row kinds: one line, exit 2, and no item planned or run."""
    def no_work(request):
        raise AssertionError("the batch started")

    monkeypatch.setattr(batches, "plan", no_work)
    code, out, err = run_main(["batch", kind, "--scenario", "boomtown", "--n", "1", "--executor", "serial",
                               "--out", where, "--json"])
    lines = err.strip().splitlines()
    assert code == 2 and out == "" and len(lines) == 1 and "does not take new files" in lines[0], err[-2000:]


def test_was_winnable_does_not_overwrite_the_game_it_reads(tmp_path):
    game = tmp_path / "GAME.json"
    shutil.copyfile(valid_files_cached(tmp_path)["game_file"][0], game)
    before = game.read_bytes()
    code, out, err = run_main(["wagons", "was-winnable", str(game), "--line-out", str(game), "--time-limit", "5",
                               "--quiet", "--json"])
    assert code == 2 and out == "" and "is also read by this command" in err and len(err.strip().splitlines()) == 1
    assert game.read_bytes() == before


def test_the_check_leaves_nothing_in_the_folder(tmp_path):
    """The check makes a file to know the folder takes one, and removes it."""
    (tmp_path / "kept-note").write_text("x")
    code, out, err = run_main(["batch", "outlaws-playouts", "--n", "1", "--executor", "serial", "--no-progress",
                               "--out", str(tmp_path / "rows.parquet"), "--json"])
    assert code == 0, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kept-note", "rows.parquet"]
