"""`ruleslinger wagons best-layout` and `ruleslinger wagons best-play` (contracts.md).

Progress lines go to standard error; bad card ids, scenarios or files are one-line errors with
exit code 2 (rule:X-bad-input). Registered by the engine's ``solver/wagons/cli.py``.
"""

from __future__ import annotations

import sys
import time

from solver import clikit
from solver.errors import BadInput
from solver.wagons.cli import _data, add_rules_flags, load_opponent, rules_from_args
from solver.wagons.data import SCENARIO_IDS
from solver.wagons.scoring import low_confidence


def _time_limit(value) -> float:
    try:
        t = float(value)
    except (TypeError, ValueError):
        raise BadInput(f"--time-limit: '{value}' is not a number of seconds") from None
    if not t > 0 or t != t or t > 86400:
        raise BadInput(f"--time-limit: expected seconds in (0, 86400], got {value}")
    return t


def _progress(quiet: bool, label: str):
    last = [0.0]

    def report(best, bound, elapsed):
        if quiet:
            return
        now = time.monotonic()
        if bound is None and now - last[0] < 0.5:
            return
        last[0] = now
        state = f"proven optimum {bound}" if bound is not None else "searching"
        print(f"[{label}] best {best} {state} ({elapsed:.1f}s)", file=sys.stderr, flush=True)

    return report


def handle_best_layout(args) -> dict:
    from solver.wagons.optimize import best_layout

    rules, data = rules_from_args(args), _data(args)
    data.scenario(args.scenario)
    cards = clikit.int_list(args.cards, "--cards")
    pile = load_opponent(args.opponent) if args.opponent else ()
    res = best_layout(cards, args.scenario, pile, rules, _time_limit(args.time_limit),
                      _progress(args.quiet, "best-layout"), objective=args.objective, data=data,
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
    from solver.wagons.bestplay import best_play

    rules, data = rules_from_args(args), _data(args)
    data.scenario(args.scenario)
    circle = clikit.int_list(args.circle, "--circle") if args.circle else None
    deck = clikit.int_list(args.deck, "--deck") if args.deck else None
    if args.seed is None and circle is None:
        raise BadInput("best-play: give --seed N, or --circle (and --deck) for an explicit deal")
    if args.seed is not None and circle is not None:
        raise BadInput("best-play: give either --seed or --circle/--deck, not both")
    res = best_play(args.scenario, args.seed, circle, deck, rules, _time_limit(args.time_limit),
                    _progress(args.quiet, "best-play"), data)
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
    p.add_argument("--method", choices=("cpsat", "cpsat-core", "incremental", "optimize", "search"), default="cpsat",
                   help="CP-SAT model (default, fastest measured), CP-SAT with core-based proof (tighter "
                        "bounds when unproven), Z3 solver loop, Z3 Optimize, or branch and bound over visible grids")
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
