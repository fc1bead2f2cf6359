"""Time to a proven best layout on real towns: the current prover against its baseline, side by side.

Two instance sets (issue 20):

- **greedy games**: the player's cards (in the order placed) and the opponent's pile of whole greedy
  games (``wagons simulate --policy greedy``: :func:`solver.wagons.simulate.play_game`), seeds
  100-109 of each of the six scenarios by default (60 towns of 5-10 cards);
- **seeded towns**: the 20 seeded 8-card towns of ``bench_wagons_optimize._instance``.

Each instance is solved by each method in turn, in the same process (one CP-SAT worker, so one core
per solve), with the player's score as the objective: ``"baseline"`` is the prover as it was before
the proof work of issue 20 (``CpSatProof(speedups=False)``), ``"current"`` the prover before its second
round (``CpSatProof(tightened=False)``), ``"full-triangles"`` the model as built before the encoding round
(``CpSatProof(triangles=full_triangles)``, ``bench/wagons/baselines.py``: every triangle clause three times),
``"cpsat"`` the default method now,
``"bnb"`` the compiled branch and bound (any name of ``layout.STRATEGIES`` can be given).
Per instance it prints the time to a proof (or "open"), the value and the greedy value; per set the
share proven within the limit, the median time to a proof (unproven count as the limit, so a median
at the limit means "half or more unproven") and the ratio baseline / new of the medians and of the
total times. Where both methods prove, their values must be equal (an ``AssertionError`` otherwise:
a proven best score is a fact). Dated figures: ``docs/history/wagons-optimizer-2026.md``.

Run: ``.venv/bin/python bench/wagons/bench_wagons_proofs.py [--set greedy|seeded|both] [--limit S]
[--seeds 100-109] [--sample K] [--methods baseline,cpsat | current,cpsat | full-triangles,cpsat] [--match TEXT] [--baseline-every K]``;
``--sample K`` takes every ``len/K``-th instance of each set (a spread over the scenarios and sizes),
``--baseline-every K`` runs the baseline on every K-th instance only (its ratios are then over that
sample), ``--quick`` a tiny run.
Rows (``run(quick) -> rows``) go to standard output as JSON lines, the per-instance lines to standard error.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository root: bench.wagons.baselines

from bench.effort import columns, det_ratio, measured, medians, totals  # noqa: E402 - after the path
from bench.wagons.baselines import full_triangles  # noqa: E402
from solver.wagons.data import SCENARIO_IDS  # noqa: E402
from solver.wagons.optimizer.cpsat.proof import CpSatProof  # noqa: E402
from solver.wagons.optimizer.layout import STRATEGIES, layout_with  # noqa: E402

GAME = "wagons"
BASELINE = CpSatProof("search", speedups=False)
"""The prover before issue 20's proof work: the same model and search without the added constraints."""
CURRENT = CpSatProof("search", tightened=False)
"""The prover before issue 20's second round (the territory cap and the group neighbours)."""
FULL_TRIANGLES = CpSatProof("search", triangles=full_triangles)
"""The prover with the triangle clauses as built before the encoding round (the same proofs, a larger model)."""


@dataclass(frozen=True)
class Instance:
    label: str
    cards: tuple[int, ...]
    pile: tuple[int, ...]
    scenario: str


def greedy_instances(seeds: Sequence[int] = range(100, 110), scenarios: Sequence[str] = SCENARIO_IDS) -> list[Instance]:
    """The player's cards and the opponent's pile of greedy games, seeds ``seeds`` of each scenario."""
    from solver.wagons.simulate import play_game

    out = []
    for sc in scenarios:
        for seed in seeds:
            s = play_game(sc, "greedy", seed).state
            out.append(Instance(f"greedy {sc} {seed} ({len(s.town.card_ids)} cards)", tuple(s.town.card_ids),
                                tuple(s.pile), sc))
    return out


def seeded_instances(n: int = 8, count: int = 20) -> list[Instance]:
    """The seeded ``n``-card towns of ``bench_wagons_optimize`` (scenario ``seed % 6``)."""
    sys.path.insert(0, str(__import__("pathlib").Path(__file__).parent))
    from bench_wagons_optimize import _instance

    out = []
    for seed in range(count):
        cards, pile, sc = _instance(seed, n)
        out.append(Instance(f"seeded {n} cards {seed} {sc}", tuple(cards), tuple(pile), sc))
    return out


