"""What the command-line fuzz tests share (``tests/fuzz/test_cli.py``, ``test_cli_sweep.py``): every leaf command
of the ``ruleslinger`` parser, valid words and files per argument (made by the engines themselves), special paths,
and the check that a run exits 0 or gives one line and exit 2."""

from __future__ import annotations

import argparse
import io
import json
import os
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

from solver import cli
from solver.paths import SCENARIOS
from tests.support.fuzz import no_hang

HANG = 90
"""Seconds one command may take before the case counts as a hang."""


def leaf_commands(parser: argparse.ArgumentParser | None = None, prefix=()):
    parser = parser or cli.build_parser()
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if not subs:
        yield prefix, parser
        return
    for name, child in subs[0].choices.items():
        yield from leaf_commands(child, prefix + (name,))


COMMANDS = {path: parser for path, parser in leaf_commands()}

OUTPUT_DESTS = ("out", "output", "save", "write")
"""Options that write files: only ever given paths inside the test's temporary folder."""


def writes_a_file(action: argparse.Action) -> bool:
    """An option that writes a file: the CLI's one rule (``--out``, ``--...-out``: solver.clikit.is_output)."""
    from solver import clikit

    return clikit.is_output(action.dest) or action.dest in OUTPUT_DESTS


def valid_files(folder: Path) -> dict[str, list[str]]:
    """Well-formed input files per argument name, made by the engines themselves (then fuzzed)."""
    made: dict[str, list[str]] = {}
    try:
        from solver.wagons.simulate import play_game

        game = play_game("boomtown", "random", 3).to_dict()
        town, pile = folder / "valid-town.json", folder / "valid-opponent.json"
        town.write_text(json.dumps(game["town"]))
        pile.write_text(json.dumps({"pile": game["opponent_pile"]}))
        made["town"], made["opponent"] = [str(town)], [str(pile)]
        finished = folder / "valid-finished-game.json"  # `wagons bgstats GAME`: a finished game, as `wagons play --json` prints it
        finished.write_text(json.dumps(game))
        from solver.wagons.game import new_game
        from solver.wagons.record.game_record import game_record

        finished_record = folder / "valid-finished-record.json"
        finished_record.write_text(json.dumps(game_record(play_game("cattle-drive", "greedy", 2).state)))
        made["game"] = [str(finished), str(finished_record)]

        record = folder / "valid-game.json"
        record.write_text(json.dumps(game_record(new_game("cattle-drive", 4))))
        made["game_file"] = [str(record), str(SCENARIOS / "wagons" / "examples" / "followed-game.json")]
    except Exception:  # the engine is not there yet: hostile values only
        pass
    if (SCENARIOS / "wagons" / "goals.toml").exists():
        made["goals"] = [str(SCENARIOS / "wagons" / "goals.toml")]
    positions = sorted(str(p) for p in (SCENARIOS / "outlaws").glob("*.json")) if (SCENARIOS / "outlaws").is_dir() else []
    if positions:
        made["position"] = positions
    cactus = sorted(str(p) for p in (SCENARIOS / "cactus").glob("*.json")) if (SCENARIOS / "cactus").is_dir() else []
    if cactus:
        made["cactus_position"] = cactus
    return made


def valid_words() -> dict[str, list[str]]:
    """Valid values per argument name, so most cases get past the parser into the loaders."""
    from solver.execution.batches import KINDS

    words = {"kind": list(KINDS), "policy": ["random", "greedy"], "seed": ["0", "1", "42"],
             "n": ["1", "3", "12"], "games": ["1", "3"], "circle": ["3,7,11", "0,1,2,3,4,5,6,8"],
             "deck_top": ["5", "0"], "pile": ["1,2,3", "4"], "after_round_1": ["3,4"], "round": ["1", "2"],
             "players": ["2", "3", "5"], "cards": ["3,7,11,14", "0,1"], "workers": ["1", "2"], "executor": ["serial"],
             "option": ["edition=later", "tie_break=guns", "solo_events=true"], "max_actions": ["40", "200"],
             "time_limit": ["0.5", "1"], "max_depth": ["1", "3"], "action": ["0", "1"],
             "monte_carlo": ["0", "200"], "max_nodes": ["200", "2000"],
             "game_name": ["wagons"], "verdict": ["greedy-wins/boomtown", "marshal-odds/p2"],
             # wagons bgstats
             "player": ["Ann", "Zoë O'Neil"], "date": ["2026-11-30 20:15", "2026-11-30"], "duration_min": ["25", "1"],
             "location": ["Kitchen table"], "comments": ["first try"], "bgg_id": ["12345"]}
    try:
        from solver.wagons.data import SCENARIO_IDS

        words["scenario"] = list(SCENARIO_IDS)
    except ImportError:
        pass
    return words


