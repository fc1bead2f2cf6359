"""`ruleslinger wagons best-layout`, `ruleslinger wagons best-play` (contracts.md) and `ruleslinger wagons can-win`.

Progress lines go to standard error; bad card ids, scenarios or files are one-line errors with
exit code 2 (rule:X-bad-input). Added to the command line by :mod:`solver.wagons.cli.commands`; the solvers load when a command runs (ortools, z3
and numba take a second or two to import: ``ruleslinger --help`` does not wait for them).
"""

from __future__ import annotations

from solver import clikit
from solver.errors import BadInput
from solver.io.numbers import seconds
from solver.wagons.cli.shared import (
    add_readings_flags,
    data_from_args,
    load_opponent,
    readings_from_args,
)
from solver.wagons.data import SCENARIO_IDS
from solver.wagons.optimizer.problem import LAYOUT_METHOD
from solver.wagons.scoring import low_confidence

METHODS = ("cpsat", "cpsat-core", "cpsat-bound", "incremental", "oracle", "bnb")
"""``--method``: the names of :data:`solver.wagons.optimizer.layout.METHODS` (a test checks they agree)."""
SCHEDULES, DEFAULT_SCHEDULE = ("resume", "restart"), "resume"
"""``--schedule``: :data:`solver.wagons.optimizer.dealsearch.SCHEDULES` and its default (a test checks they agree;
the deal search is not imported here, so ``--help`` stays quick)."""


def handle_best_layout(args) -> dict:
    from solver.wagons.optimizer.layout import best_layout

    readings, data = readings_from_args(args), data_from_args(args)
    data.scenario(args.scenario)
    cards = clikit.int_list(args.cards, "--cards")
    pile = load_opponent(args.opponent) if args.opponent else ()
    res = best_layout(cards, args.scenario, pile, readings, seconds(args.time_limit, "--time-limit"),
                      clikit.ProgressLines("best-layout", args.quiet, every=0.5), objective=args.objective, data=data,
                      method=getattr(args, "method", LAYOUT_METHOD))
    out = res.to_dict()
    out.update({"scenario": args.scenario, "cards": cards, "opponent_pile": list(pile), "rules": readings.to_json(),
                "low_confidence": list(low_confidence(args.scenario, data, readings))})
    return out


def render_best_layout(r: dict) -> str:
    lines = [f"Best {r['objective']} for cards {','.join(map(str, r['cards']))} in {r['scenario']}: {r['value']}"
             f" ({'proven optimal' if r['proven_optimal'] else 'best found, not proven'}; {r['elapsed']}s)",
             f"Player total {r['score']}" + (f", margin {r['margin']}" if r.get("margin") is not None else "")]
    lines += [f"  {k:<16}{v:>4}" for k, v in r["groups"].items()]
    lines += [f"  {k:<16}{v:>4}  (goal card)" for k, v in r["goals"].items()]
    lines.append("Placements (in order; later ones on top):")
    lines += [f"  card {p['card']:>2} at ({p['x']},{p['y']}) rot {p['rot']}" for p in r["placements"]]
    return "\n".join(lines)


def add_deal_flags(p) -> None:
    """The deal of best-play and can-win: a scenario and a seed, or an explicit circle and deck."""
    p.add_argument("--scenario", required=True, metavar="ID", help=", ".join(SCENARIO_IDS))
    p.add_argument("--seed", type=clikit.seed_int, default=None, help="the deal's seed (as in `wagons play`)")
    p.add_argument("--circle", default=None, help="explicit deal: the circle, first card first")
    p.add_argument("--deck", default=None, help="explicit deal: the preference deck, top first")


def deal_args(args, command: str) -> tuple:
    """(rules, data, circle, deck) of a deal given by ``--seed`` or ``--circle``/``--deck``."""
    readings, data = readings_from_args(args), data_from_args(args)
    data.scenario(args.scenario)
    circle = clikit.int_list(args.circle, "--circle") if args.circle else None
    deck = clikit.int_list(args.deck, "--deck") if args.deck else None
    if args.seed is None and circle is None:
        raise BadInput(f"{command}: give --seed N, or --circle (and --deck) for an explicit deal")
    if args.seed is not None and (circle is not None or deck is not None):
        raise BadInput(f"{command}: give either --seed or --circle/--deck, not both")
    return readings, data, circle, deck


def handle_best_play(args) -> dict:
    from solver.wagons.optimizer.bestplay import best_play

    readings, data, circle, deck = deal_args(args, "best-play")
    res = best_play(args.scenario, args.seed, circle, deck, readings, seconds(args.time_limit, "--time-limit"),
                    clikit.ProgressLines("best-play", args.quiet, every=0.5), data,
                    method=getattr(args, "method", "cpsat"), schedule=getattr(args, "schedule", DEFAULT_SCHEDULE))
    out = res.to_dict()
    out.update({"scenario": args.scenario, "seed": args.seed, "rules": readings.to_json(),
                "low_confidence": list(low_confidence(args.scenario, data, readings))})
    return out


