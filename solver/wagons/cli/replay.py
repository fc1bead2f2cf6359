"""`ruleslinger wagons replay FILE`: replay a Lone Cowboy game file (:mod:`solver.wagons.record.game_record`)
and print the state it reaches, the scores once the game is over, and the legal actions next (at a
chance node the unseen cards with their exact chances, rule:W-reveal). `ruleslinger wagons
was-winnable FILE`: after a game, could its deal have been won (rule:W-opt-canwin,
:mod:`solver.wagons.review.deal`), with the winning line as a game file (``--line-out``). Bad input:
one line, exit 2 (rule:X-bad-input).
"""

from __future__ import annotations

from solver import clikit
from solver.io.numbers import seconds
from solver.io.read import read_json
from solver.wagons.cli.advise import add_advice_flags

__all__ = ["handle_replay", "render_replay", "add_replay_commands", "replay_summary", "handle_was_winnable",
           "render_was_winnable"]


def replay_summary(state, record: dict | None = None) -> dict:
    """The state after a replay, its record (default: the state's own), scores (when over) and the next legal
    actions; the state is a view derived from the record (:mod:`solver.wagons.record.game_record`)."""
    from solver.wagons.game import action_to_dict, chance_outcomes, is_chance_node, is_over, legal_actions, scores
    from solver.wagons.record.game_json import state_to_json
    from solver.wagons.record.game_record import game_record

    over = is_over(state)
    return {"record": record or game_record(state), "state": state_to_json(state), "to_move": state.to_move,
            "round": state.round, "turn": state.turn, "over": over,
            "scores": scores(state).to_dict() if over else None,
            "legal_actions": [action_to_dict(a) for a in legal_actions(state)],
            "chances": [{"reveal": a.card, "probability": str(p)} for p, a in chance_outcomes(state)]
            if is_chance_node(state) else []}


def handle_replay(args) -> dict:
    from solver.wagons.cli.shared import data_from_args, record_upto

    state, record = record_upto(read_json(args.game_file), args.upto, data_from_args(args))
    out = replay_summary(state, record)
    out["advice_review"] = _advice_review(args, state, record) if args.review else None
    return out


def _advice_review(args, state, record: dict) -> dict:
    """The turns where the choice made cost the most expected margin against the advice (rule:W-advice)."""
    from solver.wagons.advice.review import review_choices
    from solver.wagons.record.game_record import record_parts

    limit = seconds(args.time_limit, "--time-limit")
    dealt = record_parts(record, state.data)[0] if record.get("deal") else None
    lines = clikit.ProgressLines("review", args.quiet, every=0.5)
    return review_choices(state, args.samples, args.policy, limit, lines, dealt).to_dict()


def _cards(cards) -> str:
    return ", ".join(map(str, cards)) or "-"


def render_replay(r: dict) -> str:
    s = r["state"]
    rec = r["record"]
    seed = "explicit deal" if rec.get("deal") else f"seed {rec['seed']}" if rec["seed"] is not None else "followed game"
    lines = [f"Scenario {rec['scenario']}, {seed}, {len(rec['actions'])} actions: round {r['round']}, turn {r['turn']}",
             f"  circle: {_cards(s['circle'])}" + (f" (+{s['hidden_circle']} to reveal)" if s.get("hidden_circle") else ""),
             f"  deck: {_cards(s['deck'])}" + (f" (+{s['hidden_deck']} unseen)" if s.get("hidden_deck") else ""),
             f"  hand: {_cards(s['hand'])}", f"  opponent's town: {_cards(s['pile'])}",
             f"  player's town: {_cards(p['card'] for p in s['town']['placements'])}"]
    if r["over"]:
        sc = r["scores"]
        lines.append(f"Game over: player {sc['player']['total']} - opponent {sc['opponent']['total']}: {sc['winner']}")
    elif r["chances"]:
        lines.append(f"To reveal next (each {r['chances'][0]['probability']}): "
                     f"{_cards(c['reveal'] for c in r['chances'])}")
    else:
        lines.append(f"{r['to_move']} to move: {len(r['legal_actions'])} legal actions")
    review = r.get("advice_review")
    if review is not None:
        lines.append(f"Your choices against the advice ({review['reviewed']} of {review['decisions']} decisions, "
                     f"{review['policy']} policy, up to {review['samples']} deal orders each):")
        lines += [f"  {line}" for line in review["lines"]] or ["  no choice cost half a point or more"]
    return "\n".join(lines)


