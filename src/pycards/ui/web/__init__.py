"""A browser table: play any pycards game with other people and the built-in bots.

``pycards serve`` starts a local server (127.0.0.1 by default) and opens the
table in the browser.  It needs the ``web`` extra (``pip install
'pycards[web]'``: Starlette, uvicorn and websockets).  The application is a
small client of the public API: each table keeps its real state on the
server (and in a SQLite file, :mod:`pycards.ui.web.store`), and a browser only
ever receives its seat's :class:`~pycards.view.PlayerView`, or a spectator's
public part of the table (see :mod:`pycards.ui.web.tables`).
"""

from __future__ import annotations

import argparse
import os
import threading
import webbrowser
from typing import TYPE_CHECKING

from .store import MEMORY, Store, StoreError, default_db_path

if TYPE_CHECKING:
    from starlette.applications import Starlette

__all__ = ["add_arguments", "create_app", "main", "serve"]


def create_app(
    *,
    bot_delay: float = 0.6,
    idle_seconds: float = 1800.0,
    max_tables: int = 200,
    db: str | os.PathLike[str] | None = None,
    search_workers: int = 2,
    away_seconds: float | None = 180.0,
    db_timeout: float = 0.5,
    client_tables: int = 20,
    client_rate: int = 30,
    client_window: float = 600.0,
) -> Starlette:
    """The ASGI application (see :func:`pycards.ui.web.app.create_app`)."""
    from .app import create_app as _create

    return _create(
        bot_delay=bot_delay,
        idle_seconds=idle_seconds,
        max_tables=max_tables,
        db=db,
        search_workers=search_workers,
        away_seconds=away_seconds,
        db_timeout=db_timeout,
        client_tables=client_tables,
        client_rate=client_rate,
        client_window=client_window,
    )


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    open_browser: bool = True,
    bot_delay: float = 0.6,
    idle_seconds: float = 1800.0,
    db: str | os.PathLike[str] | None = None,
    away_seconds: float | None = 180.0,
) -> None:
    """Run the table server until interrupted, opening the page in a browser;
    its tables are kept in ``db`` (default: :func:`pycards.ui.web.store.default_db_path`)."""
    import uvicorn

    path = default_db_path() if db is None else db
    app = create_app(
        bot_delay=bot_delay, idle_seconds=idle_seconds, db=path, away_seconds=away_seconds
    )
    store: Store = app.state.store
    url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else host}:{port}/"
    if open_browser:
        threading.Timer(1.0, webbrowser.open, (url,)).start()
    if store.in_memory:
        print(f"warning: --db {MEMORY}: the tables are kept in memory only;", end=" ")
        print("nothing is kept across restarts")
    kept = "in memory" if store.in_memory else f"in {store.path}"
    print(f"pycards table at {url} (tables kept {kept}; Ctrl-C stops it)")
    uvicorn.run(app, host=host, port=port, log_level="warning")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``pycards serve``."""
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    parser.add_argument(
        "--no-browser", action="store_true", help="do not open the page in a browser"
    )
    parser.add_argument("--bot-delay", type=float, default=0.6, help="seconds before each bot move")
    parser.add_argument(
        "--away",
        type=float,
        default=180.0,
        help="seconds a person may be away before a bot plays for them (0: never; default 180)",
    )
    parser.add_argument(
        "--db",
        default=None,
        help=(
            "the SQLite file that keeps the tables (default: tables.sqlite3 in the user's"
            f" data directory); ~ is your home folder; {MEMORY} keeps them in memory only"
            " (nothing is kept across restarts); SQLite URIs (file:...) are refused"
        ),
    )


def main(args: argparse.Namespace) -> int:
    """Run ``pycards serve``."""
    if not 0 < args.port < 65536:
        raise SystemExit(f"pycards serve: --port must be 1..65535, got {args.port}")
    if args.away < 0:
        raise SystemExit("pycards serve: --away must be >= 0")
    if args.bot_delay < 0:
        raise SystemExit("pycards serve: --bot-delay must be >= 0")
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ModuleNotFoundError:
        raise SystemExit("pycards serve needs the web extra: pip install 'pycards[web]'") from None
    try:
        serve(
            args.host,
            args.port,
            open_browser=not args.no_browser,
            bot_delay=args.bot_delay,
            db=args.db,
            away_seconds=args.away or None,
        )
    except StoreError as exc:
        raise SystemExit(f"pycards serve: {exc}") from None
    return 0