def handle_can_win(args) -> dict:
    from solver.wagons.optimizer.canwin import can_win

    readings, data, circle, deck = deal_args(args, "can-win")
    res = can_win(args.scenario, args.seed, circle, deck, readings, seconds(args.time_limit, "--time-limit"),
                  clikit.ProgressLines("can-win", args.quiet, every=0.5), data, method=getattr(args, "method", "cpsat"),
                  schedule=getattr(args, "schedule", DEFAULT_SCHEDULE))
    out = res.to_dict()
    out.update({"scenario": args.scenario, "seed": args.seed})
    return out


def render_can_win(r: dict) -> str:
    answer = {True: "yes", False: "no", None: "unknown"}[r["winnable"]]
    how = {True: f"a winning line with margin {r['margin']} (replayed through the engine)",
           False: f"proven: no draft line can beat the opponent (every line at most {r['bound']})",
           None: f"{r['note']}; {r['lines_open']} of {r['lines']} lines open, best margin found {r['margin']}"}[r["winnable"]]
    lines = [f"Can {r['scenario']} be won? {answer}: {how} ({r['elapsed']}s, {r['solves']} layout solves)"]
    if r["low_confidence"]:
        lines.append(f"Rests on low-confidence goal numbers (a reading, rule:W11): {', '.join(r['low_confidence'])}")
    for a in r["actions"]:
        lines.append(_action_text(a))
    return "\n".join(lines)


def _action_text(a: dict) -> str:
    if "draft" in a:
        skipped = f" (skipping {', '.join(map(str, a['skipped']))})" if a["skipped"] else ""
        return f"  draft card {a['card']}{skipped}"
    p = a["place"]
    return f"  place card {p['card']} at ({p['x']},{p['y']}) rot {p['rot']}"


def render_best_play(r: dict) -> str:
    lines = [f"Best margin {r['margin']} in {r['scenario']} "
             f"({'proven optimal' if r['proven_optimal'] else 'best found, not proven'}; "
             f"{r['lines_settled']}/{r['lines']} draft lines settled; {r['elapsed']}s); greedy policy: {r['greedy_margin']}"]
    lines += [_action_text(a) for a in r["actions"]]
    return "\n".join(lines)


def _deal_method_flag(p) -> None:
    p.add_argument("--method", choices=METHODS, default="cpsat",
                   help="the layout strategy of the per-line proofs (default cpsat; oracle: lines of at most 5 cards)")
    p.add_argument("--schedule", choices=SCHEDULES, default=DEFAULT_SCHEDULE,
                   help=f"a line's proof in a later pass: its paused worker process resumed, or solved again in the "
                        f"process (default {DEFAULT_SCHEDULE})")


def add_optimizer_commands(group) -> None:
    """Add ``best-layout``, ``best-play`` and ``can-win`` to the ``wagons`` command group."""
    p = clikit.add_command(group, "best-layout", "the best legal town for cards in the order received (CP-SAT or Z3, proven optimal)",
                           handle_best_layout, render_best_layout)
    p.add_argument("--cards", required=True, help="card ids in the order received, e.g. 3,7,11,14")
    p.add_argument("--scenario", required=True, metavar="ID", help=", ".join(SCENARIO_IDS))
    p.add_argument("--opponent", metavar="OPP.json", default=None, help='opponent file {"pile": [ids]} (default: empty pile)')
    p.add_argument("--time-limit", default="60", metavar="S", help="seconds (default 60); after it: best found, not proven")
    p.add_argument("--objective", choices=("score", "margin"), default="score",
                   help="maximise the player's score (default) or the margin over the opponent")
    p.add_argument("--method", choices=METHODS, default=LAYOUT_METHOD,
                   help="cpsat-bound (default): the CP-SAT model's search, then a search that proves a falling "
                        "bound (a tight bound when unproven); cpsat: the search alone; cpsat-core: core-based "
                        "proof; incremental: the Z3 solver loop; oracle: exhaustive (at most 5 cards); bnb: the "
                        "compiled branch and bound")
    p.add_argument("--quiet", action="store_true", help="no progress lines on standard error")
    add_readings_flags(p)

    p = clikit.add_command(group, "best-play", "best drafts and placements for a known deal against the automa",
                           handle_best_play, render_best_play)
    add_deal_flags(p)
    p.add_argument("--time-limit", default="60", metavar="S", help="seconds (default 60)")
    _deal_method_flag(p)
    p.add_argument("--quiet", action="store_true", help="no progress lines on standard error")
    add_readings_flags(p)

    p = clikit.add_command(group, "can-win", "can this deal be won? yes with a winning line, no with a proof, or unknown",
                           handle_can_win, render_can_win)
    add_deal_flags(p)
    p.add_argument("--time-limit", default="30", metavar="S", help="seconds (default 30); after it: unknown")
    _deal_method_flag(p)
    p.add_argument("--quiet", action="store_true", help="no progress lines on standard error")
    add_readings_flags(p)
