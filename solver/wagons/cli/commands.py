"""`ruleslinger wagons ...` commands (contracts.md): score, play, opponent-draft, simulate, bgstats (and
replay from :mod:`solver.wagons.cli.replay`, the optimizer's best-layout and best-play from
:mod:`solver.wagons.cli.optimizer`).

Every open reading has a flag (--icon-source, --match-order, --edition, --difficulty, --tie-break, --round1-window,
--boom-or-bust, --boomtown-count, --boomtown-mines, --badlands-both-ways, --happy-cows-snow) with the
docs/open-questions.md default. Bad input: one line, exit 2 (rule:X-bad-input).
"""

from __future__ import annotations

from solver import clikit
from solver.errors import BadInput
from solver.execution.progress import Progress
from solver.io.numbers import short_repr
from solver.io.read import read_json
from solver.wagons.cli.advise import add_advise_commands
from solver.wagons.cli.optimizer import add_optimizer_commands
from solver.wagons.cli.replay import add_replay_commands
from solver.wagons.cli.shared import (
    add_readings_flags,
    data_from_args,
    load_opponent,
    readings_from_args,
)
from solver.wagons.cli.verify import add_verify_commands
from solver.wagons.data import SCENARIO_IDS

# ---------------------------------------------------------------- score

def handle_score(args) -> dict:
    from solver.wagons.scoring import final_scores, scores_by_reading
    from solver.wagons.town import read_town

    readings, data = readings_from_args(args), data_from_args(args)
    data.scenario(args.scenario)
    town = read_town(args.town)
    pile = load_opponent(args.opponent)
    out = final_scores(town, pile, args.scenario, readings, data).to_dict()
    out.update({"scenario": args.scenario, "rules": readings.to_json(),
                "by_reading": scores_by_reading(town, pile, args.scenario, readings, data)})
    return out


def _by_reading_lines(by: dict) -> list[str]:
    """The totals under each low-confidence reading (rule:W11), one line per combination of values."""
    if not by or not by.get("scores"):
        return []
    cards = ", ".join(f"{r['goal']} ({r['rule']})" for r in by["readings"])
    lines = [f"{cards} rests on a reading your card settles; the totals under each:"]
    for s in by["scores"]:
        label = ", ".join(f"{k}={v}" for k, v in s["readings"].items()) + (" (used above)" if s["chosen"] else "")
        winner = "a tie" if s["winner"] == "tie" else f"{s['winner']} wins"
        lines.append(f"  {label}: you {s['player']}, opponent {s['opponent']}, {winner}")
    return lines


def render_score(r: dict) -> str:
    lines = [f"Scenario {r['scenario']}", "Player:"]
    lines += [f"  {k:<16}{v:>4}" for k, v in r["player"]["groups"].items()]
    low = set(r.get("low_confidence", ()))
    mark = lambda k: "  (goal card; low-confidence number, a reading: W11)" if k in low else "  (goal card)"
    lines += [f"  {k:<16}{v:>4}{mark(k)}" for k, v in r["player"]["goals"].items()]
    lines += [f"  {'total':<16}{r['player']['total']:>4}", "Opponent:",
              f"  {'3 most common' if r['opponent']['common_rule'] == 'W-common' else 'per-card terrains':<16}"
              f"{r['opponent']['common']:>4}"]
    lines += [f"  {k:<16}{v:>4}{mark(k)}" for k, v in r["opponent"]["goals"].items()]
    lines += [f"  {'total':<16}{r['opponent']['total']:>4}", f"Winner: {r['winner']} (margin {r['margin']})"]
    return "\n".join(lines + _by_reading_lines(r.get("by_reading")))


# ---------------------------------------------------------------- play

