"""Line proofs that are paused and resumed instead of restarted (rule:W-opt-canwin, rule:W-opt-bestplay).

A CP-SAT solve cannot be resumed in the process: a line proof cut at the end of its slice would start
again from nothing (model rebuilt, search lost). Here each line's proof (:func:`~.layout.layout_with`, the
strategy and floor the deal search gives) runs in its own worker process for the deal's whole remaining
time, and the deal search time-slices the workers: it continues one (``SIGCONT``) for a slice, then stops
it (``SIGSTOP``); only one runs at any moment (one core per solve). A worker sends through its socket every
better town it finds (``("town", xyr, value)``) and at the end its result (``("done", xyr, value, proven,
bound)``); the deal search rebuilds every town from its ``(x, y, rot)`` list and values it with the engine.

Start (measured, ``docs/history/wagons-canwin.md``): workers are forked by a zygote, a process started once
per process with ``subprocess`` (exec: safe from a parent with threads, Streamlit's sessions, ortools' and
numpy's own) that imports the optimizer and then forks one worker per request (7-15 ms, against 0.7 s
for a ``spawn`` worker that imports ortools itself; a whole small proof costs 25 ms more in a worker than
in the process). ``multiprocessing``'s ``forkserver`` forks as fast but
imports or re-runs the parent's ``__main__`` in its workers (a Streamlit page's script, a bench script);
the zygote never does. Each worker gets its socket end from the zygote (``SCM_RIGHTS``) and the parent gets
a pidfd for it, so a signal never reaches a reused pid.

Clocks: CP-SAT's limits are wall-clock and keep running while a worker is stopped, so a worker gets the
deal's deadline as its limit and the deal search kills it when its line is settled, the deal decided or the
time up. Ending: :meth:`ProofWorker.kill` (``SIGKILL``, which also ends a stopped process, then waited
for; the zygote reaps). A worker also dies with the zygote (``PR_SET_PDEATHSIG``) and with the parent (a
watchdog, :func:`solver.execution.executor.die_with`), the zygote when the parent's end of its socket closes, and
both ignore Ctrl-C (the parent ends them).
"""

from __future__ import annotations

import atexit
import os
import select
import signal
import socket
import subprocess
import sys
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path

__all__ = ["ProofWorker", "Message", "WorkerLost", "NotReady", "available", "warm"]

POLL_SECONDS = 0.2
"""How often a slice reads its ``interrupted()`` (the page's Stop) while the worker computes."""

_LOCK = threading.Lock()
_ZYGOTE: dict = {}
"""The running zygote of this process: ``{"process": Popen, "ctrl": socket, "owner": pid}``."""


class WorkerLost(RuntimeError):
    """A worker ended without a result (killed from outside, out of memory): its line falls back to a restart."""


class NotReady(WorkerLost):
    """The zygote is still importing the optimizer (a new one, about a second): no worker yet."""


@dataclass(frozen=True)
class Message:
    """What a worker sent: a better town (``kind="town"``) or its result (``kind="done"``)."""

    kind: str
    xyr: tuple | None
    value: int | None
    proven: bool = False
    bound: int | None = None


def available() -> bool:
    """Whether this platform can pause workers (Linux: pidfds, fd passing, ``SIGSTOP``)."""
    return all(hasattr(m, n) for m, n in ((os, "pidfd_open"), (signal, "pidfd_send_signal"), (socket, "send_fds"),
                                          (os, "fork"), (signal, "SIGSTOP")))


# ---------------------------------------------------------------- the zygote (its own process)

