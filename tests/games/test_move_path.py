"""The one move path (``games.core.move_path``): decide, store with a compare-and-set on the game's
version, announce after commit. Each move is stored once or not at all, whichever process and
whichever database, and its announcement carries the version and nothing hidden."""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from django.db.backends.base.base import BaseDatabaseWrapper
from django.test import override_settings

from accounts.models import User
from games.core import move_path, snapshots
from games.core.errors import GameError, StaleVersion
from games.core.players import Player
from games.engine import get_engine
from games.models import Action, GameRecord
from games.solitaire import services
from tests.at_once import at_once
from tests.games.table_moments import build_table, dealt_heads_up_triad, find_game

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def alice() -> User:
    return User.objects.create_user("alice", "a@example.com", "pw-long-enough-1")


def _turn(table_id: int, alice: User, bob: User) -> tuple[User, str, snapshots.Snapshot]:
    now = move_path.table_now(table_id)
    seat = get_engine("triad").current_player(now.state)
    mover = alice if move_path.seat_of(now.seats, alice) == seat else bob
    return mover, str(get_engine("triad").legal_actions(now.state)[0]), now


def test_two_moves_from_one_version_at_once_store_one() -> None:
    """Two tabs of the mover (or two processes) send a move from version 0 together: the
    compare-and-set lets one through; the other is refused as stale and writes nothing."""
    table, alice, bob = dealt_heads_up_triad()
    mover, move, _ = _turn(table.pk, alice, bob)
    outcomes: list[object] = []

    def play() -> None:
        try:
            move_path.play_at_table(table_id=table.pk, user=mover, move=move, expected_version=0)
            outcomes.append("stored")
        except GameError as exc:
            outcomes.append(type(exc))

    at_once(play, play)
    assert sorted(map(str, outcomes)) == sorted(["stored", str(StaleVersion)])
    assert Action.objects.filter(game_id=table.record_id).count() == 1
    assert GameRecord.objects.get(pk=table.record_id).version == 1


def test_a_snapshot_another_process_moved_past_is_read_again_and_the_move_refused() -> None:
    table, alice, bob = dealt_heads_up_triad()
    mover, move, at_zero = _turn(table.pk, alice, bob)
    move_path.play_at_table(table_id=table.pk, user=mover, move=move, expected_version=0)
    snapshots.clear()
    snapshots.keep(at_zero)  # what a process that did not see the move still keeps
    with pytest.raises(StaleVersion):
        move_path.play_at_table(
            table_id=table.pk, user=mover, move=move, expected_version=0, game_id=table.record_id
        )
    assert Action.objects.filter(game_id=table.record_id).count() == 1


def test_a_clock_task_sent_since_the_snapshot_does_not_refuse_the_move() -> None:
    """A clock task that ran changes the row's ``clock_task_at`` without a new version: the
    compare-and-set misses, the row is read once again, and the move is stored once."""
    table, alice, bob = dealt_heads_up_triad()
    mover, move, at_zero = _turn(table.pk, alice, bob)
    sent = at_zero.record.clock_task_at
    assert sent is not None
    GameRecord.objects.filter(pk=table.record_id).update(clock_task_at=sent + dt.timedelta(seconds=1))
    moved = move_path.play_at_table(
        table_id=table.pk, user=mover, move=move, expected_version=0, game_id=table.record_id
    )
    assert moved.record.version == 1
    assert Action.objects.filter(game_id=table.record_id).count() == 1


def test_the_announcement_carries_the_version_and_no_card_nor_words(alice: User) -> None:
    """LP-3 through Redis: a Triad discard's words name the cards thrown; its announcement
    carries the table, the game and the version only."""
    config = {"players": 2, "hands": 2}
    seed, actions = find_game("triad", config, lambda e, s, a: s.phase == "draw" and e.current_player(s) == 0)
    bob = User.objects.create_user("bob", "b@example.com", "pw-long-enough-1")
    table = build_table("triad", config, {0: alice, 1: bob}, seed, actions)
    before = move_path.table_now(table.pk)
    engine = get_engine("triad")
    discard = next(
        str(a)
        for a in engine.legal_actions(before.state)
        if str(a).startswith("discard") and str(a) != "discard -"
    )
    outbox: move_path.Outbox = []
    move_path.play_at_table(
        table_id=table.pk, user=alice, move=discard, expected_version=before.version, outbox=outbox
    )
    (event,) = outbox
    said = [message for _, message in event.messages()]
    assert said == [
        {"type": "table.changed", "table": table.pk, "game": table.record_id, "version": before.version + 1}
    ]
    cards = discard.split(" ", 1)[1]
    assert cards not in json.dumps(said)


