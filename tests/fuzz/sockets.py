"""WebSocket fuzzing: ``target`` frames into each consumer, from a few lanes at once.

The consumers limit how fast a client may send (games/live/socket_limits.py: a burst, then a
steady rate, per anonymous socket or per signed-in person and server process; past it a
short notice, and a socket that keeps flooding is closed with 4429). So the fuzzer is many
clients: anonymous sockets, each with a fresh burst, and a pool of signed-in people (for a
player, people each seated at a table of their own against the bot). A lane keeps a copy
of each client's bucket and sends only what it holds; when the client it uses runs dry it
takes another (a new anonymous socket is always at hand, except for players and the notice
socket, which take signed-in people only: those wait). A limit notice on such a socket
means the copy was wrong: the frame is not counted and that client's copy is emptied. Now
and then a lane floods on purpose, to see the notices and the 4429 close; those frames are
counted apart, as limit answers.

A frame's answer is awaited (a ping and a table answer every frame they handle, the notice
socket every frame but a well-formed "read" that changes nothing; the lobby coalesces), so
the run goes as fast as the server answers. A close with 1011 (the server caught an
exception it did not expect) or a handshake answered 5xx is *unhandled*; the
frames sent on that socket just before are kept as examples.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

from tests.faults.frames import Frame, read_frame
from tests.fuzz import socket_frames

ROUTES = {
    "ping": "ws/ping/",
    "lobby": "ws/lobby/",
    "table (player)": "ws/tables/<int:table_id>/",
    "table (spectator)": "ws/tables/<int:table_id>/",
    "notices": "ws/notices/",
}
"""Each fuzzed consumer's route in config/routing.py (``uncovered``: a new socket must be added)."""
CONSUMERS = tuple(ROUTES)
SIGNED_IN = ("table (player)", "notices")
"""Consumers fuzzed as signed-in people only: a player has a seat, and the notice socket
refuses a visitor at the handshake (HTTP 403, seen now and then: ``ANONYMOUS_NOTICES``)."""
ANONYMOUS_NOTICES = 0.02
FLOOD_SHARE = 0.03
FLOOD_PAST_BURST = 40
FLOOD_WAIT_S = 5.0
"""A flood sends this many frames past the burst: past the patience, so it sees the 4429."""
EXAMPLES = 5
EXAMPLE_FRAMES = 5
"""Frames kept per socket for an example: a player's answers are not matched one to one
(the bot's moves bring frames too), so the one that broke it may be a few frames back."""
ANSWER_TIMEOUT_S = 5.0
MARGIN = 0.8
"""The copy refills this much slower than the server's bucket: timing differs a little."""


def uncovered() -> list[str]:
    """The site's WebSocket routes that no consumer here fuzzes."""
    from config.routing import websocket_urlpatterns

    return sorted({str(route.pattern) for route in websocket_urlpatterns} - set(ROUTES.values()))


def rates() -> dict[str, tuple[float, float]]:
    """(burst, refill per second) per consumer, from the site's own limits."""
    try:
        from accounts.consumers import NOTICES
        from games.live.socket_limits import PING, PLAYER, WATCHER
    except ImportError:  # a tree without socket limits: pace as if the tightest were there
        return dict.fromkeys(CONSUMERS, (10.0, 1.0))
    return {
        "ping": (PING.burst, PING.refill_per_s),
        "lobby": (WATCHER.burst, WATCHER.refill_per_s),
        "table (player)": (PLAYER.burst, PLAYER.refill_per_s),
        "table (spectator)": (WATCHER.burst, WATCHER.refill_per_s),
        "notices": (NOTICES.burst, NOTICES.refill_per_s),
    }


class Bucket:
    """The fuzzer's copy of one client's token bucket at one server."""

    def __init__(self, burst: float, refill_per_s: float) -> None:
        self.burst, self.refill = burst, refill_per_s * MARGIN
        self.tokens, self.stamp = float(burst), time.monotonic()

    def level(self) -> float:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.refill)
        self.stamp = now
        return self.tokens

    def take(self) -> bool:
        if self.level() < 1:
            return False
        self.tokens -= 1
        return True

    def empty(self) -> None:
        self.level()
        self.tokens = 0.0


@dataclass
class Client:
    """A signed-in person (``cookie``), or ``None`` for anonymous; a player has a seat."""

    cookie: str | None
    user: Any = None
    table_id: int = 0
    notices: list[int] = field(default_factory=list)
    """Ids of the person's own notices (unread when the run starts)."""
    last: Frame | None = None
    buckets: dict[str, Bucket] = field(default_factory=dict)
    renewing: asyncio.Lock = field(default_factory=asyncio.Lock)


