"""Moves of a process's sockets that queue while its database thread is busy: one call, and
one transaction with one commit for those settled from the kept tables
(``table_frames.play_batch``, ``games.queued_moves``). Each move is still its own: refused,
stored once, or played again the locked way, never lost and never doubled."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.db import OperationalError, connection, connections

from games import move_writes, queued_moves, table_frames
from games.engine import get_engine
from games.errors import GameError, StaleVersion
from games.models import Action, GameRecord, Seat
from games.state_cache import current_state
from games.table_frames import Move
from tests.games.table_moments import dealt_kept_triad_tables, moves_behind_a_held_one

pytestmark = pytest.mark.django_db(transaction=True)


def _versions(table_ids: list[int]) -> list[int]:
    return [GameRecord.objects.get(table__pk=pk).version for pk in table_ids]


def _transactions(table_ids: list[int]) -> set[str]:
    """The PostgreSQL transactions that stored the tables' actions (each row's ``xmin``)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT DISTINCT a.xmin::text FROM games_action a JOIN games_table t ON t.record_id = a.game_id"
            " WHERE t.id = ANY(%s)",
            [table_ids],
        )
        return {row[0] for row in cursor.fetchall()}


def test_moves_at_kept_tables_are_stored_in_one_transaction_in_their_games_order() -> None:
    dealt = dealt_kept_triad_tables(3)
    ids = [table_id for table_id, _, _ in dealt]
    outcomes = table_frames.play_batch([Move(pk, mover, "check", 0) for pk, mover, _ in reversed(dealt)])
    assert outcomes == [None, None, None]
    assert _versions(ids) == [1, 1, 1]
    assert len(_transactions(ids)) == 1
    stored = list(
        Action.objects.filter(game__table__pk__in=ids).order_by("pk").values_list("game_id", flat=True)
    )
    assert stored == sorted(stored)  # row locks taken in one order by every batch
    # Kept once committed: the next move at each table is settled from the kept table again.
    assert all(table_frames._tables.find((pk, 1)) is not None for pk in ids)


def test_a_move_alone_is_its_own_statement_and_commit() -> None:
    (table_id, mover, _), (other_id, other_mover, _) = dealt_kept_triad_tables(2)
    assert table_frames.play_batch([Move(table_id, mover, "check", 0)]) == [None]
    assert table_frames.play_batch([Move(other_id, other_mover, "check", 0)]) == [None]
    assert len(_transactions([table_id, other_id])) == 2


def test_a_refusal_in_a_batch_is_that_move_s_alone() -> None:
    (first_id, mover, _), (second_id, _, not_to_move) = dealt_kept_triad_tables(2)
    outcomes = table_frames.play_batch(
        [Move(first_id, mover, "check", 0), Move(second_id, not_to_move, "check", 0)]
    )
    assert outcomes[0] is None and isinstance(outcomes[1], GameError)
    assert _versions([first_id, second_id]) == [1, 0]
    assert not Action.objects.filter(game__table__pk=second_id).exists()


def test_two_moves_from_one_version_in_a_batch_store_one() -> None:
    (table_id, mover, _), (other_id, other_mover, _) = dealt_kept_triad_tables(2)
    twice = Move(table_id, mover, "check", 0)
    outcomes = table_frames.play_batch([twice, Move(other_id, other_mover, "check", 0), twice])
    assert outcomes[:2] == [None, None] and isinstance(outcomes[2], StaleVersion)
    assert Action.objects.filter(game__table__pk=table_id).count() == 1
    assert _versions([table_id, other_id]) == [1, 1]


def test_a_batch_whose_transaction_fails_is_played_one_by_one_and_loses_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    dealt = dealt_kept_triad_tables(3)
    ids = [table_id for table_id, _, _ in dealt]
    store = move_writes.store_if_unmoved
    calls = {"batched": 0}

    def failing_in_the_batch(*args: Any) -> bool:
        if connection.in_atomic_block:
            calls["batched"] += 1
            if calls["batched"] == 2:  # after the first move of the batch was written
                raise OperationalError("deadlock detected")
        return store(*args)

    monkeypatch.setattr(move_writes, "store_if_unmoved", failing_in_the_batch)
    outcomes = table_frames.play_batch([Move(pk, mover, "check", 0) for pk, mover, _ in dealt])
    assert outcomes == [None, None, None]
    assert _versions(ids) == [1, 1, 1]
    assert [Action.objects.filter(game__table__pk=pk).count() for pk in ids] == [1, 1, 1]
    assert len(_transactions(ids)) == 3  # each in its own, after the batch's was rolled back
    # Nothing of the rolled-back batch was kept: each table's next move is played from the
    # version that was stored.
    for pk, _, _ in dealt:
        record = GameRecord.objects.get(table__pk=pk)
        seat = get_engine("triad").current_player(current_state(record))
        player = Seat.objects.get(table_id=pk, number=seat).user
        table_frames.play(pk, player, "check", 1)
    assert _versions(ids) == [2, 2, 2]


async def test_moves_sent_while_the_thread_is_busy_go_in_one_call(monkeypatch: pytest.MonkeyPatch) -> None:
    """Moves the loop cannot settle (here no table is kept: a process's first moves at its
    tables after a restart) go to the database thread together; the kept tables' moves are
    stored from the loop (tests/games/test_loop_writes.py)."""
    monkeypatch.setattr(table_frames, "kept_table", lambda table_id, version: None)
    dealt = await sync_to_async(dealt_kept_triad_tables)(3)
    started, release, batches = threading.Event(), threading.Event(), []
    play_batch = table_frames.play_batch

    def held_first(moves: list[Move]) -> list[Exception | None]:
        batches.append([move.table_id for move in moves])
        if len(batches) == 1:
            started.set()
            release.wait(timeout=10)
        return play_batch(moves)

    monkeypatch.setattr(queued_moves, "play_batch", held_first)
    outcomes = await moves_behind_a_held_one(dealt, asyncio.to_thread(started.wait, 10), release.set)
    assert batches == [[dealt[0][0]], [dealt[1][0], dealt[2][0], dealt[2][0]]]
    assert outcomes[:2] == [None, None] and isinstance(outcomes[2], GameError)
    assert await sync_to_async(_versions)([pk for pk, _, _ in dealt]) == [1, 1, 1]
    await sync_to_async(connections.close_all)()  # the database thread's, before the test database goes
