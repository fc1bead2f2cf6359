"""Reading user files safely: size limit, JSON/TOML syntax, nesting depth, bounded numbers, duplicate keys refused, one-line errors (rule:X-bad-input)."""

from __future__ import annotations

import json
import math
import os
import stat
import tomllib
from pathlib import Path
from typing import Any

from solver.errors import BadInput
from solver.io.numbers import MAX_NUMBER_CHARS, short_repr

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
