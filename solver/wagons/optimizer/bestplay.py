"""Best play for a known deal: the player's drafts and placements that maximise the final margin
over the rules-following opponent (rule:W-opt-bestplay), and the scenario difficulty table.

A deal decomposes into draft lines (:mod:`.lines`), each a best-layout problem with the margin as
objective. The search (:class:`~.dealsearch.DealSearch`, shared with ``can-win``): an admissible bound
per line from the cards held (:mod:`.bounds`) settles every line that cannot beat the best margin so
far; greedy towns, highest bound first, and a short local search give the best margin early; then
proofs "a town beating the best, or none" (:func:`~.layout.best_layout` with ``floor``), the most
promising line first, in passes of growing time. Lines with the same cards and pile share one solve.
The result is proven optimal when every line is settled (bounded or proven) and every line was
enumerated. The earlier method (no bounds, one solve per line), the benchmark's baseline, is
``bench/wagons/baselines.py``.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from solver.errors import BadInput
from solver.execution.progress import OnProgress
from solver.io.numbers import seconds
from solver.wagons.data import WagonsData, load_data
from solver.wagons.game import scores
from solver.wagons.optimizer.dealsearch import DEFAULT_METHOD, DEFAULT_SCHEDULE, DealSearch
from solver.wagons.optimizer.lines import (
    Line,
    Lines,
    deal_state,
    draft_lines,
    entry_action,
    greedy_margin,
)
from solver.wagons.readings import WagonsReadings

__all__ = ["Line", "Lines", "BestPlay", "deal_state", "draft_lines", "best_play", "best_play_row",
           "difficulty_table", "difficulty_summary", "greedy_margin", "LOCAL_SHARE"]

LOCAL_SHARE = 0.1
"""Share of the time limit for the local search on the most promising lines, before the proofs."""


@dataclass(frozen=True)
class BestPlay:
    margin: int | None
    proven_optimal: bool
    drafts: tuple[int, ...]
    actions: tuple[dict, ...]           # the player's line of play: {"draft": k} / {"place": {...}}
    final: dict                         # final_scores(...).to_dict() of the line played out
    lines: int                          # distinct draft lines
    lines_settled: int                  # lines whose best margin is proven (or proven below the best)
    elapsed: float
    greedy_margin: int | None = None    # the greedy policy's margin on the same deal
    log: tuple[dict, ...] = field(default_factory=tuple)
    bound: int | None = None            # proven upper bound on the best margin (== margin when proven)
    solves: int = 0                     # layout solves run

    def to_dict(self) -> dict:
        return {"margin": self.margin, "proven_optimal": self.proven_optimal, "drafts": list(self.drafts),
                "actions": list(self.actions), "final": self.final, "lines": self.lines,
                "lines_settled": self.lines_settled, "elapsed": round(self.elapsed, 3),
                "greedy_margin": self.greedy_margin, "log": list(self.log), "bound": self.bound,
                "solves": self.solves, "rule": "W-opt-bestplay"}


def best_play(scenario_id: str, seed: int | None = None, circle: Sequence[int] | None = None,
              deck: Sequence[int] | None = None, readings: WagonsReadings = WagonsReadings(), time_limit: float = 60.0,
              progress: OnProgress | None = None, data: WagonsData | None = None,
              max_lines: int = 20000, method: str = DEFAULT_METHOD,
              schedule: str = DEFAULT_SCHEDULE) -> BestPlay:
    """Best line of play for a known deal (rule:W-opt-bestplay); proven when every line is settled.
    ``progress``: the best margin so far and the proven upper bound over every line (or None);
    ``method``: the layout strategy of the proofs (:data:`~.layout.METHODS`); ``schedule``: the deal
    search's proofs paused and resumed or restarted (:data:`~.dealsearch.SCHEDULES`)."""
    start = time.monotonic()
    data = data or load_data()
    time_limit = seconds(time_limit)
    state = deal_state(scenario_id, seed, circle, deck, readings, data)
    ds = DealSearch(state, data, start, time_limit, progress, max_lines, method, schedule)
    floor = -(10 ** 6)  # below any margin: the first town found is the best so far
    target = lambda: ds.best_value() if ds.best_value() is not None else floor
    never = lambda: False
    ds.greedy(target, never)
    ds.local(target, never, LOCAL_SHARE * time_limit)
    ds.settle(target, never)
    best = ds.best()
    if best is None:
        raise BadInput("no line of play found within the time limit; allow more time")
    open_lines = ds.open_lines(best.value)
    proven = not open_lines and ds.complete
    final_state = ds.replay(best)
    final = scores(final_state)
    actions = tuple(entry_action(e) for e in final_state.log if e.who == "player")
    ds.report(force=True)
    return BestPlay(best.value, proven, best.line.drafts, actions, final.to_dict(), len(ds.items),
                    len(ds.items) - len(open_lines), ds.elapsed(), greedy_margin(state),
                    tuple(e.to_dict() for e in final_state.log), bound=ds.upper(), solves=ds.solves)


