"""SQLite: a batch of moves from the tables this process keeps, stored from the event loop.

As on PostgreSQL (``games.loop_writes``), the hand-over of a batch to the database thread and
back cost more than its statements: in issue 21's sixteenth round, the batches stored on the
loop made more moves a second on both databases. SQLite is a file in this process, not a
server, so its statements run on the loop itself, on a connection of the loop's own; the
transaction is short (an update and an insert a move, no read) and nothing is awaited while it
holds SQLite's write lock, so no other writer of this process waits on the loop. Taking that
lock is what may wait (another process, or this one's database thread, holding it): that wait
is on the loop's timers, in short steps as ``config.sqlite`` waits, and the loop draws frames
meanwhile. A batch that cannot be stored (the lock not had in time, a statement that fails)
is rolled back whole and goes the database thread's way.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
import weakref
from collections.abc import Sequence
from typing import Any

from asgiref.sync import sync_to_async
from django.db import connections

from config.sqlite.base import DEFAULT_TIMEOUT_S, FIRST_WAIT_S, LONGEST_WAIT_S, is_locked
from games import move_writes
from games.tables import KeptMove

logger = logging.getLogger(__name__)

_connections: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, sqlite3.Connection] = (
    weakref.WeakKeyDictionary()
)


async def _connection(db: str) -> sqlite3.Connection:
    loop = asyncio.get_running_loop()
    connection = _connections.get(loop)
    if connection is None:
        connection = await sync_to_async(_opened)(db)  # Django opens none on a loop
        _connections[loop] = connection
    return connection


def _opened(db: str) -> sqlite3.Connection:
    """A connection as Django opens one (the file, its PRAGMAs; usable from any thread), but in
    autocommit, beginning its transactions itself, and failing at once when the write lock is
    taken: the loop then waits for it on a timer, not in SQLite's sleep."""
    wrapper = connections[db]
    connection: sqlite3.Connection = wrapper.get_new_connection(wrapper.get_connection_params())
    connection.isolation_level = None
    connection.execute("PRAGMA busy_timeout = 0")
    return connection


async def _begin(connection: sqlite3.Connection, timeout_s: float) -> bool:
    """``BEGIN IMMEDIATE``, tried again while another writer holds the lock; whether it began."""
    deadline = time.monotonic() + timeout_s
    wait = FIRST_WAIT_S
    while True:
        try:
            connection.execute("BEGIN IMMEDIATE")
            return True
        except sqlite3.OperationalError as exc:
            if not is_locked(exc) or time.monotonic() + wait > deadline:
                logger.warning("a batch of moves goes the database thread's way: %r", exc)
                return False
        await asyncio.sleep(wait)
        wait = min(wait * 2, LONGEST_WAIT_S)


async def store(moves: Sequence[KeptMove], db: str) -> list[bool] | None:
    """``loop_writes.store`` on SQLite: each of ``moves`` stored if its game is still as kept,
    in one transaction; ``None`` when nothing of the batch was stored."""
    statements = [move_writes.sqlite_statements(kept.before, kept.after, kept.action, db) for kept in moves]
    connection = await _connection(db)
    timeout_s = float(connections[db].settings_dict["OPTIONS"].get("timeout", DEFAULT_TIMEOUT_S))
    if not await _begin(connection, timeout_s):
        return None
    keys: dict[int, int] = {}
    try:  # from here to the commit, nothing is awaited: the write lock is held
        for n, ((update, moved), (insert, row)) in enumerate(statements):
            if connection.execute(update, moved).rowcount != 1:
                continue  # the game moved on: the thread's way refuses it
            keys[n] = _key(connection.execute(insert, row).fetchone())
        connection.execute("COMMIT")
    except sqlite3.Error as exc:
        logger.warning("%d moves go the database thread's way, their batch failed: %r", len(moves), exc)
        _roll_back(connection)
        return None
    for n, key in keys.items():
        move_writes.mark_stored(moves[n].action, key, db)
    return [n in keys for n in range(len(moves))]


def _roll_back(connection: sqlite3.Connection) -> None:
    """Undo the batch; a connection that cannot is closed (which undoes it) and opened again at
    the next batch."""
    try:
        if connection.in_transaction:
            connection.execute("ROLLBACK")
    except sqlite3.Error:
        _connections.pop(asyncio.get_running_loop(), None)
        connection.close()


def _key(row: Any) -> int:
    if row is None:
        raise sqlite3.IntegrityError("the action's insert returned no row")
    return int(row[0])


def close_all() -> None:
    """Close every loop's connection (a test's end)."""
    while _connections:
        _, connection = _connections.popitem()
        connection.close()
