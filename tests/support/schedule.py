"""The order pytest-xdist hands the test files to the two workers (``--dist loadfile``): the longest expected first.

pytest-xdist's own order is by the number of tests in a file, so the browser files, a few long tests each, came last:
both workers ran Chromium at once at the end, and one worker could wait over a minute for the other to finish its
last walk. Handing out the longest file still waiting each time a worker needs work (longest processing time first)
leaves the short files for the end, where they even out the two workers.

A file's expected seconds are those of the last run recorded in :data:`DURATIONS` (``python3 run.py test
--store-durations`` rewrites it; any run may, as only the order depends on it); a file not recorded yet is estimated
from its number of tests (:data:`SECONDS_A_TEST`). A stale figure costs some balance, never a result.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from tests.support.paths import ROOT

DURATIONS = ROOT / "tests" / "support" / "durations.json"
SECONDS_A_TEST = 0.3
"""A file's estimate per test when the file is not in :data:`DURATIONS` (about the suite's median a test)."""
STORE_OPTION = "--store-durations"


def load_durations(path: Path = DURATIONS) -> dict[str, float]:
    """The recorded seconds of each test file (its path from the repository root); none when the file is missing."""
    if not path.exists():
        return {}
    return {str(k): float(v) for k, v in json.loads(path.read_text()).items()}


def expected_seconds(scope: str, tests: int, durations: dict[str, float]) -> float:
    """How long the file ``scope`` with ``tests`` tests to run is expected to take."""
    return durations.get(scope, tests * SECONDS_A_TEST)


def longest_first(workqueue: dict[str, dict[str, bool]], durations: dict[str, float]) -> str:
    """The file of ``workqueue`` (file -> its tests) expected to take longest; the first listed among equals."""
    return max(workqueue, key=lambda scope: expected_seconds(scope, len(workqueue[scope]), durations))


def make_scheduler(config, log):
    """pytest-xdist's file scheduler, handing out the longest expected file first (:func:`longest_first`)."""
    from xdist.scheduler import LoadFileScheduling

    durations = load_durations()

    class LongestFileFirst(LoadFileScheduling):
        def _assign_work_unit(self, node) -> None:
            self.workqueue.move_to_end(longest_first(self.workqueue, durations), last=False)
            super()._assign_work_unit(node)

    return LongestFileFirst(config, log)


class Scheduling:
    """The controller's plugin (registered only under pytest-xdist): the scheduler for ``--dist loadfile``, and given a
    ``store`` (:data:`DURATIONS` under :data:`STORE_OPTION`) the seconds each file took, written there at the end of a
    run without failures."""

    def __init__(self, store: Path | None) -> None:
        self.store = store
        self.seconds: Counter[str] = Counter()

    def pytest_xdist_make_scheduler(self, config, log):
        return make_scheduler(config, log) if config.getvalue("dist") == "loadfile" else None

    def pytest_runtest_logreport(self, report) -> None:
        if self.store is not None:
            self.seconds[report.nodeid.split("::", 1)[0]] += report.duration

    def pytest_sessionfinish(self, session, exitstatus) -> None:
        if self.store is not None and exitstatus == 0 and self.seconds:
            write_durations(self.seconds, self.store)


def write_durations(seconds: dict[str, float], path: Path = DURATIONS) -> None:
    """Record each file's seconds (rounded to a tenth) over those recorded before (a run of some files keeps the
    others' figures), sorted by file, one file a line."""
    kept = load_durations(path) | {k: round(v, 1) for k, v in seconds.items()}
    path.write_text(json.dumps(dict(sorted(kept.items())), indent=0) + "\n")
