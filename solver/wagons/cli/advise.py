"""`ruleslinger wagons advise FILE`: what if? Every legal action at the player's decision after a game file's
actions (or its first N) with its expected final margin and win chance over the cards not yet seen
(rule:W-advice, :mod:`solver.wagons.advice`). In a seeded game only what the player has seen is used. Progress
lines go to standard error. Bad input: one line, exit 2 (rule:X-bad-input).
"""

from __future__ import annotations

from solver import clikit
from solver.io.read import read_json

__all__ = ["handle_advise", "render_advise", "add_advise_commands", "add_advice_flags"]


def add_advice_flags(p, time_help: str, time_limit: float) -> None:
    """``--samples``, ``--policy``, ``--time-limit`` (default ``time_limit``) and ``--quiet``: the advice's settings
    (advise, replay --review)."""
    from solver.wagons.advice.engine import DEFAULT_POLICY, DEFAULT_SAMPLES
    from solver.wagons.advice.rollout import CONTINUATIONS

    p.add_argument("--samples", type=clikit.whole_number, default=DEFAULT_SAMPLES, metavar="K",
                   help=f"deal orders the leading actions are played on (default {DEFAULT_SAMPLES}); with at most K "
                        "orders of the unseen cards, every order (exact)")
    p.add_argument("--policy", choices=CONTINUATIONS, default=DEFAULT_POLICY,
                   help=f"who makes your later decisions in the play-outs (default {DEFAULT_POLICY})")
    p.add_argument("--time-limit", default=str(int(time_limit)), metavar="S", help=time_help)
    p.add_argument("--quiet", action="store_true", help="no progress lines on standard error")


def handle_advise(args) -> dict:
    from solver.io.numbers import seconds
    from solver.wagons.advice.engine import advise
    from solver.wagons.cli.shared import data_from_args, state_upto

    limit = seconds(args.time_limit, "--time-limit")
    state = state_upto(read_json(args.game_file), args.upto, data_from_args(args))
    advice = advise(state, args.samples, args.policy, limit, clikit.ProgressLines("advise", args.quiet, every=0.5), full=args.full)
    return {"scenario": state.scenario, "seed": state.seed, "round": state.round, "turn": state.turn,
            **advice.to_dict()}


def _figure(a: dict) -> str:
    if a["expected_margin"] is None:
        return "not played (time ran out)"
    span = f" [{a['interval'][0]:+.1f}, {a['interval'][1]:+.1f}]" if a["interval"] and not a["exact"] else ""
    win = f"win {100 * a['win_chance']:.0f}%"
    if a["win_interval"] and not a["exact"]:
        win += f" [{100 * a['win_interval'][0]:.0f}-{100 * a['win_interval'][1]:.0f}%]"
    bound = f", at most {a['bound']:+d}" if a.get("bound") is not None else ""
    mark = " (*)" if a.get("above_advised") else ""
    return f"{a['expected_margin']:+.1f}{span}  {win}  ({a['how']}{bound}){mark}"


def render_advise(r: dict) -> str:
    game = f"seed {r['seed']}" if r["seed"] is not None else "followed game"
    unseen = len(r["unseen"])
    known = "every card to come is known" if not unseen else \
        f"{unseen} cards unseen ({r['orders']} orders), " + \
        ("every order played" if r["exact"] else f"{r['samples']} sampled orders" + (
            f", up to {r['most_orders']} for the close calls" if r["most_orders"] > r["samples"] else ""))
    what = "placement" if r["decision"] == "place" else "draft"
    lines = [f"Scenario {r['scenario']}, {game}: round {r['round']}, turn {r['turn']}, your {what}; {known}; "
             f"your later decisions by the {r['policy']} policy.",
             "Expected final margin (95% interval), win chance:"]
    width = max(len(a["words"]) for a in r["actions"])
    for n, a in enumerate(r["actions"]):
        mark = "best " if n == 0 and r["best"] is not None else "     "
        lines.append(f"  {mark}{a['words']:<{width}}  {_figure(a)}")
    if r.get("note"):
        lines.append(f"(*) {r['note']}")
    if r["bound"] is not None and r["bound"]["upper"] is not None:
        lines.append(f"Proven: no play from here ends above {r['bound']['upper']:+d} (the deal search; it may move "
                     "the cards already placed, so the bound can be loose)")
    stop = "" if r["complete"] else " - stopped early: the figures so far"
    lines.append(f"{r['elapsed']:.1f} s (CPU {r['cpu']:.1f} s), {r['rollouts']} play-outs, {r['decisions']} "
                 f"decisions played{stop}")
    return "\n".join(lines)


def add_advise_commands(group) -> None:
    p = clikit.add_command(group, "advise", "what if? every choice at your decision with its expected final margin "
                                            "and win chance over the cards not yet seen", handle_advise, render_advise)
    p.add_argument("game_file", metavar="FILE", help="a game file (as `wagons replay` reads) where you are to draft or "
                                                "place")
    p.add_argument("--upto", type=clikit.whole_number, default=None, metavar="N",
                   help="advise at the state after the first N actions")
    add_advice_flags(p, "wall seconds at most (default 60); then the figures so far, marked incomplete", 60)
    p.add_argument("--full", action="store_true", help="play every action on every order (no race; slower)")
    p.add_argument("--goals", metavar="FILE", default=None,
                   help="your copy of goals.toml (to correct a number from your own card)")
