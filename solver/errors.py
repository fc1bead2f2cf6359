"""The single exception type for bad input (rule:X-bad-input).

Every loader, validator and engine entry point raises :class:`BadInput` with a one-line,
human-readable message naming the problem (file, field, card id, ...). The CLI turns it into
exit code 2 and that line on standard error; the dashboard shows it inline.
"""

import re

MAX_MESSAGE = 600
"""Longest message shown (characters); a longer one is cut (a hostile value must not fill a screen)."""
_LONG_NUMBER = re.compile(r"\d{41,}")


def one_line(message: object) -> str:
    """``message`` on one line, numbers of more than 40 digits shortened, at most MAX_MESSAGE characters."""
    text = " ".join(str(message).split())
    text = _LONG_NUMBER.sub(lambda m: f"{m.group()[:8]}...<{len(m.group())} digits>", text)
    return text if len(text) <= MAX_MESSAGE else text[: MAX_MESSAGE - 12] + " ...(cut)"


class BadInput(ValueError):
    """Input that the rules or the file formats do not allow (contracts.md: exit code 2)."""

    def __init__(self, message: str):
        super().__init__(one_line(message))  # always one line, never a screenful

    @property
    def message(self) -> str:
        return str(self)
