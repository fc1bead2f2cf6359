"""The single exception type for bad input (rule:X-bad-input).

Every loader, validator and engine entry point raises :class:`BadInput` with a one-line,
human-readable message naming the problem (file, field, card id, ...). The CLI turns it into
exit code 2 and that line on standard error; the dashboard shows it inline.
"""


class BadInput(ValueError):
    """Input that the rules or the file formats do not allow (contracts.md: exit code 2)."""

    def __init__(self, message: str):
        super().__init__(" ".join(str(message).split()))  # always one line

    @property
    def message(self) -> str:
        return str(self)
