"""The order the two workers get the test files in (:mod:`tests.support.schedule`): the longest expected first, by the
seconds a recorded run took, or by the number of tests for a file not recorded yet."""

from __future__ import annotations

from types import SimpleNamespace

from tests.support import schedule

pytest_plugins = ("pytester",)


class _Worker:
    """A stand-in for pytest-xdist's worker: what it was sent to run."""

    def __init__(self, name: str) -> None:
        self.gateway = SimpleNamespace(id=name)
        self.sent: list[list[int]] = []
        self.shutting_down = False

    def send_runtest_some(self, indices: list[int]) -> None:
        self.sent.append(indices)

    def shutdown(self) -> None:
        self.shutting_down = True


def _files_sent(pytester, collection: list[str], durations: dict[str, float], monkeypatch) -> list[list[str]]:
    monkeypatch.setattr(schedule, "load_durations", lambda: durations)
    config = pytester.parseconfig("--tx", "2*popen", "--dist", "loadfile")
    sched = schedule.make_scheduler(config, None)
    workers = [_Worker("gw0"), _Worker("gw1")]
    for w in workers:
        sched.add_node(w)
        sched.add_node_collection(w, collection)
    sched.schedule()
    return [[collection[i[0]].split("::")[0] for i in w.sent] for w in workers]


def test_the_longest_recorded_file_goes_first_and_a_new_file_counts_its_tests(pytester, monkeypatch):
    collection = ([f"tests/a.py::t{i}" for i in range(40)]  # many quick tests: about 12 s unrecorded, 4 s recorded
                  + ["tests/walk.py::t"]  # one long walk
                  + [f"tests/new.py::t{i}" for i in range(100)]  # not recorded: 30 s estimated
                  + ["tests/tiny.py::t0", "tests/tiny.py::t1"])
    durations = {"tests/a.py": 4.0, "tests/walk.py": 90.0, "tests/tiny.py": 0.5}
    sent = _files_sent(pytester, collection, durations, monkeypatch)
    # each worker's first file, then a second for the one left with 2 tests or fewer: the longest of those waiting
    assert sent == [["tests/walk.py", "tests/a.py"], ["tests/new.py"]]


def test_without_a_record_the_order_is_by_the_number_of_tests(pytester, monkeypatch):
    collection = ["tests/b.py::t0"] + [f"tests/c.py::t{i}" for i in range(5)] + [f"tests/d.py::t{i}" for i in range(3)]
    sent = _files_sent(pytester, collection, {}, monkeypatch)
    assert [files[0] for files in sent] == ["tests/c.py", "tests/d.py"]


def test_a_run_records_each_files_seconds_and_a_failed_run_records_nothing(tmp_path):
    store = tmp_path / "durations.json"
    schedule.write_durations({"tests/a.py": 9.0, "tests/other.py": 3.0}, store)  # an earlier run's
    plugin = schedule.Scheduling(store)
    for nodeid, seconds in [("tests/a.py::t0", 1.25), ("tests/a.py::t0", 0.5), ("tests/b.py::t[x::y]", 2.0)]:
        plugin.pytest_runtest_logreport(SimpleNamespace(nodeid=nodeid, duration=seconds))
    plugin.pytest_sessionfinish(None, 1)
    assert schedule.load_durations(store) == {"tests/a.py": 9.0, "tests/other.py": 3.0}
    plugin.pytest_sessionfinish(None, 0)  # the files that ran are recorded again, the others keep their figures
    assert schedule.load_durations(store) == {"tests/a.py": 1.8, "tests/b.py": 2.0, "tests/other.py": 3.0}


def test_the_recorded_figures_name_test_files_with_seconds():
    """The record the suite runs with: every entry a test file's path and a number of seconds (a stale entry only
    costs some balance, so a renamed file is not an error)."""
    durations = schedule.load_durations()
    assert len(durations) > 100
    assert all(k.startswith("tests/") and k.endswith(".py") and v >= 0 for k, v in durations.items())
