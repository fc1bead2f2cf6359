"""Hostile command lines for every ``ruleslinger`` command: exit 0 or exit 2 with one line, never a
traceback or a hang.

The commands are discovered from the parser (a game's new command is fuzzed the day it lands):
for each leaf command hypothesis builds argument lists from its own arguments, filled with hostile
values: malformed JSON/TOML files, wrong types, huge numbers, unknown ids, deep nesting, large
files, empty strings, and mutations of the project's own example files. Each command gets
``CLI_EXAMPLES`` cases in-process (``solver.cli.main``); a few run as real subprocesses of
``.venv/bin/ruleslinger`` with a timeout.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.paths import REPO, SCENARIOS
from tests.support.cli_fuzz import (
    COMMANDS,
    check,
    looks_like_file,
    one_line_exit_2,
    run_main,
    special_path_of,
    valid_files_cached,
    valid_words,
    writes_a_file,
)
from tests.support.depth import DEEP
from tests.support.fuzz import deep, json_values
from tests.support.limits import HANG_GUARD

CLI_EXAMPLES = int(os.environ.get("RULESLINGER_FUZZ_CLI_EXAMPLES", "60"))
"""Cases per command (in-process); the environment variable allows a deeper campaign."""
SLOW_COMMANDS = {("batch",): 30, ("wagons", "simulate"): 15, ("outlaws", "playouts"): 12,
                 ("outlaws", "status"): 30, ("cactus", "verify"): 4, ("outlaws", "verify"): 4,
                 ("outlaws", "dead-positions"): 10, ("wagons", "best-play"): 10, ("wagons", "can-win"): 10,
                 ("wagons", "best-layout"): 20, ("readings", "impact"): 3, ("wagons", "verify"): 4,
                 ("wagons", "bgstats"): 30, ("wagons", "was-winnable"): 10}
"""Commands whose cases play whole games or run Z3 / a search: fewer cases (seconds each)."""
BUDGET = float(os.environ.get("RULESLINGER_FUZZ_CLI_BUDGET", "10" if DEEP else "3"))
"""Seconds of fuzzing per command (3, 10 with ``--deep``); the remaining cases are skipped (and not counted) after it,
so a loaded CI machine does not turn the heavy commands into many minutes. The cases run are printed. Every hostile
class meets every argument of every command in tests/fuzz/test_cli_sweep.py whatever this budget."""
WORKLOAD = {"time_limit", "max_nodes", "max_actions", "quick", "games", "n", "max_depth", "monte_carlo"}
"""Options that size the work: always given (a small valid value) unless they are the hostile one,
so that no case waits for a default of minutes (--time-limit 300) without anything being wrong."""
SCOPE = {"verdict"}
"""Options that pick one of many checks (`readings impact --verdict`): always given, never dropped, so
that no case runs every verdict of a game (minutes) unless the scope itself is the hostile argument."""

HOSTILE_WORDS = ["", " ", "0", "-1", "1", "2", "3", "7", "13", "18", "19", "-18", "-0", "1.5", "1e9", "nan", "inf",
                 "9" * 30, "-" + "9" * 30, "9" * 5000, "0x10", "1,2,x", "3,3,3", ",,,", "1,,2", "1," * 200,
                 "nosuch", "boomtown", "gold-rush", "A", "B", "random", "greedy", "true", "null", "{}", "[]",
                 "--json", "-", "\x00", "é", "../nosuch/x.json", "tcp://", "serial", "a=b", "=", "round1_window=99",
                 # issue 16 classes: exponents and digits that must be bounded before converting, floats and
                 # booleans where whole numbers belong, paths of special files
                 "1e999999999", "-1e999999999", "1/" + "9" * 5000, "1.0", "0.0", "180.0", "false", "2e30", "0x1p9",
                 "9223372036854775807", "9223372036854775808", "-9223372036854775809", "/dev/null", "/dev/zero",
                 "/etc/passwd", "duel_win_chance=1e999999999", "solo_event_cards=1e999999999", "n=" + "9" * 50]
FILE_TEXTS = [
    "", "{", "[]", "null", "42", '"text"', "{}", "[" * 40 + "]" * 40, deep(5000, "{"), "[" + "9" * 5000 + "]",
    "NaN", "\ufeff{}", "a = 1\n[b]\n", '{"placements": 5}', '{"placements": [{"card": 999, "x": 0, "y": 0, "rot": 0}]}',
    '{"placements": [{"card": -1, "x": 1e308, "y": "0", "rot": 90}]}', '{"placements": [{"card": 1}]}',
    '{"placements": [{"card": 3, "x": 0, "y": 0, "rot": 0}, {"card": 3, "x": 0, "y": 0, "rot": 0}]}',
    '{"placements": [{"card": 3, "x": 100000000000000000000, "y": -5, "rot": 180}]}',
    '{"pile": [1, 1, 1, 99]}', '{"pile": "1,2"}', '{"pile": [true, null, 2.5]}', '{"pile": []}',
    '{"to_move": "C", "actions_left": 99}', '{"to_move": "A", "actions_left": -1, "street": {}}',
    '{"to_move": "A", "actions_left": 2, "street": {"A": ["governor"], "B": []}, "tokens": []}',
    # issue 16 classes: duplicate keys, floats and booleans for whole numbers, numbers past the bounds,
    # a JSON string that names a file
    '{"placements": [{"card": 13, "x": 1, "y": 1, "rot": 0, "rot": 180}]}', '{"pile": [1], "pile": [2]}',
    '{"placements": [{"card": 13, "x": 1, "y": 1, "rot": 0.0}]}', '{"placements": [{"card": 13, "x": 1, "y": 1, "rot": false}]}',
    '{"placements": [{"card": 13.0, "x": 1, "y": 1, "rot": 180.0}]}', '{"pile": [1.0, true]}',
    '{"placements": [{"card": 13, "x": 1e999, "y": 1, "rot": 0}]}', '[1e400, -1e400, NaN, Infinity]',
    '"/etc/passwd"', '"scenarios/outlaws/contracts-example.json"', '{"actions": [{"draft": 0.0}]}',
    '{"log": [{"who": "player", "what": "draft", "skipped": 5}]}', '{"rules": {"duel_win_chance": "1e999999999"}}',
    'a = 1e999\n', 'a = ' + '9' * 5000 + '\n', '[[goal]]\nname = "x"\nname = "y"\n',
]



def example_files() -> list[Path]:
    return sorted(p for p in SCENARIOS.rglob("*") if p.suffix in (".json", ".toml") and p.stat().st_size < 200_000)


@st.composite
def file_argument(draw, folder: Path) -> str:
    """A path to a hostile file (or a missing path / a directory)."""
    choice = draw(st.integers(0, 6))
    target = folder / f"in{draw(st.integers(0, 3))}{draw(st.sampled_from(['.json', '.toml', '']))}"
    if choice == 0:
        return draw(st.sampled_from([str(folder), str(folder / "missing.json"), "", "-"]))
    if choice == 6:
        return draw(special_path(folder))
    if choice == 1:
        target.write_text(draw(st.sampled_from(FILE_TEXTS)))
    elif choice == 2:
        target.write_text(json.dumps(draw(json_values)))
    elif choice == 3:
        target.write_bytes(draw(st.binary(max_size=300)))
    elif choice == 4 and (examples := example_files()):
        text = draw(st.sampled_from(examples)).read_text()
        i = draw(st.integers(0, max(0, len(text) - 1)))
        text = text[:i] + draw(st.sampled_from(["", "9" * 25, "-", '"x"', "null", "]", "{", "999"])) + \
            text[i + draw(st.integers(0, 8)):]
        target.write_text(text)
    else:
        target.write_text("[" + "0," * 600_000 + "0]")  # 1.2 MB: over the size limit
    return str(target)


@st.composite
def special_path(draw, folder: Path) -> str:
    """A path that is not a plain file: symlink loops, dangling links, links to devices, a pipe, devices."""
    kind = draw(st.sampled_from(["loop", "dangling", "to-zero", "to-dir", "fifo", "dev-null", "dev-zero", "self", "proc",
                                 "sys"]))
    return special_path_of(kind, folder)


def _valid_value(draw, action: argparse.Action, folder: Path, path: tuple) -> str | None:
    """A value the command accepts (from the hints or the choices), or None when none is known."""
    if writes_a_file(action):
        return str(folder / draw(st.sampled_from(["o.parquet", "o.csv"])))
    hints = {**valid_words(), **valid_files_cached(folder)}
    key = "cactus_position" if path[:1] == ("cactus",) and action.dest == "position" else action.dest
    if key in hints:
        return str(draw(st.sampled_from(hints[key])))
    if action.choices:
        return str(draw(st.sampled_from(sorted(map(str, action.choices)))))
    return None


def _hostile_value(draw, action: argparse.Action, folder: Path) -> str:
    if writes_a_file(action):
        special = draw(st.sampled_from(["", "", "", "fifo", "loop", "dir-link", "devnull", "proc", "sys", "input"]))
        if special == "devnull":
            return os.devnull
        if special in ("proc", "sys"):  # issue 33: folders root may write by their bits, where no file can be made
            return f"/{special}/ruleslinger-fuzz.parquet"
        if special == "input":  # issue 33: a path the file arguments also use (the command's own input, often)
            return str(folder / f"in{draw(st.integers(0, 3))}.json")
        if special:
            path = folder / f"out-{special}.parquet"
            if not os.path.lexists(path):
                if special == "fifo":
                    os.mkfifo(path)
                elif special == "loop":
                    path.symlink_to(path)
                else:
                    path.symlink_to(folder)
            return str(path)
        return str(folder / draw(st.sampled_from(["o.json", "o", "no/such/o.parquet", "", ".parquet"])))
    if action.dest == "executor":  # never a network address: connecting waits for a timeout
        return draw(st.sampled_from(["nosuch", "", "spark://x", "tcp://", "LOCAL"]))
    if looks_like_file(action) and draw(st.integers(0, 3)):
        return draw(file_argument(folder))
    if draw(st.integers(0, 3)) == 0:
        return draw(file_argument(folder))
    return draw(st.sampled_from(HOSTILE_WORDS))


@st.composite
def argv_for(draw, path: tuple, parser: argparse.ArgumentParser, folder: Path) -> list[str]:
    """A mostly valid command line with one or two hostile arguments (or a missing one).

    Valid values come from the hints and choices, so most cases get past the parser and reach the
    loaders and engines; the hostile ones are malformed files, wrong types, huge numbers, unknown ids.
    """
    actions = [a for a in parser._actions if not isinstance(a, (argparse._HelpAction, argparse._VersionAction))]
    hostile = set(draw(st.lists(st.sampled_from(range(len(actions))), max_size=2))) if actions else set()
    argv = list(path)
    options: list[str] = []
    for i, action in enumerate(actions):
        value = None if i in hostile else _valid_value(draw, action, folder, path)
        if value is None and action.nargs != 0 and i not in hostile and not looks_like_file(action):
            if not action.required and action.option_strings:
                continue  # an optional free-form option with no known valid value: leave it out
        sizes_work = action.dest in WORKLOAD and (action.default is not None or action.nargs == 0)
        scoped = action.dest in SCOPE
        required = action.required or not action.option_strings or sizes_work or scoped
        if not required and i not in hostile and not draw(st.integers(0, 2)) == 0:
            continue
        if required and not scoped and draw(st.integers(0, 19)) == 13:
            continue  # a missing required argument
        if action.nargs == 0:
            options.append(draw(st.sampled_from(action.option_strings)))
            continue
        if value is None:
            value = _hostile_value(draw, action, folder)
        if action.option_strings:
            options += [draw(st.sampled_from(action.option_strings)), value]
        else:
            argv.append(value)
    argv += options
    if draw(st.integers(0, 19)) == 13:
        argv.append(draw(st.sampled_from(["--bogus", "extra", "--json=1"])))
    return argv


@pytest.mark.slow
@pytest.mark.parametrize("path", sorted(COMMANDS), ids=lambda p: " ".join(p))
def test_every_command_survives_hostile_arguments(path, tmp_path_factory, monkeypatch):
    folder = tmp_path_factory.mktemp("cli-fuzz")
    monkeypatch.chdir(folder)  # a relative path that slips through lands in the temporary folder
    parser = COMMANDS[path]

    started, ran, codes = time.monotonic(), [0], {0: 0, 2: 0}

    @settings(max_examples=min(SLOW_COMMANDS.get(path, CLI_EXAMPLES), CLI_EXAMPLES) if CLI_EXAMPLES <= 60
              else CLI_EXAMPLES, deadline=None, derandomize=CLI_EXAMPLES <= 60,
              suppress_health_check=list(HealthCheck), database=None)
    @given(data=st.data())
    def fuzz(data):
        argv = data.draw(argv_for(path, parser, folder))  # drawn even when skipped: same data every run
        if time.monotonic() - started > BUDGET:
            return  # over this command's budget: the case is not run (and not counted)
        code, out, err = run_main(argv)
        check(argv, code, out, err)
        ran[0] += 1
        codes[code] += 1

    fuzz()
    print(f"fuzzed {' '.join(path)}: {ran[0]} cases ({codes[0]} exit 0, {codes[2]} exit 2) "
          f"in {time.monotonic() - started:.0f}s")
    assert ran[0] >= 1


# --- a few real subprocesses: the console script, stdout/stderr, exit code, no hang ---------------

RULESLINGER = Path(sys.executable).with_name("ruleslinger")
SUBPROCESS_CASES = [
    ["nosuchgame"],
    ["batch", "cactus-montecarlo", "--n", "9" * 40],
    ["batch", "cactus-montecarlo", "--n", "10", "--option", "duel_win_chance=1/0"],
    ["batch", "nosuch-kind", "--json"],
    ["rules", "--game", "{" * 5000],
]


def _subprocess(argv: list[str]) -> subprocess.CompletedProcess:
    command = [str(RULESLINGER)] if RULESLINGER.exists() else [sys.executable, "-m", "solver"]
    return subprocess.run(command + argv, capture_output=True, text=True, timeout=120, cwd=REPO,
                          env=dict(os.environ, PYTHONWARNINGS="ignore"))


@pytest.mark.parametrize("argv", SUBPROCESS_CASES, ids=lambda a: " ".join(x[:20] for x in a))
def test_console_script_gives_one_line_and_exit_2(argv):
    """The first case as a real process of the console script (its exit code, its streams); the others, whose
    refusal is the same code path, through ``solver.cli.main`` in this process (a process adds only its start-up)."""
    if argv is SUBPROCESS_CASES[0]:
        done = _subprocess(argv)
        code, out, err = done.returncode, done.stdout, done.stderr
    else:
        code, out, err = run_main(argv)
    assert code == 2, err[-2000:]
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("ruleslinger: error:"), err[-2000:]
    assert out == ""


FILE_COMMANDS = [path for path, parser in COMMANDS.items()
                 if any(not a.option_strings and a.dest not in ("kind",) and a.nargs in (None, "?")
                        for a in parser._actions if not isinstance(a, argparse._HelpAction))][:6]
"""Commands that take a file as their first argument (the first six): the in-process fuzzers feed them every
hostile file; here a few run as real processes."""


@pytest.mark.parametrize(("kind", "path"), [
    pytest.param(kind, p, id=f"{kind}-{' '.join(p)}", marks=() if (i, kind) in ((0, "nested"), (1, "huge")) else pytest.mark.deep)
    for i, p in enumerate(FILE_COMMANDS) for kind in ("nested", "huge")])
def test_console_script_on_hostile_files(path, kind, tmp_path):
    """A command that takes a file, run as a real process on a deeply nested or a huge file: one line, exit 2. By
    default the first command on the nested file and the second on the huge one (each kind, each of two commands)."""
    bad = tmp_path / f"{kind}.json"
    bad.write_text(deep(100_000, "[") if kind == "nested" else "[" + "0," * 600_000 + "0]")
    done = _subprocess([*path, str(bad), "--json"])
    assert done.returncode == 2, (path, done.stderr[-2000:])
    assert len(done.stderr.strip().splitlines()) == 1, (path, done.stderr[-2000:])


# --- bugs found by the CLI fuzzer (explicit command lines, so they stay visible until fixed) --------


def test_outlaws_playouts_with_a_seed_beyond_64_bits():
    """Found by the deep CLI campaign: solver/outlaws/search/playout.py playouts builds an Int64 'seed'
    column; --seed 10**30 -> polars ComputeError 'could not append value ... of type: i128'."""
    one_line_exit_2(["outlaws", "playouts", "--n", "2", "--seed", "9" * 30, "--max-actions", "40", "--json"])


@pytest.mark.parametrize("where", ["directory", "missing folder"])
def test_wagons_simulate_out_to_a_directory_or_missing_folder(where, tmp_path, monkeypatch):
    """Found by the deep CLI campaign: solver/wagons/cli/commands.py handle_simulate writes OUT.tmp then
    replaces OUT: --out DIR -> IsADirectoryError (and a stray DIR.tmp left behind); --out
    missing/x.parquet -> FileNotFoundError from polars."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "dir").mkdir()
    out = "dir" if where == "directory" else "no/such/o.parquet"
    one_line_exit_2(["wagons", "simulate", "--scenario", "boomtown", "--policy", "random", "--games", "1",
                      "--out", out, "--json"])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dir"]  # nothing half-written