def zygote(ctrl_fd: int, parent_pid: int | None = None) -> None:
    """The zygote's loop: for every request (a socket end), fork a worker on it and answer with its pid and
    pidfd; ends when the parent's end of ``ctrl_fd`` closes, or when the parent ends (even while it warms up)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # the kernel reaps the workers
    if parent_pid is not None:
        _die_with_parent(parent_pid)
    _warm_up()
    ctrl = socket.socket(fileno=ctrl_fd)
    try:
        ctrl.sendall(b"r")  # ready
    except OSError:  # the parent ended while the zygote warmed up (a small deal answered within a second)
        return
    while True:
        try:
            _, fds, _, _ = socket.recv_fds(ctrl, 1, 1)
        except OSError:
            return
        if not fds:
            return
        pid = os.fork()
        if pid == 0:
            ctrl.close()
            _worker(fds[0])
            os._exit(0)
        os.close(fds[0])
        if not _answer(ctrl, pid):
            return


def _die_with_parent(parent_pid: int) -> None:
    """End this zygote when its parent ends: at once on Linux (``PR_SET_PDEATHSIG``, asked only by a parent that
    started it from its main thread, since the signal follows the starting thread), and everywhere a watchdog that
    sees the zygote handed to another parent. A command's zygote never outlives it, even while compiling."""
    import ctypes

    def watch() -> None:
        while os.getppid() == parent_pid:
            time.sleep(0.2)
        os._exit(0)

    if os.environ.pop(_DEATH_SIGNAL, "") == "1" and sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG = 1
        except (OSError, AttributeError):  # no prctl: the watchdog remains
            pass
    if os.getppid() != parent_pid:  # the parent ended before this line
        os._exit(0)
    threading.Thread(target=watch, name="zygote-parent-watchdog", daemon=True).start()


_DEATH_SIGNAL = "RULESLINGER_ZYGOTE_PDEATHSIG"
"""Environment variable: ``1`` when the zygote's parent started it from its main thread (the death signal is safe)."""


def _answer(ctrl: socket.socket, pid: int) -> bool:
    """Send the parent a new worker's pid and pidfd (none when the worker has ended already: the parent takes it
    as lost); False when the parent has gone (the zygote then ends quietly, no traceback)."""
    try:
        pidfd = os.pidfd_open(pid)
    except ProcessLookupError:  # the worker ended at once (its socket was closed)
        pidfd = None
    try:
        socket.send_fds(ctrl, [pid.to_bytes(4, "little")], [pidfd] if pidfd is not None else [])
    except OSError:
        return False
    finally:
        if pidfd is not None:
            os.close(pidfd)
    return True


def _warm_up() -> None:
    """The optimizer imported and one 3-card proof per scenario run in the zygote (0.6 s, once), so its workers
    inherit what first calls cost (measured: a worker's proof took 25 ms more than the same proof in the
    process, 33 ms without this; the solves start no thread, so the zygote forks with the threads it had)."""
    from solver.wagons.data import SCENARIO_IDS
    from solver.wagons.optimizer.bnb.search import compile_kernels
    from solver.wagons.optimizer.layout import best_layout

    compile_kernels()  # before any fork: a worker forked while a kernel compiles could never compile it
    for scenario in SCENARIO_IDS:
        best_layout((0, 1, 2), scenario, (3, 4), time_limit=2.0, objective="margin", seed_greedy=False, floor=-100)


def _worker(fd: int) -> None:
    """A forked worker: its job from the parent, the proof (:func:`serve`), then wait for the parent to close."""
    from solver.execution.executor import die_with

    conn = Connection(fd)
    try:
        job = conn.recv()
    except (EOFError, OSError):
        return
    die_with(job.pop("parent_pid"))
    serve(conn, job)


