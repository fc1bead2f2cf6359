"""`ruleslinger wagons ...` commands (contracts.md): score, play, opponent-draft, simulate.

Every open reading has a flag (--icon-source, --match-order, --edition, --difficulty,
--tie-break, --round1-window, --boom-or-bust, --boomtown-count, --boomtown-mines) with the docs/open-questions.md default. Bad input: one line, exit 2 (rule:X-bad-input).
"""

from __future__ import annotations

from pathlib import Path

from solver import clikit
from solver.errors import BadInput
from solver.io import as_int, read_json, short_repr
from solver.wagons.data import SCENARIO_IDS, load_data
from solver.wagons.rules import (
    BOOM_OR_BUST,
    BOOMTOWN_COUNTS,
    BOOMTOWN_MINES,
    DIFFICULTIES,
    EDITIONS,
    ICON_SOURCES,
    MATCH_ORDERS,
    ROUND1_PICKS,
    TIE_BREAKS,
    Rules,
)


def add_rules_flags(p) -> None:
    """The flags of the open readings (rule:W2, rule:W3, rule:W4, rule:W8, rule:W11)."""
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
    g.add_argument("--goals", metavar="FILE", default=None,
                   help="your copy of goals.toml (to correct a number from your own card)")


def rules_from_args(args) -> Rules:
    return Rules(icon_source=args.icon_source, match_order=args.match_order, edition=args.edition,
                 difficulty=args.difficulty, tie_break=args.tie_break, round1_window=args.round1_window,
                 boom_or_bust=args.boom_or_bust, boomtown_count=args.boomtown_count,
                 boomtown_mines=args.boomtown_mines,
                 round1_pick=args.round1_pick)


def _data(args):
    """The wagons data with the user's ``--goals FILE`` (None: the shipped goals): the one source
    every command passes on to the engine, the optimizer and the replays."""
    if not getattr(args, "goals", None):
        return load_data()
    try:
        path = Path(args.goals).resolve()
    except (OSError, RuntimeError):  # a symbolic link loop, an unreadable folder
        raise BadInput(f"--goals {short_repr(args.goals, 80)}: cannot resolve the path (a loop of symbolic links?)") from None
    return load_data(goals_path=str(path))


def load_opponent(path) -> tuple[int, ...]:
    """An opponent file ``{"pile": [ids, oldest first]}`` on this machine (contracts.md)."""
    return opponent_from_json(read_json(path), str(path))


def opponent_from_json(doc, what: str = "opponent") -> tuple[int, ...]:
    """An opponent document ``{"pile": [ids, oldest first]}``; never reads a file."""
    if not isinstance(doc, dict) or not isinstance(doc.get("pile"), list):
        raise BadInput(f"{what}: expected an object with a 'pile' list of card ids")
    for n, c in enumerate(doc["pile"]):
        as_int(c, f"{what}: pile[{n}]", 0, 17)
    if len(set(doc["pile"])) != len(doc["pile"]):
        raise BadInput(f"{what}: pile lists a card twice")
    return tuple(doc["pile"])


# ---------------------------------------------------------------- score

def handle_score(args) -> dict:
    from solver.wagons.scoring import final_scores
    from solver.wagons.town import read_town

    rules, data = rules_from_args(args), _data(args)
    data.scenario(args.scenario)
    town = read_town(args.town)
    pile = load_opponent(args.opponent)
    out = final_scores(town, pile, args.scenario, rules, data).to_dict()
    out.update({"scenario": args.scenario, "rules": rules.to_dict()})
    return out


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
    return "\n".join(lines)


# ---------------------------------------------------------------- play

