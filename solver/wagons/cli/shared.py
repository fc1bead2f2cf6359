"""What both Lone Cowboy command modules share (:mod:`solver.wagons.cli.commands`, :mod:`solver.wagons.cli.optimizer`):
the flags of the open readings, the data and opponent files, the time limit and progress lines.

Bad input: one line, exit 2 (rule:X-bad-input).
"""

from __future__ import annotations

import os
import sys
import time

from solver.errors import BadInput
from solver.io.read import read_json
from solver.wagons.cards import check_card_ids
from solver.wagons.data import WagonsData, load_data
from solver.wagons.rules import (
    BADLANDS_BOTH_WAYS,
    BOOM_OR_BUST,
    BOOMTOWN_COUNTS,
    BOOMTOWN_MINES,
    DIFFICULTIES,
    EDITIONS,
    HAPPY_COWS_SNOW,
    ICON_SOURCES,
    MATCH_ORDERS,
    ROUND1_PICKS,
    TIE_BREAKS,
    Rules,
)

__all__ = ["add_rules_flags", "rules_from_args", "data_from_args", "load_opponent", "opponent_from_json", "time_limit_arg",
           "progress_lines"]


def add_rules_flags(p) -> None:
    """The flags of the open readings (rule:W2, rule:W3, rule:W4, rule:W8, rule:W11, rule:W12, rule:W13)."""
    g = p.add_argument_group("rules readings (docs/open-questions.md)")
    g.add_argument("--icon-source", choices=ICON_SOURCES, default="top",
                   help="W2: icons showing in the opponent's town: top card (default) or the whole pile")
    g.add_argument("--match-order", choices=MATCH_ORDERS, default="drafted-first",
                   help="W3: pile order on a round-1 match (default: drafted card, then deck card on top)")
    g.add_argument("--edition", choices=EDITIONS, default="original",
                   help="W4/W6: original solo rules (default) or the later official edition")
    g.add_argument("--difficulty", choices=DIFFICULTIES, default="local",
                   help="later edition only: opponent per-card scoring table (default local)")
    g.add_argument("--tie-break", choices=TIE_BREAKS, default="tie",
                   help="W8: equal totals are a tie (default) or won by most Guns")
    g.add_argument("--round1-window", type=int, default=3, help="W1: circle cards the round-1 opponent looks at (default 3)")
    g.add_argument("--boom-or-bust", choices=BOOM_OR_BUST, default="per-mine",
                   help="W11: Boom or Bust band points per Mine (default: 1-2 Mines 5 each, 3-6 none, 7 3 each, "
                        "8+ 8 each) or flat per band (5, 0, 3, 8); the card's numbers come from one unofficial source")
    g.add_argument("--boomtown-count", choices=BOOMTOWN_COUNTS, default="visible",
                   help="W5-boomtown: the player's territories after round 1 = visible ones (default) or 4 per card")
    g.add_argument("--boomtown-mines", choices=BOOMTOWN_MINES, default="both",
                   help="W6 Boomtown: the opponent's Mines for Boom or Bust = Mine icons + Mountains territories "
                        "(default), territories with either once, or Mountains alone")
    g.add_argument("--round1-pick", choices=ROUND1_PICKS, default="first",
                   help="W1-pick: of several matching cards the round-1 opponent takes the first (default) or the last")
    g.add_argument("--badlands-both-ways", choices=BADLANDS_BOTH_WAYS, default="once",
                   help="W12: a Gun with Desert left and right and above and below scores Badlands once (default: "
                        "the card's 'single Gun') or twice")
    g.add_argument("--happy-cows-snow", choices=HAPPY_COWS_SNOW, default="edge",
                   help="W13: the Snow that makes a Cow unhappy shares an edge with its territory (default) or "
                        "also touches it only at a corner")
    g.add_argument("--goals", metavar="FILE", default=None,
                   help="your copy of goals.toml (to correct a number from your own card)")


def rules_from_args(args) -> Rules:
    return Rules(icon_source=args.icon_source, match_order=args.match_order, edition=args.edition,
                 difficulty=args.difficulty, tie_break=args.tie_break, round1_window=args.round1_window,
                 boom_or_bust=args.boom_or_bust, boomtown_count=args.boomtown_count,
                 boomtown_mines=args.boomtown_mines, round1_pick=args.round1_pick,
                 badlands_both_ways=args.badlands_both_ways, happy_cows_snow=args.happy_cows_snow)


def data_from_args(args) -> WagonsData:
    """The wagons data with the user's ``--goals FILE`` (None: the shipped goals): the one source
    every command passes on to the engine, the optimizer and the replays. A symbolic link loop, a NUL
    in the name or a missing file is refused by the file reader, in one line (``abspath`` only joins names)."""
    goals = getattr(args, "goals", None)
    if not goals:
        return load_data()
    try:
        return load_data(goals_path=os.path.abspath(goals))
    except BadInput as exc:
        raise BadInput(f"--goals: {exc}") from None


def load_opponent(path) -> tuple[int, ...]:
    """An opponent file ``{"pile": [ids, oldest first]}`` on this machine (contracts.md)."""
    return opponent_from_json(read_json(path), str(path))


def opponent_from_json(doc, what: str = "opponent") -> tuple[int, ...]:
    """An opponent document ``{"pile": [ids, oldest first]}``; never reads a file."""
    if not isinstance(doc, dict) or not isinstance(doc.get("pile"), list):
        raise BadInput(f"{what}: expected an object with a 'pile' list of card ids")
    return check_card_ids(doc["pile"], f"{what}: pile")


def time_limit_arg(value) -> float:
    """``--time-limit``: seconds in (0, 86400]."""
    try:
        t = float(value)
    except (TypeError, ValueError):
        raise BadInput(f"--time-limit: '{value}' is not a number of seconds") from None
    if not t > 0 or t != t or t > 86400:
        raise BadInput(f"--time-limit: expected seconds in (0, 86400], got {value}")
    return t


def progress_lines(quiet: bool, label: str):
    """A ``progress(best, bound, elapsed)`` callback printing to standard error (at most twice a second
    while searching; every proven bound)."""
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
