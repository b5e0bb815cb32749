"""The fuzz run: adversarial frames into every WebSocket consumer and adversarial posts to
every POST view, against an isolated stack (tests/stack.py), both at once.

Unhandled is counted three ways, and must be 0 in all: an HTTP answer 5xx (or none), a
socket closed with 1011 (or a handshake answered 5xx), and a traceback in a server log
that is not a handled one (``tests.stack.scan_log``: django.request's "Internal Server
Error", daphne's "Exception inside application", a Celery task that raised). A component
that died during the run fails it too.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from tests.fuzz import endpoints, http_fuzz, world
from tests.fuzz.sockets import CONSUMERS, Client, SocketFuzz, SocketTally
from tests.fuzz.sockets import uncovered as uncovered_sockets
from tests.stack import Stack, session_cookie

PROGRESS_S = 60.0


@dataclass
class FuzzConfig:
    frames: int = 10_000
    """Per consumer."""
    requests: int = 1_000
    """Per POST endpoint."""
    daphnes: int = 2
    http_lanes: int = 4
    socket_lanes: int = 3
    """Per consumer."""
    people: int = 10
    """Signed-in clients per consumer (each player at a table of their own)."""
    seed: int = 0
    keep_database: bool = False


@dataclass
class FuzzRun:
    config: FuzzConfig
    sockets: dict[str, SocketTally] = field(default_factory=dict)
    http: dict[str, http_fuzz.Tally] = field(default_factory=dict)
    logs: dict[str, Counter[str]] = field(default_factory=dict)
    uncovered: list[str] = field(default_factory=list)
    sockets_uncovered: list[str] = field(default_factory=list)
    died: list[str] = field(default_factory=list)
    seconds: float = 0.0
    phase_seconds: dict[str, float] = field(default_factory=dict)
    log_dir: str = ""
    rate_limits: bool = False

    def log_unhandled(self) -> int:
        return sum(
            n for found in self.logs.values() for key, n in found.items() if key.startswith("unhandled")
        )

    def ok(self) -> bool:
        return (
            not self.uncovered
            and not self.sockets_uncovered
            and not self.died
            and self.log_unhandled() == 0
            and all(t.unhandled == 0 and t.counted() >= self.config.frames for t in self.sockets.values())
            and all(
                t.unhandled == 0 and t.forged == t.forged_refused and t.sent >= self.config.requests
                for t in self.http.values()
            )
        )


def run_fuzz(config: FuzzConfig) -> FuzzRun:
    run = FuzzRun(config)
    started = time.monotonic()
    stack = Stack("fuzz", daphnes=config.daphnes, keep_database=config.keep_database)
    run.log_dir = str(stack.log_dir)
    try:
        stack.start()
        stack.setup_django()
        run.uncovered = endpoints.uncovered()
        run.sockets_uncovered = uncovered_sockets()
        run.rate_limits = _has_rate_limits()
        asyncio.run(_fuzz(run, stack, started))
        time.sleep(1)  # let the last log lines land
        run.died = [name for name, component in stack.components.items() if not component.alive()]
        run.logs = stack.log_problems()
    finally:
        stack.close()
    run.seconds = time.monotonic() - started
    return run


async def _fuzz(run: FuzzRun, stack: Stack, started: float) -> None:
    """The sockets and the posts at the same time, with a progress line a minute."""
    config = run.config
    shared = await asyncio.to_thread(http_fuzz.shared_things, random.Random(config.seed))
    lanes = await asyncio.to_thread(lambda: [world.make_lane() for _ in range(config.http_lanes)])
    people = await asyncio.to_thread(lambda: {kind: _people(kind, config.people) for kind in CONSUMERS})
    csrf = await asyncio.to_thread(http_fuzz.fetch_csrf, stack.urls[0])
    sockets = SocketFuzz(
        urls=stack.urls, target=config.frames, seed=config.seed, people=people, new_table=world.bot_table
    )
    sent = [0]  # posts sent so far

    async def timed(name: str, work: Any) -> Any:
        began = time.monotonic()
        result = await work
        run.phase_seconds[name] = time.monotonic() - began
        return result

    async def progress() -> None:
        while True:
            await asyncio.sleep(PROGRESS_S)
            frames = ", ".join(f"{t.name} {t.counted():,}" for t in sockets.tallies.values())
            print(f"  {time.monotonic() - started:.0f} s: frames {frames}; posts {sent[0]:,}", flush=True)

    reporting = asyncio.create_task(progress())
    posts = asyncio.to_thread(
        http_fuzz.run_http, stack.urls, csrf, shared, lanes, config.requests, config.seed, sent
    )
    try:
        run.sockets, run.http = await asyncio.gather(
            timed("sockets", sockets.run(config.socket_lanes)), timed("http", posts)
        )
    finally:
        reporting.cancel()


def _people(kind: str, count: int) -> list[Client]:
    """Signed-in clients for one consumer; each consumer its own, as the limits are per person."""
    people = []
    for _ in range(count):
        user = world.make_user("fzsocket")
        own = world.unread_notices(user) if kind == "notices" else []
        people.append(Client(cookie=session_cookie(user), user=user, notices=own))
    return people


def _has_rate_limits() -> bool:
    try:
        import games.live.socket_limits  # noqa: F401
    except ImportError:
        return False
    return True
