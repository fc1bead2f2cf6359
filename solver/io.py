"""Reading user files safely: size limit, JSON/TOML syntax, nesting depth, one-line errors (rule:X-bad-input).

Every failure raises :class:`solver.errors.BadInput` naming the file and the problem, so the CLI
exits 2 and the dashboard shows the message inline; nothing is ever half-written.
"""

from __future__ import annotations

import json
import math
import os
import re
import stat
import tomllib
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

from solver.errors import BadInput

MAX_BYTES = 1_000_000
"""Largest position, town or data file accepted (1 MB): far above any real one."""
MAX_DEPTH = 32
"""Deepest nesting accepted in a JSON document; real files nest 3-4 levels."""
MAX_NUMBER_CHARS = 40
"""Longest number accepted as text (an option, a text box, a JSON or TOML literal): 40 characters
hold any 128-bit integer; a longer one is refused before Python converts it (``Fraction("1e999999999")``
would build a billion-digit number)."""
MAX_EXPONENT = 30
"""Largest decimal exponent accepted in a number typed as text (``1e30``, ``2.5e-30``)."""
MAX_MAGNITUDE = 40
"""A number typed as text lies within 1e-40 and 1e40 in size (or is 0): the digits and the exponent are bounded
each, and together (38 digits times 1e30) they would still reach 1e68."""
MAX_INT = 2**63 - 1
"""Largest magnitude of a whole number typed as text (the 64-bit range the tables store)."""


def _depth(text: str) -> int:
    depth = best = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            best = max(best, depth)
        elif ch in "]}":
            depth -= 1
    return best


