"""Benchmarks for the Lone Cowboy advice, "What if?" (rule:W-advice; conventions: ``run(quick) -> rows``).

Three parts, every game seeded (seeds 0..N-1 of each scenario), default readings:

- ``policies``: the continuation policies as players, greedy and lookahead (with the compiled valuation, the same
  moves as without), over ``--policy-games`` games per scenario: win share, mean margin, CPU ms per game; the
  lookahead's figures beside greedy's (the baseline, same process, same seeds).
- ``advised``: over ``--games`` games per scenario, the player takes the advice at every decision (``--samples``,
  ``--policy``; the defaults of ``wagons advise``); the same seeds played by the greedy policy and by the
  continuation policy alone are the baselines. The first ``--timed`` seeds of each scenario are advised exactly as
  the command does, the deal search's bound included (it runs once every card is known); the others without the
  bound, which changes no advice. One row per game is appended to ``--rows FILE.jsonl`` as it finishes, and a run
  with the same file resumes (rows of other settings are refused). Per decision: the legal actions, the cards
  unseen, wall and CPU seconds, the work (play-outs and the continuation policy's decisions), the bound's seconds.
- ``speed``: the advice on the decisions of one game with the compiled valuation and without it (the Python
  valuation, the same figures): the ratio of their times.
- ``agreement``: over ``--agreement-games`` seeds per scenario, each of the player's decisions (along the game
  where the advice is taken) advised twice on the same orders: *before*, the race alone with its old rule (the
  action played on the most orders with the highest margin is gold); *after*, the close calls played on more
  orders and the advised choice of :mod:`solver.wagons.advice.choice`. Per rule: how many decisions show a figure
  above the gold one (to the tenth shown), how many of those rest on fewer than 8 orders, and how many are left
  unanswered (neither within the gold one's interval nor worse on the orders both were played on; before, none
  is answered); with the seconds per decision.

The summary (one JSON object per line): per scenario and overall, the win share of always taking the advice, of
greedy and of the continuation policy on the same seeds, the paired difference advice - greedy with its 95%
interval, mean margins; the advice's time per decision over the timed games' decisions (median and 90th
percentile, wall and CPU, with the median work). Dated figures: ``docs/history/wagons-advice.md``.

Run: ``nice -n 10 .venv/bin/python bench/wagons/bench_wagons_advice.py --games 200 --rows R.jsonl [--scenarios a,b]``;
``--from-rows a.jsonl,b.jsonl`` summarises earlier files; ``--quick``: 20 policy games, 1 advised game per
scenario, 1 timed.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository root: bench.rows

from bench.rows import append_row, read_rows  # noqa: E402 - after the path
from solver.errors import BadInput  # noqa: E402
from solver.wagons.data import SCENARIO_IDS

GAME = "wagons"
SETTINGS = ("samples", "policy", "timed")
"""The row fields every row of one rows file shares."""


def _row(name, value, unit, baseline=None, ratio=None, notes=""):
    return {"game": GAME, "name": name, "value": value, "unit": unit, "baseline": baseline, "ratio": ratio,
            "notes": notes}


# ---------------------------------------------------------------- the policies as players


def policy_figures(scenario: str, policy: str, games: int) -> dict:
    """Win share, mean margin and CPU ms per game of ``policy`` over seeds 0..games-1 of ``scenario``."""
    from solver.wagons.advice.rollout import continuation
    from solver.wagons.simulate import play_game

    pol = continuation(policy)
    start, wins, margin = time.process_time(), 0, 0
    for seed in range(games):
        f = play_game(scenario, pol, seed).scores
        wins += f.winner == "player"
        margin += f.margin
    return {"scenario": scenario, "policy": policy, "games": games, "win_share": wins / games,
            "mean_margin": margin / games, "cpu_ms_per_game": 1000 * (time.process_time() - start) / games}


def policies_part(scenarios, games: int) -> list[dict]:
    from solver.wagons.optimizer.sweep import SWEEP

    SWEEP.ready_by(time.monotonic() + 300)
    return [policy_figures(s, p, games) for s in scenarios for p in ("greedy", "lookahead")]


# ---------------------------------------------------------------- the advised games


def _decision(state, advice) -> dict:
    return {"turn": state.turn, "round": state.round, "kind": advice.decision, "actions": len(advice.actions),
            "unseen": len(advice.unseen), "exact": advice.every_order, "wall": round(advice.elapsed, 4),
            "cpu": round(advice.cpu, 4), "rollouts": advice.rollouts, "work": advice.decisions,
            "complete": advice.complete,
            "bound_s": None if advice.bound is None else round(advice.bound.elapsed, 3)}


def advised_game(scenario: str, seed: int, samples: int, policy: str, timed: bool) -> dict:
    """The seeded game where the player takes the advice at every decision, and the baselines on its seed."""
    from solver.wagons.advice.engine import DEFAULT_TIME_LIMIT, advise
    from solver.wagons.advice.rollout import continuation
    from solver.wagons.game import OpponentTurn, apply, legal_actions, new_game, scores
    from solver.wagons.simulate import play_game

    s, decisions = new_game(scenario, seed), []
    while s.to_move is not None:
        actions = legal_actions(s) if s.to_move == "player" else (OpponentTurn(),)
        if len(actions) == 1:
            s = apply(s, actions[0])
            continue
        advice = advise(s, samples, policy, DEFAULT_TIME_LIMIT, bound=timed)
        decisions.append(_decision(s, advice))
        s = apply(s, advice.best.action)
    mine, greedy = scores(s), play_game(scenario, continuation("greedy"), seed).scores
    alone = play_game(scenario, continuation(policy), seed).scores
    return {"scenario": scenario, "seed": seed, "samples": samples, "policy": policy, "timed": timed,
            "margin": mine.margin, "won": mine.winner == "player", "greedy_margin": greedy.margin,
            "greedy_won": greedy.winner == "player", "policy_margin": alone.margin,
            "policy_won": alone.winner == "player", "decisions": decisions}


def advised_part(scenarios, games: int, samples: int, policy: str, timed: int, rows_path=None, log=None,
                 game=advised_game) -> list[dict]:
    """Every (scenario, seed) game's row, resuming ``rows_path`` (its settings must be these)."""
    rows = read_rows(rows_path, repair=True) if rows_path else []
    for r in rows:
        if (r["samples"], r["policy"], r["timed"]) != (samples, policy, r["seed"] < timed):
            raise BadInput(f"rows: {r['scenario']} seed {r['seed']} was run with other settings; keep each run "
                           "in its own rows file")
    done = {(r["scenario"], r["seed"]) for r in rows}
    for seed in range(games):
        for scenario in scenarios:
            if (scenario, seed) in done:
                continue
            row = game(scenario, seed, samples, policy, seed < timed)
            rows.append(row)
            if rows_path:
                append_row(rows_path, row)
            if log:
                walls = [d["wall"] for d in row["decisions"]]
                log(f"{scenario} {seed}: advised {row['margin']:+d} greedy {row['greedy_margin']:+d} "
                    f"{policy} {row['policy_margin']:+d}; {len(walls)} decisions, max {max(walls):.1f} s")
    return rows