def recorded_actions(doc, what: str) -> list[dict]:
    """Player actions from a script: ``{"actions": [...]}``, a game file or a `wagons play --json` output (its
    record's drafts and placements), or an older play output (its log)."""
    if isinstance(doc, dict) and isinstance(doc.get("actions"), list):
        if doc.get("game") == "lone-cowboy":  # a record: the player's own actions, the engine plays the rest
            return [a for a in doc["actions"] if isinstance(a, dict) and ("draft" in a or "place" in a)]
        return doc["actions"]
    if isinstance(doc, dict) and isinstance(doc.get("log"), list):
        out = []
        for n, e in enumerate(doc["log"]):
            if not isinstance(e, dict) or e.get("who") != "player":
                continue
            if e.get("what") == "draft":
                skipped = e.get("skipped", [])
                if not isinstance(skipped, list):
                    raise BadInput(f"{what}: log[{n}].skipped: expected a list of card ids, got {short_repr(skipped)}")
                out.append({"draft": len(skipped)})
            elif e.get("what") == "place" and isinstance(e.get("placement"), dict):
                out.append({"place": e["placement"]})
            else:
                raise BadInput(f"{what}: log[{n}]: a player entry must be a draft or a place with a placement")
        return out
    raise BadInput(f"{what}: expected {{\"actions\": [...]}} or the JSON output of `wagons play`")


def handle_play(args) -> dict:
    from solver.wagons.policies import policy_by_name
    from solver.wagons.simulate import play_game, play_out

    readings, data = readings_from_args(args), data_from_args(args)
    script = recorded_actions(read_json(args.script), args.script) if args.script else None
    if script is not None and args.policy != "scripted":
        raise BadInput("--script needs --policy scripted")
    policy = policy_by_name(args.policy, script)
    if args.circle is None and args.deck is None:
        if args.seed is None:
            raise BadInput("play: give --seed N, or --circle (and --deck) for an explicit deal")
        return play_game(args.scenario, policy, args.seed, readings, data).to_dict()
    if args.circle is None:
        raise BadInput("play: --deck needs --circle (an explicit deal: the circle, then the preference deck)")
    from solver.wagons.optimizer.bestplay import deal_state

    deck = clikit.int_list(args.deck, "--deck") if args.deck else []
    state = deal_state(args.scenario, args.seed, clikit.int_list(args.circle, "--circle"), deck, readings, data)
    return play_out(state, policy).to_dict()


def render_play(r: dict) -> str:
    lines = [f"Scenario {r['scenario']}, seed {r['seed']}, policy {r['policy']}"]
    for e in r["log"]:
        bits = [f"t{e['turn']:>2} r{e['round']} {e['who']:<8} {e['what']:<14}"]
        if "card" in e:
            bits.append(f"card {e['card']}")
        if e.get("skipped"):
            bits.append(f"skipped {e['skipped']}")
        if e.get("deck_card") is not None:
            bits.append(f"+deck {e['deck_card']}")
        if "placement" in e:
            p = e["placement"]
            bits.append(f"at ({p['x']},{p['y']}) rot {p['rot']}")
        if e.get("note"):
            bits.append(e["note"])
        bits.append(f"[{e['rule']}]")
        lines.append(" ".join(bits))
    lines.append(f"Player {r['player']['total']} - opponent {r['opponent']['total']}: {r['winner']}")
    return "\n".join(lines)


# ---------------------------------------------------------------- opponent-draft

def _pair(text: str, what: str) -> tuple[int, int]:
    items = clikit.int_list(text, what)
    if len(items) != 2 or min(items) < 0:
        raise BadInput(f"{what}: expected two counts P,O (player, opponent), got {text!r}")
    return items[0], items[1]


