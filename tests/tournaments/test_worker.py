"""A tournament run by the real Celery worker: started on time by the beat task, bots moving,
and the result recorded by the task the finished game sends."""

from __future__ import annotations

import subprocess
import time

import pytest
from django.utils import timezone

from games import tables
from games.engine import get_engine
from games.engine.bots import bot_seed
from games.models import GameRecord
from games.state_cache import current_state
from tests.tournaments.support import person
from tournaments import services
from tournaments.models import Tournament
from tournaments.tasks import run_tournaments

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.services]


def test_the_worker_starts_the_tournament_plays_the_bot_and_records_the_result(
    celery_worker: subprocess.Popen[bytes],
) -> None:
    alice = person("alice")
    tournament = services.create_tournament(
        creator=alice,
        name="Night cup",
        game="triad",
        config={"hands": 1},
        clock_seconds=60,
        max_entrants=2,
        starts_at=timezone.now(),
        fill_with_bots=True,
    )
    # Two beats (or a task delivered twice) ask at once: the tournament starts exactly once.
    first, second = run_tournaments.delay(), run_tournaments.delay()
    started = first.get(timeout=30)["started"] + second.get(timeout=30)["started"]
    assert started == [tournament.pk]
    match = tournament.matches.get()
    (game,) = match.games.select_related("table")
    engine = get_engine("triad")
    deadline = time.monotonic() + 60
    record = GameRecord.objects.get(pk=game.table.record_id)
    while not record.is_over:
        assert time.monotonic() < deadline, "the match did not end"
        state = current_state(record)
        if engine.current_player(state) == 0:  # alice; the bot's and the table's moves are the worker's
            text = engine.bot_action(engine.view(state, 0), bot_seed(record.seed, 0, record.action_count))
            tables.act(table_id=game.table_id, user=alice, move=text, expected_version=record.version)
        else:
            time.sleep(0.05)
        record.refresh_from_db()
    while Tournament.objects.get(pk=tournament.pk).status != Tournament.Status.FINISHED:
        assert time.monotonic() < deadline, "the worker did not record the result"
        time.sleep(0.1)
    match.refresh_from_db()
    assert match.winner.seed == record.outcome["winner"]  # seat 0 is seed 0 (alice), seat 1 the bot
    assert match.games.count() == 1
    assert record.actions.filter(seat=1).exists()  # the bot played
