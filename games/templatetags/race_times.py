"""``{{ row.seconds|race_time }}``: a board's time as a race's clock reads, "4:05" or "1:02:45".

"18299 s" tells nobody how long that was, and it is wider than "5:04:59" in a column that must
fit a phone (issue 41).
"""

from __future__ import annotations

from django import template

register = template.Library()


@register.filter
def race_time(seconds: float | None) -> str:
    """Whole seconds as m:ss, or h:mm:ss from an hour on; nothing for no time."""
    if seconds is None:
        return ""
    minutes, secs = divmod(max(0, round(seconds)), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
