"""A person's record at the ranked daily deals: streaks (runs of consecutive UTC days with a
finished ranked attempt), counted from their days for the profile, and kept per person in
``DailyStanding`` with their attempts and wins for the leaderboards page."""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection, Iterable

from django.db.models import Count, Max, Q

from games.models import DailyStanding, GameRecord

DAY = dt.timedelta(days=1)


def latest(days: Iterable[dt.date]) -> tuple[int, int, dt.date | None]:
    """(best run, the run ending on the last day, the last day)."""
    best = run = 0
    previous: dt.date | None = None
    for day in sorted(days):
        run = run + 1 if previous is not None and day - previous == DAY else 1
        best = max(best, run)
        previous = day
    return best, run, previous


def current(latest_run: int, last_day: dt.date | None, today: dt.date) -> int:
    """A run still counts today if it reached today or yesterday (today's deal may be next)."""
    return latest_run if last_day is not None and today - last_day <= DAY else 0


def runs(days: Iterable[dt.date], today: dt.date) -> tuple[int, int]:
    """(current, best) runs of consecutive days in ``days``."""
    best, latest_run, last_day = latest(days)
    return current(latest_run, last_day, today), best


def refresh(user_ids: Collection[int]) -> None:
    """Count these people's standings again from their finished ranked attempts: called when
    one of their attempts ends, which may be an earlier day's (an attempt begun before midnight).
    Two queries over their own attempts, whatever the site holds."""
    if not user_ids:
        return
    attempts = GameRecord.objects.filter(
        owner_id__in=user_ids, ranked=True, status=GameRecord.Status.FINISHED, daily__isnull=False
    ).order_by()
    days: dict[int, set[dt.date]] = {user_id: set() for user_id in user_ids}
    for owner_id, day in attempts.values_list("owner_id", "daily__date").distinct():
        days[owner_id].add(day)
    tallies = {
        row["owner_id"]: row
        for row in attempts.values("owner_id").annotate(
            # Not named after the fields: ``won`` would stand for the count in the filters below.
            attempts=Count("pk"),
            wins=Count("pk", filter=Q(won=True)),
            last_win=Max("finished_at", filter=Q(won=True)),
        )
    }
    DailyStanding.objects.filter(user_id__in=user_ids).delete()
    rows = []
    for user_id, played in days.items():
        best, latest_run, last_day = latest(played)
        if last_day is None:
            continue
        tally = tallies[user_id]
        rows.append(
            DailyStanding(
                user_id=user_id,
                played=tally["attempts"],
                won=tally["wins"],
                last_won_at=tally["last_win"],
                best=best,
                latest_run=latest_run,
                last_day=last_day,
            )
        )
    DailyStanding.objects.bulk_create(rows)
