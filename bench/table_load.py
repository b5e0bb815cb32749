"""The core of ``bench/tables.py``, importable by the test suite: scripted table clients.

A table here is two players' sockets and a spectator's, on a real Pyramid Poker table
(``/ws/tables/<id>/``) or on the bench-only bare fan-out (``/ws/bench/fanout/<id>/``,
web/bench_consumers.py, routed only with ``CAPSTONE_BENCH_ROUTES=1``). The player to
act sends a move; its latency runs from that send until every socket of the table holds a
newer version. Django must be set up (with the server's settings and data) before the
functions that touch the database are called.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import json
import os
import random
import re
import resource
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed
from websockets.typing import Origin

from bench.stats import percentile
from games.live.socket_limits import PLAYER, TokenBucket

T = TypeVar("T")

VERSION = re.compile(r'id="table-live"[^>]*data-version="(\d+)"')
MOVE = re.compile(r'name="action" value="([^"]+)"')
MY_TURN = re.compile(r'data-my-turn="1"|Your turn')
TABLE_ERROR = re.compile(r'data-testid="table-error"[^>]*>([^<]*)')
# StaleVersion's wording (games/live/tables.py): a refusal that is retried, not an error.
STALE = "moved on"
# The player's frame limit (games/socket_limits.PLAYER) refused the move: retried after a pause.
TOO_FAST = 'data-testid="too-fast"'
TOO_FAST_PAUSE_S = 0.25
REFUSED = ('data-testid="watching"', '"type": "error"')

CLOCK_SECONDS = 600
"""The longest turn clock a table takes: no turn runs out during a run, so every move is a client's."""
VERSION_TIMEOUT_S = 30.0
"""How long a table waits for its sockets to hold a version before it counts an error."""
CONFIG = {"scoring": "advanced", "target": 11}
"""A match of several games, so a table is rarely over (and dealt again) during a run."""


@dataclass(frozen=True)
class BenchTable:
    """A started table: its id and its two players (user id, session cookie)."""

    table_id: int
    players: tuple[tuple[int, str], tuple[int, str]]


_ADDED_UP = (
    "moves",
    "seen_by_all",
    "errors",
    "dropped",
    "stale_retries",
    "too_fast",
    "held_back",
    "timeouts",
    "rollovers",
    "held_back_s",
    "elapsed_s",
    "client_cpu_s",
)
"""The counts and times of ``Results`` that two runs pooled add up."""


@dataclass
class Results:
    """What one run of tables (real or bare) measured."""

    kind: str
    tables: int
    latencies_ms: list[float] = field(default_factory=list)
    moves: int = 0
    seen_by_all: int = 0
    """Moves whose new version every socket of the table then held."""
    errors: int = 0
    dropped: int = 0
    stale_retries: int = 0
    too_fast: int = 0
    """Moves refused by the players' frame limit all the same, played again after a pause."""
    held_back: int = 0
    held_back_s: float = 0.0
    """Moves a player held back, and for how long in all, to keep within the players' frame
    limit (``games.live.socket_limits.PLAYER``) as the server counts it: a saturated table whose
    moves come back faster than 5 a second a socket waits, as a person would have to."""
    timeouts: int = 0
    rollovers: int = 0
    """Tables whose match ended during the run and were dealt again (new table, same players)."""
    elapsed_s: float = 0.0
    """From the first table's first frames to the last table's last move: play, not set-up."""
    started: float = float("inf")
    ended: float = 0.0
    client_cpu_s: float = 0.0
    """The harness's own CPU time over the run: near ``elapsed_s``, the one client process, not
    the server, was the limit (the bare fan-out at few tables can get there)."""
    frame_chars: list[int] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    table_ids: list[int] = field(default_factory=list)

    def error(self, note: str) -> None:
        self.errors += 1
        if len(self.notes) < 20:  # enough to diagnose, not a flood
            self.notes.append(note)

    @property
    def moves_per_s(self) -> float:
        return self.moves / self.elapsed_s if self.elapsed_s > 0 else 0.0

    def absorb(self, later: Results) -> None:
        """Pools ``later``, another run of the same kind at the same tables, into these: moves
        over time played, every latency, every count."""
        self.latencies_ms += later.latencies_ms
        self.frame_chars += later.frame_chars
        for name in _ADDED_UP:
            setattr(self, name, getattr(self, name) + getattr(later, name))
        self.started, self.ended = min(self.started, later.started), max(self.ended, later.ended)
        self.notes += later.notes[: max(0, 20 - len(self.notes))]
        self.table_ids += [table for table in later.table_ids if table not in self.table_ids]

    def quantile(self, share: float) -> float | None:
        return round(percentile(self.latencies_ms, share), 1) if self.latencies_ms else None

    @property
    def max_ms(self) -> float | None:
        return round(max(self.latencies_ms), 1) if self.latencies_ms else None


