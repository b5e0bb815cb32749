"""When a series' editions start (TN-9): pure, no Django.

Every recurrence is a period and an offset into it, counted in minutes from a Monday at
midnight UTC: every N minutes from minute M of the hour, hourly at minute M, daily at a
time, weekly on a weekday at a time. All in UTC, so no slot is skipped or doubled by a
change of summer time.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

MINUTE = dt.timedelta(minutes=1)
HOUR_MINUTES = 60
DAY_MINUTES = 24 * HOUR_MINUTES
WEEK_MINUTES = 7 * DAY_MINUTES
EVERY_MINUTES = (5, 10, 15, 20, 30)
"""The periods shorter than an hour: each divides an hour, so every hour starts alike."""
EPOCH = dt.datetime(1970, 1, 5, tzinfo=dt.UTC)
"""A Monday at midnight UTC: weekly offsets count from a Monday."""


@dataclass(frozen=True)
class Recurrence:
    period: int
    offset: int
    """Minutes: a slot every ``period`` minutes, ``offset`` minutes into each period."""

    def __post_init__(self) -> None:
        if self.period <= 0 or not 0 <= self.offset < self.period:
            raise ValueError(f"no recurrence every {self.period} minutes at minute {self.offset}")

    @classmethod
    def every(cls, minutes: int, *, minute: int = 0) -> Recurrence:
        if minutes not in EVERY_MINUTES:
            raise ValueError(f"every {minutes} minutes is not one of {EVERY_MINUTES}")
        return cls(minutes, _within(minute, HOUR_MINUTES) % minutes)

    @classmethod
    def hourly(cls, *, minute: int) -> Recurrence:
        return cls(HOUR_MINUTES, _within(minute, HOUR_MINUTES))

    @classmethod
    def daily(cls, *, hour: int, minute: int) -> Recurrence:
        return cls(DAY_MINUTES, _within(hour, 24) * HOUR_MINUTES + _within(minute, HOUR_MINUTES))

    @classmethod
    def weekly(cls, *, weekday: int, hour: int, minute: int) -> Recurrence:
        """``weekday`` 0 is Monday, as ``datetime.weekday()`` counts."""
        return cls(
            WEEK_MINUTES, _within(weekday, 7) * DAY_MINUTES + cls.daily(hour=hour, minute=minute).offset
        )


def _within(value: int, limit: int) -> int:
    if not 0 <= value < limit:
        raise ValueError(f"{value} is not between 0 and {limit - 1}")
    return value


def slots(recurrence: Recurrence, start: dt.datetime, end: dt.datetime) -> list[dt.datetime]:
    """The slots from ``start`` (included) to ``end`` (excluded), in order, in UTC;
    ``start`` and ``end`` must be aware."""
    period = recurrence.period * MINUTE
    first = EPOCH + recurrence.offset * MINUTE
    # Ceiling division of timedeltas: the first slot at or after ``start``.
    n = -((first - start) // period)
    found = []
    slot = first + n * period
    while slot < end:
        found.append(slot)
        slot += period
    return found
