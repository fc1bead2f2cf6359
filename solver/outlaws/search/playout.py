"""Random playouts: from the set-up to a victory, both sides choosing uniformly among the legal actions.

Hidden draws follow their chances; reactions (rule:O6, rule:O7) are chosen uniformly by the reacting
side. A playout stops at a victory or after ``max_actions`` actions (then ``finished`` is false), which
also catches games stuck after sudden death (rule:O11).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterator

from solver.execution.plans import BatchKind, Plan, call_with
from solver.execution.progress import OnProgress, Progress
from solver.outlaws.actions import legal_actions
from solver.outlaws.apply import step
from solver.outlaws.position import initial_position
from solver.outlaws.readings import OutlawsReadings

MAX_ACTIONS = 3000
"""Cap on a playout's length; uniform random play is long (most choices are moves)."""

COLUMNS = ("seed", "length", "turns", "finished", "winner", "victory", "sudden_death", "sudden_death_at",
           "first_player", "votes_A", "votes_B", "bullets_discarded", "handcuffs_discarded", "max_actions")


def playout(seed: int, readings: OutlawsReadings = OutlawsReadings(), max_actions: int = MAX_ACTIONS) -> dict:
    """One random game from ``initial_position(seed, readings)``; a flat row (see :data:`COLUMNS`)."""
    rng = random.Random(f"outlaws-playout-{seed}")
    pos = initial_position(seed, readings)
    first = pos.to_move
    n = 0
    sd_at = None
    while pos.winner is None and n < max_actions:
        action = rng.choice(legal_actions(pos, readings))
        pos = step(pos, action, readings, rng)
        n += 1
        if sd_at is None and pos.sudden_death:
            sd_at = n
    return {
        "seed": seed, "length": n, "turns": (n + 1) // 2, "finished": pos.winner is not None,
        "winner": pos.winner, "victory": pos.victory, "sudden_death": pos.sudden_death,
        "sudden_death_at": sd_at, "first_player": first, "votes_A": pos.supply.A.vote,
        "votes_B": pos.supply.B.vote, "bullets_discarded": pos.discard.bullet,
        "handcuffs_discarded": pos.discard.handcuffs, "max_actions": max_actions,
    }


def iter_playouts(n: int, seed: int = 0, readings: OutlawsReadings = OutlawsReadings(), max_actions: int = MAX_ACTIONS) -> Iterator[dict]:
    for k in range(n):
        yield playout(seed + k, readings, max_actions)


def playouts(n: int, seed: int = 0, readings: OutlawsReadings = OutlawsReadings(), max_actions: int = MAX_ACTIONS,
             chunk: int = 64, progress: OnProgress | None = None):
    """``n`` playouts with seeds ``seed .. seed+n-1`` as a Polars DataFrame, built chunk by chunk (``progress``
    after each)."""
    import polars as pl

    schema = {"seed": pl.Int64, "length": pl.Int64, "turns": pl.Int64, "finished": pl.Boolean,
              "winner": pl.Utf8, "victory": pl.Utf8, "sudden_death": pl.Boolean, "sudden_death_at": pl.Int64,
              "first_player": pl.Utf8, "votes_A": pl.Int64, "votes_B": pl.Int64,
              "bullets_discarded": pl.Int64, "handcuffs_discarded": pl.Int64, "max_actions": pl.Int64}
    frames, rows = [], []
    for k, row in enumerate(iter_playouts(n, seed, readings, max_actions)):
        rows.append(row)
        if len(rows) >= chunk:
            frames.append(pl.DataFrame(rows, schema=schema))
            rows = []
        if progress is not None:
            progress(Progress(k + 1, n, "games"))
    if rows or not frames:
        frames.append(pl.DataFrame(rows, schema=schema))
    return pl.concat(frames)


def summary(df) -> dict:
    """Shares of victory types, sudden death and unfinished games, and the length distribution."""
    import polars as pl

    total = df.height
    if total == 0:
        return {"playouts": 0}
    share = {v: df.filter(pl.col("victory") == v).height / total for v in ("good", "bad", "ugly")}
    finished = df.filter(pl.col("finished"))
    return {
        "playouts": total,
        "share_good": share["good"], "share_bad": share["bad"], "share_ugly": share["ugly"],
        "share_unfinished": 1 - finished.height / total,
        "share_sudden_death": df.filter(pl.col("sudden_death")).height / total,
        "mean_length": float(df["length"].mean()),
        "median_length_finished": float(finished["length"].median()) if finished.height else None,
        "share_won_by_first_player": (finished.filter(pl.col("winner") == pl.col("first_player")).height
                                      / finished.height) if finished.height else None,
    }


def plan_playouts(request):
    """``ruleslinger batch outlaws-playouts``: one row per playout from the set-up, playout i with seed+i."""
    request.only()
    readings = request.readings(OutlawsReadings)
    return Plan(functools.partial(call_with, playout, (), {"readings": readings}), request.seeds(), "rows",
                {"rules": readings.to_json()}, request.n)


BATCH_KINDS = (BatchKind("outlaws-playouts", "Outlaws: random playouts from the set-up, one row per playout (seed+i)",
                      plan_playouts),)
"""Outlaws' batch kinds (listed by :mod:`solver.registry`)."""