# Tables and sessions


def make_tables(count: int, run: str) -> list[BenchTable]:
    """``count`` started Pyramid Poker tables with two new people each, and their sessions.

    People and sessions are bulk-inserted (no password to hash); each table goes through
    the real services, all in one transaction so SQLite commits once.
    """
    from django.contrib.auth import get_user_model
    from django.db import transaction

    from games.live import tables

    User = get_user_model()
    people = User.objects.bulk_create(
        [
            User(username=f"bench{run}{side}{n}", email=f"bench{run}{side}{n}@example.com", password="!")
            for n in range(count)
            for side in "ab"
        ]
    )
    cookies = sessions_for(people)
    made = []
    with transaction.atomic():
        for n in range(count):
            a, b = people[2 * n], people[2 * n + 1]
            made.append(_new_table(tables, a, b, cookies[a.pk], cookies[b.pk]))
    return made


def _new_table(tables: Any, a: Any, b: Any, cookie_a: str, cookie_b: str) -> BenchTable:
    table = tables.create_table(game="blocks", creator=a, config=CONFIG, clock_seconds=CLOCK_SECONDS)
    tables.sit(table_id=table.pk, user=b)
    tables.start(table_id=table.pk, user=a)
    return BenchTable(table.pk, ((a.pk, cookie_a), (b.pk, cookie_b)))


def deal_again(old: BenchTable) -> BenchTable:
    """A new started table for the same two people (their match at ``old`` is over)."""
    from django.contrib.auth import get_user_model

    from games.live import tables

    User = get_user_model()
    (a_id, cookie_a), (b_id, cookie_b) = old.players
    return _new_table(tables, User.objects.get(pk=a_id), User.objects.get(pk=b_id), cookie_a, cookie_b)


def sessions_for(people: Iterable[Any]) -> dict[int, str]:
    """A signed-in session per person, bulk-inserted; their cookies by user id."""
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore
    from django.contrib.sessions.models import Session
    from django.utils import timezone
    from django.utils.crypto import get_random_string

    store = SessionStore()
    expires = timezone.now() + dt.timedelta(seconds=settings.SESSION_COOKIE_AGE)
    keys: dict[int, str] = {}
    rows = []
    for person in people:
        key = get_random_string(32, "abcdefghijklmnopqrstuvwxyz0123456789")
        data = {
            SESSION_KEY: str(person.pk),
            BACKEND_SESSION_KEY: "django.contrib.auth.backends.ModelBackend",
            HASH_SESSION_KEY: person.get_session_auth_hash(),
        }
        rows.append(Session(session_key=key, session_data=store.encode(data), expire_date=expires))
        keys[person.pk] = key
    Session.objects.bulk_create(rows)
    return keys


async def in_thread(work: Callable[..., T], *args: Any) -> T:
    """``work(*args)`` on a worker thread, as Django's ORM must run outside the event loop; its
    database connection is closed after, so no thread leaves one open (a test database
    cannot be dropped while one is)."""

    def call() -> T:
        from django.db import connections

        try:
            return work(*args)
        finally:
            connections.close_all()

    return await asyncio.to_thread(call)


