"""A tournament run by the real Celery worker: started on time by the beat task, bots moving,
and the result recorded by the task the finished game sends."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.utils import timezone

from games.core import move_path
from games.core.snapshots import state_of
from games.engine import get_engine
from games.engine.bots import bot_seed
from games.models import GameRecord
from tests.games.test_outages import Site
from tests.tournaments.support import person, play_out
from tournaments import services
from tournaments.models import MatchGame, Tournament
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
        state = state_of(record)
        if engine.current_player(state) == 0:  # alice; the bot's and the table's moves are the worker's
            text = engine.bot_action(engine.view(state, 0), bot_seed(record.seed, 0, record.action_count))
            move_path.play_at_table(
                table_id=game.table_id, user=alice, move=text, expected_version=record.version
            )
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


@pytest.fixture
def crash_site(tmp_path: Path, transactional_db: None) -> Iterator[Site]:
    """daphne, a worker and beat of this test's own, whose worker it may kill."""
    site = Site(tmp_path)
    site.start()
    try:
        yield site
    finally:
        site.stop()


@pytest.mark.django_db(transaction=True)
def test_results_left_by_a_killed_worker_are_recorded_once_and_the_next_round_drawn_once(
    crash_site: Site, celery_worker: subprocess.Popen[bytes]
) -> None:
    """The site's worker is killed (SIGKILL, as a crash) while a Swiss round's last games end:
    their result tasks wait in Redis with nobody to run them. Once a worker runs again, those
    tasks and the beat's sweeper both try to record the results: each is recorded once and
    round 2 is drawn once. The session's worker shares the queue: it is frozen meanwhile."""
    alice, bob = person("alice"), person("bob")
    tournament = services.create_tournament(
        creator=alice,
        name="Crash cup",
        game="triad",
        config={"hands": 1},
        clock_seconds=60,
        max_entrants=4,
        starts_at=timezone.now(),
        fill_with_bots=True,
        format=Tournament.Format.SWISS,
        rounds=2,
    )
    services.join(tournament_id=tournament.pk, user=bob)
    os.killpg(celery_worker.pid, signal.SIGSTOP)
    try:
        crash_site.worker.kill()
        services.start_now(tournament_id=tournament.pk, user=alice)
        games = list(MatchGame.objects.filter(match__tournament=tournament).select_related("table"))
        assert len(games) == 2
        for game in games:
            play_out(game.table)  # the people move; the bots' moves are made here too
        time.sleep(1)
        tournament.refresh_from_db()
        assert tournament.current_round == 1  # no worker: nothing recorded yet
        assert not MatchGame.objects.filter(pk__in=[g.pk for g in games], recorded_at__isnull=False).exists()
        crash_site.worker.start()
        deadline = time.monotonic() + 60
        while Tournament.objects.get(pk=tournament.pk).current_round < 2:
            assert time.monotonic() < deadline, "the restarted worker did not record round 1"
            time.sleep(0.2)
    finally:
        os.killpg(celery_worker.pid, signal.SIGCONT)
    time.sleep(2)  # let the other path (task or sweeper) find them recorded
    assert MatchGame.objects.filter(pk__in=[g.pk for g in games], recorded_at__isnull=True).count() == 0
    assert tournament.matches.filter(round=2).count() == 2
    assert MatchGame.objects.filter(match__tournament=tournament, match__round=2).count() == 2
