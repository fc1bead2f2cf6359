"""Output files: checked before anything runs (one rule for every command), written atomically with normal permissions, never over a device, a special file, an input or the program's own files, and a full disk said in one line with the old file kept (rule:X-bad-input)."""

from __future__ import annotations

import errno
import os
import re
import stat
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from solver.errors import BadInput
from solver.io.numbers import short_repr
from solver.paths import OWN_FOLDERS, store_path

_SINKS = (os.devnull,)
"""Special files written through (never replaced): the null device."""


def pid_alive(pid: int) -> bool:
    """Whether process ``pid`` still runs (a process of another user counts as running)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):
        return True
    return True


def output_target(path: str | Path, what: str = "--out") -> Path:
    """The file an output path will write, checked before anything runs (rule:X-bad-input).

    A symbolic link is followed on purpose (the file it names is written, the link stays); a
    loop, a dangling folder, a directory, a device, a pipe or a socket is refused, except the
    null device, which is written through. The folder must exist and take a new file (one is made and
    removed: :func:`_probe`).
    """
    text = str(path)
    if not text.strip():
        raise BadInput(f"{what}: empty file name")
    if "\x00" in text:
        raise BadInput(f"{what} {short_repr(text)}: a file name cannot contain a NUL character")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise BadInput(f"{what} {short_repr(text)}: the file name is not UTF-8 text (the tables' writer takes only "
                       "UTF-8 names); give another name") from None
    try:
        target = Path(os.path.realpath(text, strict=False))
        info = os.stat(target) if os.path.lexists(target) else None
    except (OSError, RuntimeError) as exc:
        raise BadInput(f"{what} {short_repr(text)}: cannot resolve ({getattr(exc, 'strerror', None) or exc})") from None
    if os.path.islink(target):
        raise BadInput(f"{what} {short_repr(text)}: a symbolic link loop")
    if info is not None and is_sink(target):
        return target
    _not_own(target, text, what)
    if info is not None and stat.S_ISDIR(info.st_mode):
        raise BadInput(f"{what} {short_repr(text)}: is a directory; give a file name")
    if info is not None and not stat.S_ISREG(info.st_mode):
        raise BadInput(f"{what} {short_repr(text)}: exists and is not a regular file (device, pipe or socket); "
                       "give a file name")
    folder = target.parent
    if not folder.is_dir():
        raise BadInput(f"{what} {short_repr(text)}: folder {short_repr(str(folder), 80)} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise BadInput(f"{what} {short_repr(text)}: folder {short_repr(str(folder), 80)} is not writable")
    if info is not None and not os.access(target, os.W_OK):
        raise BadInput(f"{what} {short_repr(text)}: the file is not writable")
    most = _name_max(folder) - TEMP_NAME_EXTRA
    if len(os.fsencode(target.name)) > most:
        raise BadInput(f"{what} {short_repr(text)}: the file name is too long (at most {most} bytes in this folder)")
    _probe(folder, target.name, text, what)
    return target


def _not_own(target: Path, text: str, what: str) -> None:
    """Refuse a file the program itself reads: its data, rule register and code (:data:`solver.paths.OWN_FOLDERS`)
    and the dashboard's saved-games store (with its journal files), by any path (a link, a hard link)."""
    for folder in OWN_FOLDERS:
        own = Path(os.path.realpath(folder))
        if target == own or own in target.parents:
            raise BadInput(f"{what} {short_repr(text)}: is the program's own file (under {own.name}/); "
                           "write to another file")
    try:
        store = Path(os.path.realpath(store_path()))
    except (OSError, ValueError):
        return
    for name in (store, *(store.with_name(store.name + tail) for tail in ("-wal", "-shm", "-journal"))):
        if target == name or _same(target, name):
            raise BadInput(f"{what} {short_repr(text)}: is the dashboard's saved-games store; write to another file")


def _same(a: Path, b: Path) -> bool:
    try:
        return os.path.exists(a) and os.path.exists(b) and os.path.samefile(a, b)
    except (OSError, ValueError):
        return False


_OS_ERROR = re.compile(r"os error (\d+)")
"""How Polars (Rust) names the system error under its own exceptions: ``... (os error 28)``."""


def os_error_of(exc: BaseException) -> int | None:
    """The system error number behind a write's failure: an OSError's, or the one Polars wraps in its own exception
    (a full disk while writing Parquet is a ``ComputeError`` saying ``os error 28``); None for anything else."""
    if isinstance(exc, OSError) and exc.errno:
        return exc.errno
    if isinstance(exc, OSError) or type(exc).__module__.startswith("polars"):  # Polars' CSV writer: an OSError
        found = _OS_ERROR.search(str(exc))                                      # with no errno, the number in words
        return int(found.group(1)) if found else None
    return None


