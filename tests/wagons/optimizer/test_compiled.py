"""The optimizer's compiled code on any install, and never past a time limit (issue 33;
solver/wagons/optimizer/walk/compiled.py).

The read-only install is a copy of the sources whose ``__pycache__`` next to the kernels is a regular file
and whose home's ``.cache`` is a regular file: no folder can be made there, for root too (permissions do not
stop root; a path under a regular file stops everyone).
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import threading

import pytest

from tests.support.depth import deep_after
from tests.support.fuzz import no_hang
from tests.support.installs import read_only_install, ruleslinger
from tests.support.paths import ROOT

REPO = ROOT
EIGHT = (3, 7, 11, 14, 2, 5, 0, 13)


@pytest.mark.parametrize("numba_cache_dir", deep_after([None, "/proc/numba-cache", "{tmp}/blocker/numba"], keep=2),
                         ids=["unset", "under /proc", "under a regular file"])
def test_a_read_only_install_with_no_cache_folder_works_with_one_warning_line(tmp_path, numba_cache_dir):
    """Found by the issue 33 campaign: every command ended with numba's "cannot cache function" traceback. (A cache
    folder under a regular file runs as a command with ``--deep``; in every run in-process, in the next test.)"""
    env = read_only_install(tmp_path, numba_cache_dir)
    first = ruleslinger(env, "wagons", "best-layout", "--cards", "3,7,11", "--scenario", "boomtown", "--method", "bnb",
                        "--time-limit", "1", "--json", "--quiet", cwd=tmp_path)
    assert first.returncode == 0, first.stderr[-3000:]
    assert json.loads(first.stdout)["cards"] == [3, 7, 11]
    private = tmp_path / "tmp" / f"ruleslinger-numba-{os.getuid()}"
    assert first.stderr.strip().splitlines() == [
        f"ruleslinger: warning: no writable cache folder for compiled code; caching it in {private}"]
    assert private.is_dir() and private.stat().st_mode & 0o777 == 0o700
    later = ruleslinger(env, "rules", "--game", "wagons", cwd=tmp_path)
    assert later.returncode == 0 and later.stderr == "", later.stderr[-3000:]  # the folder is there: nothing to say


def test_with_no_folder_at_all_it_compiles_without_a_cache(tmp_path, monkeypatch, capsys):
    """The last fallback: the temporary folder is unusable too (a path under a regular file)."""
    from solver.wagons.optimizer.walk import compiled

    kernels = tmp_path / "kernels"
    kernels.mkdir()
    (kernels / "__pycache__").write_text("not a folder")
    (kernels / "plus_one.py").write_text("from solver.wagons.optimizer.walk.compiled import njit\n\n\n"
                                          "@njit(cache=True)\ndef plus_one(x):\n    return x + 1\n")
    (tmp_path / "blocker").write_text("a regular file")
    (tmp_path / "home").mkdir()
    (tmp_path / "home" / ".cache").write_text("not a folder")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setitem(os.environ, compiled.NO_CACHE, "")  # recorded, so the "off" the run sets is undone after
    monkeypatch.delitem(os.environ, compiled.NO_CACHE)  # the test (a later kernel in this worker caches again)
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "blocker" / "numba"))
    from numba.core import config

    monkeypatch.setattr(config, "CACHE_DIR", str(tmp_path / "blocker" / "numba"))
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path / "blocker" / "tmp"))
    monkeypatch.setattr(compiled, "_WARNED", [])
    spec = importlib.util.spec_from_file_location("issue33_plus_one", kernels / "plus_one.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.plus_one(41) == 42
    assert os.environ[compiled.NO_CACHE] == "off"  # handed to child processes: they neither search nor warn
    lines = capsys.readouterr().err.strip().splitlines()
    assert lines == ["ruleslinger: warning: no writable cache folder for compiled code; it is compiled again by every run"]


def test_the_private_cache_folder_is_used_only_when_it_is_safe(tmp_path):
    from solver.wagons.optimizer.walk import compiled

    made = compiled.private_cache_dir(tmp_path / "a")
    assert made is None  # its parent does not exist
    (tmp_path / "a").mkdir()
    made = compiled.private_cache_dir(tmp_path / "a")
    assert made is not None and made.is_dir() and made.stat().st_mode & 0o777 == 0o700
    assert compiled.private_cache_dir(tmp_path / "a") == made  # reused
    os.chmod(made, 0o777)
    assert compiled.private_cache_dir(tmp_path / "a") is None  # others could plant code in it
    for kind in ("file", "link"):
        base = tmp_path / kind
        base.mkdir()
        target = base / made.name
        if kind == "file":
            target.write_text("x")
        else:
            target.symlink_to(tmp_path / "a")
        assert compiled.private_cache_dir(base) is None
    if os.getuid() == 0:  # only root can give a folder away
        other = tmp_path / "other"
        other.mkdir()
        (other / made.name).mkdir(mode=0o700)
        os.chown(other / made.name, 65534, 65534)
        assert compiled.private_cache_dir(other) is None


def test_a_search_does_not_wait_for_the_compiler_past_its_time_limit(monkeypatch):
    """The kernels "still compiling" (a warm-up that waits for an event): every method that runs them ends at
    its time limit with the best town so far, unproven, instead of waiting (issue 33: the first
    ``best-layout --method bnb --time-limit 1`` took 17-25 s)."""
    from solver.wagons.optimizer import oracle
    from solver.wagons.optimizer.bnb import search as bnb
    from solver.wagons.optimizer.layout import best_layout
    from solver.wagons.optimizer.walk import board, compiled, local

    release = threading.Event()
    blocked = compiled.Warming("test: still compiling", release.wait)
    for module in (board, bnb, local, oracle):
        monkeypatch.setattr(module, "WALK", blocked)
    monkeypatch.setattr(bnb, "SEARCH", blocked)
    try:
        with no_hang(120):
            for method in ("bnb", "cpsat", "oracle"):
                cards = EIGHT if method != "oracle" else EIGHT[:4]
                res = best_layout(cards, "boomtown", time_limit=0.5, method=method)
                assert not release.is_set()
                assert res.placements and res.value >= res.greedy_value
                if method != "cpsat":  # CP-SAT proves on without the compiled local search
                    assert not res.proven_optimal, method
            found = oracle.exhaustive_best(EIGHT[:3], "boomtown", time_limit=0.3)
            assert found.timed_out and found.value is None
    finally:
        release.set()


def test_the_warm_up_compiles_every_signature_the_searches_use():
    """A search calls the kernels only once the warm-up is done, so the warm-up must compile what they call:
    after it, no scenario, objective or method compiles anything new (else that compilation would run
    past the time limit, unwatched)."""
    from solver.wagons.optimizer.bnb import kernel as bnb_kernel
    from solver.wagons.optimizer.bnb import search as bnb
    from solver.wagons.optimizer.layout import best_layout
    from solver.wagons.optimizer.walk import board, scorer

    bnb.compile_kernels()
    dispatchers = {name: getattr(module, name) for module, names in (
        (board, ("walk", "_put", "_board_arrays")), (scorer, ("_comparing",)), (bnb_kernel, ("search",)))
        for name in names}
    before = {name: len(d.signatures) for name, d in dispatchers.items()}
    from solver.wagons.data import SCENARIO_IDS

    for scenario in SCENARIO_IDS:
        for objective in ("score", "margin"):
            best_layout((3, 7, 11, 14), scenario, (0, 1), time_limit=20, method="bnb", objective=objective)
            best_layout((3, 7, 11), scenario, (0, 1), time_limit=20, method="oracle", objective=objective)
    best_layout((3,), "boomtown", time_limit=5, method="bnb")
    assert {name: len(d.signatures) for name, d in dispatchers.items()} == before
    assert all(n >= 1 for n in before.values()), before


def test_a_first_run_on_a_cold_cache_answers_while_the_kernels_compile(tmp_path):
    """The command itself, cold (an empty cache folder): it answers (unproven, at least the greedy town) while the
    kernels compile. How soon (it answers at its limit, the compilation alone takes over 10 s) is measured by
    bench/wagons/bench_wagons_compile.py, cold against warm; no time is asserted here."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NUMBA_", "RULESLINGER_"))}
    env["NUMBA_CACHE_DIR"] = str(tmp_path / "cold")
    done = subprocess.run([sys.executable, "-m", "solver", "wagons", "best-layout", "--cards", ",".join(map(str, EIGHT)),
                           "--scenario", "boomtown", "--method", "bnb", "--time-limit", "1", "--json", "--quiet"],
                          capture_output=True, text=True, env=env, cwd=REPO, timeout=300)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-3000:]
    result = json.loads(done.stdout)
    assert not result["proven_optimal"] and result["value"] >= result["greedy_value"]
