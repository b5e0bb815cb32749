"""Work for the database thread that queues while it is busy, taken a batch to a call.

A daphne runs all its database work on one thread, one call at a time, and a call costs more
than its work: the hand-over from the event loop to the thread and back, and the ORM's
building of each query. What is asked while a call runs waits here, and the next call takes
all of it (up to ``limit``); asked alone, it goes at once. The same item asked twice before
its batch sets out is done once. Each asker gets its own item's result, or its exception.
Measured A/B in docs/benchmarks.md ("Live tables").
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Awaitable, Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

A = TypeVar("A", bound=Hashable)
R = TypeVar("R")


@dataclass(eq=False)
class _Queue(Generic[A, R]):
    waiting: dict[A, asyncio.Future[R]] = field(default_factory=dict)
    runner: asyncio.Task[None] | None = None


class ThreadBatches(Generic[A, R]):
    def __init__(self, run: Callable[[list[A]], Awaitable[Sequence[R | Exception]]], limit: int) -> None:
        self.run = run
        """A batch's work (it hands itself to the thread): a result or an exception per item."""
        self.limit = limit
        self._queues: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Queue[A, R]] = (
            weakref.WeakKeyDictionary()
        )

    def submit(self, item: A) -> asyncio.Future[R]:
        loop = asyncio.get_running_loop()
        queue = self._queues.setdefault(loop, _Queue())
        result = queue.waiting.get(item)
        if result is None:
            result = loop.create_future()
            # Looked at even when its asker has gone: what it raised was the asker's to handle.
            result.add_done_callback(lambda done: done.cancelled() or done.exception())
            queue.waiting[item] = result
        if queue.runner is None or queue.runner.done():
            queue.runner = loop.create_task(self._run_queued(queue))
        return result

    async def _run_queued(self, queue: _Queue[A, R]) -> None:
        while queue.waiting:
            batch = list(queue.waiting.items())[: self.limit]
            for item, _ in batch:
                del queue.waiting[item]
            outcomes: Sequence[R | Exception]
            try:
                outcomes = await self.run([item for item, _ in batch])
            except Exception as exc:  # the call itself failed: so did each of its items
                outcomes = [exc] * len(batch)
            for (_, result), outcome in zip(batch, outcomes, strict=True):
                if result.done():
                    continue
                if isinstance(outcome, Exception):
                    result.set_exception(outcome)
                else:
                    result.set_result(outcome)
