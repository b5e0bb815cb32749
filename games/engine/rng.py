"""The only source of randomness in the engines.

Python promises that ``random.Random(seed).random()`` yields the same sequence in
every release, but not that ``shuffle``, ``randrange`` or ``choice`` keep their
algorithms. So we build on ``random()`` alone: an explicit Fisher-Yates shuffle and
an explicit ``below``. Sub-seeds for independent streams (the deal of hand 7, a bot's
tie-break) come from SHA-256, which is just as stable.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def derive_seed(seed: int, *labels: object) -> int:
    """A 63-bit seed for an independent stream named by ``labels``."""
    text = ":".join([str(seed), *(str(label) for label in labels)])
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


class SeededRNG:
    """A deterministic generator that uses only ``random.Random.random``."""

    __slots__ = ("_random",)

    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed)

    def random(self) -> float:
        return self._random.random()

    def below(self, n: int) -> int:
        """An integer in ``[0, n)``."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        return min(int(self._random.random() * n), n - 1)

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """A new list: Fisher-Yates from the last position down, one ``random()`` a swap."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out


def shuffled(items: Sequence[T], seed: int) -> list[T]:
    """``items`` shuffled by a fresh generator seeded with ``seed``."""
    return SeededRNG(seed).shuffled(items)
