"""This browser's work and saved games, kept on the server in SQLite.

The file is ``$RULESLINGER_STORE`` when set, else ``$XDG_DATA_HOME/ruleslinger/store.sqlite3``, else
``~/.local/share/ruleslinger/store.sqlite3``. Every row belongs to one browser, named by the SHA-256 of the
browser's secret id (:mod:`dashboard.shared.work.browser`), so the file never holds an id a browser could be
impersonated with, and every query names the browser: no browser ever reads or changes another's rows.

Per browser the store keeps
- **work**: each page's kept work, key -> JSON document (the score sheet's town, the play-along's game
  record, the Outlaws line, ...), written when it changes and read back when a session lacks it;
- **items**: the named saved games and towns of "My games" (kind, name, JSON document, created and updated
  times), listed, resumed, renamed and deleted.

Documents obey the upload limits of :mod:`solver.io` (1 MB, 32 levels, bounded numbers). Each call opens its
own connection (Streamlit runs sessions on many threads), each write is one transaction (``BEGIN IMMEDIATE``:
all or nothing), the journal is SQLite's write-ahead log. The schema is versioned (``PRAGMA user_version``,
:data:`SCHEMA_VERSION`); a file that is damaged, unreadable, not a Ruleslinger store or from a newer version is
refused once, in one line, and saving is off for that run of the server: the pages still work, each session
keeping its own work as before.

Pages call :func:`start` (app.py, every run), then :func:`current` for this browser's :class:`Handle`, and
:func:`sync` / :func:`persist` / :func:`forget` to mirror a session-state value to the store.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
import time
import unicodedata
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import streamlit as st

from dashboard.shared.work import browser
from dashboard.shared.work.plaintext import plain
from solver.errors import BadInput, one_line, printable
from solver.io.numbers import MAX_INT, short_repr
from solver.io.read import MAX_BYTES, parse_json_text
from solver.paths import STORE_ENV, store_path

ENV = STORE_ENV
"""Environment variable naming the store's file (it overrides the user's data folder)."""
SCHEMA_VERSION = 1
"""The layout of the tables this code reads and writes; older files are brought up to it, newer refused."""
APPLICATION_ID = 0x52534C47
"""``PRAGMA application_id`` of a Ruleslinger store ("RSLG"): another program's SQLite file is refused."""
MAX_DOC_BYTES = MAX_BYTES
"""Largest document kept (bytes of JSON): the limit of an uploaded file."""
MAX_KEY = 80
"""Longest work key or kind."""
MAX_NAME = 120
"""Longest name of a saved game."""
MAX_WORK = 200
"""Most work keys one browser may keep."""
MAX_ITEMS = 1000
"""Most saved games one browser may keep."""
BUSY_SECONDS = 10.0
"""How long a write waits for another thread's or process's write to finish before giving up."""

_SCHEMA_V1 = """
CREATE TABLE work (
    owner TEXT NOT NULL, key TEXT NOT NULL, doc TEXT NOT NULL, updated REAL NOT NULL,
    PRIMARY KEY (owner, key)) WITHOUT ROWID;
CREATE TABLE items (
    id INTEGER PRIMARY KEY AUTOINCREMENT, owner TEXT NOT NULL, kind TEXT NOT NULL, name TEXT NOT NULL,
    doc TEXT NOT NULL, created REAL NOT NULL, updated REAL NOT NULL);
CREATE INDEX items_by_owner ON items (owner, kind, updated);
"""
MIGRATIONS: dict[int, str] = {0: _SCHEMA_V1}
"""From ``user_version`` n, the SQL that brings a file to n + 1 (a new schema adds an entry)."""


class StoreError(BadInput):
    """A read or write the store could not do (locked too long, disk full, file damaged since it opened)."""


class StoreFull(StoreError):
    """A write refused because the disk (or the file's size limit) is full."""


def _item_id(item_id: Any) -> None:
    """A saved item's id: a whole number SQLite can hold (a forged one is refused in one line, never raised)."""
    if not isinstance(item_id, int) or isinstance(item_id, bool) or not 0 <= item_id <= MAX_INT:
        raise BadInput("not a saved game")


