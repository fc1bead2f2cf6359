"""A page's work in the browser's address, and the one decoder every address parameter goes through.

A work document travels as compact URL-safe text (JSON, zlib, then base64url), so a reload or a bookmark
resumes where the user was. :func:`decode` reads it back with the guarantees of the file loaders
(:func:`solver.io.read.parse_json_text`: size and depth limits, bounded numbers, duplicate keys refused), then
checks it against the parameter's :class:`Address` schema (the small shape language below, and the solver's
own loaders for the parts it has loaders for) before the page uses it. Every failure is one
:class:`~solver.errors.BadInput` line naming the parameter and the problem (rule:X-bad-input); the pages show
it inline and open at their defaults. The schemas of the dashboard's parameters are
:mod:`dashboard.shared.work.addresses`. Presentation plumbing only: nothing here decides a rule.
"""

from __future__ import annotations

import base64
import binascii
import json
import math
import re
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from dashboard.shared.work.plaintext import plain
from solver.errors import BadInput
from solver.io.numbers import MAX_INT, parse_int_text, short_repr
from solver.io.read import MAX_BYTES, is_whole, parse_json_text

MAX_TEXT = 64 * 1024
"""Longest encoded parameter accepted (64 KB of address): longer ones are refused before decompressing."""
MAX_PLAIN = 200
"""Longest plain (not encoded) parameter accepted, such as a step number or a tab's label."""
_ALPHABET = re.compile(r"[A-Za-z0-9_-]*={0,2}", re.ASCII)
"""base64url, its padding optional (:func:`encode` leaves it out)."""


def encode(doc: Any) -> str:
    raw = json.dumps(doc, separators=(",", ":"), sort_keys=True).encode()
    return base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode().rstrip("=")


def put(params: Any, name: str, doc: Any) -> None:
    """Keep ``doc`` in the address parameter ``name`` of ``params`` (``st.query_params``), encoded; ``None``
    removes the parameter. The address is written only when it changes (each write is a browser history step)."""
    if doc is None:
        if name in params:
            del params[name]
        return
    text = encode(doc)
    if params.get(name) != text:
        params[name] = text


# ----------------------------------------------------------------------------- the shape language

def _refuse(where: str, problem: str) -> BadInput:
    return BadInput(f"{where}: {problem}" if where else problem)


def _at(where: str, key: Any) -> str:
    return f"{where}[{key}]" if isinstance(key, int) else (f"{where}.{key}" if where else str(key))


def _kind(value: Any) -> str:
    """A JSON value's kind in words (what an error says it got)."""
    if value is None:
        return "null"
    names = {bool: "true/false", int: "a whole number", float: "a number", str: "text", list: "a list",
             dict: "an object"}
    return names.get(type(value), type(value).__name__)


@dataclass(frozen=True)
class Whole:
    """A whole number (never true/false, never 1.0) within [lo, hi]; in a plain parameter, ASCII digits."""

    lo: int = -MAX_INT
    hi: int = MAX_INT

    def check(self, value: Any, where: str) -> int:
        if not is_whole(value):
            raise _refuse(where, f"expected a whole number, got {_kind(value)}")
        if not self.lo <= value <= self.hi:
            raise _refuse(where, f"{short_repr(value)} is out of range {self.lo}..{self.hi}")
        return value

    def parse(self, text: str, what: str) -> int:
        return parse_int_text(text, what, self.lo, self.hi)


@dataclass(frozen=True)
class Text:
    """Text of at most ``most`` characters; one of ``choices`` when given (``noun`` names what they are)."""

    most: int = 100
    choices: tuple[str, ...] | None = None
    noun: str = "value"

    def check(self, value: Any, where: str) -> str:
        if not isinstance(value, str):
            raise _refuse(where, f"expected text, got {_kind(value)}")
        if len(value) > self.most:
            raise _refuse(where, f"text of {len(value)} characters (at most {self.most})")
        if self.choices is not None and value not in self.choices:
            raise _refuse(where, f"unknown {self.noun} {short_repr(value)} (one of: {', '.join(self.choices)})")
        return value

    def parse(self, text: str, what: str) -> str:
        return self.check(text, what)


@dataclass(frozen=True)
class Scalar:
    """One JSON scalar: null, true/false, a whole number (64-bit), a finite number, or text (``most`` characters)."""

    most: int = 100

    def check(self, value: Any, where: str) -> Any:
        if value is None or isinstance(value, bool):
            return value
        if isinstance(value, int):
            return Whole().check(value, where)
        if isinstance(value, float) and math.isfinite(value):
            return value
        if isinstance(value, str):
            return Text(self.most).check(value, where)
        raise _refuse(where, f"expected a single value, got {_kind(value)}")


@dataclass(frozen=True)
class Nullable:
    """``shape``, or null."""

    shape: Any

    def check(self, value: Any, where: str) -> Any:
        return None if value is None else self.shape.check(value, where)


@dataclass(frozen=True)
class AnyOf:
    """The first of ``shapes`` the value fits (the last one's refusal when none does)."""

    shapes: tuple

    def check(self, value: Any, where: str) -> Any:
        for shape in self.shapes[:-1]:
            try:
                return shape.check(value, where)
            except BadInput:
                pass
        return self.shapes[-1].check(value, where)