# --- issue 16: numbers bounded in one parsing layer, for every entry point -------------------------

HUGE_NUMBER_TEXTS = ["1e999999999", "9" * 5000, "-" + "9" * 45, "1/" + "9" * 5000, "nan", "inf", "1e31", "0x10",
                     "\u0663", "1_000"]


def _numeric_options():
    """(command path, option string) for every option whose value is parsed as a number."""
    from solver import clikit

    for path, parser in sorted(COMMANDS.items()):
        for action in parser._actions:
            if action.option_strings and action.type in (clikit.whole_number, clikit.real_number, clikit.seed_int):
                yield path, action.option_strings[-1]


NUMERIC_OPTIONS = list(_numeric_options())


def test_every_int_and_float_option_goes_through_the_bounded_parsers():
    """No option is parsed by a bare int/float (which would let 9*5000 through to the handlers)."""
    bare = [(" ".join(path), a.option_strings) for path, parser in COMMANDS.items() for a in parser._actions
            if a.type in (int, float)]
    assert bare == []
    assert len(NUMERIC_OPTIONS) >= 20


@pytest.mark.parametrize("path,option", NUMERIC_OPTIONS, ids=lambda x: " ".join(x) if isinstance(x, tuple) else x)
def test_huge_numbers_in_every_numeric_option_are_one_line(path, option, capsys):
    """Each hostile number text is refused by the parser itself, at once, in a short line."""
    for text in HUGE_NUMBER_TEXTS:
        started = time.monotonic()
        code, out, err = run_main([*path, option, text, "--json"])
        assert time.monotonic() - started < HANG_GUARD, (path, option, text)  # a hang guard, not a speed claim
        assert code == 2 and out == "", (path, option, text, err)
        assert len(err.strip().splitlines()) == 1 and len(err) < 400, err[:500]


