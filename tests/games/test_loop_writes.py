"""PostgreSQL: the moves from tables a process keeps, checked on the event loop and stored from
it on a connection of its own (``games.loop_writes``, ``games.queued_moves``). Each move is
still its own: refused, stored once, or played again the locked way on the database thread,
never lost and never doubled; and each stored move is announced once, with its public part."""

from __future__ import annotations

import asyncio
from typing import Any

import psycopg
import pytest
from asgiref.sync import sync_to_async
from django.db import connection, connections

from config import group_sends
from games import loop_writes, queued_moves, table_frames
from games.errors import GameError, StaleVersion
from games.models import Action, GameRecord
from games.table_frames import Move
from tests.games.table_moments import dealt_kept_triad_tables, moves_behind_a_held_one

pytestmark = pytest.mark.django_db(transaction=True)


def _stored(table_ids: list[int]) -> tuple[list[int], list[int], int]:
    """Each table's game version and count of actions, and how many PostgreSQL transactions
    stored those actions (their rows' ``xmin``)."""
    versions = [GameRecord.objects.get(table__pk=pk).version for pk in table_ids]
    actions = [Action.objects.filter(game__table__pk=pk).count() for pk in table_ids]
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(DISTINCT a.xmin::text) FROM games_action a"
            " JOIN games_table t ON t.record_id = a.game_id WHERE t.id = ANY(%s)",
            [table_ids],
        )
        return versions, actions, cursor.fetchone()[0]


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, dict[str, Any]]]:
    """The messages the batches sent, as they went out (their public part added)."""
    messages: list[tuple[str, dict[str, Any]]] = []
    send_each = group_sends._send_each

    async def kept(pending: list[Any], prepare: Any) -> None:
        await send_each(pending, prepare)
        messages.extend(pending)

    monkeypatch.setattr(group_sends, "_send_each", kept)
    return messages


@pytest.fixture
def thread_batches(monkeypatch: pytest.MonkeyPatch) -> list[list[int]]:
    """The tables of each batch that went to the database thread's way."""
    batches: list[list[int]] = []
    play_batch = queued_moves.play_batch

    def noted(moves: list[Move]) -> list[Exception | None]:
        batches.append([move.table_id for move in moves])
        return play_batch(moves)

    monkeypatch.setattr(queued_moves, "play_batch", noted)
    return batches


async def _play(moves: list[Move]) -> list[Exception | None]:
    """One batch, as ``queued_moves`` takes those that queued while the last was stored."""
    return await queued_moves._play_batch(moves)


async def _done() -> None:
    await sync_to_async(connections.close_all)()  # the database thread's, before the test database goes


async def test_moves_at_kept_tables_are_stored_from_the_loop_in_one_transaction_and_announced(
    sent: list[tuple[str, dict[str, Any]]], thread_batches: list[list[int]]
) -> None:
    dealt = await sync_to_async(dealt_kept_triad_tables)(3)
    ids = [pk for pk, _, _ in dealt]
    outcomes = await _play([Move(pk, mover, "check", 0) for pk, mover, _ in dealt])
    assert outcomes == [None, None, None]
    assert thread_batches == []
    assert await sync_to_async(_stored)(ids) == ([1, 1, 1], [1, 1, 1], 1)
    changed = [message for _, message in sent if message["type"] == "table.changed"]
    assert sorted(message["table"] for message in changed) == sorted(ids)
    assert all(message["version"] == 1 and message["public"] is not None for message in changed)
    # Kept as stored: each table's next move is settled from the loop again.
    assert all(table_frames.kept_table(pk, 1) is not None for pk in ids)
    for pk, _, other in dealt:
        assert await _play([Move(pk, other, "check", 1)]) == [None]
    assert thread_batches == []
    assert (await sync_to_async(_stored)(ids))[:2] == ([2, 2, 2], [2, 2, 2])
    await _done()


async def test_a_refusal_and_a_second_move_from_one_version_go_the_thread_s_way(
    sent: list[tuple[str, dict[str, Any]]], thread_batches: list[list[int]]
) -> None:
    dealt = await sync_to_async(dealt_kept_triad_tables)(2)
    (first_id, mover, not_to_move), (second_id, second_mover, _) = dealt
    twice = Move(first_id, mover, "check", 0)
    outcomes = await _play(
        [twice, Move(first_id, not_to_move, "check", 0), Move(second_id, second_mover, "check", 0), twice]
    )
    assert outcomes[0] is None and outcomes[2] is None
    assert isinstance(outcomes[1], GameError) and isinstance(outcomes[3], StaleVersion)
    assert thread_batches == [[first_id, first_id]]  # the refusal, and the move its game left
    assert (await sync_to_async(_stored)([first_id, second_id]))[:2] == ([1, 1], [1, 1])
    announced = [message["table"] for _, message in sent if message["type"] == "table.changed"]
    assert sorted(announced) == sorted([first_id, second_id])  # once each
    await _done()


async def test_a_batch_the_loop_cannot_store_is_stored_the_thread_s_way_and_loses_nothing(
    monkeypatch: pytest.MonkeyPatch, thread_batches: list[list[int]]
) -> None:
    dealt = await sync_to_async(dealt_kept_triad_tables)(3)
    ids = [pk for pk, _, _ in dealt]
    calls = {"statements": 0}
    connect = loop_writes._connection

    async def failing_second(*args: Any, **kwargs: Any) -> Any:
        real = await connect(*args, **kwargs)

        class Failing:
            def pipeline(self) -> Any:
                return real.pipeline()

            def transaction(self) -> Any:
                return real.transaction()

            async def execute(self, sql: str, values: list[Any]) -> Any:
                calls["statements"] += 1
                if calls["statements"] == 2:  # after the first move of the batch went into its transaction
                    raise psycopg.errors.DeadlockDetected("deadlock detected")
                return await real.execute(sql, values)

        return Failing()

    monkeypatch.setattr(loop_writes, "_connection", failing_second)
    outcomes = await _play([Move(pk, mover, "check", 0) for pk, mover, _ in dealt])
    assert outcomes == [None, None, None]
    assert thread_batches == [ids]
    # Nothing of the loop's transaction stood: each move stored once, by the thread's batch.
    assert await sync_to_async(_stored)(ids) == ([1, 1, 1], [1, 1, 1], 1)
    await _done()


async def test_moves_queued_while_a_batch_is_stored_go_in_the_next(
    monkeypatch: pytest.MonkeyPatch, thread_batches: list[list[int]]
) -> None:
    dealt = await sync_to_async(dealt_kept_triad_tables)(3)
    started, release, batches = asyncio.Event(), asyncio.Event(), []
    store = loop_writes.store

    async def held_first(moves: list[Any]) -> list[bool] | None:
        batches.append([kept.table.pk for kept in moves])
        if len(batches) == 1:
            started.set()
            await release.wait()
        return await store(moves)

    monkeypatch.setattr(loop_writes, "store", held_first)
    outcomes = await moves_behind_a_held_one(dealt, asyncio.wait_for(started.wait(), 10), release.set)
    assert batches == [[dealt[0][0]], [dealt[1][0], dealt[2][0]]]
    assert thread_batches == [[dealt[2][0]]]
    assert outcomes[:2] == [None, None] and isinstance(outcomes[2], GameError)
    assert (await sync_to_async(_stored)([pk for pk, _, _ in dealt]))[:2] == ([1, 1, 1], [1, 1, 1])
    await _done()
