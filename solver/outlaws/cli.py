"""`ruleslinger outlaws ...` commands (contracts.md): moves, status, apply, playouts."""

from __future__ import annotations

from solver import clikit
from solver.errors import BadInput
from solver.io.numbers import MAX_SEED, parse_int_text
from solver.io.read import parse_json_text
from solver.outlaws import search
from solver.outlaws.verify.checks import register_verification


def _rules(args):
    from solver.outlaws.rules import Rules

    return Rules.from_args(args)


def _position(args):
    from solver.outlaws.state import read_position

    return read_position(args.position)


def moves(args) -> dict:
    """Every legal action of the side to move (contracts.md)."""
    from solver.outlaws.actions import legal_actions

    pos = _position(args)
    acts = legal_actions(pos, _rules(args))
    return {"to_move": pos.to_move, "actions": [a.to_json() for a in acts],
            "descriptions": [a.describe() for a in acts]}


def status(args) -> dict:
    """Winner, victory, the sudden-death trigger and whether each side can still win (the bounded search)."""
    from solver.outlaws.victory import sudden_death_trigger, victory_words, winner

    pos = _position(args)
    rules = _rules(args)
    won = winner(pos)
    out = {"winner": won[0] if won else None, "victory": won[1] if won else None,
           "victory_name": victory_words(won[1]) if won else None,
           "sudden_death": pos.sudden_death, "sudden_death_trigger": sudden_death_trigger(pos, rules),
           "rules": rules.to_json()}
    kwargs = {}
    if args.max_depth is not None:
        kwargs["max_depth"] = args.max_depth
    if args.time_limit is not None:
        kwargs["time_limit"] = args.time_limit
    ws = search.win_possible(pos, rules, **kwargs).to_json()
    out["win_possible"] = {"A": ws["A"], "B": ws["B"]}
    out["win_search"] = {k: ws[k] for k in ("proven", "depth", "line_A", "line_B")}
    return out


def apply_cmd(args) -> dict:
    """Every outcome of one action (given as JSON, or as its index in `moves`), and the chosen one's position."""
    from solver.outlaws.actions import Action, legal_actions
    from solver.outlaws.apply import outcomes
    from solver.outlaws.state import position_to_json

    pos = _position(args)
    rules = _rules(args)
    text = args.action.strip()
    if text.lstrip("-").isdigit():
        acts = legal_actions(pos, rules)
        idx = parse_int_text(text, "--action")
        if not 0 <= idx < len(acts):
            raise BadInput(f"--action {idx}: there are {len(acts)} legal actions (0..{len(acts) - 1})")
        action = acts[idx]
    else:
        action = Action.from_json(parse_json_text(text, "--action"))
    outs = outcomes(pos, action, rules)
    if not 0 <= args.outcome < len(outs):
        raise BadInput(f"--outcome {args.outcome}: this action has {len(outs)} outcome(s)")
    return {"action": action.to_json(),
            "outcomes": [{"condition": o.condition, "probability": _frac(o.probability)} for o in outs],
            "outcome": args.outcome, "position": position_to_json(outs[args.outcome].position)}


def _frac(f) -> str:
    return f"{f.numerator}/{f.denominator}"


def playouts_cmd(args) -> dict:
    """Random playouts from the set-up: summary shares and lengths."""
    from solver.outlaws.playout import playouts, summary

    if args.n < 1 or args.n > 100_000:
        raise BadInput(f"--n {args.n}: expected 1..100000")
    if not 1 <= args.max_actions <= 10**9:
        raise BadInput(f"--max-actions {args.max_actions}: expected 1..1000000000")
    if args.seed + args.n - 1 > MAX_SEED:
        raise BadInput(f"--seed {args.seed}: playout i uses seed+i, and seed+{args.n - 1} passes the largest seed "
                       f"{MAX_SEED}")
    prog = clikit.Progress("outlaws playouts", args.n, quiet=args.json)
    df = playouts(args.n, args.seed, _rules(args), args.max_actions, progress=prog)
    return {"summary": summary(df), "rows": df.to_dicts() if args.rows else None}


def _render_moves(result: dict) -> str:
    lines = [f"{len(result['actions'])} legal actions for {result['to_move']}:"]
    for n, (a, text) in enumerate(zip(result["actions"], result["descriptions"])):
        lines.append(f"{n:4d} {a['kind']:<8} {text}")
    return "\n".join(lines)


def register(games) -> None:
    from solver.outlaws.rules import add_rule_option

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
    register_verification(group)  # `verify` and `dead-positions` (solver/outlaws/verify/checks.py)
