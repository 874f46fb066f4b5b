"""A bounded load test of the table server on 127.0.0.1 (opt-in: ``-m slow``):
100 tables at once, each a person (this test, over a WebSocket) against the
heuristic bot, while one table runs the heaviest allowed searching bot.  It
prints the percentiles of the wait for a bot's answer and the server's memory
(figures, not asserts: the machine's load decides them).
"""

from __future__ import annotations

import asyncio
import json
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

from pycards.ui.web.tables import MAX_MOVE_SECONDS, MAX_SIMULATIONS
from ui.test_web import ROLE, _free_port, _post

TABLES = 100


_SERVE = (
    "import sys, uvicorn; from pycards.ui.web import create_app;"
    "uvicorn.run(create_app(bot_delay=0.0), port=int(sys.argv[1]), log_level='warning')"
)


@pytest.fixture
def server() -> Iterator[tuple[int, int]]:
    """The server in a process of its own (its port and pid)."""
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-c", _SERVE, str(port)])
    try:
        for _ in range(400):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
                break
            except OSError:
                time.sleep(0.05)
        yield port, proc.pid
    finally:
        proc.terminate()
        proc.wait(10)


def _rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


async def _play(port: int, table_id: str, token: str, waits: list[float], moves: int) -> None:
    from websockets.asyncio.client import connect

    async with connect(f"ws://127.0.0.1:{port}/ws/{table_id}?token={token}") as ws:
        start = time.monotonic()
        done = 0
        while done < moves:
            m = json.loads(await ws.recv())
            if m["terminal"]:
                return
            if m["legal"]:
                waits.append(time.monotonic() - start)
                await ws.send(
                    json.dumps({"type": "move", "action": m["legal"][0]["id"], "turn": m["turn"]})
                )
                start = time.monotonic()
                done += 1


@pytest.mark.slow
def test_a_hundred_tables_at_once(server: tuple[int, int]) -> None:
    heavy = f"ismcts:seconds={MAX_MOVE_SECONDS}:simulations={MAX_SIMULATIONS}"
    port, pid = server
    url = f"http://127.0.0.1:{port}/api/tables"
    search, long = ROLE["search"], ROLE["long"]
    n = search.tables[0]
    heavy_table = {"game": search.name, "players": n, "preset": search.quick_preset}
    _post(url, {**heavy_table, "seats": [{"bot": heavy}] * n})
    seats = [{"bot": None}, {"bot": "heuristic"}]
    tables = [_post(url, {"game": long.name, "players": 2, "seats": seats}) for _ in range(TABLES)]
    waits: list[float] = []

    async def main() -> None:
        await asyncio.gather(*(_play(port, t["table_id"], t["token"], waits, 20) for t in tables))

    begin = time.monotonic()
    asyncio.run(main())
    elapsed = time.monotonic() - begin
    rss = _rss_mb(pid)
    q = statistics.quantiles(waits, n=100)
    print(
        f"\n{TABLES} tables, {len(waits)} moves in {elapsed:.1f} s; wait for the bot:"
        f" p50 {q[49] * 1000:.0f} ms, p90 {q[89] * 1000:.0f} ms, p99 {q[98] * 1000:.0f} ms,"
        f" max {max(waits) * 1000:.0f} ms; server memory {rss:.0f} MB"
    )
    # figures are printed, never asserted (the machine's load decides them);
    # counted: every table played its moves to the end or to 20 moves
    assert len(waits) >= TABLES