def sample(instances: list[Instance], k: int | None) -> list[Instance]:
    """Every ``len/k``-th instance (all when ``k`` is None or not smaller)."""
    if k is None or k >= len(instances):
        return instances
    step = len(instances) / k
    return [instances[int(i * step)] for i in range(k)]


def strategy(name: str):
    return {"baseline": BASELINE, "current": CURRENT, "full-triangles": FULL_TRIANGLES}.get(name) or STRATEGIES[name]


def _row(name, value, unit, baseline=None, ratio=None, notes="", **effort):
    return {"game": GAME, "name": name, "value": value, "unit": unit, "baseline": baseline, "ratio": ratio,
            "notes": notes, **effort}


def solve_all(instances: list[Instance], methods: Sequence[str], limit: float,
              log: Callable[[str], None] = print, baseline_every: int = 1) -> dict[str, list]:
    """Per method, per instance: (time to a proof or None, value, greedy value, bound, cost: CP-SAT's deterministic
    seconds, CPU seconds and the wall seconds, ``bench/effort.py``); the first method (the baseline) runs on every
    ``baseline_every``-th instance only (None elsewhere)."""
    out: dict[str, list] = {m: [] for m in methods}
    for idx, inst in enumerate(instances):
        parts, proven = [], {}
        for m in methods:
            if m == methods[0] and len(methods) > 1 and idx % baseline_every:
                out[m].append(None)
                continue
            r, cost = measured(layout_with, strategy(m), m, inst.cards, inst.scenario, inst.pile, time_limit=limit)
            t = r.elapsed if r.proven_optimal else None
            out[m].append((t, r.value, r.greedy_value, r.bound, cost))
            if r.proven_optimal:
                proven[m] = r.value
            parts.append(f"{m} {r.value} " + (f"proven {t:.1f}s" if t is not None else f"open (bound {r.bound})"))
        if len(set(proven.values())) > 1:
            raise AssertionError(f"{inst.label}: proven values disagree: {proven}")
        greedy = next(res[-1][2] for res in out.values() if res[-1] is not None)
        log(f"  {inst.label}: greedy {greedy}; " + "; ".join(parts))
    return out


def _stats(res: list, limit: float, keep: Sequence[int] | None = None) -> tuple[float, float, int, int]:
    """(median time, total time, proven, instances) over the entries run (``keep``: those indices only)."""
    got = [r for i, r in enumerate(res) if r is not None and (keep is None or i in keep)]
    times = [r[0] if r[0] is not None else limit for r in got]
    return statistics.median(times), sum(times), sum(r[0] is not None for r in got), len(got)


def _costs(res: list, keep: Sequence[int] | None = None) -> list[dict]:
    """The measured costs of the entries run (``keep``: those indices only; entries without one are skipped)."""
    return [r[4] for i, r in enumerate(res) if r is not None and len(r) > 4 and (keep is None or i in keep)]


def _ratio(base_cost, mine_cost, base_wall, mine_wall) -> float | None:
    """baseline / this method of the deterministic time; of the wall time for runs measured without it."""
    if base_cost and mine_cost:
        return det_ratio(base_cost, mine_cost)
    return round(base_wall / mine_wall, 2) if base_wall and mine_wall else None


def open_gaps(res: list) -> list[int]:
    """Bound minus best value of the instances left unproven (those with a bound): how far from a proof."""
    return [r[3] - r[1] for r in res if r is not None and r[0] is None and len(r) > 3 and r[3] is not None
            and r[1] is not None]