# ---------------------------------------------------------------- gold against the highest figure shown


def _shown_above(advice, old_rule: bool) -> tuple[int, int, int]:
    """(a figure is shown above the gold one, one of them rests on fewer than 8 orders, one is unanswered) as 0/1
    (to the tenth, as the page shows them)."""
    gold = advice.best
    above = [(k, a) for k, a in enumerate(advice.actions) if a.samples and round(float(a.mean), 1) >
             round(float(gold.mean), 1)]
    few = any(a.too_few for _, a in above)
    unanswered = any(old_rule or not advice.standings[k].answered for k, _ in above)
    return int(bool(above)), int(few), int(unanswered)


def agreement_game(scenario: str, seed: int, samples: int, policy: str) -> dict:
    """Each decision of the seeded game where the (new) advice is taken, advised by the old rule and the new."""
    from solver.wagons.advice.engine import DEFAULT_TIME_LIMIT, advise
    from solver.wagons.game import OpponentTurn, apply, legal_actions, new_game

    s, out = new_game(scenario, seed), {"scenario": scenario, "seed": seed, "decisions": 0}
    for key in ("before", "after"):
        out.update({f"{key}_above": 0, f"{key}_few": 0, f"{key}_unanswered": 0, f"{key}_wall": 0.0,
                    f"{key}_rollouts": 0})
    while s.to_move is not None:
        actions = legal_actions(s) if s.to_move == "player" else (OpponentTurn(),)
        if len(actions) == 1:
            s = apply(s, actions[0])
            continue
        out["decisions"] += 1
        for key, resolve in (("before", False), ("after", True)):
            _cold()  # each starts cold: the second would reuse the first's valuations
            advice = advise(s, samples, policy, DEFAULT_TIME_LIMIT, bound=False, resolve=resolve)
            for name, v in zip(("above", "few", "unanswered"), _shown_above(advice, not resolve)):
                out[f"{key}_{name}"] += v
            out[f"{key}_wall"] += advice.elapsed
            out[f"{key}_rollouts"] += advice.rollouts
        s = apply(s, advice.best.action)
    return out


