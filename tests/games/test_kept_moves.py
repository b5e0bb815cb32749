"""A move from the table as a process keeps it (``tables.act_on_kept``): one statement on
PostgreSQL, nothing read or locked first, and stored only if the game is still where the
move was made from (``games.move_writes``); whatever it cannot settle goes the locked way."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import User
from games import move_writes, table_frames, tables
from games.engine import get_engine
from games.errors import GameError, StaleVersion
from games.models import Action, GameRecord, Seat, Table
from games.state_cache import current_state
from tests.at_once import at_once
from tests.games.table_moments import dealt_heads_up_triad, one_move_on

pytestmark = pytest.mark.django_db(transaction=True)


def _kept(table_id: int) -> tuple[Table, list[Seat]]:
    """The table as this process keeps it once a socket drew it at version 0."""
    table_frames._tables.clear()
    table_frames._frames.clear()
    table_frames.render_table(table_id, None, "", 0)
    kept = table_frames._tables.find((table_id, 0))
    assert kept is not None
    return kept


def _mover_and_other(table: Table, alice: User, bob: User) -> tuple[User, User]:
    record = GameRecord.objects.get(table__pk=table.pk)
    seat = get_engine(record.game).current_player(current_state(record))
    alice_seat = Seat.objects.get(table=table, user=alice).number
    return (alice, bob) if seat == alice_seat else (bob, alice)


def _columns(record: GameRecord) -> dict[str, Any]:
    return {field.attname: getattr(record, field.attname) for field in GameRecord._meta.concrete_fields}


@pytest.fixture
def dealt() -> tuple[Table, User, User]:
    table, alice, bob = dealt_heads_up_triad()
    mover, other = _mover_and_other(table, alice, bob)
    return table, mover, other


def test_a_move_from_the_kept_table_is_one_statement_and_stores_the_row_it_keeps(
    dealt: tuple[Table, User, User],
) -> None:
    table, mover, _ = dealt
    kept = _kept(table.pk)
    with CaptureQueriesContext(connection) as queries:
        moved = tables.act_on_kept(*kept, mover, "check", 0)
    assert moved is not None
    (statement,) = [query["sql"] for query in queries.captured_queries]
    assert statement.startswith("WITH moved AS (UPDATE") and "FOR UPDATE" not in statement
    fresh = GameRecord.objects.get(pk=moved.record.pk)
    assert _columns(fresh) == _columns(moved.record)
    assert (fresh.version, fresh.action_count, fresh.status) == (1, 1, GameRecord.Status.PLAYING)
    assert fresh.turn_deadline is not None and fresh.turn_deadline > timezone.now()
    stored = Action.objects.get(game=fresh)
    assert (stored.pk, stored.seq, stored.text, stored.timed_out) == (moved.action.pk, 0, "check", False)
    assert stored.created_at == fresh.last_action_at
    # The kept row of version 0 is left as it was: the move wrote a copy.
    assert kept[0].record is not None and kept[0].record.version == 0


def test_a_game_moved_on_since_is_not_written_from_the_kept_table(dealt: tuple[Table, User, User]) -> None:
    table, mover, _ = dealt
    kept = _kept(table.pk)
    tables.act(table_id=table.pk, user=mover, move="check", expected_version=0)  # another process's
    assert tables.act_on_kept(*kept, mover, "check", 0) is None
    assert Action.objects.filter(game__table=table).count() == 1
    with pytest.raises(StaleVersion):
        table_frames.play(table.pk, mover, {"action": "check"}, 0)
    assert GameRecord.objects.get(table=table).version == 1


def test_a_clock_task_changed_under_the_kept_row_sends_the_move_the_locked_way(
    dealt: tuple[Table, User, User],
) -> None:
    table, mover, _ = dealt
    kept = _kept(table.pk)
    later = timezone.now() + dt.timedelta(seconds=90)
    GameRecord.objects.filter(table=table).update(clock_task_at=later)  # a clock task re-sent
    assert tables.act_on_kept(*kept, mover, "check", 0) is None
    assert not Action.objects.filter(game__table=table).exists()
    table_frames.play(table.pk, mover, "check", 0)
    assert GameRecord.objects.get(table=table).version == 1


def test_refusals_go_the_locked_way_which_gives_them(
    dealt: tuple[Table, User, User], monkeypatch: pytest.MonkeyPatch
) -> None:
    table, mover, other = dealt
    kept = _kept(table.pk)
    for user, move in ((other, "check"), (mover, "no such move"), (mover, "x" * 100), (None, "check")):
        assert tables.act_on_kept(*kept, user, move, 0) is None
        with pytest.raises(GameError):
            table_frames.play(table.pk, user, move, 0)
    assert tables.act_on_kept(*kept, mover, "check", 1) is None  # not the version kept
    engine = type(get_engine("triad"))
    monkeypatch.setattr(engine, "outcome", lambda self, state: {"winner": 0})
    assert tables.act_on_kept(*kept, mover, "check", 0) is None  # an ending: ratings, reports
    assert not Action.objects.filter(game__table=table).exists()


def test_two_moves_from_one_version_store_one(dealt: tuple[Table, User, User]) -> None:
    table, _, _ = dealt
    before = GameRecord.objects.get(table=table)
    stored: list[bool] = []

    def move() -> None:
        stored.append(move_writes.store_if_unmoved(before, *one_move_on(before)))

    at_once(move, move)
    assert sorted(stored) == [False, True]
    assert Action.objects.filter(game=before).count() == 1
    assert GameRecord.objects.get(pk=before.pk).version == 1


def test_on_sqlite_an_update_and_an_insert_in_one_transaction_store_it_once(sqlite_games: Any) -> None:
    db = sqlite_games.alias
    before = GameRecord.objects.using(db).create(
        game="triad", engine_version=1, config={}, seed=1, deck=[], kind=GameRecord.Kind.TABLE
    )
    after, action = one_move_on(before)
    assert move_writes.store_if_unmoved(before, after, action)
    assert action.pk is not None and action._state.db == db
    row = GameRecord.objects.using(db).get(pk=before.pk)
    assert (row.version, row.action_count) == (1, 1)
    assert list(Action.objects.using(db).values_list("seq", "text")) == [(0, "check")]
    again, action = one_move_on(before)
    assert not move_writes.store_if_unmoved(before, again, action)  # the row moved on
    moved_clock = GameRecord.objects.using(db).get(pk=before.pk)
    moved_clock.clock_task_at = timezone.now()
    later, action = one_move_on(row)
    assert not move_writes.store_if_unmoved(moved_clock, later, action)  # not the clock task kept
    assert Action.objects.using(db).count() == 1


def test_on_sqlite_a_batch_of_moves_takes_no_savepoint_and_one_failure_undoes_it_all(
    sqlite_games: Any,
) -> None:
    """In a batch's transaction (``table_frames.play_batch``) a move adds no savepoint of its
    own: a statement each that bought nothing, since a failed insert fails the whole batch
    (then played one move at a time) and an update that matched nothing wrote nothing."""
    db = sqlite_games.alias
    games = [
        GameRecord.objects.using(db).create(
            game="triad", engine_version=1, config={}, seed=seed, deck=[], kind=GameRecord.Kind.TABLE
        )
        for seed in (1, 2, 3)
    ]
    with transaction.atomic(using=db), CaptureQueriesContext(sqlite_games) as queries:
        assert move_writes.store_if_unmoved(games[0], *one_move_on(games[0]))
        assert move_writes.store_if_unmoved(games[1], *one_move_on(games[1]))
    assert not [query["sql"] for query in queries.captured_queries if "SAVEPOINT" in query["sql"]]
    assert Action.objects.using(db).count() == 2

    # Game 3's next action is already stored (as a second process's would be): its insert fails,
    # and with it the move of game 1 stored before it in the same transaction.
    fresh = [GameRecord.objects.using(db).get(pk=game.pk) for game in games]
    Action.objects.using(db).create(game=fresh[2], seq=0, seat=0, text="check", created_at=timezone.now())
    with pytest.raises(IntegrityError), transaction.atomic(using=db):
        assert move_writes.store_if_unmoved(fresh[0], *one_move_on(fresh[0]))
        move_writes.store_if_unmoved(fresh[2], *one_move_on(fresh[2]))
    versions = [GameRecord.objects.using(db).get(pk=game.pk).version for game in games]
    assert versions == [1, 1, 0]
    assert Action.objects.using(db).count() == 3
