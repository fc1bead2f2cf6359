"""numba's compiled-code cache, never trusted when broken and never fatal.

numba keeps a function's machine code in a cache folder: an index (``NAME.nbi``) and one data file per signature
(``NAME.N.nbc``), both pickles. As numba ships it, a truncated or garbled file raises (``UnpicklingError``,
``EOFError``, ...) on every run, and a full or unwritable folder raises ``OSError`` while a kernel compiles.
:func:`guard` wraps one compiled function's cache so that:

- every file it writes ends with a SHA-256 digest of its contents, checked before the file is unpickled, so a
  damaged entry is never loaded (nor one written without a digest);
- an entry that fails to load (damaged, or from a numba that cannot read it) is dropped: its index and data files
  are removed, and the function is compiled in memory (and cached again when the folder takes it);
- a cache that cannot be written (a full disk, no permission) is turned off for that function: it is compiled in
  memory.

Each of these says so in one warning line on standard error, once per process.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
import sys
from typing import Any

MAGIC = b"\nruleslinger-sha256:"
"""What precedes the digest at the end of every cache file this process writes."""
_WARNED: set[str] = set()


class DamagedEntry(Exception):
    """A cache file whose digest is missing or does not match its contents."""


def warn_once(kind: str, message: str) -> None:
    """One warning line on standard error per ``kind`` and process."""
    if kind not in _WARNED:
        _WARNED.add(kind)
        print(f"ruleslinger: warning: {message}", file=sys.stderr, flush=True)


def sealed(payload: bytes) -> bytes:
    """``payload`` followed by :data:`MAGIC` and its SHA-256 digest."""
    return payload + MAGIC + hashlib.sha256(payload).digest()


def opened(blob: bytes, where: str) -> bytes:
    """The payload of a sealed file; DamagedEntry when the seal is missing or does not match."""
    cut = len(blob) - len(MAGIC) - 32
    if cut < 0 or blob[cut:cut + len(MAGIC)] != MAGIC:
        raise DamagedEntry(f"{where}: no digest")
    payload, digest = blob[:cut], blob[cut + len(MAGIC):]
    if hashlib.sha256(payload).digest() != digest:
        raise DamagedEntry(f"{where}: digest does not match")
    return payload


def _seal(cache_file: Any) -> None:
    """Make numba's ``IndexDataCacheFile`` write sealed files and check the seal before it unpickles one."""
    dump = cache_file._dump
    cache_file._dump = lambda obj: sealed(dump(obj))

    def load_index() -> dict:
        try:
            with open(cache_file._index_path, "rb") as f:
                version = pickle.load(f)
                rest = f.read()
        except FileNotFoundError:
            return {}
        if version != cache_file._version:
            return {}  # another numba's index: numba's own rule, it is not read further
        stamp, overloads = pickle.loads(opened(rest, cache_file._index_path))
        return overloads if stamp == cache_file._source_stamp else {}

    def load_data(name: str) -> Any:
        path = cache_file._data_path(name)
        with open(path, "rb") as f:
            return pickle.loads(opened(f.read(), path))

    cache_file._load_index, cache_file._load_data = load_index, load_data


def _drop(cache_file: Any) -> None:
    """Remove a function's index and data files (a damaged entry is not kept for the next run)."""
    index = cache_file._index_path
    base = os.path.basename(index)[: -len(".nbi")]
    folder = os.path.dirname(index)
    with contextlib.suppress(OSError):
        names = os.listdir(folder)
        for name in names:
            if name == os.path.basename(index) or (name.startswith(base + ".") and name.endswith(".nbc")):
                with contextlib.suppress(OSError):
                    os.unlink(os.path.join(folder, name))


class GuardedCache:
    """A numba function cache (``dispatcher._cache``) whose failures fall back to compiling in memory."""

    def __init__(self, inner: Any):
        self._inner = inner
        self._file = getattr(inner, "_cache_file", None)
        if self._file is not None:
            _seal(self._file)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def load_overload(self, sig: Any, target_context: Any) -> Any:
        try:
            return self._inner.load_overload(sig, target_context)
        except Exception as exc:  # noqa: BLE001 - any damaged entry: dropped, then compiled in memory
            if self._file is not None:
                _drop(self._file)
            warn_once("damaged", f"a damaged entry of the compiled-code cache was dropped ({type(exc).__name__}); "
                                 "compiling in memory")
            return None

    def save_overload(self, sig: Any, data: Any) -> None:
        try:
            self._inner.save_overload(sig, data)
        except Exception as exc:  # noqa: BLE001 - a full or unwritable cache: compiled code kept in memory only
            why = getattr(exc, "strerror", None) or type(exc).__name__
            if not isinstance(exc, OSError) and self._file is not None:
                _drop(self._file)  # an index that cannot be read back is not kept either
            with contextlib.suppress(Exception):
                self._inner.disable()
            warn_once("unwritable", f"the compiled-code cache cannot be written ({why}); compiling in memory")


def guard(dispatcher: Any) -> Any:
    """``dispatcher`` (a numba function with ``cache=True``) with its cache guarded (module docstring)."""
    cache = getattr(dispatcher, "_cache", None)
    if cache is not None and not isinstance(cache, GuardedCache) and hasattr(cache, "load_overload"):
        dispatcher._cache = GuardedCache(cache)
    return dispatcher
