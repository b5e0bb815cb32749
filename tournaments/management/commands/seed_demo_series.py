"""``manage.py seed_demo_series``: the casual series ``make run`` shows a newcomer: one of the
table game whose spec has a ``demo_series`` (Triad), and an hourly par match (PY-8, TN-8)
of each solitaire game that has one (Pyramid).

The Triad series' first edition starts a few minutes after the first start-up and one
follows every ten minutes, bots filling the places left, so someone trying the site sees a
tournament taking entries, starting and running to its champion by itself. The par match
opens on the hour for 50 minutes: anyone may enter while it is open. Run at every start-up:
the series (and the system user they belong to) are created once, and later runs change
nothing.
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
PAR_MATCH_WINDOW = 50


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
            for solitaire in kinds.SOLITAIRE:
                if solitaire.match is not None:
                    Series.objects.get_or_create(
                        name=f"Hourly {solitaire.name} {solitaire.match.name.lower()}",
                        defaults={
                            "owner": owner,
                            "game": solitaire.slug,
                            "format": Tournament.Format.PAR_MATCH,
                            "window_minutes": PAR_MATCH_WINDOW,
                            "max_entrants": 1000,
                            "repeat": Series.Repeat.HOURLY,
                            "minute": 0,
                            "opens_minutes": 60,
                        },
                    )
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