def agreement_part(scenarios, games: int, samples: int, policy: str, log=None) -> dict:
    """The ``agreement`` part over seeds 0..games-1 of each scenario, summed."""
    from solver.wagons.optimizer.sweep import SWEEP

    SWEEP.ready_by(time.monotonic() + 300)
    rows = []
    for seed in range(games):
        for scenario in scenarios:
            rows.append(agreement_game(scenario, seed, samples, policy))
            if log:
                r = rows[-1]
                log(f"{scenario} {seed}: {r['decisions']} decisions; above the gold before {r['before_above']}, "
                    f"after {r['after_above']} (unanswered {r['after_unanswered']})")
    total = {k: sum(r[k] for r in rows) for k in rows[0] if k not in ("scenario", "seed")}
    n = total["decisions"]
    return {"part": "agreement", "games": len(rows), "samples": samples, "policy": policy, **total,
            "before_wall_per_decision": round(total["before_wall"] / n, 3),
            "after_wall_per_decision": round(total["after_wall"] / n, 3),
            "before_wall": round(total["before_wall"], 2), "after_wall": round(total["after_wall"], 2)}


# ---------------------------------------------------------------- the summary


def _pct(values, q: float):
    """The q-quantile (nearest rank) of ``values``, None when empty."""
    v = sorted(values)
    return v[min(len(v) - 1, max(0, math.ceil(q * len(v)) - 1))] if v else None


def paired(a, b) -> tuple[float, float, float]:
    """(mean of a - b, 95% interval) over pairs (normal approximation)."""
    d = [x - y for x, y in zip(a, b)]
    m = statistics.fmean(d)
    half = 1.96 * statistics.stdev(d) / math.sqrt(len(d)) if len(d) > 1 else math.inf
    return m, m - half, m + half


def game_summary(rows: list[dict], label: str) -> dict:
    won, greedy, alone = ([int(r[k]) for r in rows] for k in ("won", "greedy_won", "policy_won"))
    diff, low, high = paired(won, greedy)
    return {"part": "advised", "scenario": label, "games": len(rows), "advised_win_share": statistics.fmean(won),
            "greedy_win_share": statistics.fmean(greedy), "policy_win_share": statistics.fmean(alone),
            "advised_minus_greedy": round(diff, 4), "interval": [round(low, 4), round(high, 4)],
            "advised_won_greedy_lost": sum(a > g for a, g in zip(won, greedy)),
            "greedy_won_advised_lost": sum(g > a for a, g in zip(won, greedy)),
            "advised_mean_margin": statistics.fmean(r["margin"] for r in rows),
            "greedy_mean_margin": statistics.fmean(r["greedy_margin"] for r in rows),
            "policy_mean_margin": statistics.fmean(r["policy_margin"] for r in rows)}


def time_summary(rows: list[dict], label: str) -> dict:
    ds = [d for r in rows for d in r["decisions"]]
    out = {"part": "time", "scenario": label, "games": len(rows), "decisions": len(ds)}
    for key in ("wall", "cpu", "rollouts", "work"):
        vals = [d[key] for d in ds]
        out[f"{key}_median"], out[f"{key}_p90"] = statistics.median(vals) if vals else None, _pct(vals, 0.9)
    out["wall_max"] = max((d["wall"] for d in ds), default=None)
    out["incomplete"] = sum(not d["complete"] for d in ds)
    return out