def serve(conn, job: dict) -> None:
    """One layout proof (``job``: :func:`~.layout.layout_with`'s arguments), streaming every better town,
    then its result; it waits for the parent to close the socket before it ends."""
    from solver.execution.progress import Progress
    from solver.wagons.optimizer.cpsat.solve import measuring
    from solver.wagons.optimizer.layout import layout_with

    held: dict = {}

    def progress(report: Progress) -> None:
        town, best = getattr(held.get("incumbent"), "town", None), report.best
        if town is not None and best is not None and best != held.get("sent"):
            held["sent"] = best
            conn.send(("town", _xyr(town), best, held["effort"].to_dict()))

    try:
        with measuring() as held["effort"]:  # what its CP-SAT solves spent so far goes with every message
            r = layout_with(_Holding(job.pop("strategy"), held), progress=progress, **job)
        conn.send(("done", _xyr(r) if r.placements else None, r.value, r.proven_optimal, r.bound,
                   held["effort"].to_dict()))
    except BaseException as exc:  # noqa: BLE001 - reported to the parent, which raises it
        conn.send(("error", f"{type(exc).__name__}: {exc}", traceback.format_exc()))
    try:
        conn.recv()
    except (EOFError, OSError):
        pass


def _xyr(town) -> tuple:
    return tuple((p.x, p.y, p.rot) for p in town.placements)


@dataclass(frozen=True)
class _Holding:
    """A strategy that keeps the incumbent where the worker's progress callback can read its town."""

    strategy: object
    held: dict

    def prove(self, problem, incumbent) -> bool:
        self.held["incumbent"] = incumbent
        return self.strategy.prove(problem, incumbent)


# ---------------------------------------------------------------- the parent's side

def _zygote_ctrl() -> socket.socket:
    """The control socket of this process's zygote, started on first use (and again after a fork or its death)."""
    z = _ZYGOTE
    if z and z["owner"] == os.getpid():
        if z["process"].poll() is None:
            return z["ctrl"]
        z["ctrl"].close()  # it died: its workers died with it (PR_SET_PDEATHSIG); a new one
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    root = str(Path(__file__).resolve().parents[3])
    code = (f"import sys; sys.path.insert(0, {root!r}); "
            f"from solver.wagons.optimizer.proofworkers import zygote; zygote({theirs.fileno()}, {os.getpid()})")
    main = threading.current_thread() is threading.main_thread()
    # no standard stream of the command's: a zygote still compiling never holds a pipe the command writes to
    process = subprocess.Popen([sys.executable, "-c", code], pass_fds=[theirs.fileno()], stdin=subprocess.DEVNULL,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               env={**os.environ, _DEATH_SIGNAL: "1" if main else "0"})
    theirs.close()
    _ZYGOTE.update(process=process, ctrl=ours, owner=os.getpid(), ready=False)
    if not _ZYGOTE.get("at_exit"):
        _ZYGOTE["at_exit"] = True
        atexit.register(stop_zygote)
    return ours


def stop_zygote() -> None:
    """End this process's zygote (and with it its workers) and wait for it: a command leaves no helper process."""
    z = _ZYGOTE
    if not z or z.get("owner") != os.getpid() or z["process"].poll() is not None:
        return
    z["process"].kill()
    try:
        z["process"].wait(5)
    except subprocess.TimeoutExpired:
        pass
    z["ctrl"].close()


def _ready(ctrl: socket.socket, wait: float | None) -> bool:
    """Whether the zygote has said it is ready, waiting at most ``wait`` s (None: as long as it takes)."""
    if not _ZYGOTE["ready"]:
        ctrl.settimeout(wait)
        try:
            _ZYGOTE["ready"] = ctrl.recv(1) == b"r"
        except (TimeoutError, BlockingIOError):  # (a wait of 0 is a non-blocking read)
            return False
        finally:
            ctrl.settimeout(None)
    return _ZYGOTE["ready"]


def warm(wait: bool = False) -> None:
    """Start the zygote now if none runs (its imports, about a second, then overlap the caller's own work);
    ``wait``: until it is ready."""
    with _LOCK:
        ctrl = _zygote_ctrl()
        if wait:
            _ready(ctrl, None)


