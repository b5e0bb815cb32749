"""Places in the site's long lists, for paging by key ("keyset paging").

A page that starts after a key is read along the list's index from that key: it costs the
same on page 1 and on page 940, where an ``OFFSET`` reads and drops every row before it
(47,000 ratings and their players for the rating board's last page: 87 ms at a million
games; docs/benchmarks.md). A key also holds its place while the list changes under a reader:
the next page starts right after the last row they saw, whoever has played since.

A key travels in a link as a token (``?after=<token>``), the values of its row's sort columns:
``GameKey`` for a person's games (newest first), ``RatingKey`` for a rating board (best first).
"""

from __future__ import annotations

import datetime as dt
import math
import re
from dataclasses import dataclass

from django.db.models import Q

LARGEST_ID = 2**63 - 1
# ASCII digits only: ``\d`` and ``int`` also take other scripts' digits, which no link holds.
_GAME_TOKEN = re.compile(r"(-?[0-9]{1,17})_([0-9]{1,19})")
_RATING_TOKEN = re.compile(r"(-?[0-9]{1,20}(?:\.[0-9]{1,20})?(?:e[-+]?[0-9]{1,3})?)_([0-9]{1,19})")
EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)


@dataclass(frozen=True)
class GameKey:
    """A game's place in a person's list of games, newest first: its finish, then its record
    (``games.Participation``'s index ``participation_newest``)."""

    finished_at: dt.datetime
    record_id: int

    @property
    def token(self) -> str:
        micros = (self.finished_at - EPOCH) // dt.timedelta(microseconds=1)
        return f"{micros}_{self.record_id}"

    @classmethod
    def parse(cls, token: str) -> GameKey | None:
        """The key a token names, or None for anything a link of the site never holds."""
        match = _GAME_TOKEN.fullmatch(token)
        if match is None or int(match[2]) > LARGEST_ID:
            return None
        try:
            finished_at = EPOCH + dt.timedelta(microseconds=int(match[1]))
        except OverflowError:
            return None
        return cls(finished_at, int(match[2]))

    def newer(self) -> Q:
        """The games listed before this one. Bounded by the index's first column too, so that
        PostgreSQL reads just that range (a bare ``a > x OR (a = x AND b > y)`` is no range)."""
        return Q(finished_at__gte=self.finished_at) & (
            Q(finished_at__gt=self.finished_at) | Q(record_id__gt=self.record_id)
        )

    def older(self) -> Q:
        """The games listed after this one."""
        return Q(finished_at__lte=self.finished_at) & (
            Q(finished_at__lt=self.finished_at) | Q(record_id__lt=self.record_id)
        )


@dataclass(frozen=True)
class RatingKey:
    """A rating's place on its game's board, best first: its ``mu``, then its id (the order of
    ``games.stats.selectors._ranked``)."""

    mu: float
    id: int

    @property
    def token(self) -> str:
        return f"{self.mu!r}_{self.id}"  # repr: the float itself, read back exactly

    @classmethod
    def parse(cls, token: str) -> RatingKey | None:
        match = _RATING_TOKEN.fullmatch(token)
        if match is None or int(match[2]) > LARGEST_ID:
            return None
        mu = float(match[1])
        return cls(mu, int(match[2])) if math.isfinite(mu) else None

    def higher(self) -> Q:
        """The ratings listed before this one: higher, or as high with a smaller id."""
        return Q(mu__gte=self.mu) & (Q(mu__gt=self.mu) | Q(pk__lt=self.id))

    def lower(self) -> Q:
        """The ratings listed after this one."""
        return Q(mu__lte=self.mu) & (Q(mu__lt=self.mu) | Q(pk__gt=self.id))
