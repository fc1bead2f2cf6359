"""Lone Cowboy's named batches (``ruleslinger batch KIND``, run by :mod:`solver.execution.batches`): whole games
(rule:W-rounds), best play against greedy per deal (rule:W-opt-bestplay) and the difficulty atlas (rule:W-opt-canwin).
Rows are reproducible item by item: game *i* is ``ruleslinger wagons play --seed S+i``."""

from __future__ import annotations

import functools

from solver.errors import BadInput
from solver.execution.plans import BatchKind, BatchRequest, Plan, call_star, call_with
from solver.io.numbers import short_repr
from solver.wagons.readings import WagonsReadings

ATLAS_TIME_LIMIT = 30.0
"""Default seconds for each of can-win and best play per deal and reading (``wagons-atlas``)."""
DIFFICULTY_TIME_LIMIT = 30.0
"""Default seconds per deal for ``wagons-difficulty`` (best_play_row's own default)."""


def _scenario(request: BatchRequest) -> str:
    scenario = request.get("scenario")
    if scenario is None:
        raise BadInput(f"batch {request.kind}: --scenario is required")
    return str(scenario)


def plan_games(request: BatchRequest) -> Plan:
    """Whole solo games, one row per game (solver.wagons.simulate.play_row)."""
    request.only("scenario", "policy")
    from solver.wagons.game import new_game
    from solver.wagons.policies import POLICIES, policy_by_name
    from solver.wagons.simulate import play_row

    scenario = _scenario(request)
    policy = request.get("policy") or "random"
    if policy not in POLICIES:
        raise BadInput(f"batch {request.kind}: --policy {policy!r:.40} is not one of {', '.join(POLICIES)}")
    policy_by_name(policy)
    readings = request.readings(WagonsReadings)
    new_game(scenario, request.seed, readings)  # checks the scenario id before any process starts
    settings = {"scenario": scenario, "policy": policy, "rules": readings.to_json()}
    return Plan(functools.partial(call_with, play_row, (scenario, policy), {"readings": readings}),
                request.seeds(), "rows", settings, request.n)


def plan_difficulty(request: BatchRequest) -> Plan:
    """Best play vs the greedy policy per deal (solver.wagons.optimizer.bestplay.best_play_row, rule:W-opt-bestplay).

    Rows are identical across executors when every deal is proven (``proven`` true); a deal cut
    short by ``time_limit`` holds the best found so far, which depends on the machine's speed.
    """
    request.only("scenario", "time_limit")
    from solver.wagons.game import new_game
    from solver.wagons.optimizer.bestplay import best_play_row as row

    scenario = _scenario(request)
    readings = request.readings(WagonsReadings)
    new_game(scenario, request.seed, readings)
    limit = float(request.time_limit if request.time_limit is not None else DIFFICULTY_TIME_LIMIT)
    settings = {"scenario": scenario, "time_limit": limit, "rules": readings.to_json()}
    return Plan(functools.partial(call_with, row, (scenario,), {"time_limit": limit, "readings": readings.to_json()}),
                request.seeds(), "rows", settings, request.n)


def atlas_scenarios(text: str | None) -> list[str]:
    """``--scenario`` of the atlas: one id, ids joined by commas, or ALL."""
    from solver.wagons.data import SCENARIO_IDS

    if not isinstance(text, str):
        raise BadInput("batch wagons-atlas: --scenario is required (a scenario id, ids joined by commas, or ALL)")
    if text.strip().upper() == "ALL":
        return list(SCENARIO_IDS)
    names = [t.strip() for t in text.split(",") if t.strip()]
    for name in names:
        if name not in SCENARIO_IDS:
            raise BadInput(f"batch wagons-atlas: --scenario {short_repr(name)} is not one of ALL, {', '.join(SCENARIO_IDS)}")
    if not names:
        raise BadInput("batch wagons-atlas: --scenario names no scenario")
    return list(dict.fromkeys(names))


def _atlas_report(frame) -> dict:
    from solver.wagons.optimizer.atlas import atlas_table

    return {"atlas": atlas_table(frame).to_dicts()}


def atlas_text(result: dict) -> tuple[set, str] | None:
    """The atlas table as aligned text: per scenario and reading, deals won with perfect play (of the decided)
    against the greedy policy on the same deals, and the best margin's spread."""
    if "atlas" not in result:
        return None
    rows = result["atlas"]
    pct = lambda x: "-" if x is None else f"{100 * x:.0f}%"
    head = (f"{'scenario':<27}{'reading':<24}{'deals':>6}{'undecided':>10}{'perfect play wins':>18}"
            f"{'greedy wins':>12}  best margin min/median/max (proven)")
    lines = ["Difficulty atlas (wins: share of the decided deals):", head]
    for r in rows:
        lines.append(f"{r['scenario']:<27}{r['reading']:<24}{r['deals']:>6}{r['undecided']:>10}"
                     f"{pct(r['winnable_share']):>18}{pct(r['greedy_win_share']):>12}  "
                     f"{r['best_margin_min']}/{r['best_margin_median']}/{r['best_margin_max']} ({r['best_proven']})")
    return {"atlas"}, "\n".join(lines)


def plan_atlas(request: BatchRequest) -> Plan:
    """The difficulty atlas (solver.wagons.optimizer.atlas.atlas_row, rule:W-opt-canwin, rule:W-opt-bestplay): one row per
    deal and reading. Rows are identical across executors when every deal is decided and proven."""
    request.only("scenario", "time_limit")
    from solver.wagons.optimizer.atlas import atlas_items, atlas_row

    scenarios = atlas_scenarios(request.get("scenario"))
    readings = request.readings(WagonsReadings)
    limit = float(request.time_limit if request.time_limit is not None else ATLAS_TIME_LIMIT)
    items = atlas_items(scenarios, request.n, request.seed, readings)
    settings = {"scenarios": scenarios, "deals_per_scenario": request.n, "time_limit": limit, "rules": readings.to_json()}
    return Plan(functools.partial(call_star, atlas_row, {"time_limit": limit}), items, "rows", settings, len(items),
                report=_atlas_report)


BATCH_KINDS = (
    BatchKind("wagons-games", "Lone Cowboy: whole solo games, one row per game (seed+i), --scenario, --policy "
              "(default random)",
              plan_games, example=(("scenario", "boomtown"),)),
    BatchKind("wagons-difficulty", "Lone Cowboy: best play vs greedy per deal (seed+i), --scenario, --time-limit per "
              f"deal (default {DIFFICULTY_TIME_LIMIT:g} s)", plan_difficulty, example=(("scenario", "boomtown"),)),
    BatchKind("wagons-atlas", "Lone Cowboy: the difficulty atlas, can-win and best play per deal and goal-number "
              "reading, --scenario ALL (or ids joined by commas), --n seeds per scenario, --time-limit per solve "
              f"(default {ATLAS_TIME_LIMIT:g} s each for can-win and best play)", plan_atlas, atlas_text,
              example=(("scenario", "boomtown"),)),
)
"""Lone Cowboy's batch kinds (its registration, :mod:`solver.wagons.registration`)."""
