"""``{% load clock_words %}``: a table's clock in words (games/live/clock_words.py).

``{{ table.clock_seconds|clock_speed }}`` reads "30 s per turn" or "2 days per move";
``{{ deadline|time_left }}`` reads "1 day 4 h left"; ``{{ seconds|duration }}`` "1 day 4 h".
"""

from __future__ import annotations

import datetime as dt

from django import template

from games.live import clock_words

register = template.Library()


@register.filter
def clock_speed(clock_seconds: int) -> str:
    return clock_words.clock_speed(clock_seconds)


@register.filter
def time_left(deadline: dt.datetime | None) -> str:
    return clock_words.time_left(deadline)


@register.filter
def duration(length: float | dt.timedelta) -> str:
    return clock_words.duration_words(length)
