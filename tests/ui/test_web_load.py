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


BUSY = 14


@pytest.mark.slow
def test_a_persons_searching_bot_waits_behind_no_queue_of_searches(
    server: tuple[int, int],
) -> None:
    """14 tables of the heaviest allowed searching bots keep the search
    workers busy; a person plays a searching bot that answers in a moment
    alone.  Fair scheduling serves the person's table before the busy
    tables' next searches: counted, the busy tables make far fewer moves
    than the person's bot answers (in a first-come queue, 14 per answer)."""
    from urllib.request import urlopen

    heavy = f"ismcts:seconds={MAX_MOVE_SECONDS}:simulations={MAX_SIMULATIONS}"
    port, _ = server
    url = f"http://127.0.0.1:{port}/api/tables"
    search, long = ROLE["search"], ROLE["long"]
    n = search.tables[0]
    body = {"game": search.name, "players": n, "preset": search.quick_preset}
    busy = {_post(url, {**body, "seats": [{"bot": heavy}] * n})["table_id"] for _ in range(BUSY)}
    person = _post(
        url, {"game": long.name, "players": 2, "seats": [{"bot": None}, {"bot": "ismcts"}]}
    )

    def busy_moves() -> int:
        with urlopen(url, timeout=10) as r:
            return sum(t["turn"] for t in json.loads(r.read()) if t["table_id"] in busy)

    time.sleep(1.0)  # the searches are under way
    waits: list[float] = []
    before = busy_moves()
    asyncio.run(asyncio.wait_for(_play(port, person["table_id"], person["token"], waits, 15), 120))
    during = busy_moves() - before
    q = statistics.quantiles(waits, n=10)
    print(
        f"\na person's ismcts bot with {BUSY} busy tables: {len(waits)} answers,"
        f" wait p50 {q[4] * 1000:.0f} ms, p90 {q[8] * 1000:.0f} ms, max {max(waits) * 1000:.0f} ms;"
        f" the busy tables made {during} moves meanwhile"
    )
    # counted, not timed: each answer waited for at most the searches running
    # when it was asked (2 workers), never for all 14 tables' searches
    assert len(waits) >= 10
    assert during <= 3 * len(waits), (during, len(waits))
