"""The tables of the web server kept in SQLite (the standard library's
:mod:`sqlite3`): every table, its seats and its game, written at every move,
so a restarted server resumes each unfinished table where it stood and
finished games can be browsed and replayed.

A row holds the table's spec (JSON), the seat tokens' SHA-256 digests (never
the tokens), the seed, the game as :meth:`pycards.game.State.to_json` and the
table's version (:attr:`pycards.ui.web.tables.Table.version`, which moves name).
A file written before the store kept versions gains the column when opened;
its rows have none (``NULL``), and their tables resume at their turn.

``--db`` is a file path (:func:`db_path` checks it): ``~`` is the home
folder, and a path that cannot be a SQLite file (a folder, a folder that
cannot be made, a file that cannot be written or that is not SQLite) is a
:class:`StoreError` that says why.  ``:memory:`` keeps the tables in memory
only: nothing is kept across restarts (``pycards serve`` says so).  SQLite
URIs (``file:...``) are refused: the server would write its tables wherever
the URI says, or nowhere (``mode=memory``), without saying so.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeAlias

from ...errors import PycardsError

__all__ = [
    "BUSY_TIMEOUT",
    "MEMORY",
    "Store",
    "StoreError",
    "StoredTable",
    "db_path",
    "default_db_path",
]

#: The ``--db`` that keeps the tables in memory only (nothing across restarts).
MEMORY = ":memory:"


class StoreError(PycardsError):
    """The store's file cannot be used (its path, its folder, its content)
    or a write to it failed; the message says which and why."""


_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    spec TEXT NOT NULL,
    seed TEXT NOT NULL,
    tokens TEXT NOT NULL,
    state TEXT NOT NULL,
    turn INTEGER NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    returns TEXT NOT NULL DEFAULT '[]',
    bot_seconds REAL NOT NULL DEFAULT 0,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    version INTEGER,
    quarantine TEXT,
    client TEXT,
    chat TEXT
);
CREATE INDEX IF NOT EXISTS tables_finished ON tables (finished, updated);
"""
#: Columns added since the first files (a file without them gains them, NULL).
_ADDED = (("version", "INTEGER"), ("quarantine", "TEXT"), ("client", "TEXT"), ("chat", "TEXT"))
_COLUMNS = (
    "id, spec, seed, tokens, state, turn, finished, returns, bot_seconds, created, updated,"
    " version, client, chat"
)
#: The longest SQLite waits for another writer's lock, by default (seconds).
BUSY_TIMEOUT = 0.5

_log = logging.getLogger("pycards.ui.web")


def default_db_path() -> Path:
    """Where ``pycards serve`` keeps its tables unless ``--db`` says otherwise:
    ``tables.sqlite3`` in the user's data directory (``$XDG_DATA_HOME/pycards``
    or ``~/.local/share/pycards``; ``%LOCALAPPDATA%\\pycards`` on Windows,
    ``~/Library/Application Support/pycards`` on macOS)."""
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "pycards" / "tables.sqlite3"


def db_path(db: str | os.PathLike[str] | None) -> Path | None:
    """The file ``db`` names, checked (``None`` or :data:`MEMORY`: in memory,
    returned as ``None``): ``~`` expanded, its folder made; a
    :class:`StoreError` says why a path cannot be the store (a SQLite URI,
    an empty path, a folder, a folder that cannot be made, a file that
    cannot be written)."""
    if db is None or (isinstance(db, str) and db == MEMORY):
        return None
    text = os.fspath(db)
    if not isinstance(text, str) or not text.strip():
        raise StoreError(f"--db must be a file path, got {db!r}")
    if text.startswith("file:"):
        raise StoreError(
            f"--db takes a file path, not a SQLite URI ({text!r}); for tables kept in"
            f" memory only, give {MEMORY} (nothing is kept across restarts)"
        )
    path = Path(text).expanduser()
    if path.is_dir():
        raise StoreError(f"--db {str(path)!r} is a folder; give the path of a file in it")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError(
            f"--db {str(path)!r}: cannot make its folder {str(path.parent)!r}: {exc.strerror}"
        ) from None
    if path.exists():
        if not os.access(path, os.R_OK | os.W_OK):
            raise StoreError(f"--db {str(path)!r}: the file cannot be read and written")
    elif not os.access(path.parent, os.W_OK | os.X_OK):
        raise StoreError(f"--db {str(path)!r}: its folder {str(path.parent)!r} is not writable")
    return path


