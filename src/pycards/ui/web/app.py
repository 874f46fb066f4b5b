"""The Starlette application of the browser table.

Routes:

* ``/`` the page, ``/static/...`` its assets (shipped in the package);
* ``GET /api/games``: what the new-game form offers;
* ``GET /api/tables``: the lobby, every listed unfinished table (no token);
* ``POST /api/tables``: a new table; answers its id and the token of each
  person's seat (an invite link per seat);
* ``POST /api/tables/{id}/join`` ``{"seat": n}``: the token of an open seat
  (a person's seat its creator opened to anyone, that nobody has taken yet)
  of a listed table; a seat with an invite link is taken with that link only;
* ``GET /api/tables/{id}/record?token=``: the game's record as that seat knows it;
* ``GET /api/history`` and ``GET /api/history/{id}?step=k``: finished listed
  games, and a spectator's view of one after ``k`` moves (a replay; an
  unlisted game is replayed with ``&token=`` of one of its seats only);
* the WebSocket ``/ws/{id}?token=`` (no token: a spectator, of a listed
  table only), which sends the
  table as its reader may see it after every change (with its ``turn`` and
  its ``version``) and takes moves as ``{"type": "move", "action": id,
  "version": v}``, ``v`` the version of the message the move answers (a
  move naming ``"turn"`` instead is checked the same way, see
  :meth:`~pycards.ui.web.tables.Table.person_move`); a person playing bots
  alone may also send ``{"type": "hint"}`` (answered ``{"type": "hint",
  "action": id, "name": ..., "card": ..., "turn": n, "version": v}`` to that
  socket alone)
  and ``{"type": "undo", "version": v}`` (the table goes back to that
  person's last decision and is sent again; ``v``, optional, the version of
  the message the undo answers: an undo for another is refused);
  a person (never a spectator) says a line to the table with ``{"type":
  "chat", "text": ...}`` (plain text, at most
  :data:`~pycards.ui.web.tables.MAX_CHAT` characters, a few lines in a few
  seconds: :meth:`~pycards.ui.web.tables.Table.say`), kept with the table
  in the store and sent to every reader in each message's ``chat``.

A frame that is not such a JSON text closes the socket with 4400; an unknown
table or a wrong token with 4404.  Bots think in two bounded thread pools,
one for the bots that answer at once and one for the searching bots (a
:class:`FairPool`, which serves the tables in turn, the table that used it
least first), so no table waits behind every other table's searches; every
move is written to the store before anyone is told of it.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import functools
import itertools
import json
import logging
import math
import os
import threading
import time
from collections.abc import AsyncIterator, Callable, Coroutine
from concurrent.futures import Future, ThreadPoolExecutor
from importlib import resources
from typing import Any, TypeVar

from starlette.applications import Starlette
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from .store import BUSY_TIMEOUT, Store, StoredTable, StoreError
from .tables import (
    CLIENT_RATE,
    CLIENT_TABLES,
    CLIENT_WINDOW,
    LateError,
    LimitError,
    Table,
    TableError,
    Tables,
    TableSnapshot,
    TableSpec,
    client_key,
    describe_games,
    replay_message,
    token_seat,
)

__all__ = ["CLOSE_MALFORMED", "CLOSE_UNKNOWN", "MAX_BODY", "MAX_FRAME", "FairPool", "create_app"]

#: WebSocket close code for a message that is not the protocol's.
CLOSE_MALFORMED = 4400
#: WebSocket close code for an unknown table or a wrong token.
CLOSE_UNKNOWN = 4404
#: The largest request body accepted, in bytes.
MAX_BODY = 16_384
#: The largest WebSocket frame accepted, in characters.
MAX_FRAME = 1_024

_log = logging.getLogger("pycards.ui.web")
T = TypeVar("T")
#: How long a bot's move that could not be stored waits before it is tried again.
STORE_RETRY_SECONDS = 1.0


def _error(message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def _send(ws: WebSocket, text: str) -> bool:
    """Send, or False if the client has gone (never raises for that)."""
    try:
        await ws.send_text(text)
    except Exception:  # a closed or broken connection: the reader is gone
        return False
    return True


async def _close(ws: WebSocket, code: int, reason: str = "") -> None:
    with contextlib.suppress(Exception):
        await ws.close(code, reason)


class FairPool:
    """Worker threads that serve each table's queue of jobs in turn, fairly:
    the next job is one of a table where a person waits for it (``urgent``),
    if any, else of any table; among those, the oldest of the table that
    has used the least worker time lately (each second of work a table gets
    counts half after :attr:`HALF_LIFE` seconds), so a table whose bot answers in a moment is
    served before tables whose bots search for seconds at every move, and a
    table never waits behind every other table's searches, only behind the
    jobs running when it asks.  Tables that search alike take turns.

    Besides its ``workers``, the pool keeps ``quick`` workers for the tables
    within a budget, those whose jobs have lately taken less than
    ``quick_seconds`` each (a person's bot that answers in a moment, a
    hint): their jobs never wait for the long searches of the others, even
    when every worker is taken."""

    #: Seconds after which the work a table was given counts half.
    HALF_LIFE = 20.0

    def __init__(
        self, workers: int, name: str, *, quick: int = 1, quick_seconds: float = 0.5
    ) -> None:
        self.quick_seconds = quick_seconds
        self._cond = threading.Condition()
        # per table: its jobs (a number in arrival order, the job that runs it)
        # (and how to cancel it while it waits)
        self._queues: dict[
            str, collections.deque[tuple[int, Callable[[], None], Callable[[], bool]]]
        ] = {}
        self._urgent: set[str] = set()  # the tables where a person waits
        self._used: dict[str, tuple[float, float]] = {}  # key: (seconds, when)
        self._mean: dict[str, float] = {}  # key: a job's seconds, a moving mean
        self._seq = itertools.count()
        self._closed = False
        #: How many jobs have started, in all (the order the tests read).
        self.started = 0
        self._threads = [
            threading.Thread(
                target=self._work, args=(k >= workers,), name=f"{name}-{k}", daemon=True
            )
            for k in range(workers + quick)
        ]
        for thread in self._threads:
            thread.start()

    def used(self, key: str) -> float:
        """The worker seconds ``key`` has used, the older ones counted less."""
        seconds, when = self._used.get(key, (0.0, 0.0))
        return seconds * math.pow(0.5, (time.monotonic() - when) / self.HALF_LIFE)

    def within_budget(self, key: str) -> bool:
        """Whether the quick workers serve ``key``: a table that has been
        served (a table never served may search long) and whose jobs have
        lately taken less than :attr:`quick_seconds` each."""
        return self._mean.get(key, self.quick_seconds) < self.quick_seconds

    def mark(self, key: str, urgent: bool) -> None:
        """Say whether a person waits for the jobs of table ``key`` (is at
        the table), now and until marked again."""
        with self._cond:
            if urgent:
                self._urgent.add(key)
            else:
                self._urgent.discard(key)

    def submit(self, key: str, job: Callable[[], T]) -> Future[T]:
        """Run ``job()`` for the table ``key``, after its earlier jobs."""
        future: Future[T] = Future()

        def run() -> None:
            if not future.set_running_or_notify_cancel():
                return
            try:
                result = job()
            except BaseException as exc:  # handed to the caller, as an executor does
                future.set_exception(exc)
            else:
                future.set_result(result)

        with self._cond:
            if self._closed:
                raise RuntimeError("the pool is shut down")
            self._queues.setdefault(key, collections.deque()).append(
                (next(self._seq), run, future.cancel)
            )
            self._cond.notify_all()  # a quick worker may not take it: wake them all
        return future

    def _next(self, quick: bool) -> tuple[str, Callable[[], None]] | None:
        """The next job (None: shut down) for a worker (``quick``: only of a
        table within :attr:`quick_seconds`); called with the lock held."""
        while True:
            if self._closed:
                return None
            ready = [
                k for k, q in self._queues.items() if q and (not quick or self.within_budget(k))
            ]
            if ready:
                key = min(
                    ready,
                    key=lambda k: (k not in self._urgent, self.used(k), self._queues[k][0][0]),
                )
                _, run, _ = self._queues[key].popleft()
                if not self._queues[key]:
                    del self._queues[key]
                self.started += 1
                return key, run
            self._cond.wait()

    def _work(self, quick: bool) -> None:
        while True:
            with self._cond:
                job = self._next(quick)
            if job is None:
                return
            key, run = job
            start = time.monotonic()
            run()
            with self._cond:
                now = time.monotonic()
                self._used[key] = (self.used(key) + now - start, now)
                mean = self._mean.get(key)
                took = now - start
                self._mean[key] = took if mean is None else 0.7 * mean + 0.3 * took
                if len(self._used) > 10_000:  # forget the tables long idle
                    for k in [k for k in self._used if self.used(k) < 1e-3]:
                        del self._used[k]
                        self._mean.pop(k, None)

    def shutdown(self) -> None:
        """Stop the workers after their running jobs; cancel the queued ones."""
        with self._cond:
            self._closed = True
            for queue in self._queues.values():
                for _, _, cancel in queue:
                    cancel()
            self._queues.clear()
            self._cond.notify_all()


class _Hub:
    """The live tables, their connected sockets, the locks that order their
    moves, the bots' pools and the store."""

    def __init__(
        self,
        tables: Tables,
        store: Store,
        bot_delay: float,
        workers: int,
        away_seconds: float | None = None,
    ) -> None:
        self.tables = tables
        #: How long a person may be away before a bot plays for them (None: never).
        self.away_seconds = away_seconds
        #: Per table: when each person who left (or was not back after a
        #: restart) was last seen; their clock runs from there.
        self.gone: dict[str, dict[int, float]] = {}
        self.store = store
        self.bot_delay = bot_delay
        #: Per table: each connected socket and its seat (None: a spectator).
        self.sockets: dict[str, dict[WebSocket, int | None]] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        self.runners: dict[str, asyncio.Task[None]] = {}
        self.tasks: set[asyncio.Task[None]] = set()
        self.light = ThreadPoolExecutor(max_workers=2, thread_name_prefix="pycards-bot")
        #: The searching bots and the hints: each table's jobs in turn (:class:`FairPool`).
        self.heavy = FairPool(workers, "pycards-search")
        #: Builds the messages, off the event loop.
        self.messages = ThreadPoolExecutor(max_workers=2, thread_name_prefix="pycards-msg")

    def later(self, job: Coroutine[object, object, None]) -> None:
        """Run ``job`` in a task of its own (kept until it ends)."""
        task = asyncio.get_running_loop().create_task(job)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def lock(self, table: Table) -> asyncio.Lock:
        return self.locks.setdefault(table.id, asyncio.Lock())

    def restore(self, row: StoredTable) -> Table | None:
        """The table of a stored row, or None: a row that cannot be restored
        is put in quarantine (kept in the file, with a warning) and every
        other table serves on."""
        try:
            table = Table.restore(
                row.id,
                row.spec,
                row.seed,
                row.tokens,
                row.state,
                row.bot_seconds,
                row.version,
                list(row.chat),
            )
        except Exception as exc:  # any fault of one row: set it aside, never stop the server
            self.store.quarantine_later(row.id, f"cannot be restored: {type(exc).__name__}: {exc}")
            return None
        table.client = row.client  # who opened it still counts against their cap
        return table

    def find(self, table_id: str) -> Table | None:
        """A live table, or an unfinished one read back from the store."""
        table = self.tables.find(table_id)
        if table is None:
            row = self.store.get(table_id)
            if row is not None and not row.finished:
                table = self.restore(row)
                if table is not None:
                    self.tables.add(table)
        return table

    async def write(self, job: Callable[[], object]) -> None:
        """A write of the store, ``job()``, in its writer thread (the event
        loop goes on); :class:`~pycards.ui.web.store.StoreError` if it failed."""
        await asyncio.wrap_future(self.store.submit(job))

    async def stored(self, table: Table, snapshot: TableSnapshot) -> str | None:
        """Store ``table`` after a change; if the write fails, put the table
        back as it was at ``snapshot`` (:meth:`Table.snapshot`, taken before
        the change) and say why (None: stored)."""
        try:
            await self.write(self._update(table))
        except StoreError as exc:
            table.rollback(snapshot)
            _log.warning("table %s: %s", table.id, exc)
            return f"{exc}: the table is as it was; try again"
        return None

    def _update(self, table: Table) -> Callable[[], None]:
        """The write of ``table``'s game and version as they are now (read
        here, in the caller's thread, under the table's lock)."""
        return functools.partial(
            self.store.update,
            table.id,
            table.state_json(),
            table.turn,
            finished=table.finished,
            returns=table.state.returns(),
            bot_seconds=table.bot_seconds,
            version=table.version,
        )

    def save(self, table: Table) -> None:
        """Store ``table`` now, in the caller's thread (StoreError if it fails)."""
        self._update(table)()

    def mark(self, table: Table) -> None:
        """Tell the search pool whether a person is at ``table`` (its
        searches then go before those of tables nobody waits for)."""
        self.heavy.mark(table.id, bool(set(table.spec.humans) - self.away(table)))

    def away(self, table: Table) -> set[int]:
        here = set(self.sockets.get(table.id, {}).values())
        return {p for p in table.spec.humans if p not in here}

    def clocks(self, table: Table) -> dict[int, float]:
        """The seconds left to each away person whose clock runs."""
        if self.away_seconds is None:
            return {}
        now = asyncio.get_running_loop().time()
        gone = self.gone.get(table.id, {})
        return {p: self.away_seconds - (now - t) for p, t in gone.items()}

    def left(self, table: Table, seat: int) -> None:
        """The person of ``seat`` has gone: start their clock; when it runs
        out and they are still away, a bot plays for them."""
        if self.away_seconds is None or table.finished:
            return
        since = asyncio.get_running_loop().time()
        self.gone.setdefault(table.id, {})[seat] = since
        self.later(self._clock(table, seat, since))

    async def _clock(self, table: Table, seat: int, since: float) -> None:
        assert self.away_seconds is not None
        await asyncio.sleep(self.away_seconds)
        if self.gone.get(table.id, {}).get(seat) != since or table.finished:
            return  # back since, or the game is over
        await self.hand_to_bot(table, seat)

    async def hand_to_bot(self, table: Table, seat: int) -> None:
        """A bot plays the away ``seat`` from now until its person is back."""
        async with self.lock(table):
            if seat not in self.away(table) or table.finished:
                return
            table.stand_in(seat)
            self.gone.get(table.id, {}).pop(seat, None)
        await self.broadcast(table)
        self.kick_bots(table)

    async def chat(self, table: Table, seat: int, text: object) -> str | None:
        """The person of ``seat`` says ``text`` (:meth:`Table.say`): stored,
        then every socket of the table is sent the table again; else why not
        (nothing kept)."""
        async with self.lock(table):
            before = table.chat
            try:
                table.say(seat, text)
                write = functools.partial(self.store.set_chat, table.id, table.chat_json())
                await self.write(write)
            except TableError as exc:
                return str(exc)
            except StoreError as exc:
                table.chat = before
                return f"{exc}: try again"
        await self.broadcast(table)
        return None

    async def came(self, table: Table, seat: int) -> None:
        """The person of ``seat`` is here: their clock stops, their bot leaves."""
        self.gone.get(table.id, {}).pop(seat, None)
        async with self.lock(table):
            table.come_back(seat)

    async def broadcast(self, table: Table, extra: dict[str, Any] | None = None) -> None:
        """Send every socket of ``table`` the table as its reader sees it.  The
        messages are built in a worker thread while the table's lock is held
        (nothing changes the table meanwhile), so the event loop keeps serving
        the other tables."""
        socks = self.sockets.get(table.id, {})
        seats = list(dict.fromkeys(socks.values()))
        if not seats:
            return
        away = self.away(table)
        clocks = self.clocks(table)

        def build() -> dict[int | None, str]:
            texts = {}
            for seat in seats:
                msg = table.message(seat, away, clocks)
                if extra:
                    msg.update(extra)
                texts[seat] = json.dumps(msg)
            return texts

        async with self.lock(table):
            texts = await asyncio.get_running_loop().run_in_executor(self.messages, build)
        for ws, seat in list(socks.items()):
            if seat in texts and not await _send(ws, texts[seat]):
                socks.pop(ws, None)

    def kick_bots(self, table: Table) -> None:
        """Start the bots' turns for ``table`` unless they are running."""
        task = self.runners.get(table.id)
        if (task is None or task.done()) and table.bot_to_move() is not None:
            self.runners[table.id] = asyncio.create_task(self._run_bots(table))

    async def _run_bots(self, table: Table) -> None:
        loop = asyncio.get_running_loop()
        chosen: tuple[int, int] | None = None  # (version, action) chosen, not yet stored
        told = False  # whether the people were told that a move could not be stored
        while True:
            if table.bot_to_move() is None:
                return
            await asyncio.sleep(self.bot_delay if chosen is None else STORE_RETRY_SECONDS)
            async with self.lock(table):
                if table.bot_to_move() is None:
                    return
                failed = unstored = None
                try:
                    if chosen is None or chosen[0] != table.version:
                        if table.bot_is_light():
                            action = await loop.run_in_executor(self.light, table.bot_choose)
                        else:  # a search: its table's turn in the fair pool
                            action = await asyncio.wrap_future(
                                self.heavy.submit(table.id, table.bot_choose)
                            )
                        chosen = (table.version, action)
                    snapshot = table.snapshot()
                    table.bot_apply(chosen[1])
                except Exception as exc:  # a bot's fault must not kill the table silently
                    _log.warning("table %s: a bot failed: %s", table.id, exc)
                    failed = f"a bot failed: {exc}"
                else:
                    # stored before anyone is told; else the move is taken back, and
                    # tried again (its choice kept) until the file takes it
                    unstored = await self.stored(table, snapshot)
                    if unstored is None:
                        chosen = None
            if failed is not None:
                await self.broadcast(table, {"error": failed})
                return
            if unstored is not None:
                if not told:
                    told = True
                    await self.broadcast(table, {"error": f"a bot's move was not kept: {unstored}"})
                continue
            told = False
            await self.broadcast(table)

    def drop_idle(self) -> None:
        for key in self.tables.drop_idle():
            self.heavy.mark(key, False)
            for ws in self.sockets.pop(key, {}):
                asyncio.get_running_loop().create_task(_close(ws, CLOSE_UNKNOWN))
            self.locks.pop(key, None)
            task = self.runners.pop(key, None)
            if task is not None:
                task.cancel()


