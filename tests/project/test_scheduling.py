"""The test run's sharing of files between its workers (:mod:`tests.support.scheduling`): each file one unit, the
browser tests one unit together, taken first; other ``--dist`` modes are pytest-xdist's own."""

from __future__ import annotations

from collections import OrderedDict

from tests import conftest
from tests.support.scheduling import BROWSER, BrowserFilesFirst


class _Worker:
    """A worker as the scheduler sees it: it is sent the indexes of the tests to run."""

    def __init__(self) -> None:
        self.sent: list[list[int]] = []

    def send_runtest_some(self, indexes: list[int]) -> None:
        self.sent.append(indexes)


class _Config:
    def __init__(self, dist: str) -> None:
        self.dist = dist

    def getvalue(self, name: str) -> object:
        return {"dist": self.dist, "tx": ["2*popen"]}[name]  # two local workers, as ``-n 2`` makes them


COLLECTION = ["tests/a/test_many.py::test_1", "tests/a/test_many.py::test_2", "tests/a/test_many.py::test_3",
              "tests/browser/test_pages.py::test_home", "tests/browser/test_ask.py::test_ask",
              "tests/z/test_one.py::test_1"]


def _scheduler(units: list[str]) -> tuple[BrowserFilesFirst, _Worker]:
    sched = object.__new__(BrowserFilesFirst)  # no controller: only the queue and one worker
    worker = _Worker()
    sched.workqueue = OrderedDict()
    for nodeid in COLLECTION:
        unit = sched._split_scope(nodeid)
        if unit in units:
            sched.workqueue.setdefault(unit, {})[nodeid] = False
    sched.assigned_work = {worker: {}}
    sched.registered_collections = {worker: COLLECTION}
    return sched, worker


def test_each_file_is_a_unit_and_the_browser_tests_are_one():
    sched, _ = _scheduler(["tests/a/test_many.py", BROWSER, "tests/z/test_one.py"])
    assert list(sched.workqueue) == ["tests/a/test_many.py", BROWSER, "tests/z/test_one.py"]
    assert list(sched.workqueue[BROWSER]) == COLLECTION[3:5]


def test_the_browser_unit_is_taken_first_then_the_queue_in_order():
    sched, worker = _scheduler(["tests/a/test_many.py", BROWSER, "tests/z/test_one.py"])
    for _ in range(3):
        sched._assign_work_unit(worker)
    assert worker.sent == [[3, 4], [0, 1, 2], [5]]


def test_only_loadfile_is_shared_this_way():
    assert isinstance(conftest.pytest_xdist_make_scheduler(_Config("loadfile"), None), BrowserFilesFirst)
    assert conftest.pytest_xdist_make_scheduler(_Config("load"), None) is None
