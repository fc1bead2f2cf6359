"""Hostile batch requests (solver/execution/batches.py): every field of :class:`BatchRequest` fuzzed around its valid
values; a request runs (serially, a few items) or is refused with one BadInput line, never a crash."""

from __future__ import annotations

import json
import math

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from solver.errors import BadInput
from solver.execution.batches import KINDS, plan, run_batch
from solver.execution.plans import batch_request
from tests.support.cli_fuzz import one_line_exit_2
from tests.support.depth import DEEP, deep_after, examples
from tests.support.fuzz import HUGE, assert_one_line, no_hang
from tests.support.limits import HANG_GUARD
from tests.support.paths import ROOT
from tests.support.servers import DRIPS, SERVERS, drip, serving

BATCH_EXAMPLES = 100
SCENARIOS = ["boomtown", "gold-rush", "cattle-drive"]
OPTION_PAIRS = [("edition", "later"), ("tie_break", "guns"), ("round1_window", "2"), ("round1_window", "99"),
                ("sheriff_save", "stop"), ("first_player", "random"), ("first_player", "C"),
                ("solo_events", "true"), ("solo_event_cards", "9" * 40), ("duel_win_chance", "1/2"),
                ("duel_win_chance", "3/2"), ("duel_win_chance", "x"), ("nosuch", "1"), ("", "")]


def maybe(values, hostile):
    """Mostly a valid value; about one time in seven a hostile one."""
    return st.integers(0, 6).flatmap(lambda k: st.sampled_from(hostile if k == 3 else values))


APPLIES = {"wagons-games": {"scenario", "policy"}, "wagons-difficulty": {"scenario", "time_limit"},
           "wagons-atlas": {"scenario", "time_limit"},
           "outlaws-playouts": set(), "cactus-montecarlo": {"players"}}
VALID_OPTIONS = {"wagons-games": [("edition", "later"), ("tie_break", "guns"), ("round1_window", "2")],
                 "wagons-difficulty": [("edition", "later")], "wagons-atlas": [("tie_break", "guns")], "outlaws-playouts": [("sheriff_save", "stop")],
                 "cactus-montecarlo": [("solo_events", "true"), ("duel_win_chance", "1/2")]}


@st.composite
def requests(draw):
    """Mostly well-formed requests for their kind, with a hostile kind, value, field or option now and then."""
    kind = draw(maybe(sorted(KINDS), ["", "bogus", "wagons games", "WAGONS-GAMES"]))
    applies = APPLIES.get(kind, set())
    hostile_field = draw(st.integers(0, 4)) == 2  # a field that does not apply to the kind
    fields = {
        "n": draw(maybe([1, 2, 3], [0, -1, 10**7 + 1, 10**30, True, 1.5, "2", None])),
        "seed": draw(maybe([0, 7, 2**63 - 4], [-1, 2**63, 2**64, -(2**63), 1.5, "0", None])),
    }
    candidates = {
        "scenario": maybe(SCENARIOS, ["", "nosuch", "BOOMTOWN", 5, "x" * 500]),
        "policy": maybe(["random", "greedy"], ["scripted", "", "nosuch", 3]),
        "players": maybe([2, 5], [0, 1, 6, -3, 10**20, True]),
        "time_limit": maybe([0.3], [0, -1.0, math.inf, math.nan, 1e9, True, "1"]),
    }
    for name, strategy in candidates.items():
        if name in applies or (hostile_field and draw(st.integers(0, 3)) == 0):
            if draw(st.integers(0, 5)):
                fields[name] = draw(strategy)
    valid_options = VALID_OPTIONS.get(kind, [])
    pool = valid_options + (OPTION_PAIRS if draw(st.integers(0, 3)) == 0 or not valid_options else [])
    fields["options"] = tuple(draw(st.lists(st.sampled_from(pool), max_size=2)))
    return kind, fields


