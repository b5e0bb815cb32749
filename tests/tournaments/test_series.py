"""TN-9: series on a schedule. Beat's task creates each edition ahead of time, exactly once
per slot however many beats ask at once; each opens for entry, starts on time and runs to
its champion with nobody pressing a button."""

from __future__ import annotations

import datetime as dt
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.utils import timezone

from accounts.models import User
from tests.at_once import at_once
from tests.support import service_env
from tests.tournaments.support import person, play_out
from tournaments import series as series_service
from tournaments import services
from tournaments.management.commands import seed_demo_series
from tournaments.models import MatchGame, Series, Tournament

pytestmark = pytest.mark.django_db
BASE_DIR = Path(__file__).resolve().parents[2]


def a_series(owner: User | None = None, **overrides: Any) -> Series:
    fields: dict[str, Any] = {
        "name": "Quick Triad",
        "owner": owner or person("staff"),
        "game": "triad",
        "config": {"hands": 1},
        "max_entrants": 2,
        "fill_with_bots": True,
        "clock_seconds": 60,
        "repeat": Series.Repeat.EVERY_MINUTES,
        "every_minutes": 5,
        "minute": 0,
        "opens_minutes": 12,
    }
    fields.update(overrides)
    return Series.objects.create(**fields)


def on_the_hour() -> dt.datetime:
    """A moment just after a whole hour to come: slots at :00, :05 and :10 fall in 12 minutes."""
    now = timezone.now()
    return now.replace(minute=0, second=1, microsecond=0) + dt.timedelta(hours=1)


def test_each_slot_within_the_opening_time_becomes_an_edition_once() -> None:
    series = a_series()
    now = on_the_hour()
    created = series_service.schedule_editions(now)
    editions = list(series.editions.order_by("starts_at"))
    assert [e.pk for e in editions] == created
    slots = [now.replace(second=0) + dt.timedelta(minutes=m) for m in (5, 10)]  # :00 is past
    assert [e.series_slot for e in editions] == slots
    assert [e.starts_at for e in editions] == slots
    first = editions[0]
    assert first.status == Tournament.Status.OPEN and first.created_by == series.owner
    assert first.entries.count() == 0  # the owner schedules it, and is not entered
    assert first.name.startswith("Quick Triad · ")
    assert (first.game, first.config["hands"], first.max_entrants, first.fill_with_bots) == (
        "triad",
        1,
        2,
        True,
    )
    assert series_service.schedule_editions(now) == []  # the next beat finds them made
    later = series_service.schedule_editions(now + dt.timedelta(minutes=5))
    assert [Tournament.objects.get(pk=pk).series_slot for pk in later] == [
        slots[-1] + dt.timedelta(minutes=5)
    ]


def test_an_edition_started_early_keeps_its_slot() -> None:
    series = a_series()
    now = on_the_hour()
    (edition, _) = Tournament.objects.filter(pk__in=series_service.schedule_editions(now)).order_by(
        "starts_at"
    )
    services.join(tournament_id=edition.pk, user=person("alice"))
    services.start_now(tournament_id=edition.pk, user=series.owner)
    assert series_service.schedule_editions(now) == []


def test_an_inactive_series_creates_nothing() -> None:
    a_series(active=False)
    assert series_service.schedule_editions(on_the_hour()) == []


@pytest.mark.django_db(transaction=True)
def test_two_callers_at_once_create_exactly_one_edition_per_slot() -> None:
    series = a_series()
    now = on_the_hour()
    created: list[int] = []

    def beat() -> None:
        created.extend(series_service.schedule_editions(now))

    at_once(beat, beat, beat, beat)
    assert sorted(created) == sorted(series.editions.values_list("pk", flat=True))
    assert series.editions.count() == 2