def test_a_person_not_seated_cannot_move_and_nothing_changes() -> None:
    table, _, _ = dealt_heads_up_triad()
    eve = User.objects.create_user("eve", "e@example.com", "pw-long-enough-1")
    with pytest.raises(GameError, match="watching"):
        move_path.play_at_table(table_id=table.pk, user=eve, move="check", expected_version=0)
    assert GameRecord.objects.get(pk=table.record_id).version == 0


@pytest.fixture
def games_on_sqlite(sqlite_games: BaseDatabaseWrapper) -> Iterator[str]:
    """The games' two tables on the site's SQLite (a router sends their reads and writes there)."""

    class ToSqlite:
        def db_for_read(self, model: type, **hints: Any) -> str | None:
            return sqlite_games.alias if model in (GameRecord, Action) else None

        db_for_write = db_for_read

    with override_settings(DATABASE_ROUTERS=[ToSqlite()]):
        yield sqlite_games.alias


def test_the_same_path_on_sqlite_stores_one_of_two_moves_at_once(games_on_sqlite: str) -> None:
    """The path is Django's ORM, so SQLite runs the same code: its transactions take the write
    lock up front (IMMEDIATE), and the second compare-and-set finds the version moved on."""
    record = GameRecord.objects.create(
        game="pyramid", engine_version=get_engine("pyramid").version, config={}, seed=7
    )
    assert record._state.db == games_on_sqlite
    outcomes: list[str] = []
    lock = threading.Lock()

    def play() -> None:
        try:
            move_path.play_game(GameRecord.objects.get(pk=record.pk), "draw", expected_version=0)
            result = "stored"
        except StaleVersion:
            result = "stale"
        with lock:
            outcomes.append(result)

    at_once(play, play)
    assert sorted(outcomes) == ["stale", "stored"]
    assert Action.objects.filter(game_id=record.pk).count() == 1
    assert GameRecord.objects.get(pk=record.pk).version == 1


def test_a_solitaire_page_and_another_tab_move_once(alice: User) -> None:
    record = services.start_solitaire(game="pyramid", player=Player(alice, ""), seed=7)
    services.submit_action(game_id=record.pk, player=Player(alice, ""), move="draw", expected_version=0)
    with pytest.raises(StaleVersion):
        services.submit_action(game_id=record.pk, player=Player(alice, ""), move="draw", expected_version=0)
    assert GameRecord.objects.get(pk=record.pk).version == 1


