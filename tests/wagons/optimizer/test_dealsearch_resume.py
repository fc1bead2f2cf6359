"""Line proofs paused and resumed in worker processes (solver.wagons.optimizer.proofworkers, the deal search's
``schedule="resume"``; rule:W-opt-canwin, rule:W-opt-bestplay): the same answers as the restart path and the
exhaustive game tree on small deals, the same proven result as an uninterrupted proof, the time limit held,
and no worker left behind on any way out of a search (decided, time up, an exception, Ctrl-C)."""

from __future__ import annotations

import socket
import subprocess
import sys
import time

import psutil
import pytest

from solver.errors import BadInput
from solver.paths import REPO
from solver.wagons.data import load_data
from solver.wagons.optimizer import proofworkers
from solver.wagons.optimizer.bestplay import best_play
from solver.wagons.optimizer.canwin import can_win
from solver.wagons.optimizer.dealsearch import DealSearch, clear_cache
from solver.wagons.optimizer.layout import STRATEGIES, best_layout
from solver.wagons.optimizer.lines import deal_state
from solver.wagons.optimizer.proofworkers import ProofWorker
from solver.wagons.readings import WagonsReadings
from tests.support.builders.wagons import SMALL, best_margin_by_brute_force, small_deal, zygote_pid
from tests.support.limits import HANG_GUARD

pytestmark = pytest.mark.skipif(not proofworkers.available(), reason="pausing workers needs Linux pidfds")

# a Water the Herd line (seed 0) whose proof "no town above 0" takes about 0.2 s (a second before the encoding round)
WATER_LINE = ((16, 10, 3, 4, 0, 13), (11, 5, 14, 1, 2, 8, 12, 9, 6, 17))
# a 9-card Water the Herd line (seed 1) whose proof "no town above 0" does not end within 90 s (its best found: -3)
HARD_LINE = ((2, 11, 0, 5, 9, 17, 1, 14, 4), (16, 8, 6, 3, 12, 13, 10))


@pytest.fixture(autouse=True)
def _zygote_ready():
    """A zygote ready before each test (a new one takes about a second; until then lines restart in the process)."""
    proofworkers.warm(wait=True)


def _workers() -> list[psutil.Process]:
    """The live proof workers of this process: the zygote's children."""
    pid = zygote_pid()
    if pid is None:
        return []
    return [p for p in psutil.Process(pid).children() if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]


@pytest.mark.parametrize("scenario,split,skip", SMALL[:5])
def test_resumed_and_restarted_searches_agree_with_the_game_tree(scenario, split, skip):
    circle, deck = small_deal(scenario, split, skip)
    best = best_margin_by_brute_force(deal_state(scenario, circle=circle, deck=deck))
    for schedule in ("resume", "restart"):
        clear_cache()
        bp = best_play(scenario, circle=circle, deck=deck, time_limit=60, schedule=schedule)
        assert bp.proven_optimal and bp.margin == best and bp.bound == best, schedule
        clear_cache()
        r = can_win(scenario, circle=circle, deck=deck, time_limit=60, schedule=schedule)
        assert r.proven and r.winnable == (best > 0), schedule
    assert _workers() == []


def _job(cards, pile, floor, time_limit):
    return dict(strategy=STRATEGIES["cpsat"], method="cpsat", cards=cards, scenario_id="water-the-herd",
                opponent_pile=pile, readings=WagonsReadings(), time_limit=time_limit, objective="margin", data=load_data(),
                seed_greedy=False, floor=floor, round1=None)


@pytest.mark.parametrize("cards,pile,floor", [(*WATER_LINE, 0), (WATER_LINE[0][:4], WATER_LINE[1], -100)])
def test_a_paused_and_resumed_proof_proves_what_an_uninterrupted_one_does(cards, pile, floor):
    whole = best_layout(cards, "water-the-herd", pile, time_limit=60, objective="margin", seed_greedy=False,
                        floor=floor)
    worker = ProofWorker(_job(cards, pile, floor, 120))
    slices, towns, done = 0, [], None
    try:
        while done is None and slices < 3000:
            msg = worker.run(time.monotonic() + 0.02)
            slices += 1
            if msg is not None and msg.kind == "town":
                towns.append(msg.value)
            elif msg is not None:
                done = msg
            time.sleep(0.01)  # stopped meanwhile: it must not run
    finally:
        worker.kill()
    assert whole.proven_optimal and done is not None and done.proven
    assert done.value == whole.value and (done.xyr is None) == (whole.placements == ())
    assert towns == sorted(towns) and (not towns or towns[-1] == done.value)
    if floor == 0:
        assert slices > 3  # it was stopped and continued many times


def test_a_stopped_worker_does_not_compute():
    worker = ProofWorker(_job(*HARD_LINE, 0, 120))
    try:
        assert worker.run(time.monotonic() + 0.2) is None
        time.sleep(0.05)
        cpu = psutil.Process(worker.pid).cpu_times()
        time.sleep(0.5)
        assert psutil.Process(worker.pid).status() == psutil.STATUS_STOPPED
        assert psutil.Process(worker.pid).cpu_times() == cpu
    finally:
        worker.kill()
    assert worker.pid not in [p.pid for p in _workers()]


