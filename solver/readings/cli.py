"""The ``ruleslinger readings`` commands: ``impact`` (every verdict under each alternative reading), ``verdicts``
and ``options``."""

from __future__ import annotations

import json
import os

from solver.readings.impact import impact, verdicts
from solver.readings.options import GAMES, canon, describe, game_readings
from solver.readings.verdicts import Settings


def _impact_cmd(args) -> dict:
    from solver import clikit

    settings = Settings(time_limit=args.time_limit, games=args.games, seed=args.seed)
    bar = clikit.ProgressLines(f"readings impact {args.game_name}", args.quiet)  # on stderr, with --json too
    return impact(args.game_name, args.verdict, settings, bar,
                  executor=args.executor, workers=args.workers, stored=not args.fresh)


def _render_impact(result: dict) -> str:
    lines = [f"{result['game']}: each verdict under each alternative reading ({result['method']}; "
             f"{result['elapsed']} s)"]
    for v in result["verdicts"]:
        lines.append(f"{v['id']}: default {json.dumps(v['default'])}")
        if v["holds_under_every_reading"]:
            lines.append("    holds under every reading it reads")
        for d in v["depends_on"]:
            lines.append(f"    changed by {d['reading']}={d['value']}: {json.dumps(d['result'])}")
        for d in v["undecided"]:
            lines.append(f"    undecided under {d['reading']}={d['value']} (time limit)")
        if v["skipped"]:
            lines.append(f"    skipped: {', '.join(s['reading'] for s in v['skipped'])}")
    for u in result["unread"]:
        lines.append(f"no verdict reads {u['reading']}: {u['why']}")
    for m in result.get("missing", []):
        lines.append(f"not run: {m['verdict']}: {m['why']}")
    return "\n".join(lines)


def _verdicts_cmd(args) -> dict:
    readings = game_readings(args.game_name)
    return {"game": args.game_name, "verdicts": [
        {"id": v.id, "title": v.title,
         "reads": [r.name for r in readings if v.reads_reading(r.name)],
         "skipped": [{"reading": r.name, "why": v.skip_reason(r.name)} for r in readings if not v.reads_reading(r.name)]}
        for v in verdicts(args.game_name)]}


def _options_cmd(args) -> dict:
    g = args.game_name
    return {"game": g, "readings": [
        {"reading": r.name, "default": canon(r.default), "kind": r.kind,
         "values": [{"value": canon(v), "description": describe(g, r.name, v)} for v in r.values],
         **({"with": {k: canon(x) for k, x in r.together.items()}} if r.together else {})}
        for r in game_readings(g)]}


def add_commands(games) -> None:
    """Add the ``ruleslinger readings`` group to the root command."""
    from solver import clikit

    group = clikit.add_group(games, "readings", "every verdict across the readings of the rules")
    p = clikit.add_command(group, "impact", "rerun each verdict under each alternative reading and say which "
                           "readings change it", _impact_cmd, _render_impact)
    p.add_argument("game_name", metavar="GAME", choices=list(GAMES), help=", ".join(GAMES))
    p.add_argument("--verdict", action="append", metavar="ID", help="only this verdict (repeatable; ids from "
                   "`readings verdicts GAME`)")
    p.add_argument("--time-limit", type=float, default=30.0, help="seconds per Z3 solve or search (default 30)")
    p.add_argument("--games", type=int, default=100, help="Lone Cowboy games per scenario (default 100)")
    p.add_argument("--seed", type=clikit.seed_int, default=0, help="first deal seed / set-up seed (default 0)")
    p.add_argument("--executor", default="local", help="local (default: worker processes on --workers cores), "
                   "serial, or a Dask scheduler address tcp://host:port")
    p.add_argument("--workers", type=int, default=os.cpu_count() or 2,
                   help="local worker processes (default: the machine's cores)")
    p.add_argument("--fresh", action="store_true", help="compute every run again (decided results are otherwise "
                   "kept on disk between runs: solver/readings/stored.py)")
    p.add_argument("--quiet", action="store_true", help="no progress lines on standard error (they are shown "
                   "with --json too)")
    p = clikit.add_command(group, "verdicts", "the verdicts of a game and the readings each one reads", _verdicts_cmd)
    p.add_argument("game_name", metavar="GAME", choices=list(GAMES), help=", ".join(GAMES))
    p = clikit.add_command(group, "options", "the readings of a game, their values and what each means", _options_cmd)
    p.add_argument("game_name", metavar="GAME", choices=list(GAMES), help=", ".join(GAMES))
