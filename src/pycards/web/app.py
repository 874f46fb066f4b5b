"""The Starlette application of the browser table.

Routes: ``/`` (the page), ``/static/...`` (its assets, shipped in the
package), ``GET /api/games`` (what the new-game form offers), ``POST
/api/tables`` (a new table: its id and the secret token of the person's
seat), ``GET /api/tables/{id}/record?token=`` (the finished game's record as
the person's seat may know it) and the WebSocket ``/ws/{id}?token=``, which
sends the person's view after every action and takes their moves as
``{"type": "move", "action": id, "turn": n}``.  Bots think in a worker
thread, never on the event loop, after a short visible delay.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from .tables import Table, TableError, Tables, TableSpec, describe_games

__all__ = ["create_app"]

#: WebSocket close code for a message that is not the protocol's.
CLOSE_MALFORMED = 4400
#: WebSocket close code for an unknown table or a wrong token.
CLOSE_UNKNOWN = 4404


class _Hub:
    """Per table: the connected sockets, the lock that orders its moves, and
    the task that lets the bots play."""

    def __init__(self, tables: Tables, bot_delay: float) -> None:
        self.tables = tables
        self.bot_delay = bot_delay
        self.sockets: dict[str, set[WebSocket]] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        self.runners: dict[str, asyncio.Task[None]] = {}

    def lock(self, table: Table) -> asyncio.Lock:
        return self.locks.setdefault(table.id, asyncio.Lock())

    async def broadcast(self, table: Table, extra: dict[str, Any] | None = None) -> None:
        msg = table.message()
        if extra:
            msg.update(extra)
        text = json.dumps(msg)
        for ws in list(self.sockets.get(table.id, ())):
            try:
                await ws.send_text(text)
            except (RuntimeError, WebSocketDisconnect):
                self.sockets[table.id].discard(ws)

    def kick_bots(self, table: Table) -> None:
        """Start the bots' turns for ``table`` unless they are running."""
        task = self.runners.get(table.id)
        if task is None or task.done():
            self.runners[table.id] = asyncio.create_task(self._run_bots(table))

    async def _run_bots(self, table: Table) -> None:
        while True:
            async with self.lock(table):
                if table.bot_to_move() is None:
                    return
            await asyncio.sleep(self.bot_delay)
            async with self.lock(table):
                if table.bot_to_move() is None:
                    return
                try:
                    await asyncio.to_thread(table.bot_move)
                except Exception as exc:  # a bot's fault must not kill the table silently
                    await self.broadcast(table, {"error": f"a bot failed: {exc}"})
                    return
            await self.broadcast(table)

    def drop_idle(self) -> None:
        self.tables.drop_idle()
        live = {t.id for t in self.tables}
        for key in list(self.sockets):
            if key not in live:
                for ws in self.sockets.pop(key):
                    with contextlib.suppress(Exception):
                        asyncio.get_running_loop().create_task(ws.close(CLOSE_UNKNOWN))
                self.locks.pop(key, None)
                task = self.runners.pop(key, None)
                if task is not None:
                    task.cancel()


def create_app(
    *, bot_delay: float = 0.6, idle_seconds: float = 1800.0, max_tables: int = 200
) -> Starlette:
    """The web application (serve it with any ASGI server, e.g. uvicorn).

    ``bot_delay`` is the pause in seconds before each bot move (so a person
    can follow the play); tables idle for ``idle_seconds`` are dropped.
    """
    hub = _Hub(Tables(idle_seconds, max_tables), bot_delay)
    static = resources.files("pycards.web") / "static"

    async def index(request: Request) -> Response:
        return FileResponse(str(static / "index.html"))

    async def games(request: Request) -> Response:
        return JSONResponse(describe_games())

    async def new_table(request: Request) -> Response:
        try:
            body = await request.json()
        except (ValueError, UnicodeDecodeError):
            return JSONResponse({"error": "the body is not JSON"}, status_code=400)
        try:
            spec = TableSpec.from_json(body)
            table = hub.tables.create(spec)
        except TableError as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)
        return JSONResponse({"table_id": table.id, "token": table.token})

    async def record(request: Request) -> Response:
        try:
            table = hub.tables.get(request.path_params["table_id"], request.query_params["token"])
        except (TableError, KeyError):
            return PlainTextResponse("no such table", status_code=404)
        async with hub.lock(table):
            text = table.record()
        name = f"pycards-{table.game.NAME}-{table.id}.txt"
        return PlainTextResponse(
            text, headers={"Content-Disposition": f'attachment; filename="{name}"'}
        )

    async def socket(ws: WebSocket) -> None:
        await ws.accept()
        try:
            table = hub.tables.get(ws.path_params["table_id"], ws.query_params.get("token", ""))
        except TableError as exc:
            await ws.send_text(json.dumps({"type": "error", "message": str(exc)}))
            await ws.close(CLOSE_UNKNOWN)
            return
        hub.sockets.setdefault(table.id, set()).add(ws)
        try:
            async with hub.lock(table):
                await ws.send_text(json.dumps(table.message()))
            hub.kick_bots(table)
            while True:
                text = await ws.receive_text()
                try:
                    msg = json.loads(text)
                    if not isinstance(msg, dict) or msg.get("type") != "move":
                        raise ValueError
                except ValueError:
                    await ws.close(CLOSE_MALFORMED, "malformed message")
                    return
                async with hub.lock(table):
                    try:
                        table.person_move(msg.get("action"), msg.get("turn"))
                    except TableError as exc:
                        await ws.send_text(json.dumps({"type": "error", "message": str(exc)}))
                        continue
                await hub.broadcast(table)
                hub.kick_bots(table)
        except WebSocketDisconnect:
            pass
        finally:
            hub.sockets.get(table.id, set()).discard(ws)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        async def sweep() -> None:
            while True:
                await asyncio.sleep(min(60.0, max(idle_seconds / 4, 0.05)))
                hub.drop_idle()

        task = asyncio.create_task(sweep())
        try:
            yield
        finally:
            task.cancel()
            for runner in hub.runners.values():
                runner.cancel()

    app = Starlette(
        routes=[
            Route("/", index),
            Route("/api/games", games),
            Route("/api/tables", new_table, methods=["POST"]),
            Route("/api/tables/{table_id}/record", record),
            WebSocketRoute("/ws/{table_id}", socket),
            Mount("/static", StaticFiles(directory=str(static)), name="static"),
        ],
        lifespan=lifespan,
    )
    app.state.hub = hub
    app.state.tables = hub.tables
    return app
