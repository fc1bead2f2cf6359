"""`ruleslinger outlaws ...` commands (contracts.md): moves, status, apply, playouts, verify (the Z3 invariant
checks of :mod:`solver.outlaws.verify.checks`) and dead-positions (the search of rule:O12)."""

from __future__ import annotations

from solver import clikit
from solver.errors import BadInput
from solver.io.numbers import MAX_SEED, parse_int_text, seconds
from solver.io.read import parse_json_text
from solver.outlaws.search import searches as search


def _readings(args):
    from solver.outlaws.readings import OutlawsReadings

    return OutlawsReadings.from_args(args)


def _position(args):
    from solver.outlaws.position_json import read_position

    return read_position(args.position)


def moves(args) -> dict:
    """Every legal action of the side to move (contracts.md)."""
    from solver.outlaws.actions import legal_actions

    pos = _position(args)
    acts = legal_actions(pos, _readings(args))
    return {"to_move": pos.to_move, "actions": [a.to_json() for a in acts],
            "descriptions": [a.describe() for a in acts]}


def status(args) -> dict:
    """Winner, victory, the sudden-death trigger and whether each side can still win (the bounded search)."""
    from solver.outlaws.victory import sudden_death_trigger, victory_words, winner

    pos = _position(args)
    readings = _readings(args)
    won = winner(pos)
    out = {"winner": won.winner if won else None, "victory": won.termination if won else None,
           "victory_name": victory_words(won.termination) if won else None,
           "sudden_death": pos.sudden_death, "sudden_death_trigger": sudden_death_trigger(pos, readings),
           "rules": readings.to_json()}
    kwargs = {}
    if args.max_depth is not None:
        kwargs["max_depth"] = args.max_depth
    if args.time_limit is not None:
        kwargs["time_limit"] = args.time_limit
    ws = search.win_possible(pos, readings, **kwargs).to_json()
    out["win_possible"] = {"A": ws["A"], "B": ws["B"]}
    out["win_search"] = {k: ws[k] for k in ("proven", "depth", "line_A", "line_B")}
    return out


def apply_cmd(args) -> dict:
    """Every outcome of one action (given as JSON, or as its index in `moves`), and the chosen one's position."""
    from solver.outlaws.actions import Action, legal_actions
    from solver.outlaws.apply import outcomes
    from solver.outlaws.position_json import position_to_json

    pos = _position(args)
    readings = _readings(args)
    text = args.action.strip()
    if text.lstrip("-").isdigit():
        acts = legal_actions(pos, readings)
        idx = parse_int_text(text, "--action")
        if not 0 <= idx < len(acts):
            raise BadInput(f"--action {idx}: there are {len(acts)} legal actions (0..{len(acts) - 1})")
        action = acts[idx]
    else:
        action = Action.from_json(parse_json_text(text, "--action"))
    outs = outcomes(pos, action, readings)
    if not 0 <= args.outcome < len(outs):
        raise BadInput(f"--outcome {args.outcome}: this action has {len(outs)} outcome(s)")
    return {"action": action.to_json(),
            "outcomes": [{"condition": o.condition, "probability": _frac(o.probability)} for o in outs],
            "outcome": args.outcome, "position": position_to_json(outs[args.outcome].position)}


def _frac(f) -> str:
    return f"{f.numerator}/{f.denominator}"


def playouts_cmd(args) -> dict:
    """Random playouts from the set-up: summary shares and lengths."""
    from solver.outlaws.search.playout import playouts, summary

    if args.n < 1 or args.n > 100_000:
        raise BadInput(f"--n {args.n}: expected 1..100000")
    if not 1 <= args.max_actions <= 10**9:
        raise BadInput(f"--max-actions {args.max_actions}: expected 1..1000000000")
    if args.seed + args.n - 1 > MAX_SEED:
        raise BadInput(f"--seed {args.seed}: playout i uses seed+i, and seed+{args.n - 1} passes the largest seed "
                       f"{MAX_SEED}")
    prog = clikit.ProgressLines("outlaws playouts", args.quiet)  # stderr, with --json too
    df = playouts(args.n, args.seed, _readings(args), args.max_actions, progress=prog)
    return {"summary": summary(df), "rows": df.to_dicts() if args.rows else None}


def _render_moves(result: dict) -> str:
    lines = [f"{len(result['actions'])} legal actions for {result['to_move']}:"]
    for n, (a, text) in enumerate(zip(result["actions"], result["descriptions"])):
        lines.append(f"{n:4d} {a['kind']:<8} {text}")
    return "\n".join(lines)


def add_commands(games) -> None:
    """Add the ``ruleslinger outlaws`` group and its commands (the registration's ``add_commands``)."""
    from solver.outlaws.readings import add_rule_option

    group = clikit.add_group(games, "outlaws", "Outlaws: Last Man Standing")

    def common(p, position=True):
        if position:
            p.add_argument("position", help="position JSON file (contracts.md)")
        add_rule_option(p)

    common(clikit.add_command(group, "moves", "every legal action of the side to move", moves, _render_moves))
    p = clikit.add_command(group, "status", "winner, sudden-death trigger, whether each side can still win", status)
    common(p)
    p.add_argument("--max-depth", type=int, default=None, help="search depth for win_possible")
    p.add_argument("--time-limit", type=float, default=None, help="seconds for win_possible")
    p = clikit.add_command(group, "apply", "outcomes of one action and the resulting position", apply_cmd)
    common(p)
    p.add_argument("--action", required=True, help="the action as JSON (from `moves`) or its index in `moves`")
    p.add_argument("--outcome", type=int, default=0, help="which outcome's position to print (default 0)")
    p = clikit.add_command(group, "playouts", "random playouts from the set-up (uniform legal actions)", playouts_cmd)
    common(p, position=False)
    p.add_argument("--n", type=int, default=20, help="number of playouts (default 20)")
    p.add_argument("--seed", type=clikit.seed_int, default=0, help="first seed (default 0)")
    p.add_argument("--max-actions", type=int, default=3000, help="stop a playout after this many actions")
    p.add_argument("--rows", action="store_true", help="include every playout's row")
    clikit.add_quiet(p)
    add_verification_commands(group)


