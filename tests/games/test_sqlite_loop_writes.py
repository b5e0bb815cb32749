"""SQLite: the moves from tables a process keeps, stored from the event loop on a connection of
the loop's own (``games.sqlite_loop_writes``, through ``games.loop_writes.store``): a batch in
one transaction, each move stored once or not at all, and a write lock another holds waited for
on the loop's timers, never in a sleep that would hold every socket of the process."""

from __future__ import annotations

import asyncio
import sqlite3
from types import SimpleNamespace
from typing import Any, cast

import pytest
from asgiref.sync import sync_to_async
from django.db import connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.utils import timezone

from games import loop_writes, sqlite_loop_writes
from games.models import Action, GameRecord
from games.tables import KeptMove
from tests.games.table_moments import one_move_on


def _games(db: str, count: int) -> list[GameRecord]:
    return [
        GameRecord.objects.using(db).create(
            game="triad", engine_version=1, config={}, seed=seed, deck=[], kind=GameRecord.Kind.TABLE
        )
        for seed in range(count)
    ]


def _kept(before: GameRecord) -> KeptMove:
    """What ``loop_writes.store`` reads of a move checked on a kept table."""
    after, action = one_move_on(before)
    return cast(KeptMove, SimpleNamespace(before=before, after=after, action=action))


def _stored(db: str) -> tuple[list[int], int]:
    """Each game's version, and how many actions are stored."""
    versions = list(GameRecord.objects.using(db).order_by("pk").values_list("version", flat=True))
    return versions, Action.objects.using(db).count()


def _holder(db: BaseDatabaseWrapper) -> sqlite3.Connection:
    """Another writer of the file (another process's, or the database thread's), holding its lock."""
    holder = sqlite3.connect(db.settings_dict["NAME"], isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    return holder


async def test_a_batch_is_stored_in_one_transaction_and_a_game_moved_on_is_not(sqlite_games: Any) -> None:
    games = await sync_to_async(_games)(sqlite_games.alias, 3)
    moves = [await sync_to_async(_kept)(game) for game in games]
    statements: list[str] = []
    (await sqlite_loop_writes._connection(sqlite_games.alias)).set_trace_callback(statements.append)
    assert await loop_writes.store(moves) == [True, True, True]
    assert [s for s in statements if s in ("BEGIN IMMEDIATE", "COMMIT")] == ["BEGIN IMMEDIATE", "COMMIT"]
    assert all(move.action.pk is not None and move.action._state.db == sqlite_games.alias for move in moves)
    assert await sync_to_async(_stored)(sqlite_games.alias) == ([1, 1, 1], 3)

    # The same moves again, from the rows as they were: every game has moved on since.
    again = [await sync_to_async(_kept)(game) for game in games]
    assert await loop_writes.store(again) == [False, False, False]
    assert all(move.action.pk is None for move in again)
    assert await sync_to_async(_stored)(sqlite_games.alias) == ([1, 1, 1], 3)


async def test_a_write_lock_held_elsewhere_is_waited_for_while_the_loop_runs(sqlite_games: Any) -> None:
    (game,) = await sync_to_async(_games)(sqlite_games.alias, 1)
    move = await sync_to_async(_kept)(game)
    holder = _holder(sqlite_games)
    storing = asyncio.ensure_future(loop_writes.store([move]))
    turns = 0
    for _ in range(20):  # the loop goes round while the batch waits for the lock
        await asyncio.sleep(0.005)
        turns += 1
    assert turns == 20 and not storing.done()
    holder.execute("COMMIT")
    assert await asyncio.wait_for(storing, 5) == [True]
    assert await sync_to_async(_stored)(sqlite_games.alias) == ([1], 1)


async def test_a_batch_that_cannot_be_stored_leaves_nothing_of_itself(
    sqlite_games: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    games = await sync_to_async(_games)(sqlite_games.alias, 3)
    # A lock not had in time: the batch goes the thread's way (None), none of it stored.
    monkeypatch.setitem(sqlite_games.settings_dict["OPTIONS"], "timeout", 0.05)
    holder = _holder(sqlite_games)
    assert await loop_writes.store([await sync_to_async(_kept)(game) for game in games]) is None
    holder.execute("COMMIT")
    assert await sync_to_async(_stored)(sqlite_games.alias) == ([0, 0, 0], 0)

    # The third game's next action already stored (as a second process's would be): its insert
    # fails, and the first game's move, written before it in the same transaction, with it.
    moves = [await sync_to_async(_kept)(game) for game in games]
    await sync_to_async(Action.objects.using(sqlite_games.alias).create)(
        game=games[2], seq=0, seat=0, text="check", created_at=timezone.now()
    )
    assert await loop_writes.store(moves) is None
    assert await sync_to_async(_stored)(sqlite_games.alias) == ([0, 0, 0], 1)
    assert not (await sqlite_loop_writes._connection(sqlite_games.alias)).in_transaction


FULL = 2
"""``PRAGMA synchronous``'s answer for FULL."""


async def test_a_commit_survives_a_power_cut_on_both_connections(sqlite_games: Any) -> None:
    """The site's SQLite syncs its write-ahead log at every commit (issue 43): with NORMAL, a
    power cut may undo moves that players had already seen acknowledged. Django's connection and
    the loop's own both open with the site's settings."""

    def django_sync() -> int:
        with connections[sqlite_games.alias].cursor() as cursor:
            cursor.execute("PRAGMA synchronous")
            return int(cursor.fetchone()[0])

    assert await sync_to_async(django_sync)() == FULL
    loop_connection = await sqlite_loop_writes._connection(sqlite_games.alias)
    assert loop_connection.execute("PRAGMA synchronous").fetchone()[0] == FULL
    assert loop_connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