@dataclass
class SocketTally:
    name: str
    handled: int = 0
    """Frames sent within the limit, on a socket the server kept open."""
    flood_frames: int = 0
    limited: int = 0
    """Rate-limit notices received on flooding sockets."""
    limited_paced: int = 0
    """Rate-limit notices on sockets that kept to the copy of the limit: those frames were
    not handled, so they are taken off ``handled``."""
    protocol_frames: int = 0
    """Frames the WebSocket layer must refuse (invalid UTF-8, over 1 MiB)."""
    connections: int = 0
    answers: Counter[str] = field(default_factory=Counter)
    closes: Counter[str] = field(default_factory=Counter)
    unhandled: int = 0
    examples: list[str] = field(default_factory=list)
    unanswered: int = 0
    """Frames the consumer should have answered (an error, say) that had no answer within
    ``ANSWER_TIMEOUT_S`` on a socket still open: a note, as a loaded server may be that slow."""
    unanswered_examples: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def counted(self) -> int:
        return self.handled - self.limited_paced


@dataclass
class Listener:
    """Reads a socket's answers as they come."""

    kind: str
    tally: SocketTally
    socket: ClientConnection
    bucket: Bucket
    player: Client | None = None
    flood: bool = False
    count: int = 0
    over: bool = False
    arrived: asyncio.Event = field(default_factory=asyncio.Event)

    async def run(self) -> None:
        try:
            async for answer in self.socket:
                what = socket_frames.classify(self.kind.split(" ")[0], answer)
                self.tally.answers[what] += 1
                if what == "limited" and self.flood:
                    self.tally.limited += 1
                elif what == "limited":
                    self.tally.limited_paced += 1
                    self.bucket.empty()
                if what.startswith("table") and self.player is not None and isinstance(answer, str):
                    frame = read_frame(answer)
                    self.player.last = frame
                    self.over = self.over or frame.over
                self.count += 1
                self.arrived.set()
        except ConnectionClosed:
            pass
        self.arrived.set()

    async def next(self, seen: int) -> bool:
        """Until an answer after the ``seen``-th arrives or the socket closes (True), or time
        runs out (False)."""
        deadline = time.monotonic() + ANSWER_TIMEOUT_S
        while self.count <= seen and self.socket.close_code is None:
            self.arrived.clear()
            try:
                await asyncio.wait_for(self.arrived.wait(), max(0.01, deadline - time.monotonic()))
            except TimeoutError:
                return False
        return True