def handle_opponent_draft(args) -> dict:
    from solver.wagons.opponent import opponent_draft

    readings = readings_from_args(args)
    circle = clikit.int_list(args.circle, "--circle")
    pile = clikit.int_list(args.pile, "--pile") if args.pile else []
    after = _pair(args.after_round_1, "--after-round-1") if args.after_round_1 else None
    if args.round == 1 and args.deck_top is None:
        raise BadInput("--deck-top is needed in round 1 (the preference deck's top card)")
    d = opponent_draft(args.scenario, args.round, circle, args.deck_top if args.round == 1 else None, pile, after,
                       readings, data_from_args(args))
    from solver.register import register

    out = d.to_dict()
    out["rule_title"] = next((r.title for r in register().rules if r.id == d.rule), "")
    return out


def render_opponent_draft(r: dict) -> str:
    s = f"Opponent takes card {r['take']}"
    if r["skipped"]:
        s += f", skipping {r['skipped']} (to the player)"
    if r["deck_card"] is not None:
        s += f", and the deck's top card {r['deck_card']}"
    return s + f"  [{r['rule']}: {r['rule_title']}]"


# ---------------------------------------------------------------- simulate

def handle_simulate(args) -> dict:
    from solver.wagons.scoring import low_confidence
    from solver.wagons.simulate import simulate_rows

    readings, data = readings_from_args(args), data_from_args(args)
    if args.games < 1 or args.games > 1_000_000:
        raise BadInput(f"--games: expected 1..1000000, got {args.games}")
    progress = clikit.ProgressLines("wagons simulate", args.quiet)  # stderr, with --json too
    rows = []
    for i, row in enumerate(simulate_rows(args.games, args.scenario, args.policy, args.seed, readings, data)):
        rows.append(row)
        progress(Progress(i + 1, args.games, "games"))
    if args.out is not None:
        import polars as pl

        clikit.write_table(pl.DataFrame(rows), args.out)
    n = len(rows)
    wins = sum(r["winner"] == "player" for r in rows)
    return {"scenario": args.scenario, "policy": args.policy, "games": n, "seed": args.seed,
            "player_win_rate": wins / n, "ties": sum(r["winner"] == "tie" for r in rows),
            "mean_margin": sum(r["margin"] for r in rows) / n,
            "mean_player": sum(r["player_total"] for r in rows) / n,
            "mean_opponent": sum(r["opponent_total"] for r in rows) / n, "out": args.out,
            "rules": readings.to_json(), "low_confidence": list(low_confidence(args.scenario, data, readings))}


# ---------------------------------------------------------------- bgstats

def handle_bgstats(args) -> dict:
    from solver.io.output import write_atomically
    from solver.wagons.record.bgstats import import_link, play_json
    from solver.wagons.record.finished import read_finished_game

    state = read_finished_game(args.game, data_from_args(args))
    play = play_json(state, args.player, args.date, args.duration_min, args.location, args.comments, args.bgg_id)
    out = {"play": play, "out": None, "link": import_link(play) if args.link else None}
    if args.out is not None:
        import json

        def write(tmp: str) -> None:
            with open(tmp, "w", encoding="utf-8") as f:
                json.dump(play, f, indent=1, ensure_ascii=False)
                f.write("\n")

        write_atomically(args.out, write)
        out["out"] = args.out
    return out


def render_bgstats(r: dict) -> str:
    import json

    p = r["play"]
    lines = [f"BG Stats play: {p['game']['name']}, {p['board']}, {p['playDate']}"]
    lines += [f"  {q['name']:<32} {q['score']:>4}  rank {q['rank']}" + ("  winner" if q["winner"] else "")
              for q in p["players"]]
    if r["out"]:
        lines.append(f"Written to {r['out']}")
    else:
        lines.append(json.dumps(p, indent=1, ensure_ascii=False))
    if r["link"]:
        lines.append(f"Import link: {r['link']}")
    return "\n".join(lines)