@dataclass(frozen=True)
class ListOf:
    """A list of at most ``most`` items, each an ``item``."""

    item: Any
    most: int

    def check(self, value: Any, where: str) -> list:
        if not isinstance(value, list):
            raise _refuse(where, f"expected a list, got {_kind(value)}")
        if len(value) > self.most:
            raise _refuse(where, f"a list of {len(value)} items (at most {self.most})")
        for i, item in enumerate(value):
            self.item.check(item, _at(where, i))
        return value


@dataclass(frozen=True)
class Fields:
    """An object holding every key of ``required``, any of ``optional``, and nothing else; each value its shape.
    ``noun`` names what an unknown key is (an unknown game, an unknown option)."""

    required: dict = field(default_factory=dict)
    optional: dict = field(default_factory=dict)
    noun: str = "key"

    def check(self, value: Any, where: str) -> dict:
        if not isinstance(value, dict):
            raise _refuse(where, f"expected an object, got {_kind(value)}")
        known = {**self.optional, **self.required}
        unknown = sorted(set(value) - set(known))
        if unknown:
            raise _refuse(where, f"unknown {self.noun} {short_repr(unknown[0])} (expected: {', '.join(known)})")
        for key in self.required:
            if key not in value:
                raise _refuse(where, f"missing {self.noun} {key!r}")
        for key, item in value.items():
            known[key].check(item, _at(where, key))
        return value


@dataclass(frozen=True)
class MapOf:
    """An object of at most ``most`` entries, each key a ``key`` (a :class:`Text`), each value a ``value``."""

    key: Text
    value: Any
    most: int

    def check(self, value: Any, where: str) -> dict:
        if not isinstance(value, dict):
            raise _refuse(where, f"expected an object, got {_kind(value)}")
        if len(value) > self.most:
            raise _refuse(where, f"an object of {len(value)} entries (at most {self.most})")
        for key, item in value.items():
            self.key.check(key, where)
            self.value.check(item, _at(where, key))
        return value


@dataclass(frozen=True)
class Loaded:
    """A part the solver has its own loader for (a game record, a line, a round): first ``shape`` (when
    given), then ``load(value)``, whose :class:`BadInput` is the refusal; what it returns is not kept."""

    load: Callable[[Any], Any]
    shape: Any = None

    def check(self, value: Any, where: str) -> Any:
        if self.shape is not None:
            self.shape.check(value, where)
        try:
            self.load(value)
        except BadInput as exc:
            raise _refuse(where, str(exc)) from None
        return value


@dataclass(frozen=True)
class Address:
    """One address parameter (``?name=``): ``what`` it holds in words, its ``shape``, and whether it is an encoded
    document (:func:`encode`) or ``plain`` text (a step number, a tab's label: a :class:`Whole` or :class:`Text`)."""

    name: str
    what: str
    shape: Any
    plain: bool = False


# ----------------------------------------------------------------------------- the decoder

def decode(text: Any, address: Address) -> Any:
    """The value of ``address`` in ``text`` (the parameter as the address holds it), checked against its shape;
    a one-line :class:`BadInput` naming ``address.what`` when it is damaged, too big or of the wrong shape. Its
    line is plain text (:func:`~dashboard.shared.work.plaintext.plain`): what it echoes of the address is never
    read as Markdown where the page shows it."""
    try:
        return _decoded(text, address)
    except BadInput as exc:
        raise BadInput(plain(exc)) from None


def _decoded(text: Any, address: Address) -> Any:
    what = address.what
    if not isinstance(text, str):
        raise BadInput(f"{what}: expected text, got {_kind(text)}")
    if address.plain:
        if len(text) > MAX_PLAIN:
            raise BadInput(f"{what}: {len(text)} characters (at most {MAX_PLAIN})")
        return address.shape.parse(text, what)
    doc = parse_json_text(_inflate(text, what), what)
    try:
        return address.shape.check(doc, "")
    except BadInput as exc:
        raise BadInput(f"{what}: {exc}") from None


def _inflate(text: str, what: str) -> bytes:
    """The JSON bytes of :func:`encode`'s text: base64url, then zlib, at most :data:`solver.io.MAX_BYTES`."""
    if len(text) > MAX_TEXT:
        raise BadInput(f"{what} is too long ({len(text)} characters; at most {MAX_TEXT})")
    damaged = f"{what} is damaged (not the compressed text a saved game gives)"
    if not _ALPHABET.fullmatch(text):
        raise BadInput(f"{damaged}: it holds characters other than letters, digits, - and _")
    try:
        bare = text.rstrip("=")
        packed = base64.urlsafe_b64decode(bare + "=" * (-len(bare) % 4))
        inflater = zlib.decompressobj()
        raw = inflater.decompress(packed, MAX_BYTES + 1)
    except (binascii.Error, ValueError, zlib.error):
        raise BadInput(damaged) from None
    if len(raw) > MAX_BYTES:
        raise BadInput(f"{what} is too large (it inflates to more than {MAX_BYTES} bytes)")
    if not inflater.eof:
        raise BadInput(f"{what} is damaged (cut short: the compressed text ends early)")
    if inflater.unused_data:
        raise BadInput(f"{damaged}: text follows its end")
    return raw
