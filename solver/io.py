"""Reading user files safely: size limit, JSON/TOML syntax, nesting depth, one-line errors (rule:X-bad-input).

Every failure raises :class:`solver.errors.BadInput` naming the file and the problem, so the CLI
exits 2 and the dashboard shows the message inline; nothing is ever half-written.
"""

from __future__ import annotations

import json
import os
import stat
import tomllib
from pathlib import Path
from typing import Any

from solver.errors import BadInput

MAX_BYTES = 1_000_000
"""Largest position, town or data file accepted (1 MB): far above any real one."""
MAX_DEPTH = 32
"""Deepest nesting accepted in a JSON document; real files nest 3-4 levels."""


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
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise BadInput(f"{what}: invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from None
    except (RecursionError, ValueError) as exc:
        raise BadInput(f"{what}: invalid JSON: {exc}") from None


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
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise BadInput(f"{what}: invalid TOML: {exc}") from None
    except RecursionError:
        raise BadInput(f"{what}: TOML nested too deeply") from None
    except ValueError as exc:  # e.g. an integer longer than Python converts (4300 digits)
        raise BadInput(f"{what}: invalid TOML: {exc}") from None


def _read_bytes(path: str | Path) -> bytes:
    """The bytes of a regular file of at most MAX_BYTES (devices, pipes, folders refused)."""
    p = Path(path)
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


def as_int(value: Any, what: str, lo: int | None = None, hi: int | None = None) -> int:
    """An integer (not a bool) within [lo, hi], else a BadInput naming ``what``."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise BadInput(f"{what}: expected an integer, got {short_repr(value)}")
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise BadInput(f"{what}: {short_repr(value)} is out of range {lo}..{hi}")
    return value


def short_repr(value: Any, limit: int = 40) -> str:
    """A repr cut to ``limit`` characters that never fails (huge ints cannot be printed whole)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 128:
        return f"{'-' if value < 0 else ''}<integer of about {int(value.bit_length() * 0.30103)} digits>"
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 - a repr must never break an error message
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."