def summary(rows: list[dict]) -> list[dict]:
    """Per scenario and overall: the advised games' figures, and the time per decision of the timed games."""
    out = []
    scenarios = [s for s in SCENARIO_IDS if any(r["scenario"] == s for r in rows)]
    for label in [*scenarios, "all"]:
        mine = [r for r in rows if label in ("all", r["scenario"])]
        out.append(game_summary(mine, label))
        timed = [r for r in mine if r["timed"]]
        if timed:
            out.append(time_summary(timed, label))
    return out


# ---------------------------------------------------------------- the compiled valuation's share


def _greedy_decisions(scenario: str, seed: int, most: int) -> list:
    """The first ``most`` decisions with a choice of the greedy game of ``seed``."""
    import random

    from solver.wagons.game import OpponentTurn, apply, legal_actions, new_game
    from solver.wagons.policies import GreedyPolicy

    s, out = new_game(scenario, seed), []
    while s.to_move is not None and len(out) < most:
        if s.to_move == "opponent":
            s = apply(s, OpponentTurn())
            continue
        actions = legal_actions(s)
        if len(actions) > 1:
            out.append(s)
        s = apply(s, GreedyPolicy(compiled=True).choose(s, actions, random.Random(0)))
    return out


def _cold() -> None:
    """The valuations the policies and the sweep remember, forgotten (each timed run starts cold)."""
    from solver.wagons import policies
    from solver.wagons.optimizer import sweep

    for memo in (policies._PLACES, policies._LAST_DRAFTS, sweep._TABLES):
        memo.clear()


def speed_part(scenario: str = "gold-rush", seed: int = 0, most: int = 20, policy: str | None = None) -> dict:
    """The advice (default settings, no bound) on a greedy game's decisions, with the compiled valuation and with
    the Python one (the baseline, the same figures): seconds and the ratio."""
    from unittest import mock

    from solver.wagons.advice import engine
    from solver.wagons.advice.rollout import continuation
    from solver.wagons.optimizer.sweep import SWEEP

    SWEEP.ready_by(time.monotonic() + 300)
    policy = policy or engine.DEFAULT_POLICY
    states = _greedy_decisions(scenario, seed, most)
    _cold()
    fast = [engine.advise(s, policy=policy, bound=False) for s in states]
    _cold()
    with mock.patch.object(engine, "continuation", lambda name: continuation(name, compiled=False)):
        slow = [engine.advise(s, policy=policy, bound=False) for s in states]
    same = all([r.mean for r in a.actions] == [r.mean for r in b.actions] for a, b in zip(fast, slow))
    cpu_fast, cpu_slow = sum(a.cpu for a in fast), sum(a.cpu for a in slow)
    return {"part": "speed", "scenario": scenario, "seed": seed, "decisions": len(states), "policy": policy,
            "cpu_compiled": round(cpu_fast, 2), "cpu_python": round(cpu_slow, 2),
            "ratio": round(cpu_slow / cpu_fast, 2) if cpu_fast else None, "same_figures": same}


# ---------------------------------------------------------------- entry points


def convention_rows(policies: list[dict], summary_rows: list[dict], speed: dict | None,
                    agreement: dict | None = None) -> list[dict]:
    """The figures as run_all's rows (each beside its baseline of the same run)."""
    out = []
    if agreement is not None:
        a = agreement
        out.append(_row("advice: decisions with a figure shown above the gold one", a["after_above"], "decisions",
                        a["before_above"], None, f"of {a['decisions']} decisions in {a['games']} games; baseline the "
                        f"old rule on the same decisions; unanswered after: {a['after_unanswered']}"))
    greedy = {p["scenario"]: p for p in policies if p["policy"] == "greedy"}
    for p in policies:
        if p["policy"] != "greedy":
            g = greedy[p["scenario"]]
            out.append(_row(f"advice: {p['policy']} policy win share, {p['scenario']}", round(p["win_share"], 4),
                            "share", round(g["win_share"], 4), None, f"{p['games']} seeded games; baseline greedy"))
    for s in summary_rows:
        if s["part"] == "advised" and s["scenario"] == "all":
            out.append(_row("advice: win share taking the advice at every decision", round(s["advised_win_share"], 4),
                            "share", round(s["greedy_win_share"], 4), None,
                            f"{s['games']} games; baseline greedy on the same seeds"))
        if s["part"] == "time" and s["scenario"] == "all":
            out.append(_row("advice: seconds per decision (median, wall)", s["wall_median"], "s", None, None,
                            f"p90 {s['wall_p90']} s; CPU median {s['cpu_median']} s; median work "
                            f"{s['rollouts_median']} play-outs, {s['work_median']} policy decisions"))
    if speed is not None:
        out.append(_row("advice: CPU seconds, compiled valuation", speed["cpu_compiled"], "s", speed["cpu_python"],
                        speed["ratio"], f"{speed['decisions']} decisions; baseline the Python valuation"))
    return out


