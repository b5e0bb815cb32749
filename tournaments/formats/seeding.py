"""TN-2: the seed order, by rating then by entry time.

Entrants without a rating come after every rated entrant: a rating is evidence of
strength and its absence is not (an unrated newcomer is not assumed to be the weakest
player, only the least known). Among equals the earlier entry comes first, and the
entrant id settles what is left so that the order never depends on the input's order.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple


class SeedEntry(NamedTuple):
    """One entrant as the draw sees it; a plain ``(id, rating, joined_order)`` tuple works too."""

    entrant_id: int
    rating: float | None
    joined_order: int


def seed_order(entrants: Iterable[tuple[int, float | None, int]]) -> tuple[int, ...]:
    """TN-2: entrant ids, first seed first: higher rating, then rated before unrated, then
    earlier ``joined_order`` (any increasing number: a sequence, a timestamp)."""
    entries = [SeedEntry(*entry) for entry in entrants]
    ids = [entry.entrant_id for entry in entries]
    if len(set(ids)) != len(ids):
        raise ValueError("an entrant is listed twice")
    ordered = sorted(entries, key=_seed_key)
    return tuple(entry.entrant_id for entry in ordered)


def _seed_key(entry: SeedEntry) -> tuple[bool, float, int, int]:
    unrated = entry.rating is None
    return (unrated, 0.0 if entry.rating is None else -entry.rating, entry.joined_order, entry.entrant_id)
