"""`ruleslinger wagons best-layout` and `ruleslinger wagons best-play` (contracts.md).

Progress lines go to standard error; bad card ids, scenarios or files are one-line errors with
exit code 2 (rule:X-bad-input). Registered by :mod:`solver.wagons.cli`; the solvers load when a command runs (ortools, z3
and numba take a second or two to import: ``ruleslinger --help`` does not wait for them).
"""

from __future__ import annotations

from solver import clikit
from solver.errors import BadInput
from solver.wagons.cli_shared import (
    add_rules_flags,
    data_from_args,
    load_opponent,
    progress_lines,
    rules_from_args,
    time_limit_arg,
)
from solver.wagons.data import SCENARIO_IDS
from solver.wagons.scoring import low_confidence

METHODS = ("cpsat", "cpsat-core", "incremental", "oracle")
"""``--method``: the names of :data:`solver.wagons.optimizer.layout.METHODS` (a test checks they agree)."""


def handle_best_layout(args) -> dict:
    from solver.wagons.optimizer.layout import best_layout

    rules, data = rules_from_args(args), data_from_args(args)
    data.scenario(args.scenario)
    cards = clikit.int_list(args.cards, "--cards")
    pile = load_opponent(args.opponent) if args.opponent else ()
    res = best_layout(cards, args.scenario, pile, rules, time_limit_arg(args.time_limit),
                      progress_lines(args.quiet, "best-layout"), objective=args.objective, data=data,
                      method=getattr(args, "method", "cpsat"))
    out = res.to_dict()
    out.update({"scenario": args.scenario, "cards": cards, "opponent_pile": list(pile), "rules": rules.to_dict(),
                "low_confidence": list(low_confidence(args.scenario, data, rules))})
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


def handle_best_play(args) -> dict:
    from solver.wagons.optimizer.bestplay import best_play

    rules, data = rules_from_args(args), data_from_args(args)
    data.scenario(args.scenario)
    circle = clikit.int_list(args.circle, "--circle") if args.circle else None
    deck = clikit.int_list(args.deck, "--deck") if args.deck else None
    if args.seed is None and circle is None:
        raise BadInput("best-play: give --seed N, or --circle (and --deck) for an explicit deal")
    if args.seed is not None and circle is not None:
        raise BadInput("best-play: give either --seed or --circle/--deck, not both")
    res = best_play(args.scenario, args.seed, circle, deck, rules, time_limit_arg(args.time_limit),
                    progress_lines(args.quiet, "best-play"), data)
    out = res.to_dict()
    out.update({"scenario": args.scenario, "seed": args.seed, "rules": rules.to_dict(),
                "low_confidence": list(low_confidence(args.scenario, data, rules))})
    return out


def render_best_play(r: dict) -> str:
    lines = [f"Best margin {r['margin']} in {r['scenario']} "
             f"({'proven optimal' if r['proven_optimal'] else 'best found, not proven'}; "
             f"{r['lines_settled']}/{r['lines']} draft lines settled; {r['elapsed']}s); greedy policy: {r['greedy_margin']}"]
    for a in r["actions"]:
        if "draft" in a:
            skipped = f" (skipping {', '.join(map(str, a['skipped']))})" if a["skipped"] else ""
            lines.append(f"  draft card {a['card']}{skipped}")
        else:
            p = a["place"]
            lines.append(f"  place card {p['card']} at ({p['x']},{p['y']}) rot {p['rot']}")
    return "\n".join(lines)


def register_optimizer(group) -> None:
    """Add ``best-layout`` and ``best-play`` to the ``wagons`` command group."""
    p = clikit.add_command(group, "best-layout", "the best legal town for cards in the order received (CP-SAT or Z3, proven optimal)",
                           handle_best_layout, render_best_layout)
    p.add_argument("--cards", required=True, help="card ids in the order received, e.g. 3,7,11,14")
    p.add_argument("--scenario", required=True, metavar="ID", help=", ".join(SCENARIO_IDS))
    p.add_argument("--opponent", metavar="OPP.json", default=None, help='opponent file {"pile": [ids]} (default: empty pile)')
    p.add_argument("--time-limit", default="60", metavar="S", help="seconds (default 60); after it: best found, not proven")
    p.add_argument("--objective", choices=("score", "margin"), default="score",
                   help="maximise the player's score (default) or the margin over the opponent")
    p.add_argument("--method", choices=METHODS, default="cpsat",
                   help="CP-SAT model (default, fastest measured), CP-SAT with core-based proof (tighter "
                        "bounds when unproven), the Z3 solver loop, or the exhaustive oracle (at most 5 cards)")
    p.add_argument("--quiet", action="store_true", help="no progress lines on standard error")
    add_rules_flags(p)

    p = clikit.add_command(group, "best-play", "best drafts and placements for a known deal against the automa",
                           handle_best_play, render_best_play)
    p.add_argument("--scenario", required=True, metavar="ID", help=", ".join(SCENARIO_IDS))
    p.add_argument("--seed", type=clikit.seed_int, default=None, help="the deal's seed (as in `wagons play`)")
    p.add_argument("--circle", default=None, help="explicit deal: the circle, first card first")
    p.add_argument("--deck", default=None, help="explicit deal: the preference deck, top first")
    p.add_argument("--time-limit", default="60", metavar="S", help="seconds (default 60)")
    p.add_argument("--quiet", action="store_true", help="no progress lines on standard error")
    add_rules_flags(p)
