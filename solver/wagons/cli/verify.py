"""`ruleslinger wagons verify`: the Z3 checks of the solo rules (:mod:`solver.wagons.verify.checks`), contracts.md
verify format. Bad input: one line, exit 2 (rule:X-bad-input)."""

from __future__ import annotations

from solver import verification
from solver.errors import BadInput
from solver.io.numbers import seconds
from solver.wagons.data import SCENARIO_IDS
from solver.wagons.verify.checks import CHECK_IDS, mutation_names, run_checks


def verify_cmd(args) -> dict:
    """`ruleslinger wagons verify`: the checks above (contracts.md verify format)."""
    from solver import clikit
    from solver.wagons.cli.shared import data_from_args, readings_from_args

    data = data_from_args(args) if getattr(args, "goals", None) else None
    limit = seconds(args.time_limit, "--time-limit")
    readings = readings_from_args(args)
    scenarios = tuple(args.scenario) if args.scenario else SCENARIO_IDS
    for s in scenarios:
        if s not in SCENARIO_IDS:
            raise BadInput(f"--scenario {s!r}: expected one of {', '.join(SCENARIO_IDS)}")
    checks = tuple(args.check) if args.check else CHECK_IDS
    res = run_checks(scenarios, checks, readings, frozenset(args.mutate or ()), limit, total_limit=limit,
                     progress=clikit.ProgressLines("wagons verify", args.quiet), data=data)  # stderr, with --json too
    return verification.report(res, readings, mutations=sorted(args.mutate or ()),
                               goals=args.goals if data is not None else None)


def render_verify(r: dict) -> str:
    lines = []
    for c in r["checks"]:
        mark = {True: "HOLDS", False: "FAILS", None: "UNKNOWN"}[c["holds"]]
        lines.append(f"{mark:<7} {c['id']:<42} {c['elapsed']:8.2f}s  {c['title']}")
        if c["counterexample"]:
            lines.append(f"        counterexample: {str(c['counterexample'])[:300]}")
    s = r["summary"]
    if r["mutations"]:
        lines.append(f"(deliberately broken rules: {', '.join(r['mutations'])})")
    lines.append(f"{s['holds']} hold, {s['fails']} fail, {s['unknown']} unknown")
    return "\n".join(lines)


def add_verify_commands(group) -> None:
    """Add ``verify`` to the ``ruleslinger wagons`` group."""
    from solver import clikit
    from solver.wagons.cli.shared import add_readings_flags

    names = mutation_names()
    p = clikit.add_command(group, "verify", "Z3 checks of the solo rules (conservation, termination, the automaton, "
                           "playability, winnability, score bounds) with counterexamples", verify_cmd, render_verify)
    p.add_argument("--scenario", action="append", metavar="ID", help="only this scenario; repeatable")
    p.add_argument("--check", action="append", metavar="ID", help=f"only this check ({', '.join(CHECK_IDS)}); repeatable")
    p.add_argument("--mutate", action="append", metavar="NAME",
                   help="break a rule on purpose: " + "; ".join(f"{k} ({v})" for k, v in names.items()))
    p.add_argument("--time-limit", default="3600", metavar="S",
                   help="seconds for the whole run, shared by the checks (default 3600); a check out of time is "
                        "reported undecided")
    clikit.add_quiet(p)
    add_readings_flags(p)
