"""Session-wide record of the readings the tests exercise (issue: every reading is a named option).

Every rules object a test builds (``Readings``/``CactusReadings``: their ``__post_init__`` is wrapped at
start-up) adds its (game, reading, value) triples to a record, except those the impact sweep builds
(``solver.readings.SWEEP``: a sweep runs verdicts under every alternative but tests none of them).
Under pytest-xdist each worker sends its record to the controller in ``workeroutput``. When the whole
suite ran (no -k, -m, --lf, --deselect, -x, no file or test selection), the session fails if some
listed alternative of some reading was built by no test, naming each one
(``solver.readings.unexercised``). Why a runtime record rather than scanning the test sources for
option names: a value spelled in a test file proves nothing (it may sit in a comment, an unused
table, a test that is skipped); a rules object actually built with it while a test ran means some
test drove the engine under that reading.

Also here: the dashboard's store of each browser's work (``dashboard.shared.work.store``) is a temporary file for the
whole session, in the environment so the browser tests' ``streamlit run`` servers inherit it
(:func:`_private_store`): no test reads or writes the user's data folder. Every test leaves ``sys.modules["__main__"]`` as it found it (:func:`_keep_main_module`), and the
optimizer's compiled kernels are ready before a test once it is loaded (:func:`_compiled_kernels`). Under pytest-xdist
the workers get the longest test files first (:mod:`tests.support.schedule`).
"""

from __future__ import annotations

import dataclasses
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

from solver.readings import options as readings
from tests.support import readings as support_readings
from tests.support import schedule

SEEN: set[tuple[str, str, str]] = set()
KEY = "readings_seen"


@pytest.fixture(autouse=True)
def _keep_main_module():
    """Put back the test process's ``__main__`` after each test. Streamlit's AppTest runs its script as a
    new ``__main__`` module and leaves it there; a process pool started later (forkserver or spawn) then
    re-runs that temporary script in every worker, which dies at once (BrokenProcessPool in the executor
    tests that happen to run after an AppTest in the same worker)."""
    main = sys.modules.get("__main__")
    yield
    if main is not None and sys.modules.get("__main__") is not main:
        sys.modules["__main__"] = main


@pytest.fixture(autouse=True)
def _compiled_kernels():
    """Once the optimizer is loaded, its compiled kernels are ready (compiled, or loaded from the cache) before
    each test, as after an install (run.py): a search's time limit counts their compilation
    (solver/wagons/optimizer/walk/compiled.py), and a test of a proof within a few seconds is not about the compiler.
    tests/wagons/optimizer/test_compiled.py tests the first run itself."""
    if "solver.wagons.optimizer.bnb.search" in sys.modules:
        sys.modules["solver.wagons.optimizer.bnb.search"].compile_kernels()
    yield


def _install() -> None:
    for game in readings.GAMES:
        cls = readings.readings_class(game)
        original = cls.__post_init__
        if getattr(original, "records_readings", False):
            continue

        def post_init(self, _original=original, _game=game):
            _original(self)
            if not readings.SWEEP.get():
                for f in dataclasses.fields(self):
                    SEEN.add((_game, f.name, readings.value_key(getattr(self, f.name))))

        post_init.records_readings = True
        cls.__post_init__ = post_init


class _Controller:
    """Collects the workers' records (installed only when pytest-xdist is active)."""

    @pytest.hookimpl
    def pytest_testnodedown(self, node, error):
        SEEN.update(tuple(x) for x in getattr(node, "workeroutput", {}).get(KEY, []))


def _private_cache() -> None:
    """The verdicts kept between runs (solver/readings/stored.py) go to a folder of this test run's own, so no test
    reads a result an earlier run (or the user) kept, nor writes to the user's cache folder. Set before the workers
    start, so pytest-xdist's workers and their subprocesses inherit it."""
    if "RULESLINGER_CACHE" not in os.environ:
        os.environ["RULESLINGER_CACHE"] = tempfile.mkdtemp(prefix="ruleslinger-test-cache-")


STORE_ENV = "RULESLINGER_STORE"
"""The store's variable (dashboard.shared.work.store.ENV; not imported here: conftest loads before Streamlit is needed)."""


def _private_store(config) -> None:
    """Point the dashboard's store at a file in a fresh temporary folder for this process (each xdist worker its
    own), removed when the session ends; tests that need their own file still set the variable themselves."""
    folder = tempfile.mkdtemp(prefix="ruleslinger-store-")
    os.environ[STORE_ENV] = str(Path(folder) / "store.sqlite3")
    config.add_cleanup(lambda: shutil.rmtree(folder, ignore_errors=True))


DEEP_ENV = "RULESLINGER_DEEP"


def pytest_addoption(parser):
    parser.addoption("--deep", action="store_true", default=os.environ.get(DEEP_ENV) == "1",
                     help="also run the deep cases (marked deep: more random instances of the slow oracle cross-checks "
                          f"than the default run's; or {DEEP_ENV}=1)")
    parser.addoption(schedule.STORE_OPTION, action="store_true", default=False,
                     help="under pytest-xdist, record each test file's seconds for the order the workers get the files "
                          "in (tests/support/schedule.py), when the run passes")


def pytest_collection_modifyitems(config, items):
    """Without ``--deep``, the cases marked ``deep`` are left out (deselected, and counted as such): each deep
    test's first instances still run, so every check runs in the default suite and the deep run adds instances."""
    if config.getoption("--deep"):
        return
    deep = [item for item in items if item.get_closest_marker("deep")]
    if deep:
        config.hook.pytest_deselected(items=deep)
        items[:] = [item for item in items if not item.get_closest_marker("deep")]


def pytest_configure(config):
    if config.getoption("--deep"):
        os.environ[DEEP_ENV] = "1"  # the workers inherit it: tests.support.depth.DEEP
    _private_cache()
    _private_store(config)
    _install()
    if config.pluginmanager.hasplugin("xdist") and not hasattr(config, "workerinput"):
        config.pluginmanager.register(_Controller(), "readings-controller")
        store = schedule.DURATIONS if config.getoption(schedule.STORE_OPTION) else None
        config.pluginmanager.register(schedule.Scheduling(store), "longest-file-first")


def _whole_suite(config) -> bool:
    opt = config.option
    if opt.keyword or opt.markexpr or getattr(opt, "lf", False) or getattr(opt, "deselect", None) \
            or getattr(opt, "exitfirst", False) or getattr(opt, "maxfail", 0):
        return False
    tests = Path(__file__).resolve().parent
    roots = {tests, tests.parent}
    return all(Path(config.rootpath, a).resolve() in roots for a in (config.args or ["tests"]))


def pytest_sessionfinish(session, exitstatus):
    config = session.config
    if hasattr(config, "workerinput"):
        config.workeroutput[KEY] = sorted(list(x) for x in SEEN)
        return
    if not _whole_suite(config) or session.testscollected == 0 and not SEEN:
        return
    missing = support_readings.unexercised(SEEN)
    config.stash[_MISSING] = missing
    if missing and session.exitstatus == 0:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


_MISSING = pytest.StashKey[list]()


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    missing = config.stash.get(_MISSING, None)
    if missing:
        terminalreporter.section("readings no test exercises", sep="=", red=True)
        terminalreporter.line("Every listed alternative of every reading needs a test that builds the rules with it "
                              f"(tests/conftest.py): {len(missing)} missing")
        for m in missing:
            terminalreporter.line(f"  {m}")
