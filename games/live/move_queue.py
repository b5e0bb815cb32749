"""A process's socket moves, taken to the database thread a batch at a time.

A daphne runs all its database work on one thread, one call at a time. The moves that its
sockets send while a batch is being stored wait here, and the next call takes them all (up
to ``BATCH``): one hand-over to the thread and back, and one commit, for the lot
(``move_path.play_at_tables``). Alone, a move goes at once. Measured A/B in
docs/benchmarks.md ("Live tables"): the figures a player feels, with ``BATCH`` at 1 and 16.
"""

from __future__ import annotations

import asyncio
import weakref
from dataclasses import dataclass, field

from channels.db import database_sync_to_async

from games.core import announcements, move_path
from games.core.move_path import SocketMove

BATCH = 16
"""The most moves one call stores: their players wait for the last of them."""


@dataclass(eq=False)
class _Queue:
    moves: list[tuple[SocketMove, asyncio.Future[None]]] = field(default_factory=list)
    runner: asyncio.Task[None] | None = None


_queues: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Queue] = weakref.WeakKeyDictionary()


def play(move: SocketMove) -> asyncio.Future[None]:
    """``move``'s outcome once its batch is stored and announced: ``None``, or what refused it."""
    loop = asyncio.get_running_loop()
    queue = _queues.setdefault(loop, _Queue())
    outcome: asyncio.Future[None] = loop.create_future()
    # Looked at even when its socket has gone: a refusal nobody waits for is no error.
    outcome.add_done_callback(lambda done: done.cancelled() or done.exception())
    queue.moves.append((move, outcome))
    if queue.runner is None or queue.runner.done():
        queue.runner = loop.create_task(_run(queue))
    return outcome


async def _run(queue: _Queue) -> None:
    while queue.moves:
        batch, queue.moves = queue.moves[:BATCH], queue.moves[BATCH:]
        outbox: move_path.Outbox = []
        results: list[move_path.Decided | Exception]
        try:
            results = await database_sync_to_async(move_path.play_at_tables)([m for m, _ in batch], outbox)
        except Exception as exc:  # the call itself failed: so did each of its moves
            results = [exc] * len(batch)
        finally:
            # Sent from the loop, also when the call raised after something committed.
            await announcements.send_async(outbox)
        for (_, outcome), result in zip(batch, results, strict=True):
            if outcome.done():
                continue
            if isinstance(result, Exception):
                outcome.set_exception(result)
            else:
                outcome.set_result(None)
