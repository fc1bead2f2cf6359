"""Scale-out figures (docs/scale.md): speed-up of 2 local processes over 1, and the peak resident memory of
a 100,000-item batch streamed to Parquet (``--quick``: 10,000).

- Throughput of one fixed Lone Cowboy batch (random policy, ``boomtown``): serial in this process
  (the baseline), then ``local`` with 1 and with 2 worker processes; the speed-up row is
  time(1 process) / time(2 processes).
- Memory: ``python -m solver batch KIND --n N --out FILE.parquet`` runs as a child process; its
  whole process tree (the command, the fork server, the workers) is sampled with ``psutil`` every
  50 ms and the peak of the summed resident memory is reported against the 1 GiB limit.
"""

from __future__ import annotations

import math
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil

from solver.errors import BadInput
from solver.execution.batches import KINDS, plan
from solver.execution.executor import run_items
from solver.execution.plans import BatchRequest, batch_request

LIMIT_MIB = 1024.0


def _row(name, value, unit, baseline=None, notes="", game="executor"):
    ratio = value / baseline if (value is not None and baseline) else None
    return {"game": game, "name": name, "value": value, "unit": unit, "baseline": baseline, "ratio": ratio,
            "notes": notes}


def _timed(request: BatchRequest, executor: str, workers: int) -> float:
    p = plan(request)
    start = time.perf_counter()
    count = sum(1 for _ in run_items(p.func, p.items, executor=executor, workers=workers,
                                     label=request.kind))
    assert count == request.n
    return time.perf_counter() - start


def capacity_row(quick: bool) -> dict:
    """Control: the same 1-vs-2 process speed-up on pure CPU work with no data (``math.factorial``).

    On a shared machine the other core may be busy; this row tells how much parallel capacity
    there was, so the batch speed-up above can be read against it.
    """
    items = [60_000] * (24 if quick else 64)
    times = {}
    for workers in (1, 2):
        start = time.perf_counter()
        for _ in run_items(math.factorial, items, executor="local", workers=workers, chunk_size=1):
            pass
        times[workers] = time.perf_counter() - start
    return _row("parallel capacity: pure CPU x2 over x1 (control)", times[1] / times[2], "x", 1.0,
                f"{len(items)} x math.factorial(60000): {times[1]:.2f}s with 1 process, {times[2]:.2f}s with 2; "
                "about 2.0 when a second core is free, about 1.0 when other work holds it")


def speedup_rows(quick: bool) -> list[dict]:
    n = 1500 if quick else 6000
    request = batch_request("wagons-games", n, 0, scenario="boomtown", policy="random")
    what = f"wagons-games {n} random-policy games"
    t_serial = _timed(request, "serial", 1)
    t_one = _timed(request, "local", 1)
    t_two = _timed(request, "local", 2)
    cpus = os.cpu_count()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    note = f"{what}; {cpus} cpus, load average {load:.1f} at the end" if load is not None else what
    return [
        _row("games/s serial (in-process baseline)", n / t_serial, "games/s", n / t_serial, note),
        _row("games/s local x1 process", n / t_one, "games/s", n / t_serial, note),
        _row("games/s local x2 processes", n / t_two, "games/s", n / t_serial, note),
        _row("speed-up local x2 over x1", t_one / t_two, "x", 1.0,
             f"{what}: {t_one:.2f}s with 1 process, {t_two:.2f}s with 2 (ideal 2.0 on an idle 2-core machine)"),
    ]


def _sample_tree(proc: psutil.Popen, peaks: dict, stop: threading.Event) -> None:
    while not stop.is_set():
        try:
            tree = [proc] + proc.children(recursive=True)
        except psutil.Error:
            break
        total = 0
        for p in tree:
            try:
                rss = p.memory_info().rss
            except psutil.Error:
                continue
            total += rss
            if p.pid == proc.pid:
                peaks["parent"] = max(peaks["parent"], rss)
            else:
                peaks["worker"] = max(peaks["worker"], rss)
        peaks["total"] = max(peaks["total"], total)
        peaks["processes"] = max(peaks["processes"], len(tree))
        stop.wait(0.05)


def peak_memory(kind: str, n: int, extra: list[str]) -> dict:
    """Run one streamed batch in a child process tree; peak summed RSS (MiB) and wall time."""
    with tempfile.TemporaryDirectory(prefix="bench-mem-") as tmp:
        out = Path(tmp) / "rows.parquet"
        command = [sys.executable, "-m", "solver", "batch", kind, "--n", str(n), "--out", str(out), "--json",
                   "--no-progress", *extra]
        peaks = {"total": 0, "parent": 0, "worker": 0, "processes": 0}
        stop = threading.Event()
        start = time.perf_counter()
        proc = psutil.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        sampler = threading.Thread(target=_sample_tree, args=(proc, peaks, stop), daemon=True)
        sampler.start()
        stdout, stderr = proc.communicate()
        stop.set()
        sampler.join()
        seconds = time.perf_counter() - start
        if proc.returncode != 0:
            raise RuntimeError(f"{' '.join(command[2:6])} exited {proc.returncode}: {stderr.strip()[-300:]}")
        size = out.stat().st_size
    largest = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024  # KiB on Linux
    return {"mib": peaks["total"] / 2**20, "parent_mib": peaks["parent"] / 2**20,
            "worker_mib": peaks["worker"] / 2**20, "processes": peaks["processes"], "seconds": seconds,
            "parquet_mib": size / 2**20, "largest_ru_maxrss_mib": largest}


MEMORY_BATCHES = (
    ("wagons-games", ["--scenario", "boomtown", "--policy", "random"], "Lone Cowboy games", 10_000, 100_000),
    # a uniform random Outlaws playout is ~1,500 actions (~0.3 s): 100,000 would take hours on 2 cores
    ("outlaws-playouts", [], "Outlaws playouts", 60, 600),
)


def memory_rows(quick: bool) -> list[dict]:
    rows = []
    for kind, extra, what, n_quick, n_full in MEMORY_BATCHES:
        n = n_quick if quick else n_full
        try:
            plan(batch_request(kind, 1, 0, **dict(KINDS[kind].example)))
        except BadInput as exc:
            rows.append(_row(f"peak RSS {kind} {n:,} to Parquet", None, "MiB", LIMIT_MIB, f"skipped: {exc}"))
            continue
        m = peak_memory(kind, n, extra)
        rows.append(_row(
            f"peak RSS {kind} {n:,} to Parquet", round(m["mib"], 1), "MiB", LIMIT_MIB,
            f"{n:,} {what} streamed, local x2: parent+fork server+workers summed ({m['processes']} processes); "
            f"parent peak {m['parent_mib']:.0f} MiB, largest worker {m['worker_mib']:.0f} MiB; "
            f"{m['seconds']:.1f}s, {n / m['seconds']:.0f} items/s; Parquet {m['parquet_mib']:.1f} MiB; "
            f"limit 1 GiB (ratio = share of the limit)"))
    return rows


def run(quick: bool) -> list[dict]:
    return speedup_rows(quick) + [capacity_row(quick)] + memory_rows(quick)


if __name__ == "__main__":
    import json

    print(json.dumps(run("--quick" in sys.argv), indent=2))