@settings(max_examples=BATCH_EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(request=requests())
def test_batch_requests_run_or_are_refused_in_one_line(request):
    kind, fields = request
    outcome = "refused"
    try:
        with no_hang(60):
            req = batch_request(kind, **fields)
            outcome = "valid, not run (slow kind)"
            if req.kind == "wagons-difficulty" and (req.time_limit or 30) > 0.5:
                return  # a valid request; the 30 s default per deal is not what this test is about
            if req.kind == "wagons-atlas":
                plan(req)  # checks the scenarios and readings; the rows take seconds each (tests/wagons/optimizer/test_atlas.py)
                return
            if req.kind == "outlaws-playouts" and req.n > 1:
                return  # valid; each random playout takes ~0.3 s
            result = run_batch(req, executor="serial")
            outcome = "ran"
    except BadInput as exc:
        assert_one_line(exc)
        return
    finally:
        event(outcome)
    json.dumps(result)  # the CLI prints it: it must be JSON
    assert result["kind"] == kind and result["n"] == fields["n"]


def test_huge_values_in_options_are_cut_in_messages():
    for value in HUGE[:4]:
        try:
            batch_request("wagons-games", value, 0, scenario="boomtown")
        except BadInput as exc:
            assert_one_line(exc)
            assert len(str(exc)) < 200


# --- issue 16: a killed batch leaves no work running and no parts behind ---------------------------

import os  # noqa: E402
import signal  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import pytest  # noqa: E402


def _descendants(pid: int) -> set[int]:
    """Every process below ``pid`` (Linux /proc), found by following parent ids."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] != "Z":  # a zombie is finished work waiting for its parent's wait()
            children.setdefault(int(fields[1]), []).append(int(entry.name))
    out, todo = set(), [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            out.add(child)
            todo.append(child)
    return out


def _alive(pids: set[int]) -> set[int]:
    alive = set()
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            alive.add(pid)
    return alive


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")
def test_kill_9_of_a_batch_ends_its_workers_and_the_next_run_cleans_up(tmp_path):
    command = [sys.executable, "-m", "solver", "batch", "outlaws-playouts", "--n", "4000", "--workers", "2",
               "--no-progress", "--out", str(tmp_path / "rows.parquet")]
    batch = subprocess.Popen(command, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             env=dict(os.environ, PYTHONPATH=str(ROOT)))
    try:
        deadline = time.monotonic() + HANG_GUARD  # a hang guard, not a speed claim
        workers: set[int] = set()
        while time.monotonic() < deadline and not list(tmp_path.glob(".parts-*")) or len(workers) < 3:
            time.sleep(0.2)
            workers = _descendants(batch.pid)
            assert time.monotonic() < deadline, "the batch did not start its workers"
        time.sleep(1.0)  # the workers are busy with their first chunks
        workers = _descendants(batch.pid)
        batch.send_signal(signal.SIGKILL)
        batch.wait(10)
        gone_by = time.monotonic() + HANG_GUARD  # a hang guard: the workers go with their parent
        while _alive(workers) and time.monotonic() < gone_by:
            time.sleep(0.1)
        assert not _alive(workers), f"still running {HANG_GUARD:.0f} s after kill -9: {sorted(_alive(workers))}"
    finally:
        if batch.poll() is None:
            batch.kill()
            batch.wait(10)
    assert list(tmp_path.glob(".parts-*")), "the killed run should have left its parts folder (the case tested)"
    from solver.execution.batches import BatchRequest, run_batch

    run_batch(BatchRequest("outlaws-playouts", 2), executor="serial", out=tmp_path / "rows.parquet")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rows.parquet"]


# --- issue 16: --executor: malformed or unsupported addresses and dead schedulers are one line, at once --

ADDRESS_PIECES = ["tcp://", "tls://", "ucx://", "inproc://", "ws://", "wss://", "spark://", "", "host", "127.0.0.1",
                  "[::1]", "[::1", ":", "8786", "99999", "0", "-1", "/x", "é", " ", "..", "a" * 300]


@settings(max_examples=examples(100, 300), deadline=None, suppress_health_check=list(HealthCheck))
@given(parts=st.lists(st.sampled_from(ADDRESS_PIECES), max_size=5))
def test_executor_addresses_are_checked_without_connecting(parts):
    from unittest import mock

    from solver.execution.executor import parse_executor

    text = "".join(parts)
    with mock.patch("socket.create_connection", side_effect=AssertionError("no connection while parsing")):
        try:
            spec = parse_executor(text)
        except BadInput as exc:
            assert_one_line(exc)
            assert "executor" in str(exc) and len(str(exc)) < 300
            return
    assert spec.kind in ("serial", "local") or spec.address.startswith("tcp://")


DASK_CONNECT = 60
"""The Dask connect timeout (seconds) the refused runs get: a run that tried to reach the address would
wait this long, so "refused at once" is told apart by a margin no machine load closes (the refusal
itself takes a Python start-up, seconds even on a loaded machine)."""


def _one_line_run(argv):
    """The run's one error line. The only bound on its time is the generous one against a hang (twice the connect
    timeout, so never the difference between a loaded and a quiet machine); how fast a refusal comes is measured in
    bench/bench_executor.py, not here."""
    env = {**os.environ, "DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": f"{DASK_CONNECT}s"}
    done = subprocess.run([sys.executable, "-m", "solver", *argv], capture_output=True, text=True,
                          timeout=2 * DASK_CONNECT, cwd=ROOT, env=env)
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1 and lines[0].startswith("ruleslinger: error:"), done.stderr[-2000:]
    return lines[0]


@pytest.mark.parametrize("address", ["ucx://host:1", "inproc://x", "tls://127.0.0.1:1", "ws://a:b", "tcp://host:99999",
                                     "tcp://[::1", "tcp://"])
def test_unsupported_or_malformed_executor_is_one_line_at_once(address):
    run = _one_line_run if address == "ucx://host:1" else one_line_exit_2  # one real process: exit code and stderr
    line = run(["batch", "outlaws-playouts", "--n", "2", "--executor", address])
    assert "executor" in line


def test_a_closed_port_is_one_line_at_once():
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # free again when the block ends: nobody listens there
    _one_line_run(["batch", "outlaws-playouts", "--n", "2", "--executor", f"tcp://127.0.0.1:{port}"])


@pytest.mark.slow
def test_a_server_that_is_not_a_scheduler_is_one_line_and_no_late_traceback():
    """Found by the issue 16 campaign: after the one-line error the half-built Dask client closed at exit
    with a 20 s timeout and printed a TimeoutError traceback."""
    with serving("answers garbage") as address:
        _one_line_run(["batch", "outlaws-playouts", "--n", "2", "--executor", address])  # one line: no late traceback


# --- issue 33: an address that answers, but not as a Dask scheduler: one line naming it, never a hang ---------

@pytest.mark.slow
def test_a_server_that_is_not_a_scheduler_is_one_line_naming_the_address():
    """Found by the issue 33 campaign: ``--executor`` naming a web server, or a listener that never answers,
    printed nothing for 300 s and more. Each kind of wrong server: one line, exit 2. The kinds that keep a command
    waiting run as real processes, side by side (each mostly waits on its connection's limits: 5 to 15 s); those
    refused at once, in this process meanwhile (a real process on one of them: the test above). The server that
    greets only its first connection keeps a command waiting for the Dask client's whole start (30 s): it runs here
    with ``--deep``, and in every run through the executor with a 1 s connection limit
    (tests/execution/test_executor.py)."""
    import contextlib
    from concurrent.futures import ThreadPoolExecutor

    kinds = ["http", *(kind for kind in SERVERS if DEEP or kind != "greets the first connection only")]
    at_once = {"closes at once", "answers garbage", "sends a banner"}
    with contextlib.ExitStack() as stack:
        addresses = {kind: stack.enter_context(serving(kind)) for kind in kinds}

        def run(kind: str, one_line=_one_line_run) -> str:
            argv = ["batch", "wagons-games", "--scenario", "boomtown", "--n", "2", "--executor", addresses[kind]]
            try:
                return one_line(argv)
            except AssertionError as exc:
                raise AssertionError(f"{kind}: {exc}") from None

        waiting = [kind for kind in kinds if kind not in at_once]
        with ThreadPoolExecutor(len(waiting)) as pool:
            running = pool.map(run, waiting)
            lines = {kind: run(kind, one_line_exit_2) for kind in sorted(at_once)}
            lines |= dict(zip(waiting, running))
    for kind, line in lines.items():
        assert addresses[kind] in line and "executor" in line, (kind, line)


# --- slow-drip servers, a scheduler without workers, a local pool that cannot start -----------------------------

from solver.clikit import ProgressLines  # noqa: E402
from solver.execution import cluster, executor  # noqa: E402

DRIP_EXAMPLES = 12
"""Slow-drip servers tried (each costs its connection deadline, 0.25 s here)."""


@settings(max_examples=DRIP_EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(what=st.sampled_from(sorted(DRIPS)), every=st.floats(0.02, 0.2))
def test_a_slow_drip_server_is_refused_within_one_deadline(what, every):
    """Each byte comes within any per-read timeout; the greeting as a whole does not come within the one deadline
    (0.25 s here; a greeting of 60 bytes at 0.02-0.2 s a byte takes 1.2-12 s)."""
    with serving("drip", drip(DRIPS[what](), every)) as address, no_hang(10):
        with pytest.raises(BadInput) as caught:
            cluster._reachable(address, 0.25)
    assert_one_line(caught.value)
    assert address in str(caught.value) and "is not a Dask scheduler" in str(caught.value), str(caught.value)


def test_a_slow_drip_server_is_refused_by_the_command_in_one_line():
    with serving("drip", drip(DRIPS["greeting"](), 1.0)) as address:
        line = _one_line_run(["batch", "wagons-games", "--scenario", "boomtown", "--n", "2", "--executor", address])
    assert "sent no Dask greeting within 5 s" in line


def test_a_scheduler_without_workers_is_named_with_progress_while_waiting(monkeypatch, capsys):
    import distributed

    monkeypatch.setattr(cluster, "WORKERS_WAIT", 3.0)
    monkeypatch.setattr(cluster, "WORKERS_SAY", 1.0)
    with distributed.LocalCluster(n_workers=0, processes=False, protocol="tcp://", dashboard_address=None) as empty, no_hang(60):
        with pytest.raises(BadInput, match="has no workers") as caught:
            list(executor.run_items(abs, [1, 2], executor=empty.scheduler_address, label="empty",
                                    progress=ProgressLines("empty")))
    assert_one_line(caught.value)
    said = [li for li in capsys.readouterr().err.splitlines() if "waiting for a worker" in li]
    assert said and all(li.startswith("[empty] 0 of 2 items, waiting for a worker of the Dask scheduler at ")
                        for li in said)


def _with_open_files(limit: int, argv: list[str]) -> subprocess.CompletedProcess:
    import resource

    def lower() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))

    return subprocess.run([sys.executable, "-m", "solver", *argv], capture_output=True, text=True, cwd=ROOT,
                          preexec_fn=lower, timeout=300)


@pytest.mark.parametrize("limit", deep_after([16, 32, 8, 12, 18, 20, 22, 24], keep=2))
def test_a_local_pool_under_a_low_open_file_limit_names_it_or_answers(limit):
    done = _with_open_files(limit, ["batch", "wagons-games", "--scenario", "boomtown", "--n", "4", "--json"])
    lines = done.stderr.strip().splitlines()
    if done.returncode == 0:
        assert json.loads(done.stdout)["rows"] == 4  # never exit 0 with empty output
    else:
        assert done.returncode == 2 and done.stdout == "" and len(lines) == 1, done.stderr[-2000:]
        assert f"ulimit -n {limit}" in lines[0] and "--executor serial" in lines[0], lines
    assert done.returncode == (2 if limit <= 16 else 0 if limit >= 32 else done.returncode)  # 16: the case


@pytest.mark.parametrize("error", [OSError(24, "Too many open files"), EOFError(), RuntimeError("broken pool"),
                                   FileNotFoundError(2, "No usable temporary directory found")])
def test_a_local_pool_whose_workers_cannot_start_is_one_line(monkeypatch, error):
    """Past the limits checked first (a limit hit while the workers start): the one line, and the advice."""
    from concurrent.futures import ProcessPoolExecutor

    def fail(self, *args, **kwargs):
        raise error

    monkeypatch.setattr(ProcessPoolExecutor, "submit", fail)
    with pytest.raises(BadInput) as caught:
        list(executor.run_items(abs, [1, 2, 3], executor="local"))
    assert_one_line(caught.value)
    assert "could not start" in str(caught.value) and "--executor serial" in str(caught.value)
