"""TN-9: the slots of a series' recurrence, a pure function of UTC times."""

from __future__ import annotations

import datetime as dt
import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.recurrence import EVERY_MINUTES, MINUTE, Recurrence, slots

UTC = dt.UTC
instants = st.datetimes(
    min_value=dt.datetime(2000, 1, 1), max_value=dt.datetime(2100, 1, 1), timezones=st.just(UTC)
)
recurrences = st.one_of(
    st.builds(lambda n, m: Recurrence.every(n, minute=m), st.sampled_from(EVERY_MINUTES), st.integers(0, 59)),
    st.builds(lambda m: Recurrence.hourly(minute=m), st.integers(0, 59)),
    st.builds(lambda h, m: Recurrence.daily(hour=h, minute=m), st.integers(0, 23), st.integers(0, 59)),
    st.builds(
        lambda d, h, m: Recurrence.weekly(weekday=d, hour=h, minute=m),
        st.integers(0, 6),
        st.integers(0, 23),
        st.integers(0, 59),
    ),
)


@given(recurrences, instants, st.integers(0, 60 * 24 * 30))
def test_slots_are_ordered_within_the_window_and_a_period_apart(
    recurrence: Recurrence, start: dt.datetime, minutes: int
) -> None:
    end = start + minutes * MINUTE
    found = slots(recurrence, start, end)
    period = recurrence.period * MINUTE
    assert all(start <= slot < end for slot in found)
    assert all(b - a == period for a, b in itertools.pairwise(found))
    assert all(slot.tzinfo == UTC and slot.second == 0 and slot.microsecond == 0 for slot in found)
    # None is missed at either end: the slot before the first and after the last fall outside.
    first = found[0] if found else None
    if first is not None:
        assert first - period < start and found[-1] + period >= end
    else:
        assert end - start <= period


@given(recurrences, instants, st.integers(1, 60 * 24 * 20), st.integers(1, 60 * 24 * 20))
def test_adjoining_windows_share_no_slot_and_miss_none(
    recurrence: Recurrence, start: dt.datetime, first: int, second: int
) -> None:
    middle, end = start + first * MINUTE, start + (first + second) * MINUTE
    assert slots(recurrence, start, middle) + slots(recurrence, middle, end) == slots(recurrence, start, end)


@given(st.integers(0, 23), st.integers(0, 59), instants)
def test_daily_slots_keep_their_utc_time_all_year(hour: int, minute: int, start: dt.datetime) -> None:
    found = slots(Recurrence.daily(hour=hour, minute=minute), start, start + dt.timedelta(days=400))
    assert len(found) in (399, 400)
    assert {(slot.hour, slot.minute) for slot in found} == {(hour, minute)}


@given(st.integers(0, 6), st.integers(0, 23), st.integers(0, 59), instants)
def test_weekly_slots_fall_on_their_weekday(weekday: int, hour: int, minute: int, start: dt.datetime) -> None:
    found = slots(
        Recurrence.weekly(weekday=weekday, hour=hour, minute=minute), start, start + dt.timedelta(weeks=10)
    )
    assert len(found) in (9, 10)
    assert {(slot.weekday(), slot.hour, slot.minute) for slot in found} == {(weekday, hour, minute)}


def test_every_ten_minutes_from_minute_three() -> None:
    start = dt.datetime(2026, 3, 29, 0, 55, tzinfo=UTC)  # a night the clocks change in Europe
    found = slots(Recurrence.every(10, minute=3), start, start + dt.timedelta(minutes=30))
    assert [slot.strftime("%H:%M") for slot in found] == ["01:03", "01:13", "01:23"]


def test_a_slot_at_the_start_is_included_and_at_the_end_is_not() -> None:
    start = dt.datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
    hourly = Recurrence.hourly(minute=0)
    assert slots(hourly, start, start + dt.timedelta(hours=2)) == [start, start + dt.timedelta(hours=1)]


@pytest.mark.parametrize(
    "make",
    [
        lambda: Recurrence.every(7),
        lambda: Recurrence.hourly(minute=60),
        lambda: Recurrence.daily(hour=24, minute=0),
        lambda: Recurrence.weekly(weekday=7, hour=0, minute=0),
    ],
)
def test_impossible_recurrences_are_refused(make: object) -> None:
    with pytest.raises(ValueError):
        make()  # type: ignore[operator]