async def _body(request: Request) -> object:
    """The request's JSON body, or TableError (too large, not JSON, too deep)."""
    size = request.headers.get("content-length", "0")
    if not size.isdigit() or int(size) > MAX_BODY:
        raise TableError(f"the body must be JSON of at most {MAX_BODY} bytes")
    chunks = []
    total = 0
    async for chunk in request.stream():
        total += len(chunk)
        if total > MAX_BODY:
            raise TableError(f"the body must be JSON of at most {MAX_BODY} bytes")
        chunks.append(chunk)
    try:
        return json.loads(b"".join(chunks))
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise TableError("the body is not JSON (or nests too deep)") from None


def create_app(
    *,
    bot_delay: float = 0.6,
    idle_seconds: float = 1800.0,
    max_tables: int = 200,
    db: str | os.PathLike[str] | None = None,
    search_workers: int = 2,
    away_seconds: float | None = 180.0,
    db_timeout: float = BUSY_TIMEOUT,
    client_tables: int = CLIENT_TABLES,
    client_rate: int = CLIENT_RATE,
    client_window: float = CLIENT_WINDOW,
) -> Starlette:
    """The web application (serve it with any ASGI server, e.g. uvicorn).

    ``bot_delay`` is the pause in seconds before each bot move (so a person
    can follow the play); tables idle for ``idle_seconds`` leave memory (an
    unfinished one is read back from the store when someone returns);
    ``max_tables`` bounds the unfinished tables; ``db`` is the SQLite file
    that keeps every table (``None``: in memory only), whose unfinished tables
    are resumed at start (a row that cannot be is put in quarantine, see
    :class:`~pycards.ui.web.store.Store`); ``search_workers`` threads run the
    searching bots; a person away for ``away_seconds`` (``None``: never) has a
    bot play their seat until they come back (the others may also let a bot
    play it at once); ``db_timeout`` is the longest a write waits for another
    program's lock on the file, after which the move is refused (a
    move is stored before anyone is told of it; a write never holds up the
    event loop).  One client (an address) may have ``client_tables``
    unfinished tables open at once and open ``client_rate`` tables in
    ``client_window`` seconds; both count the tables kept in the store, so
    they hold across restarts (the store keeps a digest of the address).
    """
    store = Store(db, timeout=db_timeout)
    hub = _Hub(
        Tables(idle_seconds, max_tables, client_tables),
        store,
        bot_delay,
        search_workers,
        away_seconds,
    )
    #: Per client: its new tables not yet in the store (they count against its rate).
    opening: dict[str, int] = {}
    for row in store.unfinished():
        restored = hub.restore(row)  # None: a bad row, set aside with a warning
        if restored is not None:
            hub.tables.add(restored)
    static = resources.files("pycards.ui.web") / "static"

    async def index(request: Request) -> Response:
        return FileResponse(str(static / "index.html"))

    async def games(request: Request) -> Response:
        return JSONResponse(describe_games())

    async def lobby(request: Request) -> Response:
        open_tables = [t.summary() for t in hub.tables if t.spec.listed and not t.finished]
        return JSONResponse(open_tables)

    def check_rate(client: str) -> None:
        since = time.time() - client_window
        if store.created_since(client, since) + opening.get(client, 0) >= client_rate:
            raise LimitError(
                f"you have opened {client_rate} tables in the last {client_window / 60:g}"
                " minutes, the most one address may; try again in a few minutes"
            )

    async def new_table(request: Request) -> Response:
        client = client_key(request.client.host if request.client else "")
        try:
            spec = TableSpec.from_json(await _body(request))
            check_rate(client)
            table, tokens = hub.tables.create(spec, client)
        except LimitError as exc:
            return _error(str(exc), 429)
        except TableError as exc:
            return _error(str(exc))
        except ClientDisconnect:
            return _error("the client went away")
        opening[client] = opening.get(client, 0) + 1
        try:
            await hub.write(
                functools.partial(
                    store.insert,
                    table.id,
                    spec.to_json(),
                    table.seed,
                    table.digests,
                    table.state_json(),
                    table.turn,
                    table.version,
                    client,
                )
            )
        except StoreError as exc:
            hub.tables.remove(table.id)
            return _error(f"{exc}: no table was opened; try again", 503)
        finally:
            opening[client] -= 1
        hub.kick_bots(table)  # a table of bots alone plays at once
        return JSONResponse(
            {
                "table_id": table.id,
                "tokens": {str(p): t for p, t in tokens.items()},
                "token": tokens[spec.humans[0]] if spec.humans else None,
                "seat": spec.humans[0] if spec.humans else None,
            }
        )

    async def join(request: Request) -> Response:
        table = hub.find(request.path_params["table_id"])
        if table is None or not table.spec.listed or table.finished:
            return _error("no such open table", 404)
        try:
            body = await _body(request)
        except (TableError, ClientDisconnect) as exc:
            return _error(str(exc))
        seat = body.get("seat") if isinstance(body, dict) else None
        if isinstance(seat, bool) or not isinstance(seat, int):
            return _error(f"seat must be an int, got {seat!r:.40}")
        if not table.is_open(seat):
            return _error(f"seat {seat} is not open", 409)
        snapshot = table.snapshot()
        token = table.sit(seat)
        try:
            await hub.write(functools.partial(store.set_tokens, table.id, table.digests))
        except StoreError as exc:
            table.rollback(snapshot)
            return _error(f"{exc}: the seat is still open; try again", 503)
        return JSONResponse({"table_id": table.id, "token": token, "seat": seat})

    async def record(request: Request) -> Response:
        table = hub.find(request.path_params["table_id"])
        seat = None if table is None else table.seat_of(request.query_params.get("token", ""))
        if table is None or seat is None:
            return PlainTextResponse("no such table", status_code=404)
        async with hub.lock(table):
            text = table.record(seat)
        name = f"pycards-{table.game.NAME}-{table.id}.txt"
        return PlainTextResponse(
            text, headers={"Content-Disposition": f'attachment; filename="{name}"'}
        )

    def finished_game(r: StoredTable) -> dict[str, Any] | None:
        """A finished game as history lists it (None: unlisted, or a row set aside)."""
        try:
            spec = TableSpec.from_json(r.spec)
        except TableError as exc:
            store.quarantine_later(r.id, f"cannot be listed: {exc}")
            return None
        if not spec.listed:  # an unlisted game is its players' alone
            return None
        return {
            "table_id": r.id,
            "game": spec.game,
            "names": [s.name for s in spec.seats],
            "returns": r.returns,
            "moves": r.turn,
            "finished": r.updated,
        }

    async def history(request: Request) -> Response:
        games = (finished_game(r) for r in store.finished())
        return JSONResponse([g for g in games if g is not None])

    async def replay(request: Request) -> Response:
        row = store.get(request.path_params["table_id"])
        if row is None or not row.finished:
            return _error("no such finished game", 404)
        token = request.query_params.get("token", "")
        if not row.spec.get("listed", True) and token_seat(token, row.tokens) is None:
            return _error("no such finished game", 404)  # unlisted: a seat's token only
        raw = request.query_params.get("step", "0")
        if not raw.isascii() or not raw.isdigit() or len(raw) > 6:
            return _error(f"step must be an int 0..{row.turn}")
        try:
            msg, total = replay_message(row.state, row.spec, int(raw))
        except TableError as exc:
            return _error(str(exc))
        except Exception as exc:  # a row that cannot be replayed: set it aside
            store.quarantine_later(row.id, f"cannot be replayed: {type(exc).__name__}: {exc}")
            return _error("no such finished game", 404)
        msg["steps"] = total
        return JSONResponse(msg)

    async def socket(ws: WebSocket) -> None:
        try:
            await ws.accept()
        except Exception:  # the client left during the handshake
            return
        table = hub.find(ws.path_params["table_id"])
        token = ws.query_params.get("token")
        seat = None if table is None or token is None else table.seat_of(token)
        # an unlisted table is watched by its seats only: no spectator without a token
        hidden = table is not None and not table.spec.listed and seat is None
        if table is None or (token is not None and seat is None) or hidden:
            await _send(ws, json.dumps({"type": "error", "message": "no such table"}))
            await _close(ws, CLOSE_UNKNOWN, "no such table")
            return
        socks = hub.sockets.setdefault(table.id, {})
        socks[ws] = seat
        hub.mark(table)
        if seat is not None:
            await hub.came(table, seat)
        try:
            await hub.broadcast(table)
            hub.kick_bots(table)
            while True:
                frame = await ws.receive()
                if frame["type"] == "websocket.disconnect":
                    return
                text = frame.get("text")
                msg: object = None
                if isinstance(text, str) and len(text) <= MAX_FRAME:
                    with contextlib.suppress(ValueError, RecursionError):
                        msg = json.loads(text)
                kind = msg.get("type") if isinstance(msg, dict) else None
                if not isinstance(msg, dict) or kind not in (
                    "move",
                    "hint",
                    "undo",
                    "stand_in",
                    "chat",
                ):
                    await _close(ws, CLOSE_MALFORMED, "malformed message")
                    return
                if seat is None:
                    text = "spectators watch"
                    if kind == "chat":
                        text += ": the chat is the players'"
                    await _send(ws, json.dumps({"type": "error", "message": text}))
                    continue
                if kind == "chat":
                    refused = await hub.chat(table, seat, msg.get("text"))
                    if refused is not None:
                        await _send(ws, json.dumps({"type": "error", "message": refused}))
                    continue
                if kind == "stand_in":  # the others' choice: a bot plays an away seat now
                    gone = msg.get("seat")
                    if gone not in hub.away(table) or gone == seat:
                        await _send(ws, json.dumps({"type": "error", "message": "not away"}))
                        continue
                    await hub.hand_to_bot(table, gone)
                    continue
                answer: dict[str, Any] | None = None
                async with hub.lock(table):
                    snapshot = table.snapshot()
                    try:
                        if kind == "move":
                            named = "version" if "version" in msg else "turn"
                            table.person_move(
                                seat, msg.get("action"), msg.get(named), as_turn=named == "turn"
                            )
                        elif kind == "hint":
                            # the hint's bot searches: it thinks beside the searching bots
                            answer = await asyncio.wrap_future(
                                hub.heavy.submit(table.id, functools.partial(table.hint, seat))
                            )
                        else:
                            table.undo(seat, msg.get("version"))
                    except TableError as exc:
                        told: dict[str, object] = {"type": "error", "message": str(exc)}
                        if isinstance(exc, LateError):  # what the page needs to catch up
                            told.update(exc.fields())
                        await _send(ws, json.dumps(told))
                        continue
                    # stored before anyone is told; else taken back, and the sender told
                    unstored = None if kind == "hint" else await hub.stored(table, snapshot)
                    if unstored is not None:
                        await _send(ws, json.dumps({"type": "error", "message": unstored}))
                        continue
                if answer is not None:
                    await _send(ws, json.dumps(answer))
                    continue
                await hub.broadcast(table)
                hub.kick_bots(table)
        except (WebSocketDisconnect, RuntimeError, OSError):
            return  # the client went away
        finally:
            socks.pop(ws, None)
            hub.mark(table)
            if seat is not None and seat not in socks.values():
                hub.left(table, seat)
            if hub.tables.find(table.id) is not None:
                # in a task of its own: this handler may be cancelled as it ends
                hub.later(hub.broadcast(table))

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        async def sweep() -> None:
            while True:
                await asyncio.sleep(min(60.0, max(idle_seconds / 4, 0.05)))
                hub.drop_idle()

        task = asyncio.create_task(sweep())
        for table in hub.tables:
            for seat in table.spec.humans:  # a seat stays its owner's: their clock runs
                hub.left(table, seat)
            hub.kick_bots(table)
        try:
            yield
        finally:
            with contextlib.suppress(Exception):  # the writes under way end first
                await hub.write(lambda: None)
            task.cancel()
            for runner in hub.runners.values():
                runner.cancel()
            hub.light.shutdown(wait=False, cancel_futures=True)
            hub.heavy.shutdown()
            hub.messages.shutdown(wait=False, cancel_futures=True)

    app = Starlette(
        routes=[
            Route("/", index),
            Route("/api/games", games),
            Route("/api/tables", lobby, methods=["GET"]),
            Route("/api/tables", new_table, methods=["POST"]),
            Route("/api/tables/{table_id}/join", join, methods=["POST"]),
            Route("/api/tables/{table_id}/record", record),
            Route("/api/history", history),
            Route("/api/history/{table_id}", replay),
            WebSocketRoute("/ws/{table_id}", socket),
            Mount("/static", StaticFiles(directory=str(static)), name="static"),
        ],
        lifespan=lifespan,
    )
    app.state.hub = hub
    app.state.tables = hub.tables
    app.state.store = store
    return app
