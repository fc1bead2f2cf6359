"""`ruleslinger cactus ...` commands (contracts.md): marshal, verify, ranger, duel, schedule, events."""

from __future__ import annotations

from fractions import Fraction

from solver import clikit
from solver.cactus.readings import CactusReadings
from solver.errors import BadInput
from solver.execution.progress import Progress
from solver.readings.base import canon

MAX_GAMES = 1_000_000


def _add_rule_option(p) -> None:
    """Every reading as its own flag and as ``--rule NAME=VALUE`` (docs/cactus.md; generated from the readings)."""
    from solver.register import option_help

    CactusReadings.add_arguments(p, rule_ids=option_help("cactus"))


def _marshal(args) -> dict:
    from solver.cactus import odds

    if args.solo == (args.players is not None):
        raise BadInput("cactus marshal: give exactly one of --solo or --players N")
    readings = CactusReadings.from_args(args)
    result = odds.marshal_odds(None if args.solo else args.players, readings)
    if args.monte_carlo:
        if not 1 <= args.monte_carlo <= MAX_GAMES:
            raise BadInput(f"--monte-carlo: {args.monte_carlo} is out of range 1..{MAX_GAMES}")
        counts = odds.simulate_chunk(args.monte_carlo, args.seed, odds.MarshalQuery(result["players"], readings))
        result["monte_carlo"] = {"games": args.monte_carlo, "seed": args.seed,
                                 "frequencies": {k: counts[k] / args.monte_carlo for k in sorted(counts, key=_round_key)}}
    return result


def _round_key(k: str):
    return (1, 0) if k == "never" else (0, int(k))


def _render_marshal(r: dict) -> str:
    who = "solo (action deck)" if r["mode"] == "solo" else f"{r['players']} players (event deck)"
    lines = [f"Round the marshal's arrival ends the game: {who}", f"{'round':>5}  {'exact':>24}  {'approx':>8}  by then"]
    for rnd, p in r["rounds"].items():
        lines.append(f"{rnd:>5}  {p:>24}  {float(Fraction(p)):8.4f}  {float(Fraction(r['by_round'][rnd])):.4f}")
    if r["never"] != "0":
        lines.append(f"never  {r['never']:>24}  {float(Fraction(r['never'])):8.4f}  ({r.get('note', '')})")
    if r.get("expected_round"):
        lines.append(f"expected round: {r['expected_round']} = {float(Fraction(r['expected_round'])):.4f}")
    if "monte_carlo" in r:
        mc = r["monte_carlo"]
        lines.append(f"Monte Carlo ({mc['games']} games, seed {mc['seed']}): "
                     + ", ".join(f"{k}: {v:.4f}" for k, v in mc["frequencies"].items()))
    return "\n".join(lines)


def _verify(args) -> dict:
    from solver.cactus.verify import checks as verify

    players = tuple(clikit.int_list(args.players, "--players")) if args.players is not None else (2, 3, 4, 5)
    for p in players:
        if p not in (2, 3, 4, 5):
            raise BadInput(f"--players: {p} is not 2..5")
    readings = CactusReadings.from_args(args)  # bad readings are refused before any progress line
    bar = clikit.ProgressLines("cactus verify", args.quiet)  # stderr, with --json too
    bar(Progress(what="checks starting"))  # a first line at once (answers this process already has come back at once)
    return verify.verify(players=players, quick=args.quick, progress=bar, readings=readings)


def _render_verify(r: dict) -> str:
    lines = []
    for c in r["checks"]:
        mark = {True: "HOLDS", False: "FAILS", None: "UNKNOWN"}[c["holds"]]
        extra = f" [open question {c['open_question']}]" if c.get("open_question") else ""
        lines.append(f"{mark:<7} {c['id']:<46} {c['elapsed']:7.3f}s  {c['title']}{extra}")
        if c["counterexample"]:
            lines.append(f"        counterexample: {c['counterexample']}")
    s = r["summary"]
    lines.append(f"{s['holds']} hold, {s['fails']} fail, {s['unknown']} unknown; {r['elapsed']}s in Z3")
    return "\n".join(lines)


def _ranger(args) -> dict:
    """The position's own ``readings`` with the command line's ``--rule`` options on top."""
    from solver.cactus.ranger import decide, read_position

    overrides = {k: canon(v) for k, v in CactusReadings.given_values(args).items()}
    position = read_position(args.position)
    if overrides:
        position = {**position, "rules": {**position["rules"], **overrides}}
    return decide(position)


def _render_ranger(r: dict) -> str:
    lines = [f"visible target: {'yes' if r['visible_target'] else 'no'} "
             f"({', '.join(v['name'] for v in r['visible']) or 'none'}) -> row '{r['row']}': {r['sequence']}",
             f"closest outlaw(s): {', '.join(r['closest']['outlaws']) or 'none'} at distance {r['closest']['distance']}"]
    for o in r["outcomes"]:
        acts = "; ".join(_act(a) for a in o["actions"])
        lines.append(f"  p={o['p']:<6} {acts}  -> ends at {o['ranger']}")
    return "\n".join(lines)


