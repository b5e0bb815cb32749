"""A batch of moves from the tables this process keeps, stored from the event loop.

A daphne stores its sockets' moves in batches (``games.queued_moves``). On the database thread
a batch costs a hand-over from the loop and back, and the two threads' wait for the GIL: in
issue 21's sixteenth and seventeenth rounds, the batches stored from the loop made more moves a
second on both databases. On PostgreSQL the batch goes to the server on a connection of the
loop's own (psycopg's ``AsyncConnection``), the same compare-and-set statement as
``games.move_writes`` for each move, all in one transaction, and the loop draws frames while
PostgreSQL works; SQLite's is stored on the loop itself (``games.sqlite_loop_writes``). What
this cannot settle (a refusal, a game that moved on, a table not kept, a batch that fails) goes
the way it went before, on the database thread, where it is stored or refused as then: a move
that another already moved the game past is never stored twice (the compare-and-set), and one
stored here is known as stored only once its transaction has committed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from collections.abc import Sequence
from typing import Any

import psycopg
from django.db import connections, router

from games import move_writes, sqlite_loop_writes
from games.models import GameRecord
from games.tables import KeptMove

logger = logging.getLogger(__name__)
CONNECT_TIMEOUT_S = 5
"""A database that does not answer fails the batch over to the thread's way after this long,
rather than hold the process's moves until TCP gives up."""

_connections: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, psycopg.AsyncConnection[Any]] = (
    weakref.WeakKeyDictionary()
)


async def _connection(db: str) -> psycopg.AsyncConnection[Any]:
    loop = asyncio.get_running_loop()
    connection = _connections.get(loop)
    if connection is None or connection.closed:
        # Django's own parameters (the database, its options, its adapters) but its cursor,
        # which is not an async one; psycopg's binds on the server, as Django's is set to.
        params = connections[db].get_connection_params()
        params.pop("cursor_factory", None)
        params.setdefault("connect_timeout", CONNECT_TIMEOUT_S)
        connection = await psycopg.AsyncConnection.connect(**params, autocommit=True)
        _connections[loop] = connection
    return connection


async def store(moves: Sequence[KeptMove]) -> list[bool] | None:
    """Store each of ``moves`` if its game is still as kept, in one transaction, the games in
    the order of their rows (as ``table_frames.play_batch``: two batches never each hold a
    row that the other waits for); which were stored, in the order given. ``None`` when the
    batch could not be stored (nothing of it was, or, had the commit's answer been lost, a
    move's game stands at its version: the thread's way finds it moved on and stores nothing
    again)."""
    db = router.db_for_write(GameRecord, instance=moves[0].before)
    if connections[db].vendor == "sqlite":
        return await sqlite_loop_writes.store(moves, db)
    statements = [
        (n, *move_writes.postgres_statement(kept.before, kept.after, kept.action, db))
        for n, kept in sorted(enumerate(moves), key=lambda each: each[1].before.pk)
    ]
    keys: dict[int, int] = {}
    try:
        connection = await _connection(db)
        if len(statements) == 1:  # alone, a move is its own statement: no BEGIN and COMMIT
            n, sql, values = statements[0]
            cursors = [(n, await connection.execute(sql, values))]
        else:
            # Pipelined: BEGIN, the moves and COMMIT go out together, one round trip rather
            # than one a statement, and the loop is woken once for all their answers.
            async with connection.pipeline(), connection.transaction():
                cursors = [(n, await connection.execute(sql, values)) for n, sql, values in statements]
        for n, cursor in cursors:
            row = await cursor.fetchone()
            if row is not None:
                keys[n] = row[0]
    except (psycopg.Error, OSError) as exc:
        logger.warning("%d moves go the database thread's way, their batch failed: %r", len(moves), exc)
        await _close()
        return None
    for n, key in keys.items():
        move_writes.mark_stored(moves[n].action, key, db)
    return [n in keys for n in range(len(moves))]


async def _close() -> None:
    connection = _connections.pop(asyncio.get_running_loop(), None)
    if connection is not None:
        with contextlib.suppress(psycopg.Error):  # already broken: nothing to close
            await connection.close()


def close_all() -> None:
    """Close every loop's connection from outside its loop (a test's end: the test database is
    dropped only once no connection is left)."""
    sqlite_loop_writes.close_all()
    while _connections:
        _, connection = _connections.popitem()
        connection.pgconn.finish()
