"""How many frames a WebSocket may send, and how often the lobby is drawn again.

Pure: no Django, Channels or clock of its own. Callers pass ``now`` (monotonic seconds),
so the rules are unit-tested without waiting.

Every frame costs the server something, and a flood on one socket must not slow the
other tables' play, whose turn clocks keep running (LP-1). So each connection has a
token bucket: a burst at once, then a steady rate. A frame past it is refused cheaply (a
small notice, no database work), and a client that keeps flooding once refused runs out
of patience and is disconnected.
"""

from __future__ import annotations

import enum
from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass


@dataclass(frozen=True)
class Rate:
    """``frames`` per ``per_s`` seconds on average, ``burst`` of them at once; ``patience``
    refused frames per ``per_s`` seconds are tolerated (a client that bumps into the limit
    now and then), more and the socket is closed."""

    frames: int
    per_s: float
    burst: int
    patience: int

    @property
    def refill_per_s(self) -> float:
        return self.frames / self.per_s


PLAYER = Rate(frames=100, per_s=20, burst=20, patience=20)
"""A seated player: moves, the odd stale retry; far beyond what a person clicks."""
WATCHER = Rate(frames=30, per_s=20, burst=10, patience=20)
"""A table's spectator or the lobby: their pages send nothing but chat (at most ``CHAT``'s
figure), so any other frame is a refresh at most."""
PING = WATCHER
"""The site's ping socket: a health check, not a conversation."""
CHAT = Rate(frames=5, per_s=10, burst=5, patience=5)
"""A person's chat messages at the tables (LP-10), on top of their socket's own limit: the
figure ``talk.say`` counts in the database, checked here first so that a flood of chat is
refused before it reaches the database thread (only the bucket is used; a socket that keeps
flooding runs out of its own limit's patience)."""


class TokenBucket:
    """Holds up to ``capacity`` tokens, refilled at ``refill_per_s``; a frame takes one."""

    __slots__ = ("_stamp", "_tokens", "capacity", "refill_per_s")

    def __init__(self, capacity: float, refill_per_s: float, now: float) -> None:
        if capacity < 1 or refill_per_s <= 0:
            raise ValueError("a bucket holds at least one token and refills")
        self.capacity = capacity
        self.refill_per_s = refill_per_s
        self._tokens = float(capacity)
        self._stamp = now

    def take(self, now: float) -> bool:
        """Take a token if there is one."""
        self._refill(now)
        if self._tokens >= 1:
            self._tokens -= 1
            return True
        return False

    def resize(self, capacity: float, refill_per_s: float, now: float) -> None:
        """New limits, keeping what is left (never more than the new capacity)."""
        self._refill(now)
        self.capacity, self.refill_per_s = capacity, refill_per_s
        self._tokens = min(self._tokens, float(capacity))

    def _refill(self, now: float) -> None:
        # A clock that goes backwards (it should not: callers pass monotonic time) refills nothing.
        if now > self._stamp:
            self._tokens = min(self.capacity, self._tokens + (now - self._stamp) * self.refill_per_s)
            self._stamp = now


class Verdict(enum.Enum):
    ADMIT = "admit"
    """Handle the frame."""
    REFUSE = "refuse"
    """Do not handle it; say so, briefly."""
    CLOSE = "close"
    """The client keeps flooding: close the socket (once)."""
    IGNORE = "ignore"
    """The socket is being closed: drop whatever still arrives, silently."""


class SharedBuckets:
    """Frame buckets by key (say, a signed-in user and the rate of their socket), shared by
    that key's sockets in one server process, so that closing a socket and opening another
    does not buy a fresh burst. Keeps the ``size`` keys used last."""

    def __init__(self, size: int = 10_000) -> None:
        self.size = size
        self._buckets: OrderedDict[Hashable, TokenBucket] = OrderedDict()

    def bucket(self, key: Hashable, rate: Rate, now: float) -> TokenBucket:
        found = self._buckets.get(key)
        if found is None:
            found = self._buckets[key] = TokenBucket(rate.burst, rate.refill_per_s, now)
            while len(self._buckets) > self.size:
                self._buckets.popitem(last=False)
        self._buckets.move_to_end(key)
        return found


class FrameLimiter:
    """One connection's limit: a bucket of frames (its own, or one it shares with the same
    person's other sockets) and a bucket of patience (always its own)."""

    __slots__ = ("_closed", "_frames", "_patience", "rate")

    def __init__(self, rate: Rate, now: float, frames: TokenBucket | None = None) -> None:
        self.rate = rate
        self._frames = frames or TokenBucket(rate.burst, rate.refill_per_s, now)
        self._patience = TokenBucket(rate.patience, rate.patience / rate.per_s, now)
        self._closed = False

    def check(self, now: float) -> Verdict:
        """What to do with a frame that arrives at ``now``."""
        if self._closed:
            return Verdict.IGNORE
        if self._frames.take(now):
            return Verdict.ADMIT
        if self._patience.take(now):
            return Verdict.REFUSE
        self._closed = True
        return Verdict.CLOSE

    def change_rate(self, rate: Rate, now: float, frames: TokenBucket | None = None) -> None:
        """A spectator who sat down (or a player who left): new limits; ``frames`` is the
        bucket shared at the new rate, else this one's is resized (no fresh burst)."""
        if rate == self.rate:
            return
        self.rate = rate
        if frames is not None:
            self._frames = frames
        else:
            self._frames.resize(rate.burst, rate.refill_per_s, now)
        self._patience.resize(rate.patience, rate.patience / rate.per_s, now)


class Spacing:
    """At most one event per ``interval`` seconds: how long the next one must wait."""

    __slots__ = ("_last", "interval")

    def __init__(self, interval: float) -> None:
        self.interval = interval
        self._last: float | None = None

    def wait(self, now: float) -> float:
        if self._last is None:
            return 0.0
        return max(0.0, self._last + self.interval - now)

    def mark(self, now: float) -> None:
        self._last = now
