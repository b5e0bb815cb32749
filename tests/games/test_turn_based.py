"""LP-8: a turn-based table keeps, in the database, whom its game waits for (``Turn``) and
sends no Celery task for a person's turn of hours or days; a live table writes no such row."""

from __future__ import annotations

import datetime as dt
import json
import re
import subprocess
import time
from collections.abc import Callable
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from config.asgi import application
from games.core import move_path, snapshots
from games.core.errors import GameError
from games.engine import FORFEIT, get_engine
from games.live import clock_words, tables, turn_clocks
from games.models import Action, GameRecord, Table, Turn

pytestmark = pytest.mark.django_db(transaction=True)

HOUR = 3600
DAY = 86400
ORIGIN = (b"origin", b"http://127.0.0.1:8000")


def _dealt(clock_seconds: int, names: tuple[str, str] = ("alice", "bob")) -> tuple[Table, User, User]:
    alice, bob = (User.objects.create_user(name, f"{name}@example.com", "pw-long-enough-1") for name in names)
    table = tables.create_table(
        game="triad", creator=alice, config={"players": 2}, clock_seconds=clock_seconds
    )
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


# Speeds in words (LP-8): one helper says every clock and what is left of a turn.


@pytest.mark.parametrize(
    ("length", "words"),
    [
        (15, "15 s"),
        (90, "1 min 30 s"),
        (45 * 60, "45 min"),
        (3599.9, "59 min 59 s"),  # under an hour, never said to be more than it is
        (HOUR, "1 hour"),
        (12 * HOUR, "12 hours"),
        (3 * HOUR + 20 * 60, "3 h 20 min"),
        (DAY, "1 day"),
        (DAY - 20, "1 day"),  # a day's turn just begun
        (DAY + 4 * HOUR + 59, "1 day 4 h"),
        (2 * DAY, "2 days"),
        (7 * DAY + 3 * HOUR, "7 days 3 h"),
        (-5, "0 s"),
    ],
)
def test_a_duration_reads_in_its_two_largest_units(length: float, words: str) -> None:
    assert clock_words.duration_words(length) == words
    assert clock_words.duration_words(dt.timedelta(seconds=length)) == words


def test_a_clock_reads_per_turn_when_live_and_per_move_when_turn_based() -> None:
    assert clock_words.clock_speed(30) == "30 s per turn"
    assert clock_words.clock_speed(600) == "10 min per turn"
    assert clock_words.clock_speed(2 * DAY) == "2 days per move"
    now = dt.datetime(2026, 5, 1, 12, tzinfo=dt.UTC)
    assert clock_words.time_left(now + dt.timedelta(days=1, hours=4, minutes=10), now=now) == "1 day 4 h left"
    assert clock_words.time_left(now - dt.timedelta(seconds=3), now=now) == "time is up"
    assert clock_words.time_left(None, now=now) == ""
    # Drawn once with no countdown: whole minutes under an hour, never more than is left.
    assert clock_words.time_left(now + dt.timedelta(minutes=56, seconds=59), now=now) == "56 min left"
    assert clock_words.time_left(now + dt.timedelta(seconds=59), now=now) == "59 s left"


# The table form


def test_the_lobby_form_offers_live_and_turn_based_speeds_grouped(client: Client) -> None:
    client.force_login(User.objects.create_user("alice", "a@example.com", "pw-long-enough-1"))
    page = client.get(reverse("tables")).content.decode()
    select = page[
        page.index('<select name="clock_seconds"') : page.index(
            "</select>", page.index('name="clock_seconds"')
        )
    ]
    live, turn_based = select.split("<optgroup")[1:]
    assert 'label="Live: per turn"' in live and 'label="Turn-based: per move' in turn_based
    assert re.findall(r'value="(\d+)"', live) == ["15", "30", "60", "120", "300", "600"]
    assert re.findall(r'value="(\d+)"', turn_based) == [str(s) for s in turn_clocks.TURN_BASED_CLOCKS]
    assert '<option value="30" selected>30 s</option>' in live
    assert ">1 hour<" in turn_based and ">12 hours<" in turn_based and ">7 days<" in turn_based


@pytest.mark.parametrize("seconds", [2 * DAY, 45])  # a speed offered; a live clock an older form posts
def test_the_form_opens_a_table_at_the_speed_posted(client: Client, seconds: int) -> None:
    client.force_login(User.objects.create_user("alice", "a@example.com", "pw-long-enough-1"))
    response = client.post(
        reverse("table_create"), {"game": "triad", "clock_seconds": seconds, "triad_players": 2}
    )
    table = Table.objects.get()
    assert response.status_code == 302 and table.clock_seconds == seconds


