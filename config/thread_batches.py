"""Work for the database thread that queues while it is busy, taken a batch to a call.

A daphne runs all its database work on one thread (``database_sync_to_async``), one call at
a time, and a call costs more than its work: the hand-over between the event loop and the
thread, where the thread then waits for the loop to let go of the GIL (a sixth of the
thread's time under load: py-spy, issue 21's fifth round). What is asked while a call runs
waits here, and the next call takes all of it (up to ``limit``); asked alone, it goes at
once. Each asker gets its own item's result, or its own exception.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

A = TypeVar("A")
R = TypeVar("R")


@dataclass(eq=False)
class _Queue(Generic[A, R]):
    """A loop's items not yet taken, and the task that takes them."""

    items: list[tuple[A, asyncio.Future[R]]] = field(default_factory=list)
    runner: asyncio.Task[None] | None = None


class ThreadBatches(Generic[A, R]):
    """``run`` does a batch's work (on the database thread): a result or an exception per
    item, in order."""

    def __init__(self, run: Callable[[list[A]], Awaitable[Sequence[R | BaseException]]], limit: int) -> None:
        self.run = run
        self.limit = limit
        """The most items one call takes: their askers wait for the last of them."""
        self._queues: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Queue[A, R]] = (
            weakref.WeakKeyDictionary()
        )

    def submit(self, item: A) -> asyncio.Future[R]:
        """``item``'s result, once the call that takes it is done."""
        loop = asyncio.get_running_loop()
        queue = self._queues.setdefault(loop, _Queue())
        result: asyncio.Future[R] = loop.create_future()
        # Looked at even when its asker has gone (a socket closed while it waited): what it
        # raised was the asker's to handle, never the loop's "never retrieved" error.
        result.add_done_callback(_looked_at)
        queue.items.append((item, result))
        if queue.runner is None or queue.runner.done():
            queue.runner = loop.create_task(self._run_queued(queue))
        return result

    async def _run_queued(self, queue: _Queue[A, R]) -> None:
        while queue.items:
            batch, queue.items = queue.items[: self.limit], queue.items[self.limit :]
            outcomes: Sequence[R | BaseException]
            try:
                outcomes = await self.run([item for item, _ in batch])
            except Exception as exc:  # the call itself failed: so did each of its items
                outcomes = [exc] * len(batch)
            except BaseException:  # the loop is closing
                for _, result in batch:
                    result.cancel()
                raise
            for (_, result), outcome in zip(batch, outcomes, strict=True):
                if isinstance(outcome, BaseException):
                    result.set_exception(outcome)
                else:
                    result.set_result(outcome)


def _looked_at(done: asyncio.Future[Any]) -> None:
    if not done.cancelled():
        done.exception()
