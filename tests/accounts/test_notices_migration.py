"""Migration 0008 gives the notices made before it the matter they tell of, from their keys, and
reads those whose matter is already done: the bells that had piled up (issue 41) empty."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games.live import tables
from tests.tournaments.support import person, play_out
from tests.tournaments.test_services import playing, schedule
from tournaments import services
from tournaments.models import Match, Tournament

BEFORE = ("accounts", "0007_table_notices")
AFTER = ("accounts", "0008_notices_about")


@pytest.fixture
def migrated_back_later(worker_runs_nothing: None, transactional_db: None) -> Iterator[None]:
    """The test migrates back once its games and tournaments are made; forward again after it."""
    yield
    call_command("migrate", verbosity=0)


def test_old_notices_get_their_matter_and_those_done_are_read(migrated_back_later: None) -> None:
    ann, ben, cat = person("ann"), person("ben"), person("cat")
    cup = schedule(ann)  # ann and ben play; their game ends, then the cup
    services.join(tournament_id=cup.pk, user=ben)
    services.start_now(tournament_id=cup.pk, user=ann)
    game = playing(cup)
    assert game is not None
    play_out(game.table)
    running = schedule(cat, name="Open cup")  # three entrants: a bye, and a game still on
    for user in (ann, ben):
        services.join(tournament_id=running.pk, user=user)
    services.start_now(tournament_id=running.pk, user=cat)
    on = playing(running)
    bye = Match.objects.get(tournament=running, bye=True)
    casual = tables.create_table(game="triad", creator=ann, config=None, clock_seconds=30)
    Tournament.objects.filter(pk=cup.pk).update(status=Tournament.Status.FINISHED)
    assert on is not None

    call_command("migrate", *BEFORE, verbosity=0)
    old: Any = MigrationExecutor(connection).loader.project_state(BEFORE).apps.get_model("accounts", "Notice")
    old.objects.all().delete()  # the notices made above, made again as they were before 0008
    keys = {
        "done table": f"table:{game.table_id}",
        "table on": f"table:{on.table_id}",
        "timed out on": f"timed-out:{on.table_id}:4",
        "rematch open": f"rematch:{casual.pk}",
        "cup pairings": f"pairings:{cup.pk}:1",
        "cup reminder": f"starts-soon:{cup.pk}",
        "running bye": f"bye:{bye.pk}",
        "cup results": f"results:{cup.pk}",
    }
    made = {
        name: old.objects.create(user_id=ann.pk, kind="bye", text=name, key=key) for name, key in keys.items()
    }

    call_command("migrate", *AFTER, verbosity=0)
    # As 0008 left them: today's model has columns added since (params, issue 47).
    after: Any = (
        MigrationExecutor(connection).loader.project_state(AFTER).apps.get_model("accounts", "Notice")
    )
    notices = {name: after.objects.get(pk=notice.pk) for name, notice in made.items()}
    assert {name: notice.about for name, notice in notices.items()} == {
        "done table": f"table:{game.table_id}",
        "table on": f"table:{on.table_id}",
        "timed out on": f"table:{on.table_id}",
        "rematch open": f"table:{casual.pk}",
        "cup pairings": f"tournament:{cup.pk}",
        "cup reminder": f"tournament:{cup.pk}",
        "running bye": f"tournament:{running.pk}",
        "cup results": "",
    }
    unread = {name for name, notice in notices.items() if notice.read_at is None}
    assert unread == {"table on", "timed out on", "rematch open", "running bye", "cup results"}
