"""Series on a schedule (TN-9): each slot of an active series becomes an edition, created
``opens_minutes`` before it starts; beat's ``run_tournaments`` then starts it on time and
the results run it to its champion, as for any tournament.

``schedule_editions`` may run in two beats at once: each series is worked on under its row
lock, and the unique (series, slot) constraint stops any second edition of a slot.
"""

from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.utils import timezone

from tournaments import recurrence, services
from tournaments.models import Series, Tournament

EDITION_NAME = "{name} · {slot:%d %b %H:%M}"


def schedule_editions(now: dt.datetime | None = None) -> list[int]:
    """Create every missing edition of the active series whose slot is due to open by ``now``;
    returns the new tournaments' ids."""
    now = now or timezone.now()
    created: list[int] = []
    for series_id in Series.objects.filter(active=True).values_list("pk", flat=True):
        created += _schedule_series(series_id, now)
    return created


def _schedule_series(series_id: int, now: dt.datetime) -> list[int]:
    with transaction.atomic():
        series = Series.objects.select_for_update().filter(pk=series_id, active=True).first()
        if series is None:
            return []
        due = recurrence.slots(series.recurrence(), now, now + dt.timedelta(minutes=series.opens_minutes))
        made = set(series.editions.filter(series_slot__in=due).values_list("series_slot", flat=True))
        return [_edition(series, slot).pk for slot in due if slot not in made]


def _edition(series: Series, slot: dt.datetime) -> Tournament:
    """The edition of ``slot``; the caller holds the series' lock."""
    tournament = services.create_tournament(
        creator=series.owner,
        name=EDITION_NAME.format(name=series.name, slot=slot),
        game=series.game,
        config=series.config,
        clock_seconds=series.clock_seconds,
        max_entrants=series.max_entrants,
        starts_at=slot,
        fill_with_bots=series.fill_with_bots,
        rated=series.rated,
        format=series.format,
        best_of=series.best_of,
        table_size=series.table_size,
        rounds=series.rounds,
        third_place=series.third_place,
        deal_count=series.deal_count,
        window_minutes=series.window_minutes,
    )
    # The owner schedules the series; entering them in every edition is not theirs to want.
    tournament.entries.filter(user=series.owner).delete()
    tournament.series = series
    tournament.series_slot = slot
    tournament.save(update_fields=["series", "series_slot"])
    return tournament
