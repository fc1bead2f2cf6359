"""Solver calls honour their time limits on adversarial inputs.

Adversarial here: the largest inputs the commands accept (16 cards for the layout optimizer, a fresh
set-up far from any victory for the Outlaws search). Each call gets a short limit; the check is only
that it comes back with an answer (best-so-far / unknown) instead of running on: the hang guard is
the limit plus a wide margin for a loaded CI machine, no time is asserted (timings live in bench/).
"""

from __future__ import annotations

import json

import pytest

from solver import cli
from solver.paths import SCENARIOS
from tests.support.fuzz import no_hang
from tests.support.limits import HANG_GUARD

MARGIN = 60.0
"""Seconds allowed beyond the limit (start-up, Z3 context creation, a loaded 2-core machine)."""


@pytest.mark.slow
def test_best_layout_honours_a_short_limit_on_sixteen_cards():
    optimize = pytest.importorskip("solver.wagons.optimizer.layout")
    cards = [17, 0, 16, 1, 15, 2, 14, 3, 13, 4, 12, 5, 11, 6, 10, 7]
    with no_hang(int(1 + MARGIN)):
        result = optimize.best_layout(cards, "cattle-drive", time_limit=1.0)
    assert result.placements or not result.proven_optimal  # a best-so-far town, or honestly unproven


@pytest.mark.slow
def test_win_possible_honours_a_short_limit_from_the_set_up():
    search = pytest.importorskip("solver.outlaws.search.searches")
    from solver.outlaws.position import initial_position

    for seed in (1, 2):
        pos = initial_position(seed)
        with no_hang(int(1 + MARGIN)):
            result = search.win_possible(pos, time_limit=0.5, max_depth=200, max_nodes=10**9)
        assert result.A in (True, False, None) and result.B in (True, False, None)


def _cli(argv, capsys):
    with no_hang(int(5 + MARGIN)):
        code = cli.main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err.strip()


@pytest.mark.slow
def test_cli_best_layout_and_status_with_short_limits(capsys):
    pytest.importorskip("solver.wagons.cli.optimizer")
    code, out, err = _cli(["wagons", "best-layout", "--cards", "17,0,16,1,15,2,14,3,13,4,12,5", "--scenario",
                           "water-the-herd", "--time-limit", "1", "--quiet", "--json"], capsys)
    assert code == 0, err
    assert "proven_optimal" in json.loads(out)
    pytest.importorskip("solver.outlaws.search.searches")
    code, out, err = _cli(["outlaws", "status", str(SCENARIOS / "outlaws" / "contracts-example.json"),
                           "--time-limit", "0.5", "--max-depth", "200", "--json"], capsys)
    assert code == 0, err
    assert set(json.loads(out)["win_possible"]) == {"A", "B"}


@pytest.mark.parametrize("limit", ["nan", "-1", "0", "inf", "1e400", "soon", "9" * 5000])
def test_hostile_time_limits_are_refused_in_one_line(limit, capsys):
    pytest.importorskip("solver.wagons.cli.optimizer")
    code, out, err = _cli(["wagons", "best-layout", "--cards", "3,7", "--scenario", "boomtown",
                           "--time-limit", limit, "--json"], capsys)
    assert code == 2 and out == "" and "\n" not in err and err.startswith("ruleslinger: error:"), err


@pytest.mark.parametrize("limit", ["nan", "-1", "0", "inf"])
def test_hostile_search_limits_are_refused_or_bounded(limit, capsys):
    pytest.importorskip("solver.outlaws.search.searches")
    code, out, err = _cli(["outlaws", "status", str(SCENARIOS / "outlaws" / "contracts-example.json"),
                           "--time-limit", limit, "--json"], capsys)
    # an infinite limit is acceptable only because the node budget still ends the search
    assert code in (0, 2), err
    if code == 2:
        assert out == "" and "\n" not in err and err.startswith("ruleslinger: error:"), err


