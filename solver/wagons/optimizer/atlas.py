"""The difficulty atlas of the Lone Cowboy scenarios: per deal, can it be won with perfect play
(rule:W-opt-canwin), the best margin (rule:W-opt-bestplay) and what the greedy policy reaches, under
each reading of the low-confidence goal numbers the scenario uses (rule:W11).

One row per (scenario, seed, reading) from :func:`atlas_row` (module level and picklable: the
executor runs it in local processes or on a Dask cluster, ``ruleslinger batch wagons-atlas``);
:func:`atlas_table` sums the rows up per scenario and reading. The readings a scenario is run under
(:func:`scenario_readings`): every named alternative of a goal-card reading whose card the scenario
uses (Boom or Bust's band points per Mine or flat, ``WagonsReadings.boom_or_bust``); a scenario with none is
run under the defaults only. Other low-confidence numbers have no named alternative (the user can
correct them with ``--goals FILE``); each row lists the scenario's low-confidence cards.
"""

from __future__ import annotations

import json
import time

from solver.errors import BadInput
from solver.wagons.data import WagonsData, load_data
from solver.wagons.readings import CHOICES, WagonsReadings
from solver.wagons.readings import GOAL_READINGS as CARD_READINGS
from solver.wagons.scoring import low_confidence

__all__ = ["GOAL_READINGS", "reading_title", "scenario_readings", "atlas_row", "atlas_items", "atlas_table", "ATLAS_SCHEMA"]

GOAL_READINGS = {kind: field for kind, (field, _param, _values, confidence) in CARD_READINGS.items()
                 if confidence == "low"}
"""Goal kind -> the ``Readings`` field naming the alternatives of its low-confidence numbers (rule:W11): the
low-confidence readings of :data:`solver.wagons.readings.GOAL_READINGS`."""

ATLAS_SCHEMA = {"scenario": "str", "seed": "int", "reading": "str", "winnable": "bool", "win_proven": "bool",
                "win_margin": "int", "best_margin": "int", "best_proven": "bool", "best_bound": "int",
                "greedy_margin": "int", "greedy_wins": "bool", "lines": "int", "canwin_seconds": "float",
                "bestplay_seconds": "float", "elapsed": "float", "low_confidence": "str"}
"""The columns of an atlas row (the Parquet file's schema)."""


_TITLES = {"default": "the default readings", "boom_or_bust=per-mine": "Boom or Bust per Mine",
           "boom_or_bust=flat": "Boom or Bust flat per band"}


def reading_title(label: str) -> str:
    """A reading label of an atlas row in words ("boom_or_bust=flat" -> "Boom or Bust flat per band")."""
    return _TITLES.get(label, label.replace("_", " ").replace("=", ": "))


def scenario_readings(scenario_id: str, data: WagonsData | None = None, base: WagonsReadings = WagonsReadings()) -> list[tuple[str, dict]]:
    """(label, rules dict) for every reading the scenario's goal cards are run under (module docstring)."""
    data = data or load_data()
    spec = data.scenario(scenario_id)
    fields = sorted({GOAL_READINGS[data.goal(g).kind] for g in spec.goals if data.goal(g).kind in GOAL_READINGS})
    out = [("default", base.to_json())] if not fields else []
    for name in fields:
        for value in CHOICES[name]:
            out.append((f"{name}={value}", base.to_json() | {name: value}))
    return out


def atlas_items(scenarios, n: int, seed: int = 0, base: WagonsReadings = WagonsReadings(), data: WagonsData | None = None) -> list[tuple]:
    """The executor's items: (scenario, seed, reading label, rules JSON) for ``n`` seeds per scenario."""
    return [(s, seed + i, label, json.dumps(readings, sort_keys=True))
            for s in scenarios for label, readings in scenario_readings(s, data, base) for i in range(n)]


def atlas_row(scenario_id: str, seed: int, reading: str, readings_json: str, time_limit: float = 30.0) -> dict:
    """One deal under one reading: can-win, then best play (which reuses every proof can-win made), each
    within ``time_limit`` seconds."""
    from solver.wagons.optimizer.bestplay import best_play
    from solver.wagons.optimizer.canwin import can_win
    from solver.wagons.optimizer.lines import deal_state, greedy_scores

    try:
        readings = WagonsReadings.from_json(json.loads(readings_json))
    except (TypeError, ValueError) as exc:
        raise BadInput(f"atlas: rules {readings_json!r:.60} are not a rules object ({exc})") from None
    start = time.monotonic()
    cw = can_win(scenario_id, seed=seed, readings=readings, time_limit=time_limit)
    mid = time.monotonic()
    bp = best_play(scenario_id, seed=seed, readings=readings, time_limit=time_limit)
    end = time.monotonic()
    winnable, proven = _winnable(cw, bp, readings)
    return {"scenario": scenario_id, "seed": seed, "reading": reading, "winnable": winnable,
            "win_proven": proven, "win_margin": cw.margin, "best_margin": bp.margin, "best_proven": bp.proven_optimal,
            "best_bound": bp.bound, "greedy_margin": bp.greedy_margin,
            "greedy_wins": greedy_scores(deal_state(scenario_id, seed, readings=readings)).winner == "player",
            "lines": bp.lines, "canwin_seconds": round(mid - start, 3), "bestplay_seconds": round(end - mid, 3),
            "elapsed": round(end - start, 3), "low_confidence": ", ".join(low_confidence(scenario_id, readings=readings))}


def _winnable(cw, bp, readings: WagonsReadings) -> tuple[bool | None, bool]:
    """The deal's answer from both searches: a can-win verdict, else best play's replayed line (a win when its
    margin is above 0), else best play's proof (no line above 0 under the plain tie reading, rule:W8)."""
    if cw.winnable is not None:
        if bp.proven_optimal and readings.tie_break == "tie" and (bp.margin > 0) != cw.winnable:
            raise AssertionError(f"can-win says {cw.winnable}, best play proves a best margin of {bp.margin}")
        return cw.winnable, cw.proven
    if bp.margin is not None and bp.margin > 0:
        return True, True
    if bp.proven_optimal and readings.tie_break == "tie":
        return False, True
    return None, False


def atlas_table(frame):
    """Per scenario and reading: deals, decided deals, share winnable with perfect play (of the decided),
    the greedy policy's win share on the same decided deals, and the best margin's distribution."""
    import polars as pl

    decided = pl.col("winnable").is_not_null()
    return (frame.group_by(["scenario", "reading"], maintain_order=True)
            .agg(pl.len().alias("deals"), decided.sum().alias("decided"), (~decided).sum().alias("undecided"),
                 pl.col("winnable").filter(decided).mean().alias("winnable_share"),
                 pl.col("greedy_wins").filter(decided).mean().alias("greedy_win_share"),
                 pl.col("best_proven").sum().alias("best_proven"),
                 pl.col("best_margin").min().alias("best_margin_min"),
                 pl.col("best_margin").quantile(0.25, "nearest").alias("best_margin_q1"),
                 pl.col("best_margin").median().alias("best_margin_median"),
                 pl.col("best_margin").quantile(0.75, "nearest").alias("best_margin_q3"),
                 pl.col("best_margin").max().alias("best_margin_max"),
                 pl.col("greedy_margin").median().alias("greedy_margin_median"),
                 pl.col("elapsed").mean().alias("seconds_mean"))
            .sort(["scenario", "reading"]))