# ------------------------------------------------------------------ verify | dead-positions


def verify_cmd(args) -> dict:
    """`ruleslinger outlaws verify`: every Z3 invariant check (contracts.md verify format)."""
    from solver.outlaws.verify.checks import CHECKS, MUTATIONS, report

    readings = _readings(args)
    limit = seconds(args.time_limit, "--time-limit", 3600)
    only = tuple(args.check) if args.check else None
    for cid in only or ():
        if cid not in CHECKS:
            raise BadInput(f"--check {cid!r}: expected one of {', '.join(CHECKS)}")
    mutations = frozenset(args.mutate or ())
    for m in mutations:
        if m not in MUTATIONS:
            raise BadInput(f"--mutate {m!r}: expected one of {', '.join(MUTATIONS)}")
    return report(readings, {"time_limit": limit, "mutations": sorted(mutations), "only": only})


def _render_verify(result: dict) -> str:
    lines = []
    for c in result["checks"]:
        state = {True: "holds", False: "FAILS", None: "unknown (time limit)"}[c["holds"]]
        lines.append(f"{c['id']:<24} {state:<22} {c['elapsed']:>7.2f}s  {c['rule'][:70]}")
        if c["counterexample"]:
            cx = c["counterexample"]
            lines.append(f"    counterexample: {cx['action']}")
            lines.append(f"    before: {cx['before']}")
    if result["mutations"]:
        lines.append(f"(deliberately broken rules: {', '.join(result['mutations'])})")
    return "\n".join(lines)


def dead_positions_cmd(args) -> dict:
    """`ruleslinger outlaws dead-positions`: search for positions nobody can win (rule:O12)."""
    from solver.outlaws.position_json import read_position
    from solver.outlaws.search.searches import find_dead_positions

    readings = _readings(args)
    limit = seconds(args.time_limit, "--time-limit")
    if not 0 <= args.max_depth <= 500:
        raise BadInput(f"--max-depth {args.max_depth}: expected 0..500")
    if not 1 <= args.max_nodes <= 10_000_000:
        raise BadInput(f"--max-nodes {args.max_nodes}: expected 1..10000000")
    start = read_position(args.position) if args.position else None
    out = find_dead_positions(start, readings, args.max_depth, limit, args.max_nodes, args.seed,
                              use_lemma=not args.no_lemma)
    out["rules"] = readings.to_json()
    return out


def _render_dead(result: dict) -> str:
    lines = [f"searched {result['nodes']} positions in {result['elapsed']:.1f}s (depth bound {result['depth_bound']})"]
    lines.append(f"dead token-economy classes under these readings: {result['dead_classes'] or 'none'}")
    if not result["found"]:
        lines.append(result["bound"])
        return "\n".join(lines)
    lines.append(f"DEAD POSITION after {result['length']} actions: nobody can win and the sudden-death "
                 f"trigger does not hold (sudden death already happened: {result['why']['sudden_death']})")
    for n, e in enumerate(result["line"], 1):
        a = e["action"]
        rest = ", ".join(f"{k}={v}" for k, v in a.items() if k != "kind")
        cond = "" if e["condition"] == "certain" else f"  [{e['condition'][:80]}]"
        lines.append(f"{n:3d}. {e['side']} {a['kind']} {rest}{cond}")
    p = result["position"]
    lines.append(f"tokens: {p['tokens']}  reserve: {p['reserve']}  supply: {p['supply']}  discard: {p['discard']}")
    return "\n".join(lines)


def add_verification_commands(group) -> None:
    """Add ``verify`` and ``dead-positions`` to the ``ruleslinger outlaws`` group (called by :func:`add_commands`)."""
    from solver.outlaws.readings import add_rule_option
    from solver.outlaws.verify.checks import CHECKS, MUTATIONS

    rule_opt = add_rule_option

    p = clikit.add_command(group, "verify", "Z3 invariant checks on every action kind (with counterexamples)",
                           verify_cmd, _render_verify)
    rule_opt(p)
    p.add_argument("--time-limit", type=float, default=120.0, help="seconds per check (default 120)")
    p.add_argument("--check", action="append", metavar="ID", help=f"only this check ({', '.join(CHECKS)}); repeatable")
    p.add_argument("--mutate", action="append", metavar="NAME",
                   help=f"check a deliberately broken rule instead ({', '.join(MUTATIONS)}); repeatable")
    p = clikit.add_command(group, "dead-positions",
                           "search reachable positions where nobody can win and sudden death does not trigger (O12)",
                           dead_positions_cmd, _render_dead)
    rule_opt(p)
    p.add_argument("position", nargs="?", default=None, help="start position JSON (default: the set-up of --seed)")
    p.add_argument("--seed", type=clikit.seed_int, default=0, help="set-up seed when no position is given (default 0)")
    p.add_argument("--max-depth", type=int, default=80, help="depth bound in actions (default 80)")
    p.add_argument("--time-limit", type=float, default=300.0, help="seconds (default 300)")
    p.add_argument("--max-nodes", type=int, default=100_000, help="positions expanded at most (default 100000)")
    p.add_argument("--no-lemma", action="store_true",
                   help="search even when the token-economy lemma already shows no dead position exists")

