"""Scripted people at live tables: real WebSocket clients that survive the server dying.

A ``Player`` holds one seat of one game. It plays a random legal move from its frame as
soon as its turn comes, and keeps the move as *pending* until a frame shows a later
version (the acknowledgement: at that version only this seat could move). When its
socket dies, or stays silent too long (announcements are lost while Redis is down), it
reconnects to a random server with backoff and at once resends its pending move with the
version it was made at: if the move was applied before the crash the server refuses the
resend as stale, so nothing is ever applied twice; if it was lost, it applies now.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from tests.faults.frames import Frame, choose, encode, read_frame

IDLE_RECONNECT_S = 5.0
"""No frame for this long while waiting: assume lost announcements and reconnect."""
MAX_BACKOFF_S = 2.0
RATE_LIMIT_PAUSE_S = 1.0
TABLE_FRAME = 'id="table-live"'


@dataclass
class Move:
    """One move a client made (resends are the same move)."""

    game_id: int
    seat: int
    version: int
    text: str
    """As the engine stores it (``Action.text``)."""
    message: str
    sent_at: float
    sends: int = 1
    acked_at: float | None = None
    acked_by: str = ""
    """The frame that acknowledged it: its version and error, if any (for a report)."""
    refused: str = ""


@dataclass
class Events:
    """Everything the clients saw, with wall-clock times (to attribute to fault windows)."""

    log: list[tuple[float, str]] = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)
    close_codes: dict[int | str, int] = field(default_factory=dict)

    def add(self, kind: str) -> None:
        self.log.append((time.time(), kind))

    def closed(self, code: int | str) -> None:
        self.close_codes[code] = self.close_codes.get(code, 0) + 1


@dataclass
class Player:
    urls: list[str]
    table_id: int
    game_id: int
    seat: int
    cookie: str
    canonical: Callable[[dict[str, Any]], str]
    """The text the engine will store for a message (to compare with the database)."""
    events: Events
    rng: random.Random
    stopping: asyncio.Event
    pending: Move | None = None
    trace: list[str] = field(default_factory=list)
    """What this player saw and did, for a report of a move gone wrong."""
    frames: int = 0
    acks: int = 0
    last_frame_at: float = field(default_factory=time.monotonic)

    async def play(self) -> None:
        """Until the game is over, or the run is stopping and no move of ours is in doubt."""
        failures = 0  # connections in a row that brought no frame: the backoff grows with them
        first = True
        while True:
            base = self.rng.choice(self.urls)
            url = base.replace("http://", "ws://") + f"/ws/tables/{self.table_id}/"
            frames_before = self.frames
            try:
                async with connect(
                    url,
                    origin=base,
                    additional_headers={"Cookie": self.cookie},
                    open_timeout=5,
                    close_timeout=1,
                    max_size=None,
                ) as socket:
                    self.trace.append(f"{time.time():.3f} connected to {base}")
                    if not first:
                        self.events.add("reconnect")
                    first = False
                    if self.pending is not None:
                        self.pending.sends += 1
                        self.events.add("resend")
                        await socket.send(self.pending.message)
                    if await self._converse(socket):
                        return
                    self.events.add("idle")
            except ConnectionClosed as exc:
                self.events.closed(exc.rcvd.code if exc.rcvd is not None else "no close frame")
            except (OSError, InvalidHandshake, TimeoutError) as exc:
                self.events.closed(type(exc).__name__)
            first = False
            failures = 0 if self.frames > frames_before else failures + 1
            if self.stopping.is_set() and self.pending is None:
                return
            await asyncio.sleep(min(MAX_BACKOFF_S, 0.05 * 2**failures) * self.rng.uniform(0.5, 1.0))

    async def _converse(self, socket: ClientConnection) -> bool:
        """Play over one socket; True when done, False to reconnect (silence)."""
        self.last_frame_at = time.monotonic()
        while True:
            try:
                text = await asyncio.wait_for(socket.recv(), timeout=0.5)
            except TimeoutError:
                if self.stopping.is_set() and self.pending is None:
                    return True
                if time.monotonic() - self.last_frame_at > IDLE_RECONNECT_S:
                    return False
                continue
            self.last_frame_at = time.monotonic()
            self.frames += 1
            if isinstance(text, bytes) or TABLE_FRAME not in text:
                await self._refused_frame(socket, text)
                continue
            frame = read_frame(text)
            self.trace.append(
                f"{time.time():.3f} frame v{frame.version} moves={len(frame.moves)} over={frame.over} "
                f"error={frame.error[:60]!r}"
            )
            self._take_frame(frame)
            if frame.over and self.pending is None:
                return True
            if self.stopping.is_set() and self.pending is None:
                return True
            if self.pending is None:
                message = choose(frame, self.rng)
                if message is not None:
                    await self._send(socket, frame, message)

    def _take_frame(self, frame: Frame) -> None:
        pending = self.pending
        if frame.error:
            if frame.stale_refusal:
                self.events.add("stale_refused")
            elif pending is not None and frame.version == pending.version:
                pending.refused = frame.error
                self.events.add("refused")
                self.pending = None
                return
            else:
                self.events.add("other_error")
        if pending is not None and frame.version is not None and frame.version > pending.version:
            pending.acked_at = time.time()
            pending.acked_by = f"version {frame.version}" + (
                f", error {frame.error!r}" if frame.error else ""
            )
            self.acks += 1
            self.pending = None

    async def _refused_frame(self, socket: ClientConnection, text: str | bytes) -> None:
        """A short notice instead of the table: the socket's rate limit refused our last
        frame (unread, so unapplied). Wait for the limit to refill, then send it again."""
        shown = text.decode("utf-8", "replace") if isinstance(text, bytes) else text
        self.events.add("rate_limited" if "too-fast" in shown else "notice")
        await asyncio.sleep(RATE_LIMIT_PAUSE_S)
        if self.pending is not None:
            self.pending.sends += 1
            self.events.add("resend")
            await socket.send(self.pending.message)

    async def _send(self, socket: ClientConnection, frame: Frame, message: dict[str, Any]) -> None:
        assert frame.version is not None
        move = Move(
            game_id=self.game_id,
            seat=self.seat,
            version=frame.version,
            text=self.canonical(message),
            message=encode(message),
            sent_at=time.time(),
        )
        self.events.moves.append(move)
        self.pending = move
        self.trace.append(f"{move.sent_at:.3f} send {move.text!r} at v{move.version}")
        await socket.send(move.message)