# --- issue 33: compiled code on hostile cache folders, and its first compilation inside the time limit ---------

CACHE_CASES = {
    "NUMBA_CACHE_DIR is a regular file": ("{tmp}/blocker", None),
    "NUMBA_CACHE_DIR under a regular file": ("{tmp}/blocker/numba", None),
    "NUMBA_CACHE_DIR under /proc": ("/proc/numba-cache", None),
    "NUMBA_CACHE_DIR empty": ("", None),
    "the private folder is a regular file": (None, "file"),
    "the private folder is world writable": (None, "open"),
    "the private folder is a link": (None, "link"),
}
"""(NUMBA_CACHE_DIR, what stands at the private cache folder's place) on an install where nothing else is
writable (tests/support/installs.py's copy of the sources)."""


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(CACHE_CASES))
def test_compiled_code_on_hostile_cache_folders_answers_within_its_limit(case, tmp_path):
    """Exit 0 with the answer, at most one warning line, no traceback, and the limit honoured although the
    kernels compile from nothing (the answer's ``elapsed``; the compilation alone takes over 10 s)."""
    import os
    import subprocess
    import sys

    from tests.support.installs import read_only_install

    numba_dir, private = CACHE_CASES[case]
    env = read_only_install(tmp_path, numba_dir)
    place = tmp_path / "tmp" / f"ruleslinger-numba-{os.getuid()}"
    if private == "file":
        place.write_text("x")
    elif private == "open":
        place.mkdir()
        os.chmod(place, 0o777)
    elif private == "link":
        place.symlink_to(tmp_path)
    done = subprocess.run([sys.executable, "-m", "solver", "wagons", "best-layout", "--cards", "3,7,11,14,2,5",
                           "--scenario", "gold-rush", "--method", "bnb", "--time-limit", "1", "--json", "--quiet"],
                          capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300)
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 0 and len(lines) <= 1 and "Traceback" not in done.stderr, done.stderr[-3000:]
    assert all(line.startswith("ruleslinger: warning: no writable cache folder") for line in lines), lines
    result = json.loads(done.stdout)
    assert result["placements"] and result["elapsed"] >= 0  # the subprocess timeout is the hang guard


def _helpers_of(pid: int) -> list[int]:
    """Processes still running that a command ``pid`` started as its proof-worker zygote (named in its code)."""
    import os

    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            cmdline = open(f"/proc/{entry}/cmdline", "rb").read().decode(errors="replace")
        except OSError:
            continue
        if "proofworkers import zygote" in cmdline and f", {pid})" in cmdline:
            found.append(int(entry))
    return found


@pytest.mark.slow
@pytest.mark.parametrize("command", [["best-play", "--scenario", "boomtown", "--seed", "0"],
                                     ["can-win", "--scenario", "gold-rush", "--seed", "3"]])
def test_no_helper_outlives_its_command_or_holds_its_output_with_a_cold_cache(command, tmp_path):
    """Found by the issue's campaign: with a cold compiled-code cache the proof-worker zygote kept compiling ~15 s
    after the command ended, holding its standard output, so ``... | cat`` ended only then. The output now ends
    with the command: once it has exited, its pipe reads to the end at once and none of its helpers runs."""
    import os
    import subprocess
    import sys

    from tests.support.paths import ROOT

    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cold")}
    proc = subprocess.Popen([sys.executable, "-m", "solver", "wagons", *command, "--time-limit", "2", "--quiet",
                             "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, env=env)
    with no_hang(int(5 + MARGIN)):
        proc.wait()
    assert _helpers_of(proc.pid) == []  # none runs once the command has exited: none can hold its pipe
    with no_hang(int(HANG_GUARD)):  # a hang guard, not a speed claim
        out = proc.stdout.read()
        proc.stderr.read()
    assert proc.returncode == 0 and json.loads(out)["elapsed"] >= 0