def looks_like_file(action: argparse.Action) -> bool:
    return action.dest in ("town", "opponent", "position", "file", "path", "data", "script", "goals", "game") or \
        "FILE" in str(action.metavar or "") or "POSITION" in str(action.metavar or "").upper()


_FILES: dict[Path, dict] = {}


def valid_files_cached(folder: Path) -> dict[str, list[str]]:
    if folder not in _FILES:
        _FILES[folder] = valid_files(folder)
    return _FILES[folder]


def run_main(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with no_hang(HANG), redirect_stdout(out), redirect_stderr(err):
        code = cli.main(argv)
    return code, out.getvalue(), err.getvalue()


def check(argv: list[str], code: int, out: str, err: str) -> None:
    shown = " ".join(a[:60] for a in argv)
    assert code in (0, 2), f"exit {code} for: ruleslinger {shown}\n{err[-2000:]}"
    if code == 2:
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("ruleslinger: error:"), f"ruleslinger {shown}:\n{err[-2000:]}"
        assert out == "", f"partial output on error for: ruleslinger {shown}"
    else:
        assert out.strip(), f"no output for: ruleslinger {shown}"
        if "--json" in argv:
            json.loads(out)
        assert "Traceback" not in err


def one_line_exit_2(argv) -> str:
    """``ruleslinger argv`` in this process (``solver.cli.main``, its streams captured by :func:`run_main`) refuses
    with exit 2, nothing on stdout and one error line on stderr, returned."""
    code, out, err = run_main(argv)
    assert code == 2 and out == "", (code, err[-1500:])
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("ruleslinger: error:"), err[-1500:]
    return lines[0]


def special_path_of(kind: str, folder: Path) -> str:
    """One special path of ``kind`` inside ``folder`` (made once, reused by later cases)."""
    link = folder / f"special-{kind}.json"
    if kind in ("dev-null", "dev-zero"):
        return "/dev/null" if kind == "dev-null" else "/dev/zero"
    if kind in ("proc", "sys"):  # issue 33: no file can be made there, whatever the permission bits say
        return f"/{kind}/ruleslinger-sweep.json"
    if not os.path.lexists(link):
        if kind == "loop":
            other = folder / "special-loop-other.json"
            if not os.path.lexists(other):
                other.symlink_to(link)
            link.symlink_to(other)
        elif kind == "dangling":
            link.symlink_to(folder / "nowhere" / "x.json")
        elif kind == "to-zero":
            link.symlink_to("/dev/zero")
        elif kind == "to-dir":
            link.symlink_to(folder)
        elif kind == "fifo":
            os.mkfifo(link)
        else:
            link.symlink_to(link)
    return str(link)


SWEEP_SCOPE = {("wagons", "verify"): {"check": "playability", "scenario": "boomtown"},
               ("readings", "impact"): {"verdict": "marshal-odds/solo"},
               ("cactus", "verify"): {"players": "2"}}
"""Commands that run many checks: the sweep's base line runs one (each case still replaces one argument)."""


def base_argv(path: tuple, parser: argparse.ArgumentParser, folder: Path) -> list[tuple[argparse.Action, list[str]]]:
    """A valid command line as (action, its words): required and workload arguments only, each with
    the first value the command accepts (so a case is one hostile argument in a valid command)."""
    hints = {**valid_words(), **valid_files_cached(folder)}
    small = {"time_limit": "0.2", "max_nodes": "200", "max_actions": "40", "games": "1", "n": "2",
             "max_depth": "1", "monte_carlo": "0", "workers": "1", **SWEEP_SCOPE.get(path, {})}
    out = []
    for action in parser._actions:
        if isinstance(action, (argparse._HelpAction, argparse._VersionAction)) or action.nargs == 0:
            continue
        required = action.required or not action.option_strings
        if not required and action.dest not in small and action.dest != "executor":
            continue
        key = "cactus_position" if path[:1] == ("cactus",) and action.dest == "position" else action.dest
        if action.dest in small:
            value = small[action.dest]
        elif action.dest == "executor":
            value = "serial"
        elif writes_a_file(action):
            value = str(folder / "o.parquet")
        elif key in hints:
            value = str(hints[key][0])
        elif action.choices:
            value = str(sorted(map(str, action.choices))[0])
        else:
            value = None
        if value is None:
            if not required:
                continue
            value = "1"
        out.append((action, [action.option_strings[0], value] if action.option_strings else [value]))
    return out