def _fork_worker(wait: float | None) -> tuple[Connection, int, int]:
    """A new worker from the zygote: its socket, pid and pidfd; :class:`NotReady` when the zygote is not ready
    within ``wait`` s, :class:`WorkerLost` when it is gone."""
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        with _LOCK:
            ctrl = _zygote_ctrl()
            if not _ready(ctrl, wait):
                raise NotReady("proof workers: the zygote is not ready yet")
            socket.send_fds(ctrl, [b"w"], [theirs.fileno()])
            data, fds, _, _ = socket.recv_fds(ctrl, 4, 1)
    except OSError as exc:
        ours.close()
        raise WorkerLost(f"proof workers: the zygote did not answer ({exc})") from None
    except NotReady:
        ours.close()
        raise
    finally:
        theirs.close()
    if len(data) != 4 or len(fds) != 1:
        ours.close()
        raise WorkerLost("proof workers: the zygote ended")
    return Connection(ours.detach()), int.from_bytes(data, "little"), fds[0]


class ProofWorker:
    """One line proof in its own process, run slice by slice (:meth:`run`), stopped in between."""

    def __init__(self, job: dict, wait: float | None = None):
        """A worker started on ``job``; ``wait``: how long a zygote that is still starting may take (None: as
        long as it takes; :class:`NotReady` past it)."""
        self.conn, self.pid, self.pidfd = _fork_worker(wait)
        self.floor = job["floor"]
        self.done = False
        self.seconds = 0.0
        self.reported: dict = {}  # what the worker's CP-SAT solves had spent at its last message
        self.lines: list = []
        try:
            self.conn.send(job | {"parent_pid": os.getpid()})
        except BaseException:
            self.kill()
            raise

    def _signal(self, sig) -> None:
        if self.pidfd is not None and not self.done:
            try:
                signal.pidfd_send_signal(self.pidfd, sig)
            except ProcessLookupError:
                pass

    def run(self, until: float, interrupted: Callable[[], bool] | None = None) -> Message | None:
        """Let the worker compute until ``until`` (monotonic) or its next message, then stop it; the message, or
        None when the slice ended first. ``interrupted()`` (read every :data:`POLL_SECONDS`) ends the slice early
        too (the page's Stop). Raises :class:`WorkerLost` when the worker ended without a result."""
        started = time.monotonic()
        self._signal(signal.SIGCONT)
        try:
            ready = self._wait(until, interrupted)
        finally:
            self._signal(signal.SIGSTOP)
            self.seconds += time.monotonic() - started
        if not ready:
            return None
        try:
            msg = self.conn.recv()
        except (EOFError, OSError):
            self.done = True
            raise WorkerLost(f"proof worker {self.pid} ended without a result") from None
        if msg[0] == "error":
            self.done = True
            raise RuntimeError(f"proof worker: {msg[1]}\n{msg[2]}")
        self._record(msg[-1])
        if msg[0] == "done":
            self.done = True
            return Message("done", msg[1], msg[2], msg[3], msg[4])
        return Message("town", msg[1], msg[2])

    def _record(self, spent: dict) -> None:
        """Add what the worker's solves spent since its last message to the meters open here
        (:func:`~.cpsat.solve.measuring`): a proof paused or ended between messages is counted up to its last one."""
        from solver.wagons.optimizer.cpsat.solve import Effort, record

        now, before = Effort(**spent), Effort(**self.reported) if self.reported else Effort()
        self.reported = spent
        record(now.since(before))

    def _wait(self, until: float, interrupted: Callable[[], bool] | None) -> bool:
        """Whether a message came before ``until`` (or before ``interrupted()`` held)."""
        while True:
            left = until - time.monotonic()
            if left <= 0 or (interrupted is not None and interrupted()):
                return self.conn.poll(0)
            if self.conn.poll(left if interrupted is None else min(left, POLL_SECONDS)):
                return True

    def kill(self) -> None:
        """End the worker (stopped or not) and wait until it is gone."""
        if self.pidfd is None:
            return
        try:
            signal.pidfd_send_signal(self.pidfd, signal.SIGKILL)
        except ProcessLookupError:
            pass
        select.select([self.pidfd], [], [], 5.0)  # readable once the process has ended
        os.close(self.pidfd)
        self.pidfd = None
        self.conn.close()