@contextmanager
def _transaction(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """``BEGIN IMMEDIATE`` on ``conn``: committed whole when the block ends, rolled back whole when it raises."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def _is_full(exc: sqlite3.Error) -> bool:
    return getattr(exc, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL or "full" in str(exc)


class StoreUnavailable(Exception):
    """The store's file cannot be used this run; the message is the one line saying why (printable, one line)."""

    def __init__(self, message: str):
        super().__init__(one_line(message))


@dataclass(frozen=True)
class Item:
    """A saved game or town of "My games"; ``doc`` is None in a listing (read it with :meth:`Handle.get_item`)."""

    id: int
    kind: str
    name: str
    created: float
    updated: float
    doc: Any = None


# ----------------------------------------------------------------------------- the file


def default_path() -> Path:
    """``$RULESLINGER_STORE``, else ``store.sqlite3`` in the user's data folder (XDG_DATA_HOME when absolute)."""
    return store_path()


@dataclass(frozen=True)
class Store:
    """The checked SQLite file at ``path`` (made by :func:`open_store`); one connection per call."""

    path: Path

    def connect(self) -> sqlite3.Connection:
        """A new connection in autocommit mode (writes open their own transaction), waiting out busy writers."""
        return sqlite3.connect(self.path, timeout=BUSY_SECONDS, isolation_level=None)

    @contextmanager
    def reading(self) -> Iterator[sqlite3.Connection]:
        """A connection for reads; an SQLite failure becomes one line (StoreError)."""
        try:
            with closing(self.connect()) as conn:
                yield conn
        except sqlite3.Error as exc:
            raise StoreError(f"the saved-games store could not be read ({exc})") from None

    @contextmanager
    def writing(self) -> Iterator[sqlite3.Connection]:
        """One transaction, taken at once (``BEGIN IMMEDIATE``): committed whole, or rolled back whole."""
        try:
            with closing(self.connect()) as conn:
                with _transaction(conn):
                    yield conn
        except sqlite3.Error as exc:
            kind = StoreFull if _is_full(exc) else StoreError
            raise kind(f"the saved-games store could not be written ({exc})") from None

    @contextmanager
    def freeing(self) -> Iterator[sqlite3.Connection]:
        """A transaction that only frees space, for a full disk: the write-ahead log is emptied into the file and
        cut to nothing (its space freed), then the change is made with its rollback journal kept in memory (the
        file's pages are rewritten in place; nothing grows), and the log is turned back on."""
        try:
            with closing(self.connect()) as conn:
                conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                conn.execute("PRAGMA journal_mode = MEMORY")
                try:
                    with _transaction(conn):
                        yield conn
                finally:
                    with suppress(sqlite3.Error):  # still full: the next start of the server turns it back on
                        conn.execute("PRAGMA journal_mode = WAL")
        except sqlite3.Error as exc:
            raise StoreError(f"the saved-games store could not be written, even to delete ({exc})") from None


def _check(conn: sqlite3.Connection, where: str) -> int:
    """The file's schema version after checking it is a sound Ruleslinger store this code can read."""
    problems = [row[0] for row in conn.execute("PRAGMA quick_check")]
    if problems != ["ok"]:
        raise StoreUnavailable(f"{where} is damaged ({problems[0]})")
    app_id = conn.execute("PRAGMA application_id").fetchone()[0]
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    tables = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
    if app_id != APPLICATION_ID and (app_id != 0 or tables or version):
        raise StoreUnavailable(f"{where} is not a Ruleslinger store (another program's SQLite file)")
    if version > SCHEMA_VERSION:
        raise StoreUnavailable(f"{where} was written by a newer Ruleslinger (schema {version}; "
                               f"this one reads up to {SCHEMA_VERSION})")
    return version


def _migrate(conn: sqlite3.Connection) -> None:
    """Bring the file to SCHEMA_VERSION in one transaction (re-read inside it: another process may have done it)."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        for step in range(version, SCHEMA_VERSION):
            for statement in MIGRATIONS[step].split(";"):
                if statement.strip():
                    conn.execute(statement)
        conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def _open(path: Path) -> Store:
    """The store at ``path``, created or brought up to date; StoreUnavailable (one line) when it cannot be used, for
    any reason (a name too long or not text, a folder, no permission, a damaged or foreign file)."""
    where = f"the saved-games store {_shown(path)}"
    try:
        return _open_checked(path, where)
    except (OSError, ValueError) as exc:  # ENAMETOOLONG, ELOOP, EACCES, a NUL or a name that is not text
        raise StoreUnavailable(f"{where} cannot be used ({getattr(exc, 'strerror', None) or exc})") from None


def _shown(path: Path) -> str:
    """A store path as a message shows it: printable, a very long one cut."""
    text = printable(path)
    return text if len(text) <= 160 else text[:120] + f"... ({len(text)} characters)"


def _open_checked(path: Path, where: str) -> Store:
    if path.is_dir():
        raise StoreUnavailable(f"{where} is a folder, not a file")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreUnavailable(f"{where}: its folder cannot be made ({exc.strerror})") from None
    store = Store(path)
    _private(path)
    try:
        with closing(store.connect()) as conn:
            if _check(conn, where) < SCHEMA_VERSION:
                _migrate(conn)
            conn.execute("PRAGMA journal_mode = WAL")
    except sqlite3.Error as exc:
        raise StoreUnavailable(f"{where} is damaged or unreadable ({exc})") from None
    return store


def _private(path: Path) -> None:
    """Make the file readable and writable by its owner only (0600) before SQLite opens it, whatever the umask: it
    holds every browser's work. SQLite gives its journal files the same mode."""
    try:
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
        return
    except FileExistsError:
        pass
    info = os.stat(path)
    if info.st_uid == os.getuid() and info.st_mode & 0o077:
        os.chmod(path, info.st_mode & 0o700)


_OPENED: dict[Path, Store | StoreUnavailable] = {}
_OPENING = threading.Lock()


def open_store(path: Path | None = None) -> Store:
    """The store at ``path`` (default :func:`default_path`), checked once per process: a file refused stays refused
    (StoreUnavailable, its one line) until the server restarts, so a damaged file costs one check, not one a run."""
    path = path or default_path()
    with _OPENING:
        if path not in _OPENED:
            try:
                _OPENED[path] = _open(path)
            except StoreUnavailable as exc:
                _OPENED[path] = exc
        opened = _OPENED[path]
    if isinstance(opened, StoreUnavailable):
        raise opened
    return opened


# ----------------------------------------------------------------------------- documents


def encode(doc: Any, what: str) -> str:
    """``doc`` as compact JSON text, refused in one line (BadInput) when it is not JSON or exceeds the upload limits
    (size, depth, numbers: checked by reading the text back with :func:`solver.io.read.parse_json_text`)."""
    try:
        text = json.dumps(doc, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError, RecursionError) as exc:
        raise BadInput(f"{what} cannot be kept: {exc}") from None
    try:
        size = len(text.encode("utf-8"))
    except UnicodeEncodeError:
        raise BadInput(f"{what} cannot be kept: it holds a character that is not text (a lone surrogate)") from None
    if size > MAX_DOC_BYTES:
        raise BadInput(f"{what} is too large to keep ({size} bytes; limit {MAX_DOC_BYTES})")
    parse_json_text(text, what)
    return text


def _decode(text: str, what: str) -> Any:
    """A stored document read back under the same limits (a file edited by hand is not trusted)."""
    return parse_json_text(text, what)


def _label(text: Any, what: str, limit: int) -> str:
    """A key, kind or name: text of 1 to ``limit`` characters on one line, spaces at the ends dropped."""
    if not isinstance(text, str) or not text.strip():
        raise BadInput(f"{what} must be some text")
    text = " ".join(text.split())
    if any(unicodedata.category(c) in ("Cc", "Cs") for c in text):
        raise BadInput(f"{what} holds a character that is not text ({short_repr(text)})")
    if len(text) > limit:
        raise BadInput(f"{what} is too long ({len(text)} characters; limit {limit})")
    return text


def owner_of(browser_id: str) -> str:
    """The name a browser's rows carry: the SHA-256 of its id (the id itself stays in the browser)."""
    if not browser.valid(browser_id):
        raise BadInput("not a browser id")
    return hashlib.sha256(browser_id.encode("ascii")).hexdigest()


# ----------------------------------------------------------------------------- one browser's rows


@dataclass(frozen=True)
class Handle:
    """The store as one browser sees it: every call reads or writes only rows of ``owner``."""

    store: Store
    owner: str

    @classmethod
    def of(cls, store: Store, browser_id: str) -> Handle:
        """The handle of the browser whose secret id is ``browser_id``."""
        return cls(store, owner_of(browser_id))

    def load_work(self, key: str) -> Any | None:
        """The page's working document ``key``, or None when none is kept."""
        key = _label(key, "a work key", MAX_KEY)
        with self.store.reading() as conn:
            row = conn.execute("SELECT doc FROM work WHERE owner = ? AND key = ?", (self.owner, key)).fetchone()
        return None if row is None else _decode(row[0], f"the kept work '{key}'")

    def save_work(self, key: str, doc: Any) -> None:
        """Keep ``doc`` as the page's working document ``key`` (replacing the last one)."""
        key = _label(key, "a work key", MAX_KEY)
        self.put_work_text(key, encode(doc, f"the work '{key}'"))

    def put_work_text(self, key: str, text: str) -> None:
        """Keep ``text`` (already checked by :func:`encode`) under ``key``; at most MAX_WORK keys per browser."""
        with self.store.writing() as conn:
            there = conn.execute("SELECT 1 FROM work WHERE owner = ? AND key = ?", (self.owner, key)).fetchone()
            count = conn.execute("SELECT count(*) FROM work WHERE owner = ?", (self.owner,)).fetchone()[0]
            if there is None and count >= MAX_WORK:
                raise BadInput(f"the work '{key}' cannot be kept: this browser keeps {MAX_WORK} pieces of work already")
            conn.execute("INSERT OR REPLACE INTO work (owner, key, doc, updated) VALUES (?, ?, ?, ?)",
                         (self.owner, key, text, time.time()))

    def delete_work(self, key: str) -> None:
        """Forget the working document ``key`` (nothing happens when none is kept)."""
        key = _label(key, "a work key", MAX_KEY)
        with self.store.writing() as conn:
            conn.execute("DELETE FROM work WHERE owner = ? AND key = ?", (self.owner, key))

    def save_item(self, kind: str, name: str, doc: Any) -> Item:
        """Save ``doc`` to "My games" as a new item of ``kind`` called ``name``; at most MAX_ITEMS per browser."""
        kind, name = _label(kind, "a kind", MAX_KEY), _label(name, "a name", MAX_NAME)
        text, now = encode(doc, f"'{name}'"), time.time()
        with self.store.writing() as conn:
            count = conn.execute("SELECT count(*) FROM items WHERE owner = ?", (self.owner,)).fetchone()[0]
            if count >= MAX_ITEMS:
                raise BadInput(f"'{name}' cannot be saved: this browser keeps {MAX_ITEMS} saved games already; "
                               "delete some in My games")
            cur = conn.execute("INSERT INTO items (owner, kind, name, doc, created, updated) VALUES (?, ?, ?, ?, ?, ?)",
                               (self.owner, kind, name, text, now, now))
        return Item(cur.lastrowid, kind, name, now, now, doc)

    def update_item(self, item_id: int, doc: Any) -> None:
        """Replace the document of this browser's item ``item_id`` (saving the same game again)."""
        text = encode(doc, "the saved game")
        self._change(item_id, "UPDATE items SET doc = ?, updated = ? WHERE owner = ? AND id = ?",
                     (text, time.time()))

    def rename_item(self, item_id: int, name: str) -> None:
        """Call this browser's item ``item_id`` ``name``."""
        name = _label(name, "a name", MAX_NAME)
        self._change(item_id, "UPDATE items SET name = ?, updated = ? WHERE owner = ? AND id = ?",
                     (name, time.time()))

    def delete_item(self, item_id: int) -> None:
        """Delete this browser's item ``item_id``, on a full disk too (:meth:`Store.freeing`: deleting is how a player
        makes room)."""
        sql = "DELETE FROM items WHERE owner = ? AND id = ?"
        try:
            self._change(item_id, sql, ())
        except StoreFull:
            with self.store.freeing() as conn:
                if conn.execute(sql, (self.owner, item_id)).rowcount != 1:
                    raise BadInput("that saved game is not in this browser's list (deleted in another tab?)") from None

    def _change(self, item_id: int, sql: str, values: tuple) -> None:
        """Run ``sql`` on this browser's item ``item_id``; one line (BadInput) when this browser has no such item."""
        _item_id(item_id)
        with self.store.writing() as conn:
            if conn.execute(sql, (*values, self.owner, item_id)).rowcount != 1:
                raise BadInput("that saved game is not in this browser's list (deleted in another tab?)")

    def get_item(self, item_id: int) -> Item | None:
        """This browser's item ``item_id`` with its document, or None (another browser's ids find nothing)."""
        _item_id(item_id)
        with self.store.reading() as conn:
            row = conn.execute("SELECT id, kind, name, created, updated, doc FROM items WHERE owner = ? AND id = ?",
                               (self.owner, item_id)).fetchone()
        return None if row is None else Item(*row[:5], _decode(row[5], f"the saved game '{row[2]}'"))

    def list_items(self, kind: str | None = None) -> list[Item]:
        """This browser's saved items (of ``kind`` when given), the latest changed first, without their documents."""
        sql, values = "SELECT id, kind, name, created, updated FROM items WHERE owner = ?", (self.owner,)
        if kind is not None:
            sql, values = sql + " AND kind = ?", (*values, kind)
        with self.store.reading() as conn:
            rows = conn.execute(sql + " ORDER BY updated DESC, id DESC", values).fetchall()
        return [Item(*row) for row in rows]


# ----------------------------------------------------------------------------- the pages' side

_WRITTEN = "_ruleslinger_store_written"
"""Session key: {work key: digest of the document last written or restored}; unchanged work is not rewritten. A
session that adopts another id starts over (:func:`dashboard.shared.work.browser.adopt_held`), this record with it."""


def unavailable() -> str | None:
    """Why saving is off for this run of the server (one line), or None when the store works."""
    try:
        open_store()
    except StoreUnavailable as exc:
        return one_line(exc)
    return None


def current() -> Handle | None:
    """This browser's handle on the store, or None when saving is off (:func:`unavailable` says why)."""
    try:
        return Handle.of(open_store(), browser.browser_id())
    except StoreUnavailable:
        return None


def start() -> Handle | None:
    """Call once in every run, first after the navigation (app.py): a session that adopts the id another tab of its
    browser wrote starts over (:func:`~dashboard.shared.work.browser.adopt_held`); mounts the browser's cookie writer,
    says in one line when saving is off (the app goes on, each session keeping its own work), returns
    :func:`current`."""
    browser.adopt_held()
    browser.attach()
    problem = unavailable()
    if problem:
        st.warning(f"Saving is off until the dashboard restarts: {plain(problem)}. Move the file away or set {ENV} to "
                   "another file, then restart.",
                   icon=":material/cloud_off:")
    elif browser.refused():
        st.warning("This browser refuses cookies: your work is kept only while this tab stays open.",
                   icon=":material/cookie_off:")
    return current()


def _written() -> dict[str, str]:
    """The digests of the work this session wrote or restored (:data:`_WRITTEN`)."""
    written: dict[str, str] = st.session_state.setdefault(_WRITTEN, {})
    return written


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _same(value: Any) -> Any:
    return value


def sync(key: str, *, load: Callable[[Any], Any] = _same, dump: Callable[[Any], Any] = _same) -> None:
    """Mirror ``st.session_state[key]`` and this browser's work ``key``; call at the top of the page, every run.

    When the session lacks the value (a reload, a new tab, a server restart, a resume from My games) it is
    restored: ``load(doc)`` of the kept document (a BadInput from ``load`` is one inline line and nothing is
    restored). When the session has it, a change since the last write (a callback's, before this run) is kept:
    ``dump(value)`` must be a JSON document. A page that reads its work from the address first still wins: only a
    missing value is restored. Nothing happens while saving is off.
    """
    handle = current()
    if handle is None:
        return
    written = _written()
    if key in st.session_state:
        persist(key, dump=dump)
        return
    try:
        doc = handle.load_work(key)
        if doc is None:
            return
        value = load(doc)
    except BadInput as exc:
        st.error(f"Your kept work could not be restored: {plain(exc)}", icon=":material/error:")
        return
    st.session_state[key] = value
    written[key] = _digest(encode(doc, key))


def persist(key: str, *, dump: Callable[[Any], Any] = _same) -> None:
    """Keep ``dump(st.session_state[key])`` as this browser's work ``key`` when it changed since the last write;
    call after the page's own code changes the value. A value that cannot be kept is one inline line."""
    handle = current()
    if handle is None or key not in st.session_state:
        return
    written = _written()
    try:
        text = encode(dump(st.session_state[key]), f"the work '{key}'")
        digest = _digest(text)
        if written.get(key) != digest:
            handle.put_work_text(_label(key, "a work key", MAX_KEY), text)
            written[key] = digest
    except BadInput as exc:
        st.error(f"Not kept: {plain(exc)}", icon=":material/error:")


def forget(key: str) -> None:
    """Drop ``key`` from the session and from this browser's kept work (a page's "new game")."""
    st.session_state.pop(key, None)
    handle = current()
    if handle is not None:
        _written().pop(key, None)
        try:
            handle.delete_work(key)
        except BadInput as exc:
            st.error(f"Not forgotten: {plain(exc)}", icon=":material/error:")


def replace_work(key: str, doc: Any) -> None:
    """Make ``doc`` this browser's kept work ``key`` and drop the session's copy, so the page that owns ``key``
    restores it in its next run (:func:`sync`): how My games resumes a saved game. BadInput when it cannot."""
    handle = current()
    if handle is None:
        raise BadInput(f"saving is off: {unavailable()}")
    handle.save_work(key, doc)
    st.session_state.pop(key, None)
    _written().pop(key, None)
