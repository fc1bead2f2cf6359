"""Rows files of the long benches: one JSON row a line, appended whole as each item finishes, so a killed run
resumes where it stopped (its last line, cut short by the kill, is dropped)."""

from __future__ import annotations

import json
import os
from pathlib import Path

from solver.errors import BadInput


def read_rows(path, repair: bool = False) -> list[dict]:
    """The whole rows of a rows file; a last line cut short (no newline, or not JSON) is dropped, and with
    ``repair`` the file is truncated back to its last whole row. A bad line before the last is an error."""
    p = Path(path)
    if not p.exists():
        return []
    data = p.read_bytes()
    rows, good_end, pos = [], 0, 0
    while pos < len(data):
        nl = data.find(b"\n", pos)
        line = data[pos:] if nl < 0 else data[pos:nl]
        try:
            row = json.loads(line) if line.strip() else None
        except ValueError:
            row = "bad"
        if nl < 0 or row == "bad":
            if nl >= 0 and data[nl + 1:].strip():
                number = data[:pos].count(b"\n") + 1
                raise BadInput(f"rows file {p}: line {number} is not a JSON row")
            break  # the last line, cut short by a kill
        if row is not None:
            rows.append(row)
        pos = good_end = nl + 1
    if repair and good_end < len(data):
        with open(p, "r+b") as f:
            f.truncate(good_end)
    return rows


def append_row(path, row: dict) -> None:
    """One whole line per row: a single ``write`` on an append-only descriptor, then ``fsync``."""
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, (json.dumps(row, sort_keys=True) + "\n").encode())
        os.fsync(fd)
    finally:
        os.close(fd)
