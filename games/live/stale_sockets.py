"""LP-2's safety net: a table socket that missed the announcement of a version catches up.

Announcements can be lost: the pub/sub layer's while a subscriber reconnects (which it
makes good itself, web/channel_layer.py), the lists layer's when a socket's queue is full
or expires (seen once in about 4,800 saturated moves across two daphnes, docs/benchmarks.md).
A page that missed the last move would stay stale until the next one, and a turn might never
seem to come. So each process looks, every ``CHECK_S`` seconds and in one query for all its
table sockets, at each game's version, and tells a socket that shows an older one that its
table changed: through its own channel, so the message queues with the socket's others.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Protocol

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from accounts.models import User
from games.models import Table

logger = logging.getLogger(__name__)

CHECK_S = 5.0


class TableSocket(Protocol):
    table_id: int
    channel_name: str
    sent_version: int | None
    hidden: bool
    """Its page is out of sight: it is drawn nothing until shown."""
    missed: bool
    """A hidden page that knows it is behind: drawn when shown, so not told again."""

    @property
    def person(self) -> User | None: ...


_sockets: dict[int, set[TableSocket]] = {}
_watching: asyncio.Task[None] | None = None


def watch(socket: TableSocket) -> None:
    global _watching
    _sockets.setdefault(socket.table_id, set()).add(socket)
    loop = asyncio.get_running_loop()
    # A server has one loop; a test suite makes one per test, and a closed loop's task is never done.
    if _watching is None or _watching.done() or _watching.get_loop() is not loop:
        _watching = loop.create_task(_watch_while_any())


def forget(socket: TableSocket) -> None:
    at_table = _sockets.get(socket.table_id)
    if at_table is not None:
        at_table.discard(socket)
        if not at_table:
            del _sockets[socket.table_id]


def at_table(table_id: int) -> set[TableSocket]:
    """This process's sockets at the table."""
    return _sockets.get(table_id, set())


def versions(table_ids: list[int]) -> dict[int, int]:
    """Each started table's game version, in one query."""
    rows = Table.objects.filter(pk__in=table_ids, record__isnull=False).values_list("pk", "record__version")
    return dict(rows)


async def check_once() -> int:
    """Tell each socket behind its game's version; how many were."""
    if not _sockets:
        return 0
    layer = get_channel_layer()
    if layer is None:
        return 0
    now = await database_sync_to_async(versions)(list(_sockets))
    behind = [
        (socket, now[table_id])
        for table_id, sockets in list(_sockets.items())
        if table_id in now
        for socket in list(sockets)
        if socket.sent_version is not None and socket.sent_version < now[table_id] and not socket.missed
    ]
    for socket, version in behind:
        await layer.send(socket.channel_name, {"type": "table.changed", "version": version})
    return len(behind)


async def _watch_while_any() -> None:
    while _sockets:
        await asyncio.sleep(CHECK_S)
        try:
            await check_once()
        except Exception as exc:  # a database or Redis outage: the next round tries again
            logger.warning("the stale-socket check failed: %r", exc)