def is_finished(table_id: int) -> bool:
    from games.models import Table

    return Table.objects.filter(pk=table_id, status=Table.Status.FINISHED).exists()


def person_moves(table_ids: Iterable[int]) -> int:
    """How many moves people made at these tables, by the database (every seat's but the table's)."""
    from games.engine import TABLE_SEAT
    from games.models import Action, Table

    records = Table.objects.filter(pk__in=list(table_ids)).values_list("record_id", flat=True)
    return Action.objects.filter(game_id__in=list(records)).exclude(seat=TABLE_SEAT).count()


# Sockets


class Watch:
    """One socket of a table and the last frame it received; its reader runs until closed."""

    def __init__(
        self,
        socket: ClientConnection,
        changed: asyncio.Condition,
        results: Results,
        name: str,
        *,
        versioned: bool = True,
    ) -> None:
        self.socket = socket
        self.versioned = versioned
        self.seen: set[int] = set()
        self.changed = changed
        self.results = results
        self.name = name
        self.version = -1
        self.frame = ""
        self.stale = False
        self.too_fast = False
        # The server's count of this socket's frames, kept here too (a little stricter, for
        # the two clocks): a player sends no more than it may.
        self.allowance = TokenBucket(PLAYER.burst - 1, PLAYER.refill_per_s * 0.95, time.monotonic())
        self.closed = False
        self.closing = False
        self.reader = asyncio.create_task(self.read())

    async def read(self) -> None:
        try:
            async for message in self.socket:
                text = message if isinstance(message, str) else message.decode()
                self.take(text)
                async with self.changed:
                    self.changed.notify_all()
        except ConnectionClosed:
            pass
        finally:
            self.closed = True
            if not self.closing:
                self.results.dropped += 1
                self.results.error(f"{self.name}: socket closed unexpectedly ({self.socket.close_code})")
            async with self.changed:
                self.changed.notify_all()

    def take(self, text: str) -> None:
        if not self.versioned:  # the lobby's list: nothing to follow
            return
        if TOO_FAST in text:
            self.too_fast = True
            return
        found = VERSION.search(text)
        problem = TABLE_ERROR.search(text)
        if problem is not None and STALE in problem.group(1):
            self.stale = True
        elif problem is not None or any(mark in text for mark in REFUSED):
            detail = problem.group(1) if problem is not None else text[:120]
            self.results.error(f"{self.name}: error frame: {detail.strip()}")
        if found is None:
            if problem is None and not any(mark in text for mark in REFUSED):
                self.results.error(f"{self.name}: a frame with no version: {text[:120]!r}")
            return
        self.seen.add(int(found.group(1)))
        self.version = max(self.version, int(found.group(1)))
        self.frame = text
        self.results.frame_chars.append(len(text))

    async def close(self) -> None:
        self.closing = True
        await self.socket.close()
        with contextlib.suppress(asyncio.CancelledError):
            await self.reader


async def open_socket(url: str, origin: str, cookie: str | None) -> ClientConnection:
    headers = {"Cookie": f"sessionid={cookie}"} if cookie else None
    # As a browser: no keepalive pings from this side (daphne sends its own every 20 s), so
    # an idle socket is silent. daphne accepts no compression, so none is offered, and
    # max_size=None takes any frame the server draws.
    return await connect(
        url,
        origin=Origin(origin),
        additional_headers=headers,
        compression=None,
        max_size=None,
        ping_interval=None,
    )


def ws_base(base: str) -> str:
    return "ws" + base.removeprefix("http")


@dataclass(frozen=True)
class Plan:
    """How the tables move: ``pace`` seconds between a table's moves on average (``None``:
    at once, as fast as they can), until ``deadline`` (loop time) or ``moves`` per table."""

    pace: float | None
    deadline: float
    moves: int | None
    seed: int