def _act(a: dict) -> str:
    if a.get("skipped"):
        return f"{a['icon']} " + ("not possible: passes his turn" if a.get("pass_turn") else "skipped")
    if "to" in a:
        toward = f" toward {a['toward'][-1]}" if a.get("toward") else ""
        return f"{a['icon']}{toward} to {a['to']}" + (f" (reveals {a['reveals']})" if a.get("reveals") else "")
    if a.get("not_possible"):
        return f"{a['icon']} not possible toward {a['toward'][-1]}"
    if a.get("stays"):
        return f"{a['icon']}: stays (shares a building)"
    if "with" in a:
        from solver.cactus.icons import DuelResult

        result = {DuelResult.WON: " (won)", DuelResult.LOST: f" (lost, pushed to {a.get('pushed_to')})",
                  DuelResult.TIE: " (tie)"}
        return f"{a['icon']} with {a['with']}" + result.get(a.get("result"), "")
    return a["icon"] + (" (passes his turn)" if a.get("pass_turn") else "")


def _duel(args) -> dict:
    from solver.cactus.duel import duel_odds

    return duel_odds(args.initiator_shot, args.defender_shot, tuple(args.event or ()), args.initiator_bonus,
                     args.defender_bonus, args.shootout_duel, CactusReadings.from_args(args))


def _render_duel(r: dict) -> str:
    return (f"initiator wins {r['win']} ({float(Fraction(r['win'])):.4f}), loses {r['lose']} "
            f"({float(Fraction(r['lose'])):.4f}), tie {r['tie']}  [ties: {r['ties']}, {r['dice_per_roll']} "
            f"d{r['die_sides']} per roll, second shot {'used' if r['second_shot_used'] else 'not used'}]")


def _schedule(args) -> dict:
    from solver.cactus import solo_deck

    readings = CactusReadings.from_args(args)
    return {"rounds": solo_deck.schedule(readings), "rules": readings.to_json(),
            "note": "card numbers only; the cards' printed contents are not known to this tool. Which 4 cards are "
                    "marked is not in the text: cards 1-4 are shown (inferred)."}


def _render_schedule(r: dict) -> str:
    lines = ["round  deck  programmed  second-shot  contents / note"]
    for row in r["rounds"]:
        contents = row["contents"] if isinstance(row["contents"], str) else " ".join(row["contents"])
        lines.append(f"{row['round']:>5}  {row['deck_size']:>4}  {row['programmed']:>10}  "
                     f"{'yes' if row['second_shot'] else 'no':>11}  {contents}  {row['note']}")
    return "\n".join(lines)


def _events(args) -> dict:
    from solver.cactus import events

    t = events.table()
    return {"events": [{"number": e.number, "key": e.key, "name": e.name, "count": e.count, "effect": e.effect,
                        "round_effects": events.round_effects(e.key).to_dict()} for e in t.events],
            "deck_sizes": {str(k): v for k, v in sorted(t.sizes.items())}}


def add_commands(games) -> None:
    """Add the ``ruleslinger cactus`` group and its commands (the registration's ``add_commands``)."""
    group = clikit.add_group(games, "cactus", "Cactus Town: The Lone Ranger")
    p = clikit.add_command(group, "marshal", "exact chance the marshal's arrival ends the game in each round",
                           _marshal, _render_marshal)
    p.add_argument("--solo", action="store_true", help="solo mode: the lone ranger's action deck")
    p.add_argument("--players", type=int, choices=(2, 3, 4, 5), help="2-5 players: the event deck")
    p.add_argument("--monte-carlo", type=int, default=0, metavar="GAMES", help="also simulate this many games")
    p.add_argument("--seed", type=clikit.seed_int, default=1, help="Monte Carlo seed (default 1)")
    _add_rule_option(p)
    p = clikit.add_command(group, "verify", "Z3 checks of the event and solo deck rules", _verify, _render_verify)
    p.add_argument("--players", help="player counts for the event deck checks, e.g. 2,3 (default 2,3,4,5)")
    p.add_argument("--quick", action="store_true", help="skip the checks of alternative readings")
    clikit.add_quiet(p)
    _add_rule_option(p)
    p = clikit.add_command(group, "ranger", "the lone ranger's turn on a position (docs/cactus.md)",
                           _ranger, _render_ranger)
    p.add_argument("position", help="position JSON file")
    _add_rule_option(p)
    p = clikit.add_command(group, "duel", "exact duel odds", _duel, _render_duel)
    p.add_argument("--initiator-shot", type=int, default=0, help="initiator's second-shot value")
    p.add_argument("--defender-shot", type=int, default=0, help="defender's second-shot value")
    p.add_argument("--initiator-bonus", type=int, default=0, help="initiator's token/building modifiers")
    p.add_argument("--defender-bonus", type=int, default=0, help="defender's token/building modifiers")
    p.add_argument("--event", action="append", help="the round's event if it changes duels: sandstorm, distraction, shootout or fast-draw (one a round)")
    p.add_argument("--shootout-duel", action="store_true", help="the early duel of a Shootout round (+2)")
    _add_rule_option(p)
    p = clikit.add_command(group, "schedule", "the solo action deck round by round", _schedule, _render_schedule)
    _add_rule_option(p)
    clikit.add_command(group, "events", "the event card table and deck sizes", _events)
