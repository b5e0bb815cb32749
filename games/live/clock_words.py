"""A turn clock in words (LP-1, LP-8), the one way every page says one: "30 s per turn",
"2 days per move", "1 day 4 h left".

``duration_words`` says a length of time in at most its two largest units ("2 days",
"1 day 4 h", "3 h 20 min", "45 min", "1 min 30 s", "30 s"), each counted with ``ngettext``
so that a catalogue can say it in any language. Templates: ``{% load clock_words %}`` and the
filters ``clock_speed`` and ``time_left`` (games/templatetags/clock_words.py).
"""

from __future__ import annotations

import datetime as dt

from django.utils import timezone
from django.utils.translation import gettext, ngettext

from games.live import turn_clocks

MINUTE, HOUR, DAY = 60, 3600, 86400


def _days(n: int) -> str:
    return ngettext("%(count)d day", "%(count)d days", n) % {"count": n}


def _hours(n: int, *, short: bool) -> str:
    if short:
        return ngettext("%(count)d h", "%(count)d h", n) % {"count": n}
    return ngettext("%(count)d hour", "%(count)d hours", n) % {"count": n}


def _minutes(n: int) -> str:
    return ngettext("%(count)d min", "%(count)d min", n) % {"count": n}


def _seconds(n: int) -> str:
    return ngettext("%(count)d s", "%(count)d s", n) % {"count": n}


def _pair(first: str, second: str) -> str:
    # Two units side by side ("1 day 4 h"); a language may join them otherwise.
    return gettext("%(larger)s %(smaller)s") % {"larger": first, "smaller": second}


def duration_words(length: float | dt.timedelta) -> str:
    """``length`` (seconds, or a timedelta) in its two largest units, the rest dropped. From
    an hour on it is first rounded to the minute, so that a day's turn just begun reads
    "1 day left", not "23 h 59 min left"; under an hour the seconds count and are rounded
    down, so time left is never said to be more than it is. A whole number of hours alone
    reads in full ("12 hours"); beside days, short ("1 day 4 h")."""
    seconds = max(0.0, length.total_seconds() if isinstance(length, dt.timedelta) else float(length))
    whole = round(seconds / MINUTE) * MINUTE if seconds >= HOUR else int(seconds)
    days, rest = divmod(whole, DAY)
    hours, rest = divmod(rest, HOUR)
    minutes, secs = divmod(rest, MINUTE)
    if days:
        return _pair(_days(days), _hours(hours, short=True)) if hours else _days(days)
    if hours:
        return _pair(_hours(hours, short=True), _minutes(minutes)) if minutes else _hours(hours, short=False)
    if minutes:
        return _pair(_minutes(minutes), _seconds(secs)) if secs else _minutes(minutes)
    return _seconds(secs)


def clock_speed(clock_seconds: int) -> str:
    """A table's clock as its players read it: a live clock is per turn, a turn-based one
    per move ("30 s per turn", "2 days per move")."""
    said = duration_words(clock_seconds)
    if turn_clocks.is_turn_based(clock_seconds):
        return gettext("%(duration)s per move") % {"duration": said}
    return gettext("%(duration)s per turn") % {"duration": said}


def time_left(deadline: dt.datetime | None, *, now: dt.datetime | None = None) -> str:
    """What is left of a turn at ``now`` ("1 day 4 h left", "56 min left"); empty for no
    deadline. Drawn once, with no countdown: past a minute, whole minutes (rounded down), since
    seconds would be stale before they were read."""
    if deadline is None:
        return ""
    seconds = (deadline - (now or timezone.now())).total_seconds()
    if seconds < 1:
        return gettext("time is up")
    if MINUTE <= seconds < HOUR:
        seconds -= seconds % MINUTE
    return gettext("%(duration)s left") % {"duration": duration_words(seconds)}