async def open_table(base: str, table: BenchTable, bare: bool, results: Results) -> list[Watch]:
    path = f"/ws/bench/fanout/{table.table_id}/" if bare else f"/ws/tables/{table.table_id}/"
    url = ws_base(base) + path
    changed = asyncio.Condition()
    cookies: list[str | None] = [table.players[0][1], table.players[1][1], None]
    opened = await asyncio.gather(
        *(open_socket(url, base, cookie) for cookie in cookies), return_exceptions=True
    )
    sockets = [socket for socket in opened if isinstance(socket, ClientConnection)]
    if len(sockets) < len(opened):
        for socket in sockets:
            await socket.close()
        raise next(failure for failure in opened if isinstance(failure, BaseException))
    names = ("seat 0", "seat 1", "spectator")
    return [
        Watch(socket, changed, results, f"table {table.table_id} {name}")
        for socket, name in zip(sockets, names, strict=True)
    ]


async def wait_until(watches: list[Watch], ready: Callable[[], bool], timeout: float) -> bool:
    """Whether ``ready`` came true (or a socket closed) within ``timeout`` seconds."""
    changed = watches[0].changed
    try:
        async with changed:
            await asyncio.wait_for(
                changed.wait_for(lambda: ready() or any(w.closed for w in watches)), timeout
            )
    except TimeoutError:
        return False
    return ready()


async def sit_down(base: str, table: BenchTable, bare: bool, results: Results) -> list[Watch] | None:
    """The table's three sockets, each holding its first frame; ``None`` (an error) if not in time."""
    results.table_ids.append(table.table_id)
    try:
        watches = await open_table(base, table, bare, results)
    except Exception as exc:  # refused (a 404 without the bench route), reset, timed out
        results.error(f"table {table.table_id}: could not open its sockets: {exc!r}")
        return None
    if await wait_until(watches, lambda: all(w.version >= 0 for w in watches), VERSION_TIMEOUT_S):
        return watches
    results.timeouts += 1
    results.error(f"table {table.table_id}: no first frame on every socket")
    await leave(watches)
    return None


async def leave(watches: list[Watch]) -> None:
    """Closes the sockets still open (not a drop: the client left)."""
    await asyncio.gather(*(watch.close() for watch in watches if not watch.closed))


async def play_table(
    base: str, table: BenchTable, watches: list[Watch] | None, bare: bool, plan: Plan, results: Results
) -> None:
    """One table's two players, seated (``watches``), moving per ``plan``; a real table whose
    match ends is dealt again."""
    rng = random.Random(plan.seed * 1_000_003 + table.table_id)
    loop = asyncio.get_running_loop()
    made = 0
    next_at = loop.time()
    results.started = min(results.started, time.perf_counter())
    try:
        while (
            watches is not None and (plan.moves is None or made < plan.moves) and loop.time() < plan.deadline
        ):
            if plan.pace is not None:
                # Open loop: moves are due on a schedule of their own (exponential gaps), so a
                # slow server gets them late, not fewer of them.
                next_at += rng.expovariate(1 / plan.pace)
                await asyncio.sleep(max(0.0, next_at - loop.time()))
                if loop.time() >= plan.deadline:
                    break
            outcome = await move_once(watches, table, bare, rng, results)
            if outcome == "moved":
                made += 1
            elif outcome == "over":
                await leave(watches)
                table = await in_thread(deal_again, table)
                results.rollovers += 1
                watches = await sit_down(base, table, bare, results)
            elif outcome == "failed":
                return
    finally:
        results.ended = max(results.ended, time.perf_counter())
        if watches is not None:
            await leave(watches)


