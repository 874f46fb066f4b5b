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
import os
import sqlite3
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...errors import PycardsError

__all__ = ["MEMORY", "Store", "StoreError", "StoredTable", "db_path", "default_db_path"]

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
    version INTEGER
);
CREATE INDEX IF NOT EXISTS tables_finished ON tables (finished, updated);
"""


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


class Store:
    """A SQLite file of tables (``path=None`` or :data:`MEMORY`: in memory,
    gone with the process; else checked by :func:`db_path`, and
    :class:`StoreError` if the file is not a SQLite file).

    Safe to call from several threads (one connection behind a lock).
    """

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        checked = db_path(path)
        #: Whether the tables are kept in memory only (nothing across restarts).
        self.in_memory = checked is None
        target = MEMORY if checked is None else str(checked)
        self.path = target
        self._lock = threading.Lock()
        try:
            self._db = sqlite3.connect(target, check_same_thread=False, isolation_level=None)
            self._open()
        except sqlite3.Error as exc:
            raise StoreError(f"--db {target!r} cannot be the tables' store: {exc}") from None

    def _open(self) -> None:
        with self._lock:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.executescript(_SCHEMA)
            columns = {row[1] for row in self._db.execute("PRAGMA table_info(tables)")}
            if "version" not in columns:  # a file from before versions: its rows keep NULL
                try:
                    self._db.execute("ALTER TABLE tables ADD COLUMN version INTEGER")
                except sqlite3.OperationalError:  # another process added it meanwhile
                    columns = {row[1] for row in self._db.execute("PRAGMA table_info(tables)")}
                    if "version" not in columns:
                        raise

    def close(self) -> None:
        """Close the file."""
        with self._lock:
            self._db.close()

    def insert(
        self,
        table_id: str,
        spec: dict[str, Any],
        seed: int,
        tokens: dict[int, str],
        state: str,
        turn: int,
        version: int = 0,
    ) -> None:
        """Keep a new table."""
        now = time.time()
        with self._lock:
            self._db.execute(
                "INSERT INTO tables (id, spec, seed, tokens, state, turn, created, updated,"
                " version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
                ),
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
        with self._lock:
            self._db.execute(
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
            )

    def set_tokens(self, table_id: str, tokens: dict[int, str]) -> None:
        """Replace a table's token digests."""
        with self._lock:
            self._db.execute(
                "UPDATE tables SET tokens = ? WHERE id = ?", (json.dumps(tokens), table_id)
            )

    def _rows(self, where: str, args: tuple[Any, ...] = ()) -> list[StoredTable]:
        with self._lock:
            rows = self._db.execute(
                "SELECT id, spec, seed, tokens, state, turn, finished, returns, bot_seconds,"
                f" created, updated, version FROM tables {where}",
                args,
            ).fetchall()
        return [
            StoredTable(
                r[0],
                json.loads(r[1]),
                int(r[2]),
                {int(k): v for k, v in json.loads(r[3]).items()},
                r[4],
                r[5],
                bool(r[6]),
                json.loads(r[7]),
                r[8],
                r[9],
                r[10],
                r[11],
            )
            for r in rows
        ]

    def unfinished(self) -> list[StoredTable]:
        """Every table whose game is not over, oldest first."""
        return self._rows("WHERE finished = 0 ORDER BY created")

    def finished(self, limit: int = 100) -> list[StoredTable]:
        """The most recently finished games, newest first."""
        return self._rows("WHERE finished = 1 ORDER BY updated DESC LIMIT ?", (limit,))

    def get(self, table_id: str) -> StoredTable | None:
        """One table by id, or None."""
        rows = self._rows("WHERE id = ?", (table_id,))
        return rows[0] if rows else None
