"""The single exception type for bad input (rule:X-bad-input).

Every loader, validator and engine entry point raises :class:`BadInput` with a one-line,
human-readable message naming the problem (file, field, card id, ...). The CLI turns it into
exit code 2 and that line on standard error; the dashboard shows it inline.
"""

import re

MAX_MESSAGE = 600
"""Longest message shown (characters); a longer one is cut (a hostile value must not fill a screen)."""
_LONG_NUMBER = re.compile(r"\d{41,}")


def printable(text: object) -> str:
    """``text`` with every character that cannot be shown or encoded (a lone surrogate, a control or format
    character, a private-use or unassigned one) written as its escape (``\\ud800``), so a message echoing
    hostile text can always be printed, encoded as UTF-8 and shown in one line. Spaces and line breaks stay
    (:func:`one_line` folds them)."""
    try:
        value = str(text)
    except Exception:  # noqa: BLE001 - a message must never fail to be made
        value = f"<{type(text).__name__}>"
    if value.isprintable():
        return value
    return "".join(c if c.isprintable() or c in _SPACES else _escape(c) for c in value)


_SPACES = frozenset(" \t\n\r\f\v")


def _escape(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else (f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}")


def one_line(message: object) -> str:
    """``message`` printable (:func:`printable`), on one line, numbers of more than 40 digits shortened, at most
    MAX_MESSAGE characters."""
    text = " ".join(printable(message).split())
    text = _LONG_NUMBER.sub(lambda m: f"{m.group()[:8]}...<{len(m.group())} digits>", text)
    return text if len(text) <= MAX_MESSAGE else text[: MAX_MESSAGE - 12] + " ...(cut)"


class BadInput(ValueError):
    """Input that the rules or the file formats do not allow (contracts.md: exit code 2)."""

    def __init__(self, message: str):
        super().__init__(one_line(message))  # always one line, never a screenful

    @property
    def message(self) -> str:
        return str(self)
