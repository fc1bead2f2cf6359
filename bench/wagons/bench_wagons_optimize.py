"""Benchmarks for the Lone Cowboy optimizer (conventions: ``run(quick) -> rows``).

The default prover is CP-SAT (``method="cpsat"``, :mod:`solver.wagons.optimizer.cpsat`); the Z3 loop
(``"incremental"``) is measured beside it. Dated figures: ``docs/history/wagons-optimizer-2026.md``.

- time to a proven optimum (best-layout, player score) for 6-, 8- and 10-card towns over seeded
  instances (20 each in the full run; a time limit per instance: unproven ones count as the limit,
  and the share proven is reported);
- the speed-up against the exhaustive enumerator on 5-card instances (4-card in the quick run),
  with the two answers checked equal;
- the gap between the greedy layout and the optimal layout per scenario;
- the default proof phase (search without LP) against the core-based one (``"cpsat-core"``).

Run: ``.venv/bin/python bench/wagons/bench_wagons_optimize.py [--quick] [--instances N] [--time-limit S]``.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository root: bench.effort

from bench.effort import columns, det_ratio, measured, medians  # noqa: E402 - after the path
from solver.wagons.data import SCENARIO_IDS  # noqa: E402
from solver.wagons.optimizer.layout import best_layout  # noqa: E402
from solver.wagons.optimizer.oracle import exhaustive_best  # noqa: E402

GAME = "wagons"


def _instance(seed: int, n: int):
    rng = random.Random(f"bench-opt-{seed}")
    deck = rng.sample(range(18), 18)
    return deck[:n], deck[n:n + rng.randint(0, 6)], SCENARIO_IDS[seed % 6]


def _row(name, value, unit, baseline=None, ratio=None, notes="", **effort):
    """A row; ``effort``: the ``det``, ``cpu``, ``wall`` columns of a CP-SAT row (``bench/effort.py``)."""
    return {"game": GAME, "name": name, "value": value, "unit": unit, "baseline": baseline, "ratio": ratio,
            "notes": notes, **effort}


def proof_rows(sizes, instances: int, time_limit: float, log=print, method: str = "cpsat") -> list[dict]:
    rows = []
    prefix = "optimize" if method == "cpsat" else f"optimize_{method}"
    for n in sizes:
        times, proven, costs = [], 0, []
        for seed in range(instances):
            cards, pile, sc = _instance(seed, n)
            r, cost = measured(best_layout, cards, sc, pile, time_limit=time_limit, method=method)
            costs.append(cost)
            times.append(r.elapsed if r.proven_optimal else time_limit)
            proven += r.proven_optimal
            log(f"  {method} {n} cards seed {seed} {sc}: score {r.score} greedy {r.greedy_value} "
                f"{'proven' if r.proven_optimal else 'NOT proven'} {r.elapsed:.1f}s")
        note = (f"method {method}; {instances} seeded instances, time limit {time_limit:g}s each (unproven count as the limit); "
                f"proven {proven}/{instances}")
        spent = columns(medians(costs)) if method == "cpsat" else {}
        rows.append(_row(f"{prefix}_{n}_cards_median_s", round(statistics.median(times), 2), "s", notes=note, **spent))
        rows.append(_row(f"{prefix}_{n}_cards_worst_s", round(max(times), 2), "s", notes=note))
        rows.append(_row(f"{prefix}_{n}_cards_proven_share", round(proven / instances, 3), "share", notes=note))
    return rows


def proof_phase_rows(n: int, instances: int, time_limit: float, log=print) -> list[dict]:
    """The default proof phase (CP-SAT's search without LP, ``method="cpsat"``) against the core-based
    one (``"cpsat-core"``, the baseline) on the same instances in the same process; unproven count as
    the limit. Where both prove, the values must be equal."""
    t_new, t_core, p_new, p_core, c_new, c_core = [], [], 0, 0, [], []
    for seed in range(instances):
        cards, pile, sc = _instance(seed, n)
        a, cost_a = measured(best_layout, cards, sc, pile, time_limit=time_limit)
        b, cost_b = measured(best_layout, cards, sc, pile, time_limit=time_limit, method="cpsat-core")
        c_new.append(cost_a)
        c_core.append(cost_b)
        if a.proven_optimal and b.proven_optimal and a.value != b.value:
            raise AssertionError(f"proof phases disagree on {cards} {sc}: {a.value} vs {b.value}")
        t_new.append(a.elapsed if a.proven_optimal else time_limit)
        t_core.append(b.elapsed if b.proven_optimal else time_limit)
        p_new += a.proven_optimal
        p_core += b.proven_optimal
        log(f"  proof phases {n} cards seed {seed} {sc}: search {a.value} {'proven' if a.proven_optimal else 'open'} "
            f"{a.elapsed:.1f}s, core {b.value} {'proven' if b.proven_optimal else 'open'} {b.elapsed:.1f}s")
    med_new, med_core = statistics.median(t_new), statistics.median(t_core)
    note = (f"{instances} seeded {n}-card instances, {time_limit:g}s each (unproven count as the limit); proven: "
            f"search {p_new}/{instances}, core {p_core}/{instances}; total {sum(t_new):.0f}s vs {sum(t_core):.0f}s; "
            f"ratio: median deterministic time, core / search")
    new, core = medians(c_new), medians(c_core)
    return [_row(f"optimize_proof_search_{n}_cards_median_s", round(med_new, 2), "s", baseline=round(med_core, 2),
                 ratio=det_ratio(core, new), notes=note, **columns(new, core))]


def speedup_rows(n: int, instances: int, time_limit: float, log=print, z3_too: bool = True) -> list[dict]:
    """The default prover (CP-SAT) and the Z3 loop against the exhaustive oracle (compiled, fast=True)
    on the same instances; answers must be equal and proven."""
    c_t, z_t, e_t, c_cost = [], [], [], []
    for seed in range(instances):
        cards, pile, sc = _instance(1000 + seed, n)
        t = time.perf_counter()
        e = exhaustive_best(cards, sc, pile)
        e_t.append(time.perf_counter() - t)
        r, cost = measured(best_layout, cards, sc, pile, time_limit=time_limit)
        c_t.append(cost["wall"])
        c_cost.append(cost)
        if not r.proven_optimal or r.value != e.value:
            raise AssertionError(f"optimizer {r.value} (proven {r.proven_optimal}) != exhaustive {e.value} on {cards} {sc}")
        z_note = ""
        if z3_too:
            t = time.perf_counter()
            z = best_layout(cards, sc, pile, time_limit=time_limit, method="incremental")
            z_t.append(time.perf_counter() - t if z.proven_optimal else time_limit)
            if z.proven_optimal and z.value != e.value:
                raise AssertionError(f"Z3 {z.value} != exhaustive {e.value} on {cards} {sc}")
            z_note = f", Z3 loop {z_t[-1]:.1f}s"
        log(f"  {n} cards {cards} {sc}: optimum {r.value}; CP-SAT {c_t[-1]:.2f}s{z_note}, "
            f"exhaustive {e_t[-1]:.2f}s ({e.towns} towns)")
    cm, em = statistics.median(c_t), statistics.median(e_t)
    rows = [_row(f"optimize_vs_exhaustive_{n}_cards_s", round(cm, 3), "s", round(em, 3), round(em / cm, 2),
                 f"median over {instances} instances; baseline = the compiled exhaustive oracle; "
                 f"ratio = exhaustive time / CP-SAT time (wall: the oracle has no deterministic clock); "
                 f"answers equal and proven", **columns(medians(c_cost)))]
    if z_t:
        zm = statistics.median(z_t)
        rows.append(_row(f"cpsat_vs_z3_{n}_cards_s", round(cm, 3), "s", round(zm, 3), round(zm / cm, 2),
                         f"median over {instances} instances; baseline = the Z3 incremental loop (unproven counts "
                         f"as the limit {time_limit:g}s); ratio > 1: CP-SAT is faster"))
    return rows


def gap_rows(n: int, per_scenario: int, time_limit: float, log=print) -> list[dict]:
    rows = []
    for k, sc in enumerate(SCENARIO_IDS):
        gaps, proven = [], 0
        for seed in range(per_scenario):
            cards, pile, _ = _instance(3000 + 6 * seed + k, n)
            r = best_layout(cards, sc, pile, time_limit=time_limit)
            gaps.append(r.value - r.greedy_value)
            proven += r.proven_optimal
        log(f"  {sc}: gaps {gaps}")
        rows.append(_row(f"greedy_gap_{sc}", round(statistics.mean(gaps), 2), "points",
                         notes=f"mean (optimal - greedy layout score), {n}-card towns, {per_scenario} instances, "
                               f"proven {proven}/{per_scenario} (unproven: best found)"))
    return rows


def local_rows(n: int, instances: int, time_limit: float, log=print) -> list[dict]:
    """The local search (solver.wagons.optimizer.walk.local) from the greedy town: the windows alone (``patience=0``, the
    baseline) against the iterated search with kicks (``PATIENCE``, what the prover uses): points
    gained over the greedy town and time, on the same instances in the same process."""
    from solver.wagons.data import load_data
    from solver.wagons.optimizer.problem import card_quads, greedy_layout, normal_xyr
    from solver.wagons.optimizer.walk.local import PATIENCE, improve

    data = load_data()
    gains = {0: [], PATIENCE: []}
    times = {0: [], PATIENCE: []}
    for seed in range(instances):
        cards, pile, sc = _instance(seed, n)
        town, g = greedy_layout(cards, sc, pile, data=data)
        start = normal_xyr(town, card_quads(cards))
        for patience in (0, PATIENCE):
            t = time.monotonic()
            v, _ = improve(cards, sc, tuple(pile), start, "score", data, t + time_limit, patience=patience)
            times[patience].append(time.monotonic() - t)
            gains[patience].append(v - g)
        log(f"  local search {n} cards seed {seed} {sc}: greedy {g}, windows +{gains[0][-1]} in {times[0][-1]:.1f}s, "
            f"with kicks +{gains[PATIENCE][-1]} in {times[PATIENCE][-1]:.1f}s")
    gw, gk = statistics.mean(gains[0]), statistics.mean(gains[PATIENCE])
    tw, tk = statistics.median(times[0]), statistics.median(times[PATIENCE])
    better = sum(k > w for k, w in zip(gains[PATIENCE], gains[0]))
    return [_row(f"local_search_{n}_cards_gain", round(gk, 2), "points", round(gw, 2), round(gk / gw, 2) if gw else None,
                 notes=f"mean points over the greedy town, {instances} instances; baseline: the windows alone; "
                       f"kicks found more on {better}, max {max(gains[PATIENCE])}"),
            _row(f"local_search_{n}_cards_s", round(tk, 3), "s", round(tw, 3), round(tk / tw, 2) if tw else None,
                 notes=f"median time, with kicks (patience {PATIENCE}) against the windows alone")]


def run(quick: bool = False, instances: int | None = None, time_limit: float | None = None, log=print) -> list[dict]:
    if quick:
        k, tl = instances or 2, time_limit or 10.0
        rows = proof_rows((6, 8), k, tl, log)
        rows += proof_rows((6,), k, tl, log, method="incremental")
        rows += speedup_rows(5, 1, 60.0, log)
        rows += gap_rows(5, 1, tl, log)
        rows += local_rows(6, k, tl, log)
        rows += proof_phase_rows(6, k, tl, log)
    else:
        k, tl = instances or 20, time_limit or 60.0
        rows = proof_rows((6, 8, 10), k, tl, log)
        rows += proof_rows((6, 8), k, tl, log, method="incremental")
        rows += speedup_rows(5, 4, 600.0, log)
        rows += gap_rows(6, 3, tl, log)
        rows += local_rows(8, k, tl, log)
        rows += proof_phase_rows(8, k, tl, log)
    return rows


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--instances", type=int, default=None)
    ap.add_argument("--time-limit", type=float, default=None)
    a = ap.parse_args()
    for row in run(a.quick, a.instances, a.time_limit, log=lambda m: print(m, file=sys.stderr, flush=True)):
        print(json.dumps(row))
