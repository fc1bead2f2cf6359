"""Decided verdict results kept on disk between runs of ``ruleslinger readings impact`` (rule:X-bad-input: a cache
that cannot be read or written is left alone, never an error).

The file is ``$RULESLINGER_CACHE/verdicts.sqlite3`` (else ``$XDG_CACHE_HOME/ruleslinger/``, else
``~/.cache/ruleslinger/``). A result is kept under the job (game, verdict, readings, settings) and a fingerprint of
the code and data that decide it (every file of ``solver/`` and ``scenarios/``), so a changed rule never answers
from an old result. Only decided results are kept: one a time limit left undecided is computed again.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from functools import lru_cache
from pathlib import Path
from typing import Any

from solver.paths import REPO

SCHEMA = "create table if not exists result (key text primary key, value text not null, seconds real not null)"


def folder() -> Path:
    """Where the kept results live (the variables above)."""
    if os.environ.get("RULESLINGER_CACHE"):
        return Path(os.environ["RULESLINGER_CACHE"])
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    return (Path(xdg) if os.path.isabs(xdg) else Path.home() / ".cache") / "ruleslinger"


@lru_cache(maxsize=1)
def fingerprint() -> str:
    """A digest of every file of ``solver/`` and ``scenarios/`` (the code and data a verdict rests on)."""
    digest = hashlib.sha256()
    for top in ("solver", "scenarios"):
        for path in sorted((REPO / top).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                digest.update(path.relative_to(REPO).as_posix().encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()


def _key(job: Any) -> str:
    from dataclasses import asdict

    part = [job.part] if getattr(job, "part", "") else []  # a part's job (a whole verdict's key is unchanged)
    text = json.dumps([fingerprint(), job.game, job.verdict, job.overrides, asdict(job.settings), *part],
                      sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


def _connect() -> sqlite3.Connection | None:
    try:
        path = folder() / "verdicts.sqlite3"
        path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(path, timeout=10)
        conn.execute(SCHEMA)
        return conn
    except (OSError, sqlite3.Error):
        return None


def load(job: Any) -> tuple[Any, float] | None:
    """The kept (value, seconds) of ``job``, or None (not kept, or no readable cache)."""
    conn = _connect()
    if conn is None:
        return None
    try:
        with conn:
            row = conn.execute("select value, seconds from result where key = ?", (_key(job),)).fetchone()
        return (json.loads(row[0]), row[1]) if row else None
    except (sqlite3.Error, ValueError):
        return None
    finally:
        conn.close()


def save(job: Any, value: Any, seconds: float) -> None:
    """Keep a decided result (silently skipped when the cache cannot be written)."""
    conn = _connect()
    if conn is None:
        return
    try:
        with conn:
            conn.execute("insert or replace into result values (?, ?, ?)", (_key(job), json.dumps(value), seconds))
    except (sqlite3.Error, TypeError, ValueError):
        pass
    finally:
        conn.close()