async def move_once(
    watches: list[Watch], table: BenchTable, bare: bool, rng: random.Random, results: Results
) -> str:
    """One move of the table: "moved", "over" (the match ended: deal again) or "failed"."""
    while True:
        if any(w.closed for w in watches):
            return "failed"
        version = min(w.version for w in watches)
        players = watches[:2]
        if bare:
            mover, action = players[version % 2], "bench"
        else:
            found = next((w for w in players if w.version == version and MY_TURN.search(w.frame)), None)
            if found is None:
                if await in_thread(is_finished, table.table_id):
                    return "over"

                def moved_on(v: int = version) -> bool:
                    return min(w.version for w in watches) > v

                # A tie replay is due (dealt by the worker) or a socket is behind: wait for it.
                if not await wait_until(watches, moved_on, VERSION_TIMEOUT_S):
                    results.timeouts += 1
                    results.error(f"table {table.table_id}: nobody to move at version {version}")
                    return "failed"
                continue
            choices = MOVE.findall(found.frame)
            if not choices:
                results.error(f"table {table.table_id}: a turn with no move at version {version}")
                return "failed"
            mover, action = found, rng.choice(choices)

        def answered(v: int = version, m: Watch = mover) -> bool:
            return m.stale or m.too_fast or all(w.version > v for w in watches)

        mover.stale = mover.too_fast = False
        if not bare:
            await keep_within_limit(mover, results)
        sent = time.perf_counter()
        await mover.socket.send(json.dumps({"action": action, "version": str(version)}))
        done = await wait_until(watches, answered, VERSION_TIMEOUT_S)
        if mover.too_fast:
            results.too_fast += 1
            await asyncio.sleep(TOO_FAST_PAUSE_S)
            continue
        if mover.stale:
            # The table moved on before the move arrived: the page shows it as it stands and
            # a person would play again from there, so the move is made again, not lost.
            results.stale_retries += 1
            continue
        if not done:
            if not any(w.closed for w in watches):
                results.timeouts += 1
                behind = [w.name for w in watches if w.version <= version]
                results.error(f"table {table.table_id}: version {version + 1} not on {behind} in time")
            return "failed"
        results.latencies_ms.append((time.perf_counter() - sent) * 1000)
        results.moves += 1
        # Each socket received this very version (not only a later one drawn over it).
        if all(version + 1 in w.seen for w in watches):
            results.seen_by_all += 1
        return "moved"


async def keep_within_limit(mover: Watch, results: Results) -> None:
    """Waits until ``mover`` may send a frame under the players' limit."""
    started = time.monotonic()
    if mover.allowance.take(started):
        return
    while not mover.allowance.take(time.monotonic()):
        await asyncio.sleep(1 / mover.allowance.refill_per_s)
    results.held_back += 1
    results.held_back_s += time.monotonic() - started


async def run_tables(
    base: str,
    made: list[BenchTable],
    *,
    bare: bool,
    pace: float | None,
    seconds: float | None,
    moves: int | None,
    seed: int = 1,
) -> Results:
    """Every table of ``made`` playing at once, real or bare; the results of the run."""
    results = Results(kind="bare" if bare else "tables", tables=len(made))
    # Moves of earlier runs at these tables; tables dealt during this run start at none.
    before = 0 if bare else await in_thread(person_moves, [table.table_id for table in made])
    # Every table is seated before the first move: the run measures play, not the storm of
    # sockets connecting at its start (each drawn its first frame) that early moves queued behind.
    seated = await asyncio.gather(*(sit_down(base, table, bare, results) for table in made))
    loop = asyncio.get_running_loop()
    start = loop.time()
    deadline = start + seconds if seconds is not None else float("inf")
    plan = Plan(pace=pace, deadline=deadline, moves=moves, seed=seed)
    cpu = time.process_time()
    tables = zip(made, seated, strict=True)
    await asyncio.gather(*(play_table(base, table, seats, bare, plan, results) for table, seats in tables))
    results.elapsed_s = max(0.0, results.ended - results.started)
    results.client_cpu_s = time.process_time() - cpu
    if not bare:
        # The database's count of the players' moves must be the clients': a move acknowledged
        # but not stored is lost, and one stored that its client took for refused was doubled.
        stored = await in_thread(person_moves, results.table_ids) - before
        if stored != results.moves:
            results.error(f"the database holds {stored} players' moves, the clients counted {results.moves}")
    return results


# Idle sockets


