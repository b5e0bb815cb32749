"""Messages to channel groups after a commit: sent through the layer at once, or handed back.

A Celery worker or a view sends through the layer at once (``async_to_sync``). A call made
from a socket's consumer (``call_then_send``) has them handed back to the consumer, which
sends them from the event loop once the call returns. A daphne runs all its database work on one
thread; sending from that thread would hold it until the loop, busy with every other
socket's frames, got round to the send, and every move of the process would wait behind it.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

logger = logging.getLogger(__name__)
Announcement = tuple[str, dict[str, Any]]
"""A group and the message it is sent."""

# The list the call running in this context hands its announcements to (a copy of the
# context goes with a call into the database thread, and with it the same list).
_handed_back: ContextVar[list[Announcement] | None] = ContextVar("handed_back", default=None)

R = TypeVar("R")


def send_to_group(group: str, message: dict[str, Any]) -> None:
    """Send ``message`` to ``group``: after commit only, so that what it tells of can be read."""
    pending = _handed_back.get()
    if pending is not None:
        pending.append((group, message))
        return
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(group, message)


Prepare = Callable[[str, dict[str, Any]], None]


@asynccontextmanager
async def sent_after(prepare: Prepare | None = None) -> AsyncIterator[None]:
    """The messages sent within (here on the loop, or from a call to the database thread made
    here), sent from this loop once it ends: also when it raised after something committed.
    ``prepare(group, message)`` may add to each message on the loop first (what it raises is
    logged, and the message sent as it stands)."""
    pending: list[Announcement] = []
    token = _handed_back.set(pending)
    try:
        yield
    finally:
        _handed_back.reset(token)
        await _send_each(pending, prepare)


async def call_then_send(func: Callable[[], R], *, prepare: Prepare | None = None) -> R:
    """``func()`` on the database thread, then the messages it sent, from this loop
    (``sent_after``)."""
    async with sent_after(prepare):
        return await database_sync_to_async(func)()


async def _send_each(pending: list[Announcement], prepare: Prepare | None) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    for group, message in pending:
        if prepare is not None:
            try:
                prepare(group, message)
            except Exception:
                logger.exception("a message to %s went out unprepared", group)
        try:
            await layer.group_send(group, message)
        except Exception as exc:
            # The change stands, and so does what the call returned or raised (a move
            # accepted, a refusal to show): the table's sockets find the version they
            # missed at their process's next stale-socket check (LP-2).
            logger.warning("a message to %s was lost (%s: %s)", group, type(exc).__name__, exc)
