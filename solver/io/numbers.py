"""Numbers typed as text: one bounded parser for every entry point (digits and exponent bounded before converting, rule:X-bad-input), and short representations of values for one-line messages."""

from __future__ import annotations

import re
from decimal import Decimal
from fractions import Fraction
from typing import Any

from solver.errors import BadInput, printable

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
MAX_SEED = MAX_INT
"""The largest seed anything takes: seeds are 0..2**63-1 (stored in Int64 columns, fed to random.Random)."""


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
    text = printable(text)
    return text if len(text) <= limit else text[: limit - 3] + "..."


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


MAX_SECONDS = 86_400.0
"""The longest time limit anything takes (a day)."""


def seconds(value: Any, what: str = "time limit", cap: float = MAX_SECONDS) -> float:
    """A time limit in seconds, in (0, ``cap``]: a number, or text bounded before converting (rule:X-bad-input).
    The one time-limit check of every command (``--time-limit``) and engine entry point."""
    if isinstance(value, str):
        value = parse_float_text(value, what, kind="a finite number of seconds")
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= cap:
        raise BadInput(f"{what}: expected seconds in (0, {cap:g}], got {short_repr(value)}")
    return float(value)


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