CALLER = """
import time, django
django.setup()
from tournaments.tasks import schedule_series
time.sleep(max(0.0, {at} - time.time()))
print(schedule_series())
"""


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_two_beat_processes_at_once_create_exactly_one_edition_per_slot() -> None:
    """Two processes run beat's task at the same instant, each with its own connection."""
    series = a_series(
        repeat=Series.Repeat.HOURLY, minute=(timezone.now().minute + 30) % 60, opens_minutes=60 * 24
    )
    at = time.time() + 4  # both have started Django by then
    callers = [
        subprocess.Popen(
            [sys.executable, "-c", CALLER.format(at=at)],
            cwd=BASE_DIR,
            env=service_env(),
            stdout=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    outputs = [caller.communicate(timeout=60)[0] for caller in callers]
    assert all(caller.returncode == 0 for caller in callers), outputs
    created = [pk for output in outputs for pk in json.loads(output.strip().splitlines()[-1])]
    editions = list(series.editions.values_list("pk", flat=True))
    assert len(editions) in (23, 24) and sorted(created) == sorted(editions)
    assert len({e.series_slot for e in series.editions.all()}) == len(editions)


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_an_edition_starts_on_time_and_runs_to_its_champion_by_itself(celery_worker: Any) -> None:
    """Created by the schedule, entered by one person, started by beat's start_due at its slot,
    the bot's moves and the results left to the real worker."""
    a_series()
    first_pk = min(series_service.schedule_editions(timezone.now()))
    edition = Tournament.objects.get(pk=first_pk)
    alice = person("alice")
    services.join(tournament_id=edition.pk, user=alice)
    assert services.start_due(edition.starts_at - dt.timedelta(seconds=1)) == []  # not before its time
    assert services.start_due(edition.starts_at) == [edition.pk]
    deadline = time.monotonic() + 90
    while (edition := Tournament.objects.get(pk=first_pk)).status != Tournament.Status.FINISHED:
        assert time.monotonic() < deadline, "the edition did not finish"
        game = (
            MatchGame.objects.filter(match__tournament=edition, recorded_at__isnull=True)
            .select_related("table")
            .first()
        )
        if game is not None and not game.table.record.is_over:
            play_out(game.table)
        time.sleep(0.1)
    champions = edition.entries.filter(place=1)
    assert champions.count() == 1
    assert edition.entries.count() == 2 and edition.entries.filter(user__isnull=True).count() == 1


def test_the_demo_seed_creates_its_series_once_and_its_first_edition_a_few_minutes_ahead() -> None:
    call_command("seed_demo_series")
    call_command("seed_demo_series")
    par_match = Series.objects.get(format=Tournament.Format.PAR_MATCH)
    assert (par_match.game, par_match.repeat, par_match.window_minutes) == ("pyramid", "hourly", 50)
    assert par_match.editions.count() == 1  # the next hour's, open for entry
    series = Series.objects.exclude(pk=par_match.pk).get()
    assert series.name == "Triad every 10" and series.owner.username == seed_demo_series.OWNER
    assert not series.owner.has_usable_password()
    assert User.objects.filter(username=seed_demo_series.OWNER).count() == 1
    (edition,) = series.editions.all()  # one edition: the second run found it made
    wait = edition.starts_at - timezone.now()
    assert dt.timedelta(minutes=2) < wait <= dt.timedelta(minutes=11)
    assert edition.fill_with_bots and not edition.rated and edition.game == "triad"


@pytest.mark.parametrize(
    ("now", "minute"),
    [
        (dt.datetime(2026, 1, 1, 12, 4, 30, tzinfo=dt.UTC), 8),
        (dt.datetime(2026, 1, 1, 12, 4, 0, tzinfo=dt.UTC), 8),
        (dt.datetime(2026, 1, 1, 12, 58, 59, tzinfo=dt.UTC), 2),
    ],
)
def test_the_demo_series_first_slot_is_three_to_four_minutes_after_the_seed(
    now: dt.datetime, minute: int
) -> None:
    assert seed_demo_series.first_minute(now) == minute