def parse_json_text(text: str | bytes, what: str = "input") -> Any:
    """Parse JSON from text, refusing oversized or too deeply nested documents."""
    if isinstance(text, bytes):
        if len(text) > MAX_BYTES:
            raise BadInput(f"{what}: file too large ({len(text)} bytes; limit {MAX_BYTES})")
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise BadInput(f"{what}: not UTF-8 text") from None
    if len(text) > MAX_BYTES:
        raise BadInput(f"{what}: file too large ({len(text)} characters; limit {MAX_BYTES})")
    if _depth(text) > MAX_DEPTH:
        raise BadInput(f"{what}: JSON nested deeper than {MAX_DEPTH} levels")
    try:
        return json.loads(text, parse_int=_json_int(what), parse_float=_json_float(what),
                          parse_constant=_json_constant(what), object_pairs_hook=_json_object(what))
    except BadInput:
        raise
    except json.JSONDecodeError as exc:
        raise BadInput(f"{what}: invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from None
    except (RecursionError, ValueError) as exc:
        raise BadInput(f"{what}: invalid JSON: {exc}") from None


def _json_int(what: str):
    def parse(literal: str) -> int:
        if len(literal) > MAX_NUMBER_CHARS:
            raise BadInput(f"{what}: a number of {len(literal)} characters (at most {MAX_NUMBER_CHARS})")
        return int(literal)
    return parse


def _json_float(what: str):
    def parse(literal: str) -> float:
        if len(literal) > MAX_NUMBER_CHARS:
            raise BadInput(f"{what}: a number of {len(literal)} characters (at most {MAX_NUMBER_CHARS})")
        value = float(literal)
        if not math.isfinite(value):
            raise BadInput(f"{what}: the number {short_repr(literal)} is not finite")
        return value
    return parse


def _json_constant(what: str):
    def parse(name: str):
        raise BadInput(f"{what}: {name} is not a number JSON allows")
    return parse


def _json_object(what: str):
    def build(pairs: list[tuple[str, Any]]) -> dict:
        out: dict = {}
        for key, value in pairs:
            if key in out:
                raise BadInput(f"{what}: key {short_repr(key)} appears twice in one object")
            out[key] = value
        return out
    return build


def _bounded_toml(value: Any, what: str) -> Any:
    """Refuse TOML integers longer than MAX_NUMBER_CHARS digits (tomllib converts them itself)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, int) and not isinstance(item, bool) and item.bit_length() > 130:
            raise BadInput(f"{what}: {short_repr(item)} (at most {MAX_NUMBER_CHARS} digits)")
    return value


def parse_toml_text(text: str | bytes, what: str = "input") -> dict[str, Any]:
    """Parse TOML from text with the same size limit as JSON."""
    if isinstance(text, bytes):
        if len(text) > MAX_BYTES:
            raise BadInput(f"{what}: file too large ({len(text)} bytes; limit {MAX_BYTES})")
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise BadInput(f"{what}: not UTF-8 text") from None
    if len(text) > MAX_BYTES:
        raise BadInput(f"{what}: file too large ({len(text)} characters; limit {MAX_BYTES})")
    try:
        return _bounded_toml(tomllib.loads(text, parse_float=_json_float(what)), what)
    except BadInput:
        raise
    except tomllib.TOMLDecodeError as exc:
        raise BadInput(f"{what}: invalid TOML: {exc}") from None
    except RecursionError:
        raise BadInput(f"{what}: TOML nested too deeply") from None
    except ValueError as exc:  # e.g. an integer longer than Python converts (4300 digits)
        raise BadInput(f"{what}: invalid TOML: {exc}") from None


def _read_bytes(path: str | Path) -> bytes:
    """The bytes of a regular file of at most MAX_BYTES (devices, pipes, folders refused)."""
    p = Path(path)
    if "\x00" in str(path):
        raise BadInput(f"{short_repr(str(path))}: a file name cannot contain a NUL character")
    try:
        info = os.stat(p)
        if stat.S_ISDIR(info.st_mode):
            raise BadInput(f"{p}: is a directory, expected a file")
        if not stat.S_ISREG(info.st_mode):
            raise BadInput(f"{p}: not a regular file (device, pipe or socket)")
        if info.st_size > MAX_BYTES:
            raise BadInput(f"{p}: file too large ({info.st_size} bytes; limit {MAX_BYTES})")
        with open(p, "rb") as handle:
            data = handle.read(MAX_BYTES + 1)  # the file may have grown since stat
        if len(data) > MAX_BYTES:
            raise BadInput(f"{p}: file too large (over {MAX_BYTES} bytes)")
        return data
    except FileNotFoundError:
        raise BadInput(f"{p}: no such file") from None
    except PermissionError:
        raise BadInput(f"{p}: permission denied") from None
    except OSError as exc:
        raise BadInput(f"{p}: cannot read ({exc.strerror or exc})") from None


def read_json(path: str | Path) -> Any:
    """Read and parse a JSON file; every failure is a one-line :class:`BadInput`."""
    return parse_json_text(_read_bytes(path), str(path))


def read_toml(path: str | Path) -> dict[str, Any]:
    """Read and parse a TOML file; every failure is a one-line :class:`BadInput`."""
    return parse_toml_text(_read_bytes(path), str(path))


def read_data(path: str | Path) -> Any:
    """Read a JSON or TOML file, chosen by its suffix."""
    return read_toml(path) if str(path).endswith(".toml") else read_json(path)


def require(mapping: Any, key: str, kind: type | tuple[type, ...], what: str) -> Any:
    """``mapping[key]`` checked for presence and type, else a BadInput naming ``what.key``."""
    if not isinstance(mapping, dict):
        raise BadInput(f"{what}: expected an object, got {type(mapping).__name__}")
    if key not in mapping:
        raise BadInput(f"{what}: missing field '{key}'")
    value = mapping[key]
    if kind is int or kind == (int,):
        ok = isinstance(value, int) and not isinstance(value, bool)
    else:
        ok = isinstance(value, kind)
    if not ok:
        names = kind.__name__ if isinstance(kind, type) else "/".join(k.__name__ for k in kind)
        raise BadInput(f"{what}.{key}: expected {names}, got {type(value).__name__}")
    return value


def is_whole(value: Any) -> bool:
    """The one integer rule of every integer field: an ``int``, never a bool (``false``) nor a float
    (``0.0``, ``180.0``), whatever its value."""
    return isinstance(value, int) and not isinstance(value, bool)


def as_int(value: Any, what: str, lo: int | None = None, hi: int | None = None) -> int:
    """An integer (not a bool) within [lo, hi], else a BadInput naming ``what``."""
    if not is_whole(value):
        raise BadInput(f"{what}: expected an integer, got {short_repr(value)}")
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise BadInput(f"{what}: {short_repr(value)} is out of range {lo}..{hi}")
    return value


def short_repr(value: Any, limit: int = 40) -> str:
    """A repr cut to ``limit`` characters that never fails (huge ints cannot be printed whole)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 128:
        return f"{'-' if value < 0 else ''}<integer of about {int(value.bit_length() * 0.30103)} digits>"
    if isinstance(value, Fraction) and max(value.numerator.bit_length(), value.denominator.bit_length()) > 128:
        return f"<fraction of about {int(max(abs(value.numerator), value.denominator).bit_length() * 0.30103)} digits>"
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 - a repr must never break an error message
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


# --- numbers typed as text: one bounded parser for every entry point ------------------------------

_WHOLE = re.compile(r"[+-]?\d+", re.ASCII)
_DECIMAL = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE]([+-]?\d+))?", re.ASCII)
_RATIO = re.compile(r"([+-]?\d+)/(\d+)", re.ASCII)


def _number_text(text: Any, what: str, kind: str) -> str:
    """The stripped text of a number, refused when it is not text or longer than MAX_NUMBER_CHARS."""
    if not isinstance(text, str):
        raise BadInput(f"{what}: expected {kind}, got {short_repr(text)}")
    t = text.strip()
    if len(t) > MAX_NUMBER_CHARS:
        raise BadInput(f"{what}: expected {kind} of at most {MAX_NUMBER_CHARS} characters, got {len(t)} characters")
    return t