def recorded_actions(doc, what: str) -> list[dict]:
    """Player actions from a script: ``{"actions": [...]}`` or a `wagons play --json` output (its log)."""
    if isinstance(doc, dict) and isinstance(doc.get("actions"), list):
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

    rules, data = rules_from_args(args), _data(args)
    script = recorded_actions(read_json(args.script), args.script) if args.script else None
    if script is not None and args.policy != "scripted":
        raise BadInput("--script needs --policy scripted")
    policy = policy_by_name(args.policy, script)
    if args.circle is None and args.deck is None:
        if args.seed is None:
            raise BadInput("play: give --seed N, or --circle (and --deck) for an explicit deal")
        return play_game(args.scenario, policy, args.seed, rules, data).to_dict()
    if args.circle is None:
        raise BadInput("play: --deck needs --circle (an explicit deal: the circle, then the preference deck)")
    from solver.wagons.bestplay import deal_state

    deck = clikit.int_list(args.deck, "--deck") if args.deck else []
    state = deal_state(args.scenario, args.seed, clikit.int_list(args.circle, "--circle"), deck, rules, data)
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

    rules = rules_from_args(args)
    circle = clikit.int_list(args.circle, "--circle")
    pile = clikit.int_list(args.pile, "--pile") if args.pile else []
    after = _pair(args.after_round_1, "--after-round-1") if args.after_round_1 else None
    if args.round == 1 and args.deck_top is None:
        raise BadInput("--deck-top is needed in round 1 (the preference deck's top card)")
    d = opponent_draft(args.scenario, args.round, circle, args.deck_top if args.round == 1 else None, pile, after,
                       rules, _data(args))
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

    rules, data = rules_from_args(args), _data(args)
    if args.games < 1 or args.games > 1_000_000:
        raise BadInput(f"--games: expected 1..1000000, got {args.games}")
    if args.out is not None:
        clikit.output_file(args.out)  # refuse a bad --out before playing any game
    progress = clikit.Progress("wagons simulate", args.games, quiet=args.json)
    rows = []
    for i, row in enumerate(simulate_rows(args.games, args.scenario, args.policy, args.seed, rules, data)):
        rows.append(row)
        progress(i + 1)
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
            "rules": rules.to_dict(), "low_confidence": list(low_confidence(args.scenario, data, rules))}


def register(games) -> None:
    group = clikit.add_group(games, "wagons", "Circle the Wagons: Lone Cowboy")

    p = clikit.add_command(group, "score", "final scores of a finished solo game (player and opponent)",
                           handle_score, render_score)
    p.add_argument("town", help="town JSON file: {\"placements\": [{card, x, y, rot}, ...]}")
    p.add_argument("--scenario", required=True, choices=SCENARIO_IDS)
    p.add_argument("--opponent", required=True, metavar="OPP", help="opponent JSON file: {\"pile\": [ids, oldest first]}")
    add_rules_flags(p)

    p = clikit.add_command(group, "play", "play one whole solo game with a policy", handle_play, render_play)
    p.add_argument("--scenario", required=True, choices=SCENARIO_IDS)
    p.add_argument("--seed", type=clikit.seed_int, default=None, help="the deal's seed (or give --circle/--deck)")
    p.add_argument("--circle", default=None, help="explicit deal (as in `wagons best-play`): the circle, first card first")
    p.add_argument("--deck", default=None, help="explicit deal: the preference deck, top first")
    p.add_argument("--policy", required=True, choices=("random", "greedy", "scripted"))
    p.add_argument("--script", metavar="FILE", help="recorded game for --policy scripted: {\"actions\": [...]} "
                                                    "or a `wagons play --json` output")
    add_rules_flags(p)

    p = clikit.add_command(group, "opponent-draft", "what the automated opponent drafts now",
                           handle_opponent_draft, render_opponent_draft)
    p.add_argument("--scenario", required=True, choices=SCENARIO_IDS)
    p.add_argument("--round", required=True, type=int, choices=(1, 2))
    p.add_argument("--circle", required=True, help="remaining circle cards from the next one clockwise, e.g. 3,7,11")
    p.add_argument("--deck-top", type=int, default=None, help="the preference deck's top card (round 1)")
    p.add_argument("--pile", default="", help="the opponent's town, oldest first (last = top)")
    p.add_argument("--after-round-1", default=None, metavar="P,O",
                   help="player's and opponent's territory counts at the end of round 1 (Boomtown)")
    add_rules_flags(p)

    p = clikit.add_command(group, "simulate", "play many seeded games and summarise (optionally write rows)",
                           handle_simulate)
    p.add_argument("--scenario", required=True, choices=SCENARIO_IDS)
    p.add_argument("--policy", required=True, choices=("random", "greedy"))
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seed", type=clikit.seed_int, default=0)
    p.add_argument("--out", default=None, help="write one row per game (.csv or .parquet)")
    add_rules_flags(p)

    from solver.wagons.optimize_cli import register_optimizer  # best-layout, best-play, can-win

    register_optimizer(group)

    from solver.wagons.verify import register_verify

    register_verify(group)