@pytest.mark.parametrize("forged", ["5000", "9", "601", "99999999999999999999", "a day", ""])
def test_a_forged_speed_gets_the_forms_clear_error_and_opens_nothing(client: Client, forged: str) -> None:
    client.force_login(User.objects.create_user("alice", "a@example.com", "pw-long-enough-1"))
    response = client.post(
        reverse("table_create"), {"game": "triad", "clock_seconds": forged, "triad_players": 2}
    )
    assert response.status_code == 400
    said = "This field is required." if forged == "" else str(turn_clocks.CLOCK_REFUSED)
    assert said in response.content.decode()
    assert not Table.objects.exists()


# Shown plainly, drawn by the server


def _set_deadline(table: Table, deadline: dt.datetime) -> None:
    """The game's deadline and its Turn row's, as the move path keeps them (equal)."""
    GameRecord.objects.filter(pk=table.record_id).update(turn_deadline=deadline)
    Turn.objects.filter(game_id=table.record_id).update(deadline=deadline)
    snapshots.clear()  # the test changed the row behind the cache's back


def test_the_lobby_and_the_table_say_the_speed_and_the_time_left_in_words(client: Client) -> None:
    carol = User.objects.create_user("carol", "c@example.com", "pw-long-enough-1")
    waiting = tables.create_table(game="triad", creator=carol, config={"players": 2}, clock_seconds=2 * DAY)
    live = tables.create_table(game="triad", creator=carol, config={"players": 2}, clock_seconds=30)
    lobby = client.get(reverse("tables")).content.decode()
    assert "2 days per move" in lobby and "30 s per turn" in lobby

    table, first, second = _dealt(DAY)
    _set_deadline(table, timezone.now() + dt.timedelta(days=1, hours=4, seconds=30))
    mover, _ = _to_act(table, first, second)
    other = second if mover == first else first
    client.force_login(other)
    page = client.get(reverse("table", args=[table.pk])).content.decode()
    assert "1 day per move" in page
    assert re.search(r'to play <span class="clock" data-testid="time-left">1 day 4 h left</span>', page)
    assert "data-clock" not in page  # no countdown runs for days
    live_page = client.get(reverse("table", args=[live.pk])).content.decode()
    assert "30 s per turn" in live_page and waiting.pk != live.pk


async def test_a_page_opened_a_day_later_shows_the_table_as_it_stands_and_takes_the_move(
    async_client: Any,
) -> None:
    """No socket was open all day (LP-8): the page drawn by the server says whose turn it is
    and what is left of it, and the move its form sends over the socket the page then opens
    is played."""
    table, first, second = await sync_to_async(_dealt)(DAY)
    await sync_to_async(_set_deadline)(table, timezone.now() + dt.timedelta(hours=2, minutes=5))
    mover, move = await sync_to_async(_to_act)(table, first, second)
    await async_client.aforce_login(mover)
    page = (await async_client.get(reverse("table", args=[table.pk]))).content.decode()
    assert 'data-testid="time-left">2 h 5 min left<' in page and "Your turn" in page
    assert "data-ws-send" in page  # the move form
    seat = await sync_to_async(lambda: move_path.seat_of(move_path.table_now(table.pk).seats, mover))()
    headers = [ORIGIN, (b"cookie", f"sessionid={async_client.cookies['sessionid'].value}".encode())]
    socket = WebsocketCommunicator(application, f"/ws/tables/{table.pk}/?seen=0&me={seat}", headers=headers)
    assert (await socket.connect())[0]
    assert await socket.receive_nothing(timeout=0.3)  # the page is current: nothing to send
    await socket.send_to(text_data=json.dumps({"action": move, "version": "0"}))
    frame = await socket.receive_from(timeout=5)
    await socket.disconnect()
    assert 'data-version="1"' in frame and 'data-testid="time-left">1 day left<' in frame
    turn = await Turn.objects.aget(game_id=table.record_id)
    assert turn.user_id != mover.pk


# The sweeper (LP-1 at a turn-based table)


def test_the_sweepers_every_five_seconds_read_no_game_row_in_a_scan() -> None:
    """At 100,000 turn-based games the sweep must stay cheap: the turn-based people come from
    the Turn rows' deadline index, the live tables from a partial index of the playing ones;
    no query scans the game rows (which keep no deadline index: a move updates them in place).
    With sequential scans priced out, a plan that still has one has no index to use."""
    _dealt(DAY)
    _dealt(30, ("carol", "dave"))
    with CaptureQueriesContext(connection) as queries:
        tables.overdue_games()
    assert len(queries.captured_queries) == 3
    with connection.cursor() as cursor:
        cursor.execute("SET enable_seqscan = off")
        try:
            for query in queries.captured_queries:
                cursor.execute("EXPLAIN " + query["sql"])
                plan = "\n".join(row[0] for row in cursor.fetchall())
                assert "Seq Scan" not in plan, plan
        finally:
            cursor.execute("RESET enable_seqscan")