@dataclass
class SocketFuzz:
    urls: list[str]
    target: int
    seed: int
    people: dict[str, list[Client]]
    """Signed-in clients per consumer (players each have a table of their own)."""
    new_table: Any
    """(user) -> table id: a started table with the user in seat 0 and a bot in seat 1."""
    tallies: dict[str, SocketTally] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.tallies = {name: SocketTally(name) for name in CONSUMERS}
        self.limits = rates()
        self.started = time.monotonic()

    async def run(self, lanes: int = 2) -> dict[str, SocketTally]:
        jobs = []
        for index, kind in enumerate(CONSUMERS):
            for lane in range(lanes):
                jobs.append(self._lane(kind, random.Random(self.seed * 100 + index * 10 + lane)))
        await asyncio.gather(*jobs)
        return self.tallies

    async def _lane(self, kind: str, rng: random.Random) -> None:
        tally = self.tallies[kind]
        if kind == "table (spectator)":
            await asyncio.sleep(2)  # the players have tables to watch by then
        while tally.counted() < self.target:
            client, base = await self._choose(kind, rng)
            if kind == "table (player)":
                await self._renew_table(client)
            bucket = self._bucket(kind, client, base)
            await self._connection(kind, rng, client, base, bucket, tally)
        tally.seconds = time.monotonic() - self.started

    async def _choose(self, kind: str, rng: random.Random) -> tuple[Client, str]:
        """A client with frames left at some server: a signed-in one half the time (for
        ``SIGNED_IN`` consumers always, but for a rare visitor of the notices), else a new
        anonymous socket."""
        anonymous = {"table (player)": 0.0, "notices": ANONYMOUS_NOTICES}.get(kind, 0.5)
        while True:
            base = rng.choice(self.urls)
            if rng.random() < anonymous:
                return Client(None), base
            ready = [c for c in self.people[kind] if self._bucket(kind, c, base).level() >= 1]
            if ready:
                return rng.choice(ready), base
            if kind not in SIGNED_IN:
                return Client(None), base
            await asyncio.sleep(0.05)

    def _bucket(self, kind: str, client: Client, base: str) -> Bucket:
        if client.cookie is None:
            return Bucket(*self.limits[kind])
        if base not in client.buckets:
            client.buckets[base] = Bucket(*self.limits[kind])
        return client.buckets[base]

    async def _renew_table(self, player: Client) -> None:
        async with player.renewing:
            if player.table_id == 0 or (player.last is not None and player.last.over):
                player.table_id = await asyncio.to_thread(self.new_table, player.user)
                player.last = None

    def _url(self, kind: str, rng: random.Random, client: Client, base: str) -> str:
        ws = base.replace("http://", "ws://")
        if kind == "notices":
            return f"{ws}/{ROUTES[kind]}{socket_frames.presence_query(rng)}"
        if not kind.startswith("table"):
            return f"{ws}/{ROUTES[kind]}"
        table_id = client.table_id
        if kind == "table (spectator)":
            playing = [p.table_id for p in self.people["table (player)"] if p.table_id]
            if not playing or rng.random() < 0.02:
                table_id = rng.choice((0, 999_999_999, 10**20))  # no such table: closed with 4404
            else:
                table_id = rng.choice(playing)
        return ws + f"/ws/tables/{table_id}/" + socket_frames.table_query(rng)

    async def _connection(
        self, kind: str, rng: random.Random, client: Client, base: str, bucket: Bucket, tally: SocketTally
    ) -> None:
        url = self._url(kind, rng, client, base)
        headers = {"Cookie": client.cookie} if client.cookie else {}
        sent: deque[str] = deque(maxlen=EXAMPLE_FRAMES)
        flood = rng.random() < FLOOD_SHARE
        try:
            async with connect(
                url, origin=base, additional_headers=headers, max_size=None, open_timeout=20, close_timeout=5
            ) as socket:
                tally.connections += 1
                player = client if kind == "table (player)" else None
                listener = Listener(kind, tally, socket, bucket, player, flood)
                reading = asyncio.create_task(listener.run())
                try:
                    if kind.startswith("table") or kind == "notices":
                        await listener.next(0)  # its first frame: the connection is set up
                    await self._frames(kind, rng, client, bucket, tally, socket, listener, sent)
                    if flood:  # see the notices and the close the flood earns
                        await asyncio.wait({reading}, timeout=FLOOD_WAIT_S)
                except ConnectionClosed:
                    pass  # the server closed it: its close code says why
                finally:
                    if flood:
                        bucket.empty()  # a signed-in client's flood drains what its other sockets share
                    await socket.close()
                    await reading
                received = socket.protocol.close_rcvd
                self._closed(tally, received.code if received else None, sent)
        except InvalidStatus as exc:
            tally.closes[f"HTTP {exc.response.status_code}"] += 1
            if exc.response.status_code >= 500:
                self._unhandled(tally, f"handshake answered {exc.response.status_code}", sent)
        except (ConnectionClosed, InvalidHandshake, OSError, TimeoutError) as exc:
            tally.closes[type(exc).__name__] += 1
            await asyncio.sleep(0.2)

    async def _frames(
        self,
        kind: str,
        rng: random.Random,
        client: Client,
        bucket: Bucket,
        tally: SocketTally,
        socket: ClientConnection,
        listener: Listener,
        sent: deque[str],
    ) -> None:
        flooded = 0
        while tally.counted() < self.target and socket.close_code is None:
            if listener.flood:
                if flooded > bucket.burst + FLOOD_PAST_BURST:
                    return
            elif not bucket.take():
                return  # this client has no frame left: another one takes over
            data, text, answered = self._make(kind, rng, client)
            sent.append(repr(data)[:200])
            seen = listener.count
            await socket.send(data, text=text)
            if (isinstance(data, bytes) and text) or len(data) > 1024 * 1024:
                tally.protocol_frames += 1
                await listener.next(seen)
                return
            if listener.flood:
                flooded += 1
                tally.flood_frames += 1
                continue
            tally.handled += 1
            if answered and not await listener.next(seen):
                tally.unanswered += 1
                if len(tally.unanswered_examples) < EXAMPLES:
                    tally.unanswered_examples.append(sent[-1])
            if listener.over:
                return
        if kind == "lobby":
            await listener.next(0)  # it draws the list once after a burst: see that it does

    def _make(self, kind: str, rng: random.Random, client: Client) -> tuple[str | bytes, bool, bool]:
        """``(data, text, answered)``: ``answered`` if the consumer answers that frame (the
        lobby coalesces a burst into one drawing; a well-formed notices "read" may change nothing)."""
        answered = kind != "lobby"
        if kind == "ping":
            data, text = socket_frames.ping(rng)
        elif kind == "lobby":
            data, text = socket_frames.lobby(rng)
        elif kind == "notices":
            data, text, answered = socket_frames.notices(rng, client.notices)
        else:
            player = kind == "table (player)"
            data, text = socket_frames.table(rng, client.last if player else None, player=player)
        if isinstance(data, str):
            # Text the client can send: a lone surrogate becomes U+FFFD (invalid UTF-8 is
            # sent on purpose, as bytes, by socket_frames.protocol_abuse).
            return data.encode("utf-8", "replace").decode("utf-8"), True, answered
        return data, text, answered

    def _closed(self, tally: SocketTally, code: int | None, sent: deque[str]) -> None:
        tally.closes["no close frame" if code is None else str(code)] += 1
        if code == 1011:
            self._unhandled(tally, "closed with 1011", sent)

    def _unhandled(self, tally: SocketTally, what: str, sent: deque[str]) -> None:
        tally.unhandled += 1
        if len(tally.examples) < EXAMPLES:
            tally.examples.append(f"{what} after: {' | '.join(sent)}")