@dataclass(frozen=True)
class StoredTable:
    """One row of the store, as read back."""

    id: str
    spec: dict[str, Any]
    seed: int
    tokens: dict[int, str]
    state: str
    turn: int
    finished: bool
    returns: list[int]
    bot_seconds: float
    created: float
    updated: float
    #: The table's version (None: saved before the store kept versions).
    version: int | None = None
    #: Who opened it (a digest of the address; None: saved before the store kept it).
    client: str | None = None
    #: The table's chat lines (``{"seat": p, "text": ...}``), oldest first.
    chat: tuple[dict[str, object], ...] = ()


#: A value SQLite hands back, and a row of them.
SQLValue: TypeAlias = "int | float | str | bytes | None"
Row: TypeAlias = "tuple[SQLValue, ...]"


def _text(value: SQLValue, what: str) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{what} is not text: {value!r:.40}")
    return value


def _number(value: object, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{what} is not a number: {value!r:.40}")
    return float(value)


def _int(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{what} is not an int: {value!r:.40}")
    return value


def _parse(r: Row) -> StoredTable:
    """A row read back, its types checked (ValueError says what is wrong)."""
    spec_text, seed_text, tokens_text = (
        _text(r[1], "spec"),
        _text(r[2], "seed"),
        _text(r[3], "tokens"),
    )
    state_text, returns_text = _text(r[4], "state"), _text(r[7], "returns")
    spec = json.loads(spec_text)
    if not isinstance(spec, dict):
        raise ValueError(f"spec is not a JSON object: {spec_text!r:.40}")
    if not seed_text.isascii() or not seed_text.isdigit() or not 0 <= int(seed_text) < 2**64:
        raise ValueError(f"seed is not an int 0..2**64-1: {seed_text!r:.40}")
    tokens = json.loads(tokens_text)
    if not isinstance(tokens, dict) or not all(
        k.isascii() and k.isdigit() and isinstance(v, str) for k, v in tokens.items()
    ):
        raise ValueError(f"tokens is not a JSON object of seats' digests: {tokens_text!r:.40}")
    returns = json.loads(returns_text)
    if not isinstance(returns, list):
        raise ValueError(f"returns is not a JSON list: {returns_text!r:.40}")
    for x in returns:
        _number(x, "a return")
    if r[6] not in (0, 1):
        raise ValueError(f"finished is not 0 or 1: {r[6]!r:.40}")
    version = None if r[11] is None else _int(r[11], "version")
    client = None if r[12] is None else _text(r[12], "client")
    chat = [] if r[13] is None else json.loads(_text(r[13], "chat"))
    if not isinstance(chat, list) or not all(isinstance(line, dict) for line in chat):
        raise ValueError(f"chat is not a JSON list of lines: {r[13]!r:.40}")
    return StoredTable(
        _text(r[0], "id"),
        spec,
        int(seed_text),
        {int(k): v for k, v in tokens.items()},
        state_text,
        _int(r[5], "turn"),
        bool(r[6]),
        returns,
        _number(r[8], "bot_seconds"),
        _number(r[9], "created"),
        _number(r[10], "updated"),
        version,
        client,
        tuple(chat),
    )


class Store:
    """A SQLite file of tables (``path=None`` or :data:`MEMORY`: in memory,
    gone with the process; else checked by :func:`db_path`, and
    :class:`StoreError` if the file is not a SQLite file).

    Safe to call from several threads.  Every write can go through
    :meth:`submit`, to the store's one writer thread, so a caller (the event
    loop) never waits for the file: while another program holds the file's
    lock, SQLite waits at most ``timeout`` seconds, then the write fails
    with a :class:`StoreError` (nothing of it is kept).  Reads use a
    connection of their own (the file is in WAL mode: a read does not wait
    for a write).

    A row that cannot be read back (not JSON, wrong types) is not returned:
    it is put in quarantine (:meth:`quarantine`: kept in the file with the
    reason in its ``quarantine`` column, never deleted) with a warning in
    the log, and every other row is read as before.
    """

    def __init__(
        self, path: str | os.PathLike[str] | None = None, *, timeout: float = BUSY_TIMEOUT
    ) -> None:
        checked = db_path(path)
        #: Whether the tables are kept in memory only (nothing across restarts).
        self.in_memory = checked is None
        target = MEMORY if checked is None else str(checked)
        self.path = target
        self._lock = threading.Lock()
        self._read_lock = self._lock
        self._pending = 0
        self._pending_lock = threading.Lock()
        #: The one thread that writes (see :meth:`submit`).
        self.writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pycards-store")
        try:
            self._db = sqlite3.connect(
                target, timeout=timeout, check_same_thread=False, isolation_level=None
            )
            self._open()
            self._read = self._db
            if not self.in_memory:  # in memory, one connection is the database
                self._read = sqlite3.connect(
                    target, timeout=timeout, check_same_thread=False, isolation_level=None
                )
                self._read_lock = threading.Lock()
        except sqlite3.Error as exc:
            raise StoreError(f"--db {target!r} cannot be the tables' store: {exc}") from None

    def _open(self) -> None:
        with self._lock:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.executescript(_SCHEMA)
            for name, kind in _ADDED:  # a file from before the column: its rows keep NULL
                columns = {row[1] for row in self._db.execute("PRAGMA table_info(tables)")}
                if name not in columns:
                    try:
                        self._db.execute(f"ALTER TABLE tables ADD COLUMN {name} {kind}")
                    except sqlite3.OperationalError:  # another process added it meanwhile
                        columns = {row[1] for row in self._db.execute("PRAGMA table_info(tables)")}
                        if name not in columns:
                            raise

    def close(self) -> None:
        """Finish the writes under way, then close the file."""
        self.writer.shutdown(wait=True)
        with self._lock:
            self._db.close()
        if self._read is not self._db:
            with self._read_lock:
                self._read.close()

    # -- writes ------------------------------------------------------------------
    def submit(self, job: Callable[[], object]) -> Future[object]:
        """Run the write ``job()`` (a call of a method of this store) in the
        writer thread, after the writes submitted before it."""
        with self._pending_lock:
            self._pending += 1
        future = self.writer.submit(job)

        def done(_: Future[object]) -> None:
            with self._pending_lock:
                self._pending -= 1

        future.add_done_callback(done)
        return future

    @property
    def pending(self) -> int:
        """How many submitted writes have not ended."""
        with self._pending_lock:
            return self._pending

    def _write(self, sql: str, args: tuple[SQLValue, ...], what: str) -> None:
        try:
            with self._lock:
                self._db.execute(sql, args)
        except sqlite3.Error as exc:
            raise StoreError(
                f"{what} could not be stored ({exc}); nothing of it was kept"
            ) from None

    def insert(
        self,
        table_id: str,
        spec: dict[str, Any],
        seed: int,
        tokens: dict[int, str],
        state: str,
        turn: int,
        version: int = 0,
        client: str | None = None,
    ) -> None:
        """Keep a new table (``client``: who opened it, for the per-client limits)."""
        now = time.time()
        self._write(
            "INSERT INTO tables (id, spec, seed, tokens, state, turn, created, updated,"
            " version, client) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                table_id,
                json.dumps(spec),
                str(seed),
                json.dumps(tokens),
                state,
                turn,
                now,
                now,
                version,
                client,
            ),
            "the new table",
        )

    def update(
        self,
        table_id: str,
        state: str,
        turn: int,
        *,
        finished: bool,
        returns: list[int],
        bot_seconds: float,
        version: int,
    ) -> None:
        """Write a table's game and version after a move (or an undo)."""
        self._write(
            "UPDATE tables SET state = ?, turn = ?, finished = ?, returns = ?,"
            " bot_seconds = ?, updated = ?, version = ? WHERE id = ?",
            (
                state,
                turn,
                int(finished),
                json.dumps(returns),
                bot_seconds,
                time.time(),
                version,
                table_id,
            ),
            "the move",
        )

    def set_tokens(self, table_id: str, tokens: dict[int, str]) -> None:
        """Replace a table's token digests."""
        self._write(
            "UPDATE tables SET tokens = ? WHERE id = ?",
            (json.dumps(tokens), table_id),
            "the seat's token",
        )

    def set_chat(self, table_id: str, chat: str) -> None:
        """Replace a table's chat (JSON, :meth:`pycards.ui.web.tables.Table.chat_json`)."""
        self._write("UPDATE tables SET chat = ? WHERE id = ?", (chat, table_id), "the chat line")

    def quarantine(self, table_id: str, reason: str) -> None:
        """Set a row aside: it stays in the file, with ``reason`` in its
        ``quarantine`` column, and is no longer read (a warning is logged)."""
        _log.warning("table %s is put in quarantine (not served): %s", table_id, reason)
        self._write(
            "UPDATE tables SET quarantine = ? WHERE id = ?",
            (reason[:500], table_id),
            "the quarantine",
        )

    def quarantine_later(self, table_id: str, reason: str) -> None:
        """:meth:`quarantine` in the writer thread (a failure is logged)."""

        def run() -> None:
            try:
                self.quarantine(table_id, reason)
            except StoreError as exc:
                _log.warning("table %s: %s", table_id, exc)

        self.submit(run)

    # -- reads -------------------------------------------------------------------
    def _select(self, sql: str, args: tuple[SQLValue, ...] = ()) -> list[Row]:
        try:
            with self._read_lock:
                rows: list[Row] = self._read.execute(sql, args).fetchall()
                return rows
        except sqlite3.Error as exc:
            raise StoreError(f"the tables could not be read ({exc})") from None

    def _rows(
        self, where: str, args: tuple[SQLValue, ...] = (), tail: str = ""
    ) -> list[StoredTable]:
        rows = self._select(
            f"SELECT {_COLUMNS} FROM tables WHERE quarantine IS NULL AND ({where}) {tail}", args
        )
        out = []
        for r in rows:
            try:
                out.append(_parse(r))
            except (ValueError, TypeError, OverflowError, RecursionError) as exc:
                self.quarantine_later(str(r[0]), f"unreadable row: {exc}")
        return out

    def unfinished(self) -> list[StoredTable]:
        """Every table whose game is not over, oldest first."""
        return self._rows("finished = 0", tail="ORDER BY created")

    def finished(self, limit: int = 100) -> list[StoredTable]:
        """The most recently finished games, newest first."""
        return self._rows("finished = 1", tail="ORDER BY updated DESC LIMIT ?", args=(limit,))

    def get(self, table_id: str) -> StoredTable | None:
        """One table by id, or None (also for a row in quarantine)."""
        rows = self._rows("id = ?", (table_id,))
        return rows[0] if rows else None

    def quarantined(self) -> dict[str, str]:
        """The rows in quarantine: each id and why."""
        rows = self._select("SELECT id, quarantine FROM tables WHERE quarantine IS NOT NULL")
        return {str(r[0]): str(r[1]) for r in rows}

    def created_since(self, client: str, since: float) -> int:
        """How many tables ``client`` opened at ``since`` (a time.time()) or later."""
        rows = self._select(
            "SELECT COUNT(*) FROM tables WHERE client = ? AND created >= ?", (client, since)
        )
        return _int(rows[0][0], "a count")