def summary_rows(set_name: str, runs: dict[str, list], limit: float, base: str, new: str) -> list[dict]:
    """Share proven, median time to a proof (unproven = the limit), and the ratio base / new of CP-SAT's
    deterministic time (the median and the total; the wall and CPU seconds beside it). When the baseline ran on a
    sample of the instances, each method's figures are over all the instances it ran and its ratio against the
    baseline over the baseline's sample (said in the notes)."""
    rows = []
    sample = [i for i, r in enumerate(runs[base]) if r is not None]
    n_all = len(runs[base])
    for m, res in runs.items():
        med, total, proven, n = _stats(res, limit)
        note = f"{set_name}: {n} instances, limit {limit:g}s (unproven count as the limit); proven {proven}/{n}"
        b = _stats(runs[base], limit) if m != base else None
        mine = _stats(res, limit, set(sample)) if b else None
        if b and len(sample) < n_all:
            note += (f"; baseline on {len(sample)} of {n_all} instances (every k-th), where this method proved "
                     f"{mine[2]}/{mine[3]} (median {mine[0]:.2f}s); the ratios are over that sample")
        base_costs = _costs(runs[base]) if m != base else []
        mine_costs = _costs(res, set(sample)) if b else _costs(res)
        median, base_median = medians(_costs(res)), medians(base_costs)
        rows.append(_row(f"proofs_{set_name}_{m}_median_s", round(med, 2), "s",
                         baseline=round(b[0], 2) if b else None,
                         ratio=_ratio(base_median, medians(mine_costs), b and b[0], mine and mine[0]),
                         notes=note + "; ratio: median deterministic time, baseline / this method",
                         **columns(median, base_median)))
        rows.append(_row(f"proofs_{set_name}_{m}_proven_share", round(proven / n, 3), "share",
                         baseline=round(b[2] / b[3], 3) if b else None, notes=note))
        total_costs, base_total = totals(_costs(res)), totals(base_costs)
        rows.append(_row(f"proofs_{set_name}_{m}_total_s", round(total, 1), "s", baseline=round(b[1], 1) if b else None,
                         ratio=_ratio(base_total, totals(mine_costs), b and b[1], mine and mine[1]),
                         notes=note + "; ratio: total deterministic time, baseline / this method",
                         **columns(total_costs, base_total)))
        gaps, base_gaps = open_gaps(res), open_gaps(runs[base]) if m != base else None
        if gaps:
            rows.append(_row(f"proofs_{set_name}_{m}_open_gap_median", statistics.median(gaps), "points",
                             baseline=statistics.median(base_gaps) if base_gaps else None,
                             notes=f"{note}; bound minus best value on the {len(gaps)} unproven "
                                   f"(the baseline's on its own unproven ones)"))
    return rows


def _seeds(text: str) -> list[int]:
    if "-" in text:
        a, b = text.split("-")
        return list(range(int(a), int(b) + 1))
    return [int(s) for s in text.split(",")]


def run(quick: bool = False, sets: str = "both", limit: float | None = None, seeds: Sequence[int] | None = None,
        k: int | None = None, methods: Sequence[str] = ("baseline", "cpsat"), match: str | None = None,
        log=print, baseline_every: int = 1) -> list[dict]:
    limit = limit or (10.0 if quick else 60.0)
    if quick:
        seeds, k = seeds or [100], k or 3
    chosen = []
    if sets in ("greedy", "both"):
        chosen.append(("greedy_games", sample(greedy_instances(seeds or range(100, 110)), k)))
    if sets in ("seeded", "both"):
        chosen.append(("seeded_8_cards", sample(seeded_instances(), k)))
    if match:
        chosen = [(name, [i for i in insts if match in i.label]) for name, insts in chosen]
    rows = []
    for name, insts in chosen:
        if not insts:
            continue
        log(f"{name}: {len(insts)} instances, methods {', '.join(methods)}, limit {limit:g}s")
        runs = solve_all(insts, methods, limit, log, baseline_every)
        rows += summary_rows(name, runs, limit, methods[0], methods[-1])
    return rows


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--set", choices=("greedy", "seeded", "both"), default="both")
    ap.add_argument("--limit", type=float, default=None, help="seconds per solve (default 60)")
    ap.add_argument("--seeds", type=_seeds, default=None, help="greedy game seeds, e.g. 100-109 or 100,105")
    ap.add_argument("--sample", type=int, default=None, help="instances per set, spread evenly")
    ap.add_argument("--methods", default="baseline,cpsat", help="comma-separated; the first is the baseline")
    ap.add_argument("--match", default=None, help="only the instances whose label contains this text")
    ap.add_argument("--baseline-every", type=int, default=1, metavar="K",
                    help="run the baseline on every K-th instance only (the ratios are over that sample)")
    a = ap.parse_args()
    for row in run(a.quick, a.set, a.limit, a.seeds, a.sample, a.methods.split(","), a.match,
                   log=lambda m: print(m, file=sys.stderr, flush=True), baseline_every=max(1, a.baseline_every)):
        print(json.dumps(row))
