"""Benchmark of ``ruleslinger readings impact GAME`` (conventions: ``run(quick) -> rows``): each game's whole run
(every verdict under each alternative reading, computed afresh: nothing kept from earlier runs), then each
verdict's share of it (the seconds of its runs, as its answer gives them). The target is 5 minutes per game on the
project's 2-core machine; the rows name the verdicts that take the time.

``--quick``: each game's first verdict only, with short limits (a smoke run of the same code).

Run: ``.venv/bin/python bench/bench_readings_impact.py [--quick] [GAME ...]`` (or ``bench/run_all.py --only readings``).
"""

from __future__ import annotations

import os
import sys
import threading
import time

from solver.readings import impact
from solver.readings.options import GAMES
from solver.readings.verdicts import Settings

TARGET_SECONDS = 300.0
"""What one game's run should take at most on the project's 2-core machine."""


class _TreeCPU:
    """CPU seconds of this process and every process under it (the pool's workers come from a forkserver, so the
    kernel's children totals miss them): sampled twice a second, the last reading of each process kept."""

    def __init__(self):
        import psutil

        self._me, self._seen, self._stop = psutil.Process(), {}, threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)

    def _sample(self) -> None:
        for proc in [self._me, *self._me.children(recursive=True)]:
            try:
                t = proc.cpu_times()
                self._seen[(proc.pid, proc.create_time())] = t.user + t.system
            except Exception:  # noqa: BLE001 - a process that just ended keeps its last reading
                pass

    def _watch(self) -> None:
        while not self._stop.wait(0.5):
            self._sample()

    def __enter__(self) -> _TreeCPU:
        self._sample()
        self.base = dict(self._seen)
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()
        self._sample()
        self.seconds = sum(v - self.base.get(k, 0.0) for k, v in self._seen.items())


def _row(game: str, name: str, value: float, notes: str = "") -> dict:
    return {"game": game, "name": name, "value": round(value, 2), "unit": "s", "baseline": TARGET_SECONDS
            if name == "readings impact" else None, "ratio": round(value / TARGET_SECONDS, 3)
            if name == "readings impact" else None, "notes": notes}


def run(quick: bool = False, only_games: tuple[str, ...] = ()) -> list[dict]:
    rows: list[dict] = []
    settings = Settings(time_limit=2.0, games=5) if quick else Settings()
    for game in [g for g in GAMES if not only_games or g in only_games]:
        only = [impact.chosen_verdicts(game, None)[0].id] if quick else None
        impact.clear_cache()
        started = time.perf_counter()
        with _TreeCPU() as tree:
            result = impact.impact(game, only, settings, executor="local", workers=os.cpu_count() or 2, stored=False)
        took, cpu = time.perf_counter() - started, tree.seconds
        runs = result["runs"]["total"]
        rows.append(_row(game, "readings impact", took, f"{len(result['verdicts'])} verdicts, {runs} runs, "
                         f"{cpu:.0f} CPU s{'; over the 5-minute target' if took > TARGET_SECONDS else ''}"))
        rows.append({**_row(game, "readings impact CPU", cpu, "CPU seconds, worker processes included"),
                     "unit": "cpu-s"})
        for v in sorted(result["verdicts"], key=lambda v: -v["elapsed"]):
            rows.append(_row(game, f"verdict {v['id']}", v["elapsed"], f"{len(v['checked']) + 1} runs"))
    return rows


if __name__ == "__main__":
    for row in run("--quick" in sys.argv, tuple(a for a in sys.argv[1:] if not a.startswith("--"))):
        print(f"{row['game']:8} {row['name']:60} {row['value']:>9} s  {row['notes']}")