def _why(exc: BaseException) -> str:
    code = os_error_of(exc)
    if code in (errno.ENOSPC, errno.EDQUOT):
        return "the disk is full"
    if code:
        return os.strerror(code)
    return (exc.strerror if isinstance(exc, OSError) else None) or str(exc)


@contextmanager
def writing_errors(path: str | Path, what: str = "--out", kept: bool = True) -> Iterator[None]:
    """Turn a system error while writing ``path`` (a full disk, a quota, an I/O error; Polars' wrapped ones too)
    into one line; ``kept``: the line says the old file (if any) is unchanged."""
    try:
        yield
    except BadInput:
        raise
    except Exception as exc:
        if not isinstance(exc, OSError) and os_error_of(exc) is None:
            raise
        tail = "; the old file is unchanged" if kept and os.path.exists(path) else "; nothing was written"
        raise BadInput(f"{what} {short_repr(str(path))}: cannot write ({_why(exc)}){tail}") from None


def _probe(folder: Path, name: str, text: str, what: str) -> None:
    """Make (and remove) a file where :func:`write_atomically` puts its temporary file: the only check that holds
    for root, read-only mounts and pseudo file systems (``/proc``, ``/sys``), where the permission bits say
    yes and the write fails after the command has run. Named as a temporary file, so one left by a killed run
    is removed by the next write."""
    import secrets

    probe = folder / f".{name}.tmp-{os.getpid()}.{secrets.token_hex(4)}"
    try:
        os.close(os.open(probe, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
    except OSError as exc:
        raise BadInput(f"{what} {short_repr(text)}: folder {short_repr(str(folder), 80)} does not take new files "
                       f"({exc.strerror or type(exc).__name__})") from None
    try:
        os.unlink(probe)
    except OSError:
        pass


TEMP_NAME_EXTRA = 32
"""Bytes :func:`write_atomically`'s temporary name adds to the file name (``.NAME.tmp-PID.HEX``), rounded up."""


def _name_max(folder: Path) -> int:
    """The longest file name the folder's file system takes (255 when it does not say)."""
    try:
        return int(os.pathconf(folder, "PC_NAME_MAX"))
    except (OSError, ValueError):
        return 255


def is_sink(target: Path) -> bool:
    """The null device (written through, never replaced by a regular file)."""
    try:
        return any(os.path.exists(s) and os.path.exists(target) and os.path.samefile(target, s) for s in _SINKS)
    except OSError:
        return False


def stale_pid_entries(folder: Path, prefix: str) -> list[Path]:
    """Entries ``<prefix><pid>.*`` in ``folder`` left by processes that are gone (killed mid-write)."""
    out = []
    try:
        names = os.listdir(folder)
    except OSError:
        return out
    for name in names:
        if not name.startswith(prefix):
            continue
        pid = name[len(prefix):].split(".", 1)[0]
        if pid.isdigit() and int(pid) != os.getpid() and not pid_alive(int(pid)):
            out.append(folder / name)
    return out


def _remove(path: Path) -> None:
    import shutil

    try:
        shutil.rmtree(path) if path.is_dir() and not path.is_symlink() else path.unlink()
    except OSError:
        pass


def write_atomically(path: str | Path, write: Callable[[str], object], what: str = "--out") -> Path:
    """Write an output file all or nothing: ``write(tmp)`` fills a temporary file next to the
    target, which then replaces it (a regular file keeps its mode; a new one gets 0666 minus the
    umask, like any file the user creates). The null device is written through, not replaced.
    Temporary files of killed runs (``.NAME.tmp-PID.*``) are removed first."""
    import secrets

    target = output_target(path, what)
    if is_sink(target):
        return _write_through(target, write, what)
    prefix = f".{target.name}.tmp-"
    for stale in stale_pid_entries(target.parent, prefix):
        _remove(stale)
    tmp = target.parent / f"{prefix}{os.getpid()}.{secrets.token_hex(4)}"
    try:
        with writing_errors(path, what):
            os.close(os.open(tmp, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o666))  # the umask applies
            mode = stat.S_IMODE(os.stat(target).st_mode) if target.exists() else None
            write(str(tmp))
            if mode is not None:
                os.chmod(tmp, mode)
            os.replace(tmp, target)
    finally:
        if os.path.lexists(tmp):
            _remove(tmp)
    return target


def _write_through(target: Path, write, what: str) -> Path:
    """Fill a temporary file elsewhere, then copy it into the sink (the device itself stays)."""
    import shutil
    import tempfile

    with tempfile.TemporaryDirectory(prefix="ruleslinger-out-") as tmp:
        staging = Path(tmp) / f"out{target.suffix}"
        with writing_errors(target, what, kept=False):
            write(str(staging))
            with open(staging, "rb") as src, open(target, "wb") as dst:
                shutil.copyfileobj(src, dst)
    return target
