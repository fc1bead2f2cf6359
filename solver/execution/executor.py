"""One executor interface for large simulation batches: serial, local processes, or a Dask cluster.

A batch is a picklable module-level function applied to a sequence of items (usually seeds). The
items are cut into chunks; each chunk runs as one task; results stream back **in item order**
whichever executor ran them, so a batch gives identical rows serially, on local processes or on a
cluster, for the same items (or, with ``ordered=False``, as ``(index, result)`` pairs as the chunks finish).
Only a bounded window of chunks is in flight at any time, so a 100,000-game batch never holds more than a few
chunks of rows (and never any game objects).

Executors (the ``executor`` argument, also ``ruleslinger batch --executor``):

- ``"serial"``: in this process, one item after another (debugging, tiny batches);
- ``"local"`` (default): :class:`concurrent.futures.ProcessPoolExecutor` with ``workers``
  processes (2: the machine's cores), started with ``forkserver`` where available (safe in a
  multi-threaded parent such as the Streamlit dashboard), else ``spawn``;
- a scheduler address such as ``"tcp://10.0.0.5:8786"``: Dask distributed,
  ``dask.distributed.Client(address)``; the cluster decides how many workers run. Its start is bounded:
  the address must answer within ``min(connect_timeout, 5)`` s with a Dask scheduler's greeting (else one
  line naming it: a web server, a listener that never answers, anything else), and the client must be
  connected within :data:`START_FACTOR` connection timeouts.

Why Dask rather than Ray: Dask distributed is pure Python, installs from PyPI on every platform
the project supports (Ray ships large native wheels and lags new Python versions), starts a
``LocalCluster`` in-process for the tests in seconds, and its ``Client.submit`` futures map
one-to-one onto :mod:`concurrent.futures`, so the three executors share one code path. Ray's
strengths (actors, GPU scheduling, object store) are not needed for independent seed batches.

Errors: an exception inside a task comes back as :class:`TaskFailed` naming the item, the
exception and where it was raised; a :class:`~solver.errors.BadInput` raised by the item
function comes back as ``BadInput`` (rule:X-bad-input), so the CLI prints one line and exits 2.

Progress: an optional ``progress`` callback (:data:`solver.execution.progress.OnProgress`) gets the items done after
every chunk, and the wait for a Dask worker in words; the command line's adapter shows it on standard error.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import sys
import tempfile
import threading
import traceback
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from solver.errors import BadInput
from solver.execution.cluster import Dask, scheduler_address
from solver.execution.progress import OnProgress, Progress
from solver.io.output import pid_alive

DEFAULT_WORKERS = 2
"""Local processes by default: both cores of the reference machine."""
MAX_WORKERS = 256
MAX_CHUNK = 1000
"""Largest default chunk (items per task); smaller batches get smaller chunks."""
CHUNK_ROWS = 10_000
"""Rows per DataFrame chunk when streaming rows to Polars / Parquet."""


class TaskFailed(RuntimeError):
    """An item of a batch raised an exception (one line: item, exception, where)."""


@dataclass(frozen=True)
class ExecutorSpec:
    """A parsed ``--executor`` value: ``kind`` is ``serial``, ``local`` or ``dask``; ``background``: the local
    processes run at the lowest priority (:func:`lower_priority`), for work ahead that must not slow anything else."""

    kind: str
    workers: int = DEFAULT_WORKERS
    address: str | None = None
    background: bool = False

    def describe(self) -> str:
        if self.kind == "dask":
            return f"dask {self.address}"
        if self.kind == "local":
            return f"local processes x{self.workers}" + (" in the background" if self.background else "")
        return "serial"


def parse_executor(spec: str | ExecutorSpec | None = "local", workers: int = DEFAULT_WORKERS) -> ExecutorSpec:
    """``serial``, ``local`` or a Dask scheduler address (``tcp://host:port``), else BadInput."""
    if isinstance(spec, ExecutorSpec):
        return spec
    if isinstance(workers, bool) or not isinstance(workers, int) or not 1 <= workers <= MAX_WORKERS:
        raise BadInput(f"workers: expected a whole number 1..{MAX_WORKERS}, got {workers!r:.40}")
    text = "local" if spec is None else str(spec).strip()
    if text in ("serial", "local"):
        return ExecutorSpec(text, workers)
    host, port = scheduler_address(text)
    return ExecutorSpec("dask", workers, f"tcp://{host}:{port}" if ":" not in host else f"tcp://[{host}]:{port}")


def default_chunk_size(n: int, workers: int) -> int:
    """About 8 chunks per worker (good balance, frequent progress), capped at :data:`MAX_CHUNK`."""
    return max(1, min(MAX_CHUNK, math.ceil(n / max(1, workers * 8))))


# --- the task run by a worker -------------------------------------------------------------------


@dataclass(frozen=True)
class _Failure:
    index: int
    item: str
    error: str
    where: str
    bad_input: bool


def _where(exc: BaseException) -> str:
    frames = traceback.extract_tb(exc.__traceback__)
    if not frames:
        return "?"
    last = frames[-1]
    return f"{last.filename}:{last.lineno} in {last.name}"


def run_chunk(func: Callable[[Any], Any], start: int, items: Sequence[Any]) -> tuple[list[Any], _Failure | None]:
    """Apply ``func`` to each item in order; stop at the first failure and describe it (picklable)."""
    out: list[Any] = []
    for offset, item in enumerate(items):
        try:
            out.append(func(item))
        except Exception as exc:  # reported to the parent as data: exceptions need not pickle
            return out, _Failure(start + offset, repr(item)[:80], f"{type(exc).__name__}: {exc}",
                                 _where(exc), isinstance(exc, BadInput))
    return out, None


def _raise(failure: _Failure, label: str) -> None:
    if failure.bad_input:
        raise BadInput(f"{label}: item {failure.index} = {failure.item}: {failure.error.partition(': ')[2]}")
    raise TaskFailed(" ".join(f"{label}: item {failure.index} = {failure.item} failed: {failure.error} "
                              f"(at {failure.where})".split()))


# --- the executors ------------------------------------------------------------------------------


def _mp_context():
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


class _Serial:
    def submit(self, fn, *args):
        return _Done(fn(*args))

    def close(self, cancel: bool = False) -> None:
        pass


@dataclass(frozen=True)
class _Done:
    value: Any

    def result(self):
        return self.value

    def done(self) -> bool:
        return True


WATCHDOG_SECONDS = 0.5
"""How often a worker checks that the process that started the batch is still there."""


def die_with(parent_pid: int, background: bool = False) -> None:
    """Worker initializer: the worker ends when the batch's process ends, however it ends, and (``background``)
    runs at the lowest priority (:func:`lower_priority`).

    On Linux the kernel sends SIGKILL when the worker's parent (the forkserver, which itself ends
    with the batch's process) dies (``prctl(PR_SET_PDEATHSIG)``); everywhere, a watchdog thread
    checks every :data:`WATCHDOG_SECONDS` that ``parent_pid`` is alive and ends the worker if not
    (a ``kill -9`` of a batch must not leave workers running at 100% CPU)."""
    import signal

    if background:
        lower_priority()
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG = 1
        except (OSError, AttributeError):  # pragma: no cover - no libc prctl: the watchdog remains
            pass

    def watch() -> None:
        while pid_alive(parent_pid):
            threading.Event().wait(WATCHDOG_SECONDS)
        os._exit(1)

    if not pid_alive(parent_pid):  # the batch ended before this worker was ready
        os._exit(1)
    threading.Thread(target=watch, name="ruleslinger-parent-watchdog", daemon=True).start()


def lower_priority() -> None:
    """This process takes the processors only when nothing else wants them. On Linux a process's nice value counts
    only against the processes of its own scheduling group (one a session, when the kernel groups them: a dashboard
    started from a terminal shares its group with nothing else), so the process first starts a session of its own
    and gives that group the lowest priority (``/proc/self/autogroup``); then nice 19, which is all that other
    systems have. What the system refuses leaves the priority as it was."""
    if sys.platform.startswith("linux"):
        try:
            os.setsid()
            Path("/proc/self/autogroup").write_text("19")
        except OSError:  # a session leader already, or no scheduling groups: the nice value below remains
            pass
    try:
        os.nice(19 - os.nice(0))
    except (OSError, AttributeError):  # no nice (Windows)
        pass


FDS_BASE, FDS_PER_WORKER = 10, 5
"""Open files a local pool needs beyond those already open: the forkserver's, then each worker's pipes."""


def _pool_room(workers: int) -> None:
    """Refuse, before any process starts, a local pool the process's limits cannot hold: too few open files left
    under ``ulimit -n``, or no usable temporary folder (the forkserver's socket lives there)."""
    soft = _open_file_limit()
    try:
        used = len(os.listdir("/proc/self/fd")) - 1
    except OSError:  # no /proc: the start itself is guarded
        used = None
    need = FDS_BASE + FDS_PER_WORKER * workers
    if soft is not None and used is not None and soft - used < need:
        raise BadInput(f"executor local: the open-file limit (ulimit -n {soft}, {used} in use) is too low to start "
                       f"{workers} worker process{'es' if workers > 1 else ''} (about {need} more needed); raise it "
                       "or use --executor serial")
    try:
        tempfile.gettempdir()
    except (OSError, FileNotFoundError) as exc:
        raise BadInput(f"executor local: the worker processes cannot start ({exc}); set TMPDIR to a writable folder "
                       "or use --executor serial") from None


def _open_file_limit() -> int | None:
    """The process's soft limit of open files (``ulimit -n``); None where there is none (not POSIX, unlimited)."""
    if os.name != "posix":
        return None
    import resource

    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    return None if soft == resource.RLIM_INFINITY else soft


def _pool_failed(exc: BaseException, workers: int) -> BadInput:
    """The one line for a local pool that could not start its workers (a limit hit while they started)."""
    soft = _open_file_limit()
    limit = "" if soft is None else f"; the open-file limit is {soft} (ulimit -n)"
    why = " ".join(f"{type(exc).__name__}: {exc}".split())[:160]
    return BadInput(f"executor local: the {workers} worker process{'es' if workers > 1 else ''} could not start "
                    f"({why}{limit}); use --executor serial")


_START_ERRORS = (OSError, EOFError, RuntimeError)
"""What a process pool raises when its workers cannot start (BrokenProcessPool is a RuntimeError)."""


class _Local:
    def __init__(self, workers: int, background: bool = False):
        _pool_room(workers)
        self.workers = workers
        self.pool = ProcessPoolExecutor(max_workers=workers, mp_context=_mp_context(), initializer=die_with,
                                        initargs=(os.getpid(), background))

    def submit(self, fn, *args):
        return self.pool.submit(fn, *args)

    def close(self, cancel: bool = False) -> None:
        self.pool.shutdown(wait=True, cancel_futures=cancel)


def _open(spec: ExecutorSpec, timeout: float, say: Callable[[str], None] | None = None):
    if spec.kind == "serial":
        return _Serial()
    if spec.kind == "local":
        return _Local(spec.workers, spec.background)
    return Dask(spec.address or "", timeout, say)


def run_items(
    func: Callable[[Any], Any],
    items: Sequence[Any],
    *,
    executor: str | ExecutorSpec | None = "local",
    workers: int = DEFAULT_WORKERS,
    chunk_size: int | None = None,
    progress: OnProgress | None = None,
    label: str = "batch",
    window: int | None = None,
    connect_timeout: float = 10.0,
    ordered: bool = True,
) -> Iterator[Any]:
    """Yield ``func(item)`` for every item, in item order, computed by the chosen executor; with ``ordered=False``,
    ``(index, func(item))`` as each chunk finishes (a long first chunk does not hold back the others' results).

    ``func`` must be a picklable module-level function (or a ``functools.partial`` of one) for
    the process and Dask executors. ``progress`` gets the items done after every chunk (and the wait for a Dask
    worker, in words). At most ``window`` chunks (default
    ``4 * workers``) are in flight, so memory stays bounded however long the batch.
    """
    spec = parse_executor(executor, workers)
    items = items if isinstance(items, Sequence) else list(items)
    total = len(items)
    if chunk_size is None:
        chunk_size = default_chunk_size(total, spec.workers)
    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        raise BadInput(f"chunk size: expected a whole number >= 1, got {chunk_size!r:.40}")
    window = window or 4 * spec.workers
    return _stream(func, items, spec, chunk_size, window, progress, label, connect_timeout, ordered)


def _take(pending: deque, ordered: bool) -> Any:
    """The next chunk's future: the oldest, or (not ``ordered``) the first to finish (a Dask batch: the oldest
    unless one is already done)."""
    if ordered:
        return pending.popleft()
    from concurrent.futures import FIRST_COMPLETED, Future, wait

    if all(isinstance(f, Future) for f in pending):
        wait(pending, return_when=FIRST_COMPLETED)
    index = next((i for i, f in enumerate(pending) if f.done()), 0)
    future = pending[index]
    del pending[index]
    return future


def _stream(func, items, spec, chunk_size, window, progress: OnProgress | None, label, timeout,
            ordered: bool = True) -> Iterator[Any]:
    total = len(items)
    starts = iter(range(0, total, chunk_size))
    pool = _open(spec, timeout, None if progress is None else _waiting(progress, total))
    pending: deque = deque()
    starts_of: dict = {}
    done = 0
    finished = False

    def submit_next() -> bool:
        start = next(starts, None)
        if start is None:
            return False
        pending.append(pool.submit(run_chunk, func, start, items[start:start + chunk_size]))
        starts_of[id(pending[-1])] = start
        return True

    try:
        try:
            while len(pending) < window and submit_next():
                pass
        except _START_ERRORS as exc:
            if spec.kind != "local":
                raise
            raise _pool_failed(exc, spec.workers) from None
        while pending:
            future = _take(pending, ordered)
            first = starts_of.pop(id(future))
            try:
                results, failure = future.result()
            except Exception as exc:  # the worker process itself died, or the cluster went away
                if spec.kind == "local" and done == 0 and isinstance(exc, _START_ERRORS):
                    raise _pool_failed(exc, spec.workers) from None
                raise TaskFailed(f"{label}: a {spec.describe()} task failed: {type(exc).__name__}: "
                                 f"{' '.join(str(exc).split())}"[:400]) from None
            if failure is not None:
                _raise(failure, label)
            submit_next()
            yield from results if ordered else enumerate(results, first)
            done += len(results)
            if progress is not None:
                progress(Progress(done, total, "items"))
        if done != total:  # never an answer missing rows
            raise TaskFailed(f"{label}: {spec.describe()} returned {done} of {total} items")
        finished = True
    finally:
        pool.close(cancel=not finished)


def _waiting(progress: OnProgress, total: int) -> Callable[[str], None]:
    """The wait for a Dask worker, in words, as a report with nothing done yet."""
    return lambda text: progress(Progress(0, total, "items", text))


def star_call(func: Callable[..., Any], args: tuple) -> Any:
    """``func(*args)`` (module level, so a partial of it pickles)."""
    return func(*args)


@dataclass(frozen=True)
class Mapper:
    """A pool-like object whose ``map(fn, *iterables)`` runs on an executor, results in order.

    For APIs that accept "anything with ``map``" (``solver.wagons.optimizer.bestplay.difficulty_table``):
    ``difficulty_table(["boomtown"], 100, executor=Mapper("local", workers=2))``.
    """

    executor: str = "local"
    workers: int = DEFAULT_WORKERS
    progress: OnProgress | None = None
    label: str = "batch"

    def map(self, func: Callable[..., Any], *iterables: Iterable[Any]) -> Iterator[Any]:
        import functools

        items = list(zip(*iterables))
        return run_items(functools.partial(star_call, func), items, executor=self.executor, workers=self.workers,
                         progress=self.progress, label=self.label)


# --- streaming rows to Polars / Parquet ---------------------------------------------------------


def _chunks(rows: Iterable[dict], size: int) -> Iterator[list[dict]]:
    chunk: list[dict] = []
    for row in rows:
        chunk.append(row)
        if len(chunk) >= size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _frame(chunk: list[dict]):
    import polars as pl

    return pl.DataFrame(chunk, infer_schema_length=None)


def rows_to_frame(rows: Iterable[dict], chunk_rows: int = CHUNK_ROWS):
    """Flat dict rows -> one Polars DataFrame, built ``chunk_rows`` rows at a time (columnar)."""
    import polars as pl

    frames = [_frame(chunk) for chunk in _chunks(rows, chunk_rows)]
    if not frames:
        return pl.DataFrame()
    return pl.concat(frames, how="diagonal_relaxed", rechunk=True)


PARTS_PREFIX = ".parts-"
"""Folder of a streamed write's part files, ``.parts-<pid>.<random>`` next to the target; one left
by a killed run (its process gone) is removed by the next write into that folder."""


def write_parquet(rows: Iterable[dict], path: str | Path, chunk_rows: int = CHUNK_ROWS, read_back: bool = False) -> dict:
    """Stream flat dict rows to a Parquet file, ``chunk_rows`` at a time; returns a summary.

    Each chunk is written as a part file in a temporary folder next to ``path``; the parts are
    then concatenated by Polars' streaming engine (columns unified, missing ones null) into a
    temporary file that replaces ``path`` atomically only when everything succeeded
    (rule:X-bad-input: nothing is ever half-written; :func:`solver.io.output.write_atomically`).
    ``read_back``: the summary's ``frame`` holds every row (read from the parts, so it works for
    the null device too).
    """
    import shutil

    import polars as pl

    from solver.io.output import is_sink, output_target, stale_pid_entries, write_atomically, writing_errors

    target = output_target(path)
    folder = Path(tempfile.gettempdir()) if is_sink(target) else target.parent
    for stale in stale_pid_entries(folder, PARTS_PREFIX):
        shutil.rmtree(stale, ignore_errors=True)
    count = 0
    with writing_errors(path):
        tmp = tempfile.mkdtemp(prefix=f"{PARTS_PREFIX}{os.getpid()}.", dir=folder)
    try:
        parts = []
        for i, chunk in enumerate(_chunks(rows, chunk_rows)):
            part = Path(tmp) / f"part-{i:06d}.parquet"
            with writing_errors(path):  # a full disk while the parts are written: one line, the old file kept
                _frame(chunk).write_parquet(part)
            parts.append(part)
            count += len(chunk)

        def sink(staging: str) -> None:
            if parts:
                pl.concat([pl.scan_parquet(p) for p in parts], how="diagonal_relaxed").sink_parquet(staging)
            else:
                pl.DataFrame().write_parquet(staging)

        write_atomically(path, sink)
        columns = _columns(parts)  # diagonal concatenation: every column, in order of first appearance
        frame = None
        if read_back:
            frame = pl.concat([pl.read_parquet(p) for p in parts], how="diagonal_relaxed") if parts else pl.DataFrame()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    summary = {"path": str(target), "rows": count, "columns": columns}
    return summary | {"frame": frame} if read_back else summary


def _columns(parts: list[Path]) -> list[str]:
    import polars as pl

    names: dict[str, None] = {}
    for part in parts:
        names |= dict.fromkeys(pl.read_parquet_schema(part))
    return list(names)
