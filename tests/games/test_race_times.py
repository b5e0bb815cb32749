"""A board's time reads as a race's clock (issue 41): "18299 s" told nobody it was five hours,
and it was wider than "5:04:59" in a column that must fit a phone."""

from __future__ import annotations

import pytest

from games.templatetags.race_times import race_time


@pytest.mark.parametrize(
    ("seconds", "shown"),
    [
        (None, ""),
        (0, "0:00"),
        (31.4, "0:31"),
        (59.6, "1:00"),
        (605, "10:05"),
        (3600, "1:00:00"),
        (18299, "5:04:59"),
    ],
)
def test_a_time_reads_as_minutes_and_seconds_or_hours(seconds: float | None, shown: str) -> None:
    assert race_time(seconds) == shown
