"""A process's socket moves, taken to the database thread a batch at a time
(``games.live.thread_batches``): the moves its sockets send while a batch is stored go
together in the next, decided one by one and stored in one transaction, one commit for the
lot (``move_path.play_at_tables``). Alone, a move goes at once. Measured A/B (docs/benchmarks.md,
"Live tables"): with batches of up to 16 against one move a call, 51% more moves a second
saturated on SQLite, and a p99 a quarter lower.
"""

from __future__ import annotations

import asyncio

from channels.db import database_sync_to_async

from games.core import announcements, move_path
from games.core.move_path import SocketMove
from games.live.thread_batches import ThreadBatches

BATCH = 16
"""The most moves one call stores: their players wait for the last of them."""


async def _store(moves: list[SocketMove]) -> list[move_path.Decided | Exception]:
    outbox: move_path.Outbox = []
    try:
        return await database_sync_to_async(move_path.play_at_tables)(moves, outbox)
    finally:
        # Sent from the loop, also when the call raised after something committed.
        await announcements.send_async(outbox)


_batches: ThreadBatches[SocketMove, move_path.Decided] = ThreadBatches(_store, BATCH)


def play(move: SocketMove) -> asyncio.Future[move_path.Decided]:
    """``move``'s outcome once its batch is stored and announced, or what refused it."""
    return _batches.submit(move)