def rss_kb(pid: int) -> int:
    """A process's resident memory (VmRSS) in kB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for process {pid}")


def listening_pid(port: int) -> int | None:
    """The server process listening on TCP ``port`` of this machine, by /proc: a daphne if
    one holds the socket (``make run`` binds the port itself and hands it to its daphnes)."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(FileNotFoundError):
            for line in Path(table).read_text().splitlines()[1:]:
                parts = line.split()
                if int(parts[1].rsplit(":", 1)[1], 16) == port and parts[3] == "0A":  # 0A: LISTEN
                    inodes.add(f"socket:[{parts[9]}]")
    holders = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        with contextlib.suppress(OSError):
            for fd in os.listdir(f"/proc/{pid}/fd"):
                with contextlib.suppress(OSError):
                    if os.readlink(f"/proc/{pid}/fd/{fd}") in inodes:
                        holders.append(int(pid))
                        break
    daphnes = [pid for pid in holders if b"daphne" in _cmdline(pid)]
    return (daphnes or holders or [None])[0]


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:  # gone since
        return b""


def raise_fd_limit(wanted: int, pid: int | None = None) -> int:
    """Raises the soft limit on open files of this process (or ``pid``) towards ``wanted``,
    never past the hard limit; returns the soft limit now in force."""
    if pid is None:
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    else:
        soft, hard = resource.prlimit(pid, resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        if pid is None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        else:
            resource.prlimit(pid, resource.RLIMIT_NOFILE, (target, hard))
        soft = target
    return soft


async def answers(watch: Watch, timeout: float = 30.0) -> bool:
    try:
        pong = await watch.socket.ping()
        await asyncio.wait_for(pong, timeout)
    except (ConnectionClosed, TimeoutError):
        return False
    return True


@dataclass
class IdleResults:
    sockets: int
    opened: int = 0
    dropped: int = 0
    errors: int = 0
    rss_before_kb: int = 0
    rss_after_kb: int = 0
    open_s: float = 0.0
    notes: list[str] = field(default_factory=list)

    @property
    def kb_per_socket(self) -> float | None:
        return round((self.rss_after_kb - self.rss_before_kb) / self.opened, 1) if self.opened else None


async def hold_idle(
    base: str,
    table_ids: list[int],
    count: int,
    *,
    lobby_every: int,
    hold_s: float,
    server_pid: int,
    concurrency: int = 100,
) -> IdleResults:
    """``count`` idle sockets: spectators of ``table_ids`` in turn, every ``lobby_every``-th
    one the lobby's (0: none); held ``hold_s`` seconds, the server's memory read before and after."""
    results = IdleResults(sockets=count)
    counter = Results(kind="idle", tables=len(table_ids))
    results.rss_before_kb = rss_kb(server_pid)
    gate = asyncio.Semaphore(concurrency)
    changed = asyncio.Condition()
    watches: list[Watch] = []

    async def one(n: int) -> None:
        lobby = lobby_every > 0 and n % lobby_every == lobby_every - 1
        path = "/ws/lobby/" if lobby else f"/ws/tables/{table_ids[n % len(table_ids)]}/"
        async with gate:
            try:
                socket = await open_socket(ws_base(base) + path, base, None)
            except Exception as exc:  # refused, reset, timed out: each is a socket the server did not hold
                counter.error(f"idle socket {n}: could not open: {exc}")
                return
        watches.append(Watch(socket, changed, counter, f"idle {n} ({path})", versioned=not lobby))

    clock = time.perf_counter()
    await asyncio.gather(*(one(n) for n in range(count)))
    results.open_s = time.perf_counter() - clock
    results.opened = len(watches)
    await asyncio.sleep(hold_s)
    results.rss_after_kb = rss_kb(server_pid)
    # Open is not enough: the server must still answer each socket (a ping's pong).
    alive = await asyncio.gather(*(answers(watch) for watch in watches))
    unanswered = sum(1 for ok, watch in zip(alive, watches, strict=True) if not ok and not watch.closed)
    if unanswered:
        counter.error(f"{unanswered} idle sockets open but not answering a ping")
    await leave(watches)
    results.dropped = counter.dropped
    results.errors = counter.errors
    results.notes = counter.notes
    return results
