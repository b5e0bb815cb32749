"""LP-1 and LP-2 with the real worker on a site that is up (LP-5): nobody connected, the
clock still runs and acts."""

from __future__ import annotations

import subprocess
import time
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model

from games.core import move_path
from games.core.snapshots import state_of
from games.engine import get_engine
from games.live import tables, turn_clocks
from games.models import Action

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.services]


def test_a_disconnected_players_clock_runs_out_and_the_worker_checks_for_them(
    celery_worker: subprocess.Popen[bytes], site_up: str
) -> None:
    User = get_user_model()
    alice = User.objects.create_user("alice", "a@example.com", "pw-long-enough-1")
    bob = User.objects.create_user("bob", "b@example.com", "pw-long-enough-1")
    table = tables.create_table(game="triad", creator=alice, config={"players": 2}, clock_seconds=10)
    tables.sit(table_id=table.pk, user=bob)
    started = time.monotonic()
    tables.start(table_id=table.pk, user=alice)  # nobody has a socket open: LP-2
    table.refresh_from_db()
    record = table.record
    seat = get_engine("triad").current_player(state_of(record))

    while not Action.objects.filter(game=record).exists():
        assert time.monotonic() - started < 30, "the turn clock never ran out"
        time.sleep(0.25)
    waited = time.monotonic() - started
    action = Action.objects.get(game=record)
    assert (action.seat, action.text) == (seat, "check")  # LP-1: check when it may
    assert waited >= 9.5  # not before the clock ran out
    record.refresh_from_db()
    assert record.version == 1 and record.turn_deadline is not None  # the next seat's clock runs


def test_the_sweeper_makes_good_a_turn_whose_task_was_lost(
    celery_worker: subprocess.Popen[bytes], site_up: str
) -> None:
    from django.utils import timezone

    from games.models import GameRecord
    from games.tasks import sweep_overdue_turns

    User = get_user_model()
    alice = User.objects.create_user("alice", "a@example.com", "pw-long-enough-1")
    bob = User.objects.create_user("bob", "b@example.com", "pw-long-enough-1")
    table = tables.create_table(game="triad", creator=alice, config={"players": 2}, clock_seconds=600)
    tables.sit(table_id=table.pk, user=bob)
    tables.start(table_id=table.pk, user=alice)  # its task waits ten minutes: as good as lost here
    table.refresh_from_db()
    record = table.record
    GameRecord.objects.filter(pk=record.pk).update(turn_deadline=timezone.now() - timedelta(seconds=5))

    assert sweep_overdue_turns.delay().get(timeout=30) >= 1
    started = time.monotonic()
    while not Action.objects.filter(game=record).exists():
        assert time.monotonic() - started < 20, "the sweeper did not make the overdue move"
        time.sleep(0.2)
    assert Action.objects.get(game=record).text == "check"


def test_quick_moves_share_one_clock_task_that_still_runs_the_last_turns_clock_out(
    celery_worker: subprocess.Popen[bytes], site_up: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A move sends no clock task while the one already sent runs no later than its deadline;
    that task, finding the game moved on, sends the current turn's (``turn_clocks.rearm``)."""
    from django.utils import timezone

    from games.models import GameRecord

    sent: list[tuple[int, int]] = []
    schedule = turn_clocks.schedule
    monkeypatch.setattr(
        turn_clocks,
        "schedule",
        lambda game, version, at: sent.append((game, version)) or schedule(game, version, at),
    )
    User = get_user_model()
    alice = User.objects.create_user("alice", "a@example.com", "pw-long-enough-1")
    bob = User.objects.create_user("bob", "b@example.com", "pw-long-enough-1")
    table = tables.create_table(game="triad", creator=alice, config={"players": 2}, clock_seconds=10)
    tables.sit(table_id=table.pk, user=bob)
    tables.start(table_id=table.pk, user=alice)
    record = GameRecord.objects.get(table__pk=table.pk)
    first_deadline = record.turn_deadline
    assert first_deadline is not None
    engine = get_engine("triad")
    for version in range(3):  # three moves well inside the first turn's ten seconds
        if version == 1:
            time.sleep(3)  # so that the last turn's deadline comes 3 s after the first task runs
        state = state_of(record)
        mover = alice if engine.current_player(state) == 0 else bob
        text = str(engine.legal_actions(state)[0])
        move_path.play_at_table(table_id=table.pk, user=mover, move=text, expected_version=version)
        record.refresh_from_db()
    assert sent == [(record.pk, 0)]  # the first turn's task only
    last_deadline = record.turn_deadline
    assert last_deadline is not None and last_deadline > first_deadline + timedelta(seconds=2)

    # The first turn's task ran at its time, found the game moved on and sent the last turn's
    # (the sweeper, the other way a clock runs out, does nothing before a deadline is overdue).
    while timezone.now() < first_deadline + timedelta(seconds=1.5):
        time.sleep(0.1)
    record.refresh_from_db()
    assert record.clock_task_at == last_deadline and record.version == 3
    while not Action.objects.filter(game=record, timed_out=True).exists():
        assert timezone.now() < last_deadline + timedelta(seconds=20), "the last turn's clock never ran out"
        time.sleep(0.25)
    timed_out = Action.objects.get(game=record, timed_out=True)
    assert timed_out.seq == 3  # the turn after the quick moves, not an earlier one
    assert timed_out.created_at >= last_deadline  # not before its clock ran out
