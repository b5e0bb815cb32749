"""Live tables under load: scripted WebSocket players at N tables, beside a bare echo.

Start the site first (``make run``), then, with the same settings and data folder:

    .venv/bin/python bench/tables.py --url http://127.0.0.1:8000 --tables 10 --moves 40

Each table is a Pyramid Poker game between two scripted players (a socket each) with a
spectator socket; the player to act sends its first legal move as soon as its frame
arrives. For every move we time from sending it to the moment all three sockets of the
table have the new version. The same number of sockets then ping /ws/ping/ (a consumer
that only echoes) to show what the transport alone costs on this machine in this run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")

import django

django.setup()

from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model  # noqa: E402
from django.contrib.sessions.backends.db import SessionStore  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402

from bench.stats import percentile  # noqa: E402
from games import tables  # noqa: E402

VERSION = re.compile(r'id="table-live"[^>]*data-version="(\d+)"')
MOVE = re.compile(r'name="action" value="([^"]+)"')


def session_for(user: Any) -> str:
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return session.session_key


def make_tables(count: int, run: str) -> list[tuple[int, str, str]]:
    """``count`` started tables; (table id, cookie of seat 0, cookie of seat 1)."""
    User = get_user_model()
    made = []
    for n in range(count):
        a = User.objects.create_user(f"bench{run}a{n}", f"bench{run}a{n}@example.com", None)
        b = User.objects.create_user(f"bench{run}b{n}", f"bench{run}b{n}@example.com", None)
        table = tables.create_table(game="blocks", creator=a, clock_seconds=600)
        tables.sit(table_id=table.pk, user=b)
        tables.start(table_id=table.pk, user=a)
        made.append((table.pk, session_for(a), session_for(b)))
    return made


async def play_table(base: str, table: tuple[int, str, str], moves: int, latencies: list[float]) -> int:
    table_id, cookie_a, cookie_b = table
    ws_url = base.replace("http", "ws") + f"/ws/tables/{table_id}/"
    sockets = [
        await connect(ws_url, origin=base, additional_headers={"Cookie": f"sessionid={cookie}"})
        for cookie in (cookie_a, cookie_b)
    ]
    sockets.append(await connect(ws_url, origin=base))
    latest = [""] * 3
    for i, socket in enumerate(sockets):
        latest[i] = await socket.recv()
    made = 0
    try:
        for version in range(moves):
            mover = next((i for i in (0, 1) if "Your turn" in latest[i]), None)
            if mover is None:
                break
            move = MOVE.search(latest[mover]).group(1)
            sent = time.perf_counter()
            await sockets[mover].send(json.dumps({"action": move, "version": str(version)}))
            for i, socket in enumerate(sockets):
                while int(VERSION.search(latest[i]).group(1)) <= version:
                    latest[i] = await asyncio.wait_for(socket.recv(), timeout=30)
            latencies.append((time.perf_counter() - sent) * 1000)
            made += 1
    finally:
        for socket in sockets:
            await socket.close()
    return made


async def echo(base: str, clients: int, rounds: int, latencies: list[float]) -> None:
    async def one() -> None:
        async with connect(base.replace("http", "ws") + "/ws/ping/", origin=base) as socket:
            for _ in range(rounds):
                sent = time.perf_counter()
                await socket.send(json.dumps({"type": "ping"}))
                await socket.recv()
                latencies.append((time.perf_counter() - sent) * 1000)

    await asyncio.gather(*(one() for _ in range(clients)))


def report(name: str, latencies: list[float]) -> None:
    print(
        f"| {name} | {len(latencies)} | {statistics.median(latencies):.1f} | "
        f"{percentile(latencies, 0.99):.1f} | {max(latencies):.1f} |"
    )


async def main_async(args: argparse.Namespace) -> None:
    made = await asyncio.to_thread(make_tables, args.tables, str(int(time.time())))
    latencies: list[float] = []
    start = time.perf_counter()
    moves = await asyncio.gather(*(play_table(args.url, table, args.moves, latencies) for table in made))
    elapsed = time.perf_counter() - start
    echo_latencies: list[float] = []
    await echo(args.url, args.tables * 3, args.moves, echo_latencies)
    print(
        f"{args.tables} tables, {sum(moves)} moves in {elapsed:.1f} s: {sum(moves) / elapsed:.1f} moves/s\n"
    )
    print("| measurement | samples | p50 ms | p99 ms | max ms |")
    print("| --- | ---: | ---: | ---: | ---: |")
    report("move -> all 3 sockets of the table updated", latencies)
    report(f"bare echo (/ws/ping/), {args.tables * 3} sockets", echo_latencies)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--moves", type=int, default=40)
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
