"""``manage.py seed_demo_series``: the casual series ``make run`` shows a newcomer, of the
game whose spec has a ``demo_series`` (Triad).

Its first edition starts a few minutes after the first start-up and one follows every ten
minutes, bots filling the places left, so someone trying the site sees a tournament taking
entries, starting and running to its champion by itself. Run at every start-up: the series
(and the system user it belongs to) is created once, and later runs change nothing.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games import kinds
from tournaments.models import Series, Tournament
from tournaments.recurrence import MINUTE
from tournaments.series import schedule_editions

OWNER = "capstone"
EVERY = 10
FIRST_AFTER = 3 * MINUTE


def first_minute(now: dt.datetime) -> int:
    """The minute of the hour that puts the first slot at least ``FIRST_AFTER`` from ``now``."""
    first = now + FIRST_AFTER + MINUTE - dt.timedelta(seconds=now.second, microseconds=now.microsecond)
    return first.minute % EVERY


class Command(BaseCommand):
    help = "Create the demo series (once) and its next edition."

    def handle(self, *args: Any, **options: Any) -> None:
        spec = next(spec for spec in kinds.TABLE_GAMES if spec.demo_series is not None)
        assert spec.demo_series is not None
        with transaction.atomic():
            owner = User.objects.named(OWNER).first()
            if owner is None:
                owner = User(username=OWNER)
                owner.set_unusable_password()  # the site's own account: nobody logs in as it
                owner.save()
            series, created = Series.objects.get_or_create(
                name=f"{spec.name} every {EVERY}",
                defaults={
                    "owner": owner,
                    "game": spec.slug,
                    "config": dict(spec.demo_series),
                    "format": Tournament.Format.SINGLE_ELIMINATION,
                    "max_entrants": 4,
                    "fill_with_bots": True,
                    "clock_seconds": 30,
                    "repeat": Series.Repeat.EVERY_MINUTES,
                    "every_minutes": EVERY,
                    "minute": first_minute(timezone.now()),
                    "opens_minutes": EVERY,
                },
            )
        schedule_editions()
        self.stdout.write(f"demo series {'created' if created else 'ready'}: {series.name}")