def test_the_sweeper_finds_an_overdue_person_from_the_turn_row_and_a_lost_bot_task_once_a_minute(
    worker_runs_nothing: None, site_heartbeats: None
) -> None:
    """(The suite's worker, if an earlier test started it, would take the bot's task and move
    first: it did, under load, in CI.)"""
    table, alice, _ = _dealt(HOUR)
    bots = tables.create_table(game="triad", creator=alice, config={"players": 2}, clock_seconds=HOUR)
    tables.add_bot(table_id=bots.pk, user=alice)
    tables.start(table_id=bots.pk, user=alice)
    bots.refresh_from_db()
    if _seat_to_act(bots) == 0:
        move_path.play_at_table(table_id=bots.pk, user=alice, move="check", expected_version=0)
    bot_game = GameRecord.objects.get(pk=bots.record_id)
    assert _seat_to_act(bots) == 1  # the bot's turn: short, with its own task
    assert bot_game.clock_task_at is not None
    assert bot_game.clock_task_at - timezone.now() <= turn_clocks.TASK_HORIZON
    assert not Turn.objects.filter(game_id=bots.record_id).exists()

    past = timezone.now() - dt.timedelta(seconds=10)
    _set_deadline(table, past)
    GameRecord.objects.filter(pk=bots.record_id).update(turn_deadline=past)  # its task was lost
    assert tables.overdue_games() == [(table.record_id, 0)]
    assert sorted(tables.overdue_games(every_game=True)) == sorted(
        [(table.record_id, 0), (bots.record_id, bot_game.version)]
    )


@pytest.mark.services
def test_a_one_hour_table_is_played_out_by_the_worker_and_the_sweeper_with_no_task_hours_away(
    celery_worker: subprocess.Popen[bytes], site_up: str
) -> None:
    """Nobody moves: each time the test moves the deadline into the past, the sweeper (run by
    the real worker) has the clock play the seat's move (LP-1), and the next person's turn has
    a fresh hour, a Turn row, and no task: no Celery task waits an hour in Redis."""
    from games.tasks import sweep_overdue_turns

    alice = User.objects.create_user("alice", "a@example.com", "pw-long-enough-1")
    bob = User.objects.create_user("bob", "b@example.com", "pw-long-enough-1")
    table = tables.create_table(
        game="triad", creator=alice, config={"players": 2, "hands": 1}, clock_seconds=HOUR
    )
    tables.sit(table_id=table.pk, user=bob)
    tables.start(table_id=table.pk, user=alice)
    table.refresh_from_db()
    timed_out = 0
    for _ in range(60):
        record = GameRecord.objects.get(pk=table.record_id)
        if record.is_over:
            break
        turn = Turn.objects.filter(game_id=record.pk).first()
        if turn is None:  # the table's tie replay: seconds, with its own task
            assert record.clock_task_at is not None and record.turn_deadline is not None
            assert record.clock_task_at - timezone.now() <= turn_clocks.TASK_HORIZON
        else:
            assert record.turn_deadline == turn.deadline
            assert dt.timedelta(minutes=59) < turn.deadline - timezone.now() <= dt.timedelta(hours=1)
            assert record.clock_task_at is None or record.clock_task_at < timezone.now()  # none sent
            _set_deadline(table, timezone.now() - dt.timedelta(seconds=5))
            assert sweep_overdue_turns.delay().get(timeout=30) >= 1
            timed_out += 1
        _wait_for(lambda v=record.version: GameRecord.objects.get(pk=table.record_id).version > v)
    record = GameRecord.objects.get(pk=table.record_id)
    assert record.is_over and timed_out >= 2
    assert Action.objects.filter(game=record, timed_out=True).count() == timed_out
    assert not Turn.objects.exists()


def _seat_to_act(table: Table) -> int | None:
    return get_engine("triad").current_player(move_path.table_now(table.pk).state)


def _wait_for(condition: Callable[[], bool], timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the worker did not move the game on"
        time.sleep(0.1)


def test_a_kept_frame_of_a_turn_based_table_says_the_time_left_as_it_is_now(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A version of a turn-based game may stand for days, its snapshot (and the frames drawn
    from it) kept all that while: the frame a socket or a page gets says the time left now."""
    from games.live import table_frames

    table, alice, _ = _dealt(DAY)
    snapshot = move_path.table_now(table.pk)
    assert "1 day left" in table_frames.frame(snapshot, alice)
    later = timezone.now() + dt.timedelta(hours=3)
    monkeypatch.setattr(timezone, "now", lambda: later)
    monkeypatch.setattr(table_frames.time, "time", lambda: later.timestamp())
    frame = table_frames.frame(snapshot, alice)
    assert "1 day left" not in frame and "21 hours left" in frame