def add_replay_commands(group) -> None:
    p = clikit.add_command(group, "replay", "replay a game file: the state, the scores when over, the next "
                                            "legal actions", handle_replay, render_replay)
    p.add_argument("game_file", metavar="FILE", help="game file: {\"game\": \"lone-cowboy\", \"version\": 1, \"scenario\", "
                                                "\"rules\", \"seed\" (null: a followed game), \"actions\": [...]}")
    p.add_argument("--upto", type=clikit.whole_number, default=None, metavar="N",
                   help="the state after the first N actions only (undo is a replay of a prefix)")
    p.add_argument("--review", action="store_true",
                   help="add advice_review: the turns where your choice cost the most expected margin against the "
                        "advice (runs `wagons advise` at each of your decisions)")
    add_advice_flags(p, "with --review: wall seconds at most for the whole review (default 300); then the decisions "
                        "reviewed by then, marked incomplete", 300)
    _goals_flag(p)
    _add_was_winnable_command(group)


def _goals_flag(p) -> None:
    p.add_argument("--goals", metavar="FILE", default=None,
                   help="your copy of goals.toml (to correct a number from your own card)")


def handle_was_winnable(args) -> dict:
    import json

    from solver.errors import BadInput
    from solver.io.output import write_atomically
    from solver.wagons.cli.shared import data_from_args
    from solver.wagons.record.game_record import game_from_record
    from solver.wagons.record.load import record_of
    from solver.wagons.review.deal import deal_of, was_winnable

    limit = seconds(args.time_limit, "--time-limit")
    record = record_of(read_json(args.game_file), "game file", data_from_args(args))
    if record.get("deal") is not None:
        raise BadInput("game file: an explicit deal (its \"deal\"): ask `wagons can-win` about its circle and deck")
    state = game_from_record(record, data_from_args(args))
    deal = deal_of(state)
    answer, line = was_winnable(state, limit, clikit.ProgressLines("was-winnable", args.quiet, every=0.5))
    out = {**answer.to_dict(), "scenario": state.scenario,
           "deal": {"seed": deal.seed, "circle": list(deal.circle), "deck": list(deal.deck)}, "line_file": None}
    if line is not None and args.line_out is not None:
        def write(tmp: str) -> None:
            with open(tmp, "w", encoding="utf-8") as f:
                json.dump(line, f, indent=1)
                f.write("\n")

        write_atomically(args.line_out, write, "--line-out")
        out["line_file"] = args.line_out
    return out


def render_was_winnable(r: dict) -> str:
    from solver.wagons.cli.optimizer import render_can_win

    deal = r["deal"]
    which = f"seed {deal['seed']}" if deal["seed"] is not None else \
        f"circle {_cards(deal['circle'])}, deck {_cards(deal['deck'])}"
    lines = [f"The game's deal: {which}", render_can_win(r)]
    if r["line_file"]:
        lines.append(f"The winning line as a game file: {r['line_file']} (`wagons replay` or the game table reads it)")
    return "\n".join(lines)


def _add_was_winnable_command(group) -> None:
    p = clikit.add_command(group, "was-winnable", "after a game: could its deal have been won? (a game file; yes "
                                                  "with the winning line, no with a proof, or unknown)",
                           handle_was_winnable, render_was_winnable)
    p.add_argument("game_file", metavar="FILE", help="a finished game file (as `wagons replay` reads; a followed game "
                                                "once all 16 cards are revealed)")
    p.add_argument("--time-limit", default="30", metavar="S", help="seconds (default 30, as `wagons can-win`); "
                                                                   "after it: unknown")
    p.add_argument("--line-out", default=None, metavar="FILE",
                   help="write the winning line as a game file of the same kind (seeded or followed)")
    p.add_argument("--quiet", action="store_true", help="no progress lines on standard error")
    _goals_flag(p)