def test_the_time_limit_holds_and_no_worker_survives():
    """Through the Desert seed 2: 30 lines need a proof; 4 s are far too few, so workers are left paused."""
    seen: set[int] = set()

    def progress(_report):
        seen.update(p.pid for p in _workers())

    clear_cache()
    r = can_win("through-the-desert", 2, time_limit=4.0, progress=progress, schedule="resume")
    assert r.winnable is None and r.lines_open > 0
    assert r.elapsed < HANG_GUARD  # a hang guard only: bench/wagons/bench_wagons_limits.py measures the overshoot
    assert seen and _workers() == []
    assert not any(psutil.pid_exists(p) and psutil.Process(p).status() != psutil.STATUS_ZOMBIE for p in seen)


@pytest.mark.parametrize("error", [RuntimeError("a progress callback failed"), KeyboardInterrupt()])
def test_no_worker_survives_an_exception_inside_the_search(error):
    def progress(_report):
        if _workers():
            raise error

    clear_cache()
    with pytest.raises(type(error)):
        can_win("through-the-desert", 2, time_limit=20.0, progress=progress, schedule="resume")
    assert _workers() == []


def test_the_schedule_is_checked_and_falls_back_where_workers_cannot_pause(monkeypatch):
    from solver.wagons.optimizer import dealsearch

    state = deal_state("gold-rush", 1)
    with pytest.raises(BadInput, match="schedule"):
        DealSearch(state, load_data(), time.monotonic(), 5.0, schedule="later")
    assert DealSearch(state, load_data(), time.monotonic(), 5.0).schedule == "resume"
    monkeypatch.setattr(dealsearch, "available", lambda: False)
    assert DealSearch(state, load_data(), time.monotonic(), 5.0).schedule == "restart"


def test_the_workers_end_with_a_killed_parent():
    """A search killed from outside (``kill -9``) leaves no worker, stopped or running: the zygote ends when
    the parent's end of its socket closes, and its workers with it."""
    code = ("from solver.wagons.optimizer.canwin import can_win; "
            "can_win('through-the-desert', 2, time_limit=60, schedule='resume')")
    parent = subprocess.Popen([sys.executable, "-c", code], cwd=REPO)
    try:
        family: list[psutil.Process] = []
        deadline = time.monotonic() + 150  # the zygote warms up before it forks: slow on a loaded machine
        while time.monotonic() < deadline and not any(p.ppid() != parent.pid for p in family):
            time.sleep(0.2)
            family = psutil.Process(parent.pid).children(recursive=True)
        assert any(p.ppid() != parent.pid for p in family)  # the zygote and at least one worker
    finally:
        parent.kill()
        parent.wait()
    _, alive = psutil.wait_procs(family, timeout=HANG_GUARD)  # a hang guard: they go with their parent
    assert alive == []


def test_a_search_outlives_its_zygote():
    """The zygote killed mid-search (its workers die with it): the lines it held restart in the process, a new
    zygote serves the next ones, and the answer still comes within the limit."""
    killed: list[int] = []

    def progress(_report):
        if not killed and _workers():
            killed.append(zygote_pid())
            psutil.Process(killed[0]).kill()

    clear_cache()
    r = can_win("through-the-desert", 2, time_limit=6.0, progress=progress, schedule="resume")
    assert killed and r.winnable is None and r.elapsed < HANG_GUARD  # a hang guard, not a speed claim
    assert _workers() == []


def _bare_zygote():
    """A zygote started as :mod:`~solver.wagons.optimizer.proofworkers` starts one, its standard error captured:
    (the parent's socket, the process)."""
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    code = (f"import sys; sys.path.insert(0, {str(REPO)!r}); "
            f"from solver.wagons.optimizer.proofworkers import zygote; zygote({theirs.fileno()})")
    process = subprocess.Popen([sys.executable, "-c", code], pass_fds=[theirs.fileno()], stdin=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True)
    theirs.close()
    return ours, process


def test_a_zygote_whose_parent_ends_while_it_warms_up_ends_quietly():
    """Seen on small Boomtown deals (2026-12-02): the deal was answered before the zygote had warmed up, and the
    zygote's "ready" to the closed socket printed a BrokenPipeError traceback under the answer. It ends quietly."""
    ours, process = _bare_zygote()
    ours.close()  # the parent's end closed before the zygote's warm-up ends
    _, err = process.communicate(timeout=120)
    assert process.returncode == 0 and err == ""


def test_a_zygote_whose_parent_ends_during_a_workers_handshake_ends_quietly():
    """Audit finding (2026-12-02): a parent stopped (Ctrl-C, kill) between asking for a worker and reading the
    answer left the zygote's answer to a closed socket, a BrokenPipeError traceback; it ends quietly."""
    ours, process = _bare_zygote()
    assert ours.recv(1) == b"r"  # ready
    job, job_theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    socket.send_fds(ours, [b"w"], [job_theirs.fileno()])
    for s in (job_theirs, job, ours):  # the parent gone before the answer: every socket closed
        s.close()
    _, err = process.communicate(timeout=120)
    assert process.returncode == 0 and err == ""