def test_the_snapshot_cache_is_safe_across_threads() -> None:
    """The event loop and the database thread share the cache: finds, keeps and evictions
    at once never raise, and the newest of each game stays findable."""
    table, *_ = dealt_heads_up_triad()
    base = move_path.table_now(table.pk)
    errors: list[BaseException] = []

    def churn(offset: int) -> None:
        try:
            for n in range(3000):
                record = GameRecord(pk=(n + offset) % 1500 + 10_000, version=n % 7)
                snapshots.keep(snapshots.Snapshot(record, base.state))
                snapshots.find(record.pk, record.version)
        except BaseException as exc:  # any failure is the test's
            errors.append(exc)

    threads = [threading.Thread(target=churn, args=(k * 100,)) for k in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    # The table's own snapshot may have been evicted: it is built again when asked for.
    assert move_path.table_now(table.pk).version == 0


async def test_moves_queued_together_are_stored_in_one_batch_each_with_its_own_outcome(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The moves a process's sockets send while a batch is stored go to the database thread
    together (``games.live.move_queue``): one call, one transaction; a refusal among them is
    its own socket's only."""
    from asgiref.sync import sync_to_async

    from games.core.move_path import SocketMove
    from games.live import move_queue
    from tests.games.table_moments import dealt_triad_tables

    dealt = await sync_to_async(dealt_triad_tables)(3)
    turns = [await sync_to_async(move_path.table_now)(pk) for pk, _, _ in dealt]
    movers = [
        first if move_path.seat_of(now.seats, first) == now.state.to_act else second
        for (_, first, second), now in zip(dealt, turns, strict=True)
    ]
    batches: list[int] = []
    play_at_tables = move_path.play_at_tables

    def recorded(moves: Any, outbox: Any = None) -> Any:
        batches.append(len(moves))
        return play_at_tables(moves, outbox)

    monkeypatch.setattr(move_path, "play_at_tables", recorded)
    outcomes = [
        move_queue.play(SocketMove(pk, mover, {"action": "check"}, 0))
        for (pk, _, _), mover in zip(dealt, movers, strict=True)
    ]
    wrong_seat = next(person for person in dealt[0][1:] if person != movers[0])
    outcomes.append(move_queue.play(SocketMove(dealt[0][0], wrong_seat, {"action": "check"}, 0)))
    results = await asyncio.gather(*outcomes, return_exceptions=True)
    assert batches == [4]
    assert all(isinstance(result, move_path.Decided) for result in results[:3])
    assert isinstance(results[3], GameError)
    versions = await sync_to_async(lambda: sorted(GameRecord.objects.values_list("version", flat=True)))()
    assert versions == [1, 1, 1]


def test_tables_another_process_moved_are_read_together_the_moves_since_in_one_query(
    django_assert_num_queries: Any,
) -> None:
    """A process's sockets at tables that moved elsewhere are drawn from what it keeps and the
    moves since: one query for the tables, one for all their moves; a table kept at its
    version reads nothing, a table gone is its own sockets' error."""
    from games.live.table_frames import started_snapshots
    from games.models import Table
    from tests.games.table_moments import dealt_triad_tables

    dealt = dealt_triad_tables(3)
    at_zero = [move_path.table_now(pk) for pk, _, _ in dealt]
    for (pk, first, second), now in list(zip(dealt, at_zero, strict=True))[:2]:
        mover = first if move_path.seat_of(now.seats, first) == now.state.to_act else second
        move_path.play_at_table(table_id=pk, user=mover, move={"action": "check"}, expected_version=0)
    snapshots.clear()
    for now in at_zero:
        snapshots.keep(now)  # what a process that did not see the moves still keeps

    ids = [pk for pk, _, _ in dealt] + [999_999]
    with django_assert_num_queries(2):
        drawn = started_snapshots(ids)
    assert [getattr(found, "version", None) for found in drawn[:3]] == [1, 1, 0]
    assert isinstance(drawn[3], Table.DoesNotExist)

    snapshots.clear()
    from_the_deal = [move_path.table_now(pk) for pk in ids[:2]]
    for found, fresh in zip(drawn, from_the_deal, strict=False):
        assert isinstance(found, snapshots.Snapshot)
        assert found.log == fresh.log and found.state == fresh.state


def _movers(dealt: list[tuple[int, User, User]]) -> list[User]:
    turns = [move_path.table_now(pk) for pk, _, _ in dealt]
    return [
        first if move_path.seat_of(now.seats, first) == now.state.to_act else second
        for (_, first, second), now in zip(dealt, turns, strict=True)
    ]


def test_a_move_ending_its_game_that_fails_is_refused_alone_in_its_batch(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A move that ends its game writes much more (results, ratings): it is stored in a
    savepoint of its own, so its failure leaves the batch's other moves stored."""
    from games.core import finishes
    from tests.games.table_moments import dealt_triad_tables

    dealt = dealt_triad_tables(2)
    movers = _movers(dealt)

    def broken(record: GameRecord) -> None:
        raise RuntimeError("the results could not be written")

    monkeypatch.setattr(finishes, "sync", broken)
    results = move_path.play_at_tables(
        [
            move_path.SocketMove(dealt[0][0], movers[0], "forfeit", 0),
            move_path.SocketMove(dealt[1][0], movers[1], {"action": "check"}, 0),
        ]
    )
    assert isinstance(results[0], RuntimeError)
    assert isinstance(results[1], move_path.Decided)
    versions = dict(GameRecord.objects.values_list("table__pk", "version"))
    assert versions == {dealt[0][0]: 0, dealt[1][0]: 1}
    assert Action.objects.count() == 1


def test_a_database_failure_in_a_batch_stores_none_of_it_and_fails_each_move() -> None:
    """Any other failure is the database's: the batch's transaction is rolled back whole, and
    each of its moves is told so, none acknowledged."""
    from django.db import IntegrityError

    from tests.games.table_moments import dealt_triad_tables

    dealt = dealt_triad_tables(2)
    movers = _movers(dealt)
    second_game = GameRecord.objects.get(table__pk=dealt[1][0])
    Action.objects.create(game=second_game, seq=0, seat=0, text="check")  # the insert will collide
    results = move_path.play_at_tables(
        [
            move_path.SocketMove(pk, mover, {"action": "check"}, 0)
            for (pk, _, _), mover in zip(dealt, movers, strict=True)
        ]
    )
    assert all(isinstance(result, IntegrityError) for result in results)
    assert sorted(GameRecord.objects.values_list("version", flat=True)) == [0, 0]
    assert Action.objects.count() == 1
