"""The optimizer's compiled code (numba) on any install, and never past a time limit.

**A cache that never fails.** numba's ``cache=True`` keeps the machine code in a ``__pycache__`` folder
next to the sources, or in the user's cache folder (``NUMBA_CACHE_DIR`` first when set); when none of them
is writable (another user of a read-only install, a home without a cache folder) numba refuses to
define the function ("cannot cache function") and every command that loads the optimizer ends with that
traceback. :func:`njit` is numba's with a fallback decided once, at the first refusal:

1. a private folder in the system's temporary folder, ``ruleslinger-numba-<uid>``: created 0700 and used
   only when it is this user's own and neither group nor world writable (numba's cache holds pickled
   code: a folder someone else can write would let them run code as this user). It persists, so the
   next runs load the compiled code instead of compiling it again;
2. else no cache at all: each process compiles what it runs.

A cache folder that takes the code but then fails (full, unwritable later) or holds a damaged entry never stops a
command either: :mod:`.safecache` checks every entry's digest before loading it, drops a damaged one, and
compiles in memory, with one warning line.

One line on standard error says which (the only one, however many functions; for the private folder only when
it is made, so once per user, for no cache on every run, since each then compiles again). The choice is handed to
child processes (the executor's workers, the proof workers) through the environment (``NUMBA_CACHE_DIR``,
or :data:`NO_CACHE` = ``off``), so they neither search nor warn again. Why not compile without a cache
at once: compiling takes 10-25 s per process, paid again by every command; a private cache pays it once.

**Compilation inside the time limit.** A kernel compiles at its first call (about 10 s for the walk, 12 s
more for the branch and bound on the reference machine; loading them from the cache takes under a
second). A :class:`Warming` compiles one module's kernels in a background thread, by running them on a
tiny instance (so exactly the signatures the searches use), and a search asks
:meth:`Warming.ready_by` its deadline before it calls them: when they are not ready by then it ends as its
time limit does (the best town so far, not proven) instead of waiting for the compiler. The time
limit is so honoured in wall time on the first run too (docs/wagons-optimizer.md); ``python3 run.py``
compiles them once at install, so that first run does not wait.
"""

from __future__ import annotations

import os
import stat
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

from solver.stopping import capped
from solver.wagons.optimizer.walk.safecache import guard

__all__ = ["njit", "Warming", "ready_by", "private_cache_dir", "NO_CACHE"]

NO_CACHE = "RULESLINGER_NUMBA_CACHE"
"""Environment variable: ``off`` when a parent process found no writable cache folder (compile, do not cache)."""
_WARNED: list[str] = []


def _uid() -> int:
    return os.getuid() if hasattr(os, "getuid") else 0


def _private_path(base: str | Path | None = None) -> Path:
    return Path(base if base is not None else tempfile.gettempdir()) / f"ruleslinger-numba-{_uid()}"


def private_cache_dir(base: str | Path | None = None) -> Path | None:
    """This user's own cache folder in ``base`` (the system's temporary folder), made 0700 when missing;
    None when it cannot be made or written, or is not safe to load code from (a link, another owner,
    group or world writable)."""
    path = _private_path(base)
    try:
        path.mkdir(mode=0o700, exist_ok=True)
        info = os.lstat(path)
        if not stat.S_ISDIR(info.st_mode) or info.st_uid != _uid() or info.st_mode & 0o022:
            return None
        tempfile.TemporaryFile(dir=path).close()
    except OSError:
        return None
    return path


def _warn_once(message: str) -> None:
    if not _WARNED:
        _WARNED.append(message)
        print(f"ruleslinger: warning: {message}", file=sys.stderr, flush=True)


def _fall_back() -> None:
    """numba found no writable cache folder: the private folder, or (when that failed too) no cache."""
    from numba.core import config

    made = not os.path.lexists(_private_path())
    private = private_cache_dir()
    if private is not None and os.environ.get("NUMBA_CACHE_DIR") != str(private):
        os.environ["NUMBA_CACHE_DIR"] = config.CACHE_DIR = str(private)  # numba re-reads the environment
        if made:  # said when the folder is made; the runs after it use it silently
            _warn_once(f"no writable cache folder for compiled code; caching it in {private}")
        return
    os.environ[NO_CACHE] = "off"
    _warn_once("no writable cache folder for compiled code; it is compiled again by every run")


def _compiled(fn: Callable, options: dict):
    import numba

    if options.get("cache") and os.environ.get(NO_CACHE) == "off":
        options = {**options, "cache": False}
    try:
        return guard(numba.njit(**options)(fn))
    except RuntimeError as exc:
        if not options.get("cache") or "cannot cache" not in str(exc):
            raise
    _fall_back()
    return _compiled(fn, options)


def njit(**options) -> Callable[[Callable], Callable]:
    """``numba.njit(**options)`` whose ``cache=True`` falls back (module docstring) instead of failing."""
    return lambda fn: _compiled(fn, options)


class Warming:
    """One module's kernels compiled once per process, in a background thread, by ``warm()`` (a run on a
    tiny instance); :meth:`ready_by` tells a search whether it may call them before its deadline."""

    def __init__(self, name: str, warm: Callable[[], object]):
        self.name, self._warm = name, warm
        self._lock = threading.Lock()
        self._done = threading.Event()
        self._thread: threading.Thread | None = None
        self._error: BaseException | None = None

    def start(self) -> None:
        """Begin compiling now (once; a no-op when under way or done)."""
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name=f"compile-{self.name}", daemon=True)
                self._thread.start()

    def _run(self) -> None:
        try:
            self._warm()
        except BaseException as exc:  # noqa: BLE001 - handed to the search that waits (ready_by raises it)
            self._error = exc
        finally:
            self._done.set()

    def ready_by(self, deadline: float) -> bool:
        """True once compiled; else compile in the background and wait until ``deadline`` (time.monotonic(),
        capped by an early stop, solver.stopping): False when it is still compiling then."""
        if not self._done.is_set():
            self.start()
            while not self._done.wait(max(0.0, min(0.1, capped(deadline) - time.monotonic()))):
                if time.monotonic() >= capped(deadline):
                    return False
        if self._error is not None:
            raise self._error
        return True


def ready_by(deadline: float, *warmings: Warming) -> bool:
    """Every one of ``warmings`` ready by ``deadline`` (all started at once)."""
    for w in warmings:
        w.start()
    return all(w.ready_by(deadline) for w in warmings)