def add_commands(games) -> None:
    """Add the ``ruleslinger wagons`` group and its commands (the registration's ``add_commands``)."""
    group = clikit.add_group(games, "wagons", "Circle the Wagons: Lone Cowboy")

    p = clikit.add_command(group, "score", "final scores of a finished solo game (player and opponent)",
                           handle_score, render_score)
    p.add_argument("town", help="town JSON file: {\"placements\": [{card, x, y, rot}, ...]}")
    p.add_argument("--scenario", required=True, choices=SCENARIO_IDS)
    p.add_argument("--opponent", required=True, metavar="OPP", help="opponent JSON file: {\"pile\": [ids, oldest first]}")
    add_readings_flags(p)

    p = clikit.add_command(group, "play", "play one whole solo game with a policy", handle_play, render_play)
    p.add_argument("--scenario", required=True, choices=SCENARIO_IDS)
    p.add_argument("--seed", type=clikit.seed_int, default=None, help="the deal's seed (or give --circle/--deck)")
    p.add_argument("--circle", default=None, help="explicit deal (as in `wagons best-play`): the circle, first card first")
    p.add_argument("--deck", default=None, help="explicit deal: the preference deck, top first")
    p.add_argument("--policy", required=True, choices=("random", "greedy", "lookahead", "scripted"))
    p.add_argument("--script", metavar="FILE", help="recorded game for --policy scripted: {\"actions\": [...]} "
                                                    "or a `wagons play --json` output")
    add_readings_flags(p)

    p = clikit.add_command(group, "opponent-draft", "what the automated opponent drafts now",
                           handle_opponent_draft, render_opponent_draft)
    p.add_argument("--scenario", required=True, choices=SCENARIO_IDS)
    p.add_argument("--round", required=True, type=int, choices=(1, 2))
    p.add_argument("--circle", required=True, help="remaining circle cards from the next one clockwise, e.g. 3,7,11")
    p.add_argument("--deck-top", type=int, default=None, help="the preference deck's top card (round 1)")
    p.add_argument("--pile", default="", help="the opponent's town, oldest first (last = top)")
    p.add_argument("--after-round-1", default=None, metavar="P,O",
                   help="player's and opponent's territory counts at the end of round 1 (Boomtown)")
    add_readings_flags(p)

    p = clikit.add_command(group, "simulate", "play many seeded games and summarise (optionally write rows)",
                           handle_simulate)
    p.add_argument("--scenario", required=True, choices=SCENARIO_IDS)
    p.add_argument("--policy", required=True, choices=("random", "greedy", "lookahead"))
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seed", type=clikit.seed_int, default=0)
    p.add_argument("--out", default=None, help="write one row per game (.csv or .parquet)")
    clikit.add_quiet(p)
    add_readings_flags(p)

    p = clikit.add_command(group, "bgstats", "a finished solo game as a BG Stats play (JSON file and import link)",
                           handle_bgstats, render_bgstats)
    p.add_argument("game", metavar="GAME", help="finished game: a game file (as the dashboard saves it), the JSON of `wagons play --json`, "
                        "or a saved game state")
    p.add_argument("--player", required=True, metavar="NAME", help="the player's name as BG Stats shows it")
    p.add_argument("--date", default=None, metavar="DATE",
                   help="when the game was played: YYYY-MM-DD HH:MM[:SS] (a date alone is midnight; default: now, UTC)")
    p.add_argument("--duration-min", default=None, metavar="MIN", help="how long it took, in whole minutes (1-1440)")
    p.add_argument("--location", default=None, help="where it was played (optional)")
    p.add_argument("--comments", default=None, help="your own comment, added after the score summary (optional)")
    p.add_argument("--bgg-id", type=int, default=None, metavar="ID",
                   help="the game's BoardGameGeek id, if you know it (not sent otherwise)")
    p.add_argument("--out", default=None, metavar="FILE", help="write the play's JSON to FILE")
    p.add_argument("--link", action="store_true", help="print the BG Stats import link")
    p.add_argument("--goals", metavar="FILE", default=None,
                   help="your copy of goals.toml (to correct a number from your own card)")

    add_replay_commands(group)
    add_advise_commands(group)
    add_optimizer_commands(group)
    add_verify_commands(group)