def _in_range(value, what: str, lo, hi):
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        span = f"{'' if lo is None else short_repr(lo)}..{'' if hi is None else short_repr(hi)}"
        raise BadInput(f"{what}: {short_repr(value)} is out of range {span}")
    return value


def parse_int_text(text: Any, what: str, lo: int | None = -MAX_INT, hi: int | None = MAX_INT) -> int:
    """A whole number typed as text (``"42"``, ``"-3"``), bounded in length and within [lo, hi]."""
    t = _number_text(text, what, "a whole number")
    if not _WHOLE.fullmatch(t):
        raise BadInput(f"{what}: expected a whole number, got {short_repr(t)}")
    return _in_range(int(t), what, lo, hi)


def _decimal(t: str, what: str, kind: str) -> str:
    match = _DECIMAL.fullmatch(t)
    if not match:
        raise BadInput(f"{what}: expected {kind}, got {short_repr(t)}")
    if match.group(1) is not None and abs(int(match.group(1))) > MAX_EXPONENT:
        raise BadInput(f"{what}: {short_repr(t)} is not {kind} (its exponent is beyond +-{MAX_EXPONENT})")
    size = Decimal(t)  # exact and cheap: at most MAX_NUMBER_CHARS digits, a bounded exponent
    if size and not -MAX_MAGNITUDE <= size.adjusted() < MAX_MAGNITUDE:
        raise BadInput(f"{what}: {short_repr(t)} is not {kind} (its size is beyond 1e+-{MAX_MAGNITUDE})")
    return t


def parse_float_text(text: Any, what: str, lo: float | None = None, hi: float | None = None,
                     kind: str = "a finite number") -> float:
    """A finite decimal number typed as text (``"0.5"``, ``"2e3"``; no nan/inf), within [lo, hi]."""
    t = _decimal(_number_text(text, what, kind), what, kind)
    return _in_range(float(t), what, lo, hi)


def parse_fraction_text(text: Any, what: str, lo: Fraction | int | None = None,
                        hi: Fraction | int | None = None) -> Fraction:
    """An exact number typed as text: ``"1/3"``, ``"0.25"``, ``"2e-3"`` (bounded digits and exponent)."""
    t = _number_text(text, what, "a fraction like 1/3 or 0.25")
    ratio = _RATIO.fullmatch(t)
    if ratio:
        if int(ratio.group(2)) == 0:
            raise BadInput(f"{what}: {short_repr(t)} is not a fraction (division by zero)")
        value = Fraction(int(ratio.group(1)), int(ratio.group(2)))
    else:
        value = Fraction(_decimal(t, what, "a fraction like 1/3 or 0.25"))
    return _in_range(value, what, lo, hi)


# --- output files: checked before any work, written atomically with normal permissions -------------

_SINKS = (os.devnull,)
"""Special files written through (never replaced): the null device."""


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):
        return True
    return True


def output_target(path: str | Path, what: str = "--out") -> Path:
    """The file an output path will write, checked before any work is done (rule:X-bad-input).

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
        target = Path(os.path.realpath(text, strict=False))
        info = os.stat(target) if os.path.lexists(target) else None
    except (OSError, RuntimeError) as exc:
        raise BadInput(f"{what} {short_repr(text)}: cannot resolve ({getattr(exc, 'strerror', None) or exc})") from None
    if os.path.islink(target):
        raise BadInput(f"{what} {short_repr(text)}: a symbolic link loop")
    if info is not None and is_sink(target):
        return target
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


def _probe(folder: Path, name: str, text: str, what: str) -> None:
    """Make (and remove) a file where :func:`write_atomically` puts its temporary file: the only check that holds
    for root, read-only mounts and pseudo file systems (``/proc``, ``/sys``), where the permission bits say
    yes and the write fails after the work is done. Named as a temporary file, so one left by a killed run
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
        if pid.isdigit() and int(pid) != os.getpid() and not _pid_alive(int(pid)):
            out.append(folder / name)
    return out


def _remove(path: Path) -> None:
    import shutil

    try:
        shutil.rmtree(path) if path.is_dir() and not path.is_symlink() else path.unlink()
    except OSError:
        pass


def write_atomically(path: str | Path, write, what: str = "--out") -> Path:
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
        os.close(os.open(tmp, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o666))  # the umask applies
        mode = stat.S_IMODE(os.stat(target).st_mode) if target.exists() else None
        write(str(tmp))
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, target)
    except OSError as exc:
        raise BadInput(f"{what} {short_repr(str(path))}: cannot write ({exc.strerror or exc})") from None
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
        write(str(staging))
        try:
            with open(staging, "rb") as src, open(target, "wb") as dst:
                shutil.copyfileobj(src, dst)
        except OSError as exc:
            raise BadInput(f"{what} {target}: cannot write ({exc.strerror or exc})") from None
    return target