def best_play_row(scenario_id: str, seed: int, time_limit: float = 30.0, readings: dict | None = None,
                  data: WagonsData | None = None, method: str = DEFAULT_METHOD) -> dict:
    """One deal as a flat, picklable row (module-level: safe for process pools and Dask)."""
    r = WagonsReadings.from_json(readings or {})
    res = best_play(scenario_id, seed=seed, readings=r, time_limit=time_limit, data=data, method=method)
    return {"scenario": scenario_id, "seed": seed, "best_margin": res.margin, "proven": res.proven_optimal,
            "greedy_margin": res.greedy_margin, "best_wins": res.margin > 0,
            "greedy_wins": res.greedy_margin is not None and res.greedy_margin > 0,
            "gap": res.margin - res.greedy_margin if res.greedy_margin is not None else None,
            "lines": res.lines, "lines_settled": res.lines_settled, "elapsed": round(res.elapsed, 3)}


def difficulty_table(scenarios: Sequence[str], n_deals: int, seed: int = 0, time_limit: float = 30.0,
                     readings: dict | None = None, executor=None, data: WagonsData | None = None):
    """Best achievable margin vs the greedy policy, per deal: a ``polars.DataFrame`` (one row per deal).

    Deal ``i`` of each scenario uses seed ``seed + i``. ``executor`` (optional) is anything with
    ``map(fn, *iterables)`` (a process pool, :mod:`solver.execution.executor`); default: in this process.
    ``data``: the cards, goals and scenarios to play and score with (None = the shipped files).
    Summarise with :func:`difficulty_summary`.
    """
    import polars as pl

    if isinstance(n_deals, bool) or not isinstance(n_deals, int) or n_deals < 0:
        raise BadInput(f"n_deals: expected a whole number >= 0, got {n_deals!r}")
    for s in scenarios:
        (data or load_data()).scenario(s)
    jobs = [(s, seed + i) for s in scenarios for i in range(n_deals)]
    args = ([j[0] for j in jobs], [j[1] for j in jobs], [time_limit] * len(jobs), [readings] * len(jobs),
            [data] * len(jobs))
    mapper = executor.map if executor is not None else map
    rows = list(mapper(best_play_row, *args))
    schema = {"scenario": pl.Utf8, "seed": pl.Int64, "best_margin": pl.Int64, "proven": pl.Boolean,
              "greedy_margin": pl.Int64, "best_wins": pl.Boolean, "greedy_wins": pl.Boolean, "gap": pl.Int64,
              "lines": pl.Int64, "lines_settled": pl.Int64, "elapsed": pl.Float64}
    return pl.DataFrame(rows, schema=schema)


def difficulty_summary(table):
    """Per scenario: deals, share winnable with best play vs greedy, margin quantiles, share proven."""
    import polars as pl

    return (table.group_by("scenario", maintain_order=True)
            .agg(pl.len().alias("deals"),
                 pl.col("best_wins").mean().alias("win_share_best"),
                 pl.col("greedy_wins").mean().alias("win_share_greedy"),
                 pl.col("best_margin").median().alias("best_margin_median"),
                 pl.col("best_margin").min().alias("best_margin_min"),
                 pl.col("best_margin").max().alias("best_margin_max"),
                 pl.col("gap").mean().alias("gap_mean"),
                 pl.col("proven").mean().alias("proven_share")))