def run(quick: bool = True, games: int = 200, policy_games: int = 1000, timed: int = 20, samples: int | None = None,
        policy: str | None = None, scenarios=SCENARIO_IDS, rows_path=None, log=None) -> list[dict]:
    """run_all's rows (``quick``: 20 policy games and 1 advised game per scenario, the speed on 3 decisions)."""
    from solver.wagons.advice.engine import DEFAULT_POLICY, DEFAULT_SAMPLES

    if quick:
        games, policy_games, timed = 1, 20, 1
    pols = policies_part(scenarios, policy_games)
    rows = advised_part(scenarios, games, samples or DEFAULT_SAMPLES, policy or DEFAULT_POLICY, timed, rows_path, log)
    speed = speed_part(most=3 if quick else 20)
    agree = agreement_part(scenarios[:1] if quick else scenarios, 1 if quick else 3, samples or DEFAULT_SAMPLES,
                           policy or DEFAULT_POLICY)
    return convention_rows(pols, summary(rows), speed, agree)


def _parser() -> argparse.ArgumentParser:
    from solver.wagons.advice.rollout import CONTINUATIONS

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="20 policy games, 1 advised game per scenario")
    ap.add_argument("--games", type=int, default=200, help="advised games per scenario (default 200)")
    ap.add_argument("--timed", type=int, default=20, help="of which advised as the command does, bound included "
                                                          "(default the first 20 seeds)")
    ap.add_argument("--policy-games", type=int, default=1000, help="games per scenario and policy (default 1000)")
    ap.add_argument("--samples", type=int, default=None, help="the advice's deal orders (default the command's)")
    ap.add_argument("--policy", choices=CONTINUATIONS, default=None, help="continuation (default the command's)")
    ap.add_argument("--scenarios", default=",".join(SCENARIO_IDS), help="comma-separated (default all six)")
    ap.add_argument("--parts", default="policies,advised,speed,agreement", help="which parts (default all four)")
    ap.add_argument("--agreement-games", type=int, default=3, help="seeds per scenario of the agreement part")
    ap.add_argument("--rows", default=None, help="append each advised game to this JSON-lines file (and resume)")
    ap.add_argument("--from-rows", default=None, help="summarise earlier --rows files (comma-separated)")
    return ap


def main(argv=None) -> int:
    from solver.wagons.advice.engine import DEFAULT_POLICY, DEFAULT_SAMPLES

    a = _parser().parse_args(argv)
    log = lambda m: print(m, file=sys.stderr, flush=True)
    parts = set(a.parts.split(","))
    scenarios = [s.strip() for s in a.scenarios.split(",") if s.strip()]
    try:
        if a.quick:
            a.games, a.policy_games, a.timed = 1, 20, 1
        if a.from_rows:
            rows = [r for f in a.from_rows.split(",") for r in read_rows(f)]
        else:
            for p in (policies_part(scenarios, a.policy_games) if "policies" in parts else []):
                print(json.dumps({"part": "policies", **p}), flush=True)
            rows = advised_part(scenarios, a.games, a.samples or DEFAULT_SAMPLES, a.policy or DEFAULT_POLICY, a.timed,
                                a.rows, log) if "advised" in parts else []
            if "speed" in parts:
                print(json.dumps(speed_part(most=3 if a.quick else 20)), flush=True)
            if "agreement" in parts:
                print(json.dumps(agreement_part(scenarios, 1 if a.quick else a.agreement_games,
                                                a.samples or DEFAULT_SAMPLES, a.policy or DEFAULT_POLICY, log)),
                      flush=True)
        for row in summary(rows) if rows else []:
            print(json.dumps(row), flush=True)
    except BadInput as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
