"""LP-8: a turn-based table keeps, in the database, whom its game waits for (``Turn``) and
sends no Celery task for a person's turn of hours or days; a live table writes no such row."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from accounts.models import User
from games.core import move_path
from games.core.errors import GameError
from games.engine import FORFEIT, get_engine
from games.live import tables, turn_clocks
from games.models import GameRecord, Table, Turn

pytestmark = pytest.mark.django_db(transaction=True)

DAY = 86400


def _dealt(clock_seconds: int) -> tuple[Table, User, User]:
    alice = User.objects.create_user("alice", "a@example.com", "pw-long-enough-1")
    bob = User.objects.create_user("bob", "b@example.com", "pw-long-enough-1")
    table = tables.create_table(game="triad", creator=alice, config={"players": 2}, clock_seconds=clock_seconds)
    tables.sit(table_id=table.pk, user=bob)
    tables.start(table_id=table.pk, user=alice)
    table.refresh_from_db()
    return table, alice, bob


def _to_act(table: Table, alice: User, bob: User) -> tuple[User, str]:
    now = move_path.table_now(table.pk)
    seat = get_engine("triad").current_player(now.state)
    mover = alice if move_path.seat_of(now.seats, alice) == seat else bob
    return mover, str(get_engine("triad").legal_actions(now.state)[0])


def test_a_one_day_table_waits_for_its_person_in_the_database_with_no_task() -> None:
    before = timezone.now()
    table, alice, bob = _dealt(DAY)
    record = GameRecord.objects.get(pk=table.record_id)
    first, move = _to_act(table, alice, bob)
    turn = Turn.objects.get(game=record)
    assert (turn.user, turn.table_id) == (first, table.pk)
    assert turn.deadline == record.turn_deadline
    assert dt.timedelta(hours=23) < turn.deadline - before <= dt.timedelta(days=1, seconds=5)
    assert record.clock_task_at is None  # no task waits a day in Redis: the sweeper acts

    move_path.play_at_table(table_id=table.pk, user=first, move=move, expected_version=0)
    second, _ = _to_act(table, alice, bob)
    assert second != first
    turn = Turn.objects.get(game=record)
    assert turn.user == second and turn.since >= before
    assert Turn.objects.filter(user=first).count() == 0


def test_the_turn_row_goes_when_the_game_ends() -> None:
    table, alice, bob = _dealt(DAY)
    mover, _ = _to_act(table, alice, bob)
    move_path.play_at_table(table_id=table.pk, user=mover, move=FORFEIT, expected_version=0)
    assert GameRecord.objects.get(pk=table.record_id).is_over
    assert not Turn.objects.exists()


def test_a_live_table_writes_no_turn_row_and_keeps_its_task() -> None:
    table, alice, bob = _dealt(60)
    assert not Turn.objects.exists()
    assert GameRecord.objects.get(pk=table.record_id).clock_task_at is not None
    mover, move = _to_act(table, alice, bob)
    move_path.play_at_table(table_id=table.pk, user=mover, move=move, expected_version=0)
    assert not Turn.objects.exists()


@pytest.mark.parametrize("seconds", [9, 601, 3599, 5 * DAY, 8 * DAY, 10**9])
def test_a_clock_that_is_neither_live_nor_an_offered_speed_is_refused(seconds: int) -> None:
    alice = User.objects.create_user("alice", "a@example.com", "pw-long-enough-1")
    with pytest.raises(GameError, match="turn clock"):
        tables.create_table(game="triad", creator=alice, config={"players": 2}, clock_seconds=seconds)
    assert not Table.objects.exists()


def test_every_offered_speed_opens_a_table() -> None:
    alice = User.objects.create_user("alice", "a@example.com", "pw-long-enough-1")
    for seconds in (*turn_clocks.LIVE_CLOCKS, *turn_clocks.TURN_BASED_CLOCKS):
        tables.create_table(game="triad", creator=alice, config={"players": 2}, clock_seconds=seconds)
    assert Table.objects.count() == 2 + len(turn_clocks.TURN_BASED_CLOCKS)
