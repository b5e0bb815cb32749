"""A socket's move, stored with the other moves of this process's sockets that queued while the
database thread was busy: one call to the thread and, where it can, one transaction and one
commit for them all (``table_frames.play_batch``). Alone, a move goes at once, as before."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from functools import partial

from accounts.models import User
from config.group_sends import call_then_send
from config.thread_batches import ThreadBatches
from games.table_frames import Move, add_public_part, play_batch

BATCH = 16
"""The most moves one call stores: their players wait for the last of them."""


async def _play_in_thread(moves: list[Move]) -> list[Exception | None]:
    # The announcements of the moves stored go out from this loop once the call returns,
    # each with its version's public part.
    return await call_then_send(partial(play_batch, moves), prepare=add_public_part)


_batches: ThreadBatches[Move, None] = ThreadBatches(_play_in_thread, BATCH)


async def play(
    table_id: int, user: User | None, move: str | Mapping[str, object], expected_version: int
) -> None:
    """``table_frames.play`` for one socket's move, in the next batch: raises what it raises
    (``GameError`` for a refusal). A socket that closes while it waits leaves the move to be
    played: it was sent."""
    await asyncio.shield(_batches.submit(Move(table_id, user, move, expected_version)))