@pytest.mark.parametrize("argv", [
    ["cactus", "marshal", "--solo", "--rule", "duel_win_chance=1e999999999"],
    ["cactus", "marshal", "--players", "2", "--rule", "duel_win_chance=" + "9" * 5000],
    ["cactus", "duel", "--rule", "duel_win_chance=1/" + "9" * 5000],
    ["cactus", "schedule", "--rule", "die_sides=" + "9" * 5000],
    ["batch", "cactus-montecarlo", "--n", "10", "--option", "duel_win_chance=1e999999999"],
    ["batch", "cactus-montecarlo", "--n", "10", "--option", "die_sides=1e999999999"],
    ["batch", "outlaws-playouts", "--n", "1e999999999"],
    ["batch", "outlaws-playouts", "--n", "2", "--seed", "9" * 5000],
    ["batch", "wagons-difficulty", "--scenario", "boomtown", "--n", "1", "--time-limit", "1e999999999"],
    ["batch", "wagons-atlas", "--scenario", "ALL", "--n", "1", "--time-limit", "1e999999999"],
    ["batch", "wagons-atlas", "--scenario", "gold-rush," + "x" * 5000, "--n", "1"],
    ["wagons", "can-win", "--scenario", "gold-rush", "--seed", "1", "--time-limit", "1e999999999"],
    ["outlaws", "playouts", "--n", "2", "--seed", str(2**63 - 1)],
    ["outlaws", "playouts", "--n", "2", "--max-actions", str(10**30)],
    ["wagons", "opponent-draft", "--scenario", "boomtown", "--round", "1", "--circle", "3," + "9" * 5000,
     "--deck-top", "1"],
    ["wagons", "best-layout", "--cards", "3,7", "--scenario", "boomtown", "--time-limit", "1e999999999"],
], ids=lambda a: " ".join(x[:24] for x in a))
def test_hostile_numbers_reach_no_converter(argv):
    """Found by the issue 16 campaign: Fraction(text) froze the server; the largest seed overflowed Polars."""
    started = time.monotonic()
    one_line_exit_2([*argv, "--json"])
    assert time.monotonic() - started < HANG_GUARD  # a hang guard (the converter froze), not a speed claim


def test_a_ranger_position_with_a_huge_reading_is_refused_at_once(tmp_path):
    doc = json.loads((SCENARIOS / "cactus" / "example-ranger-chase.json").read_text())
    doc["rules"] = {"duel_win_chance": "1e999999999"}
    path = tmp_path / "p.json"
    path.write_text(json.dumps(doc))
    one_line_exit_2(["cactus", "ranger", str(path), "--json"])
