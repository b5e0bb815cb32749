"""A per-process cache of the most recently used entries, for what never goes stale once
computed (a game's state at a version, a table's frame for a version and seat): an old entry
is only ever unused, so the least recently used goes first.

The event loop and Django's database thread use the same caches, so each one takes a lock:
between reading an entry and marking it used, the other thread could evict it (``KeyError``
from ``move_to_end``)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Lru(OrderedDict[K, V]):
    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size
        self._lock = threading.Lock()

    def find(self, key: K) -> V | None:
        """The entry for ``key``, marked as just used; ``None`` if there is none."""
        with self._lock:
            value = self.get(key)
            if value is not None:
                self.move_to_end(key)
            return value

    def keep(self, key: K, value: V) -> None:
        with self._lock:
            self[key] = value
            self.move_to_end(key)
            while len(self) > self.size:
                self.popitem(last=False)
