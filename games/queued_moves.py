"""A socket's move, stored with the other moves of this process's sockets that queued while the
last batch was being stored: one batch and, where it can, one transaction and one commit for
them all. Alone, a move goes at once, as before.

The moves from tables this process keeps are checked on the loop and stored from it
(``games.loop_writes``); every move that way cannot settle goes to the database thread
(``table_frames.play_batch``). Either way, the announcements of the moves stored go out from
the loop, each with its version's public part.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from functools import partial

from django.core.exceptions import SynchronousOnlyOperation

from accounts.models import User
from config.group_sends import call_then_send, sent_after
from config.thread_batches import ThreadBatches
from games import loop_writes, table_frames, tables
from games.table_frames import Move, add_public_part, play_batch

logger = logging.getLogger(__name__)
BATCH = 16
"""The most moves one call stores: their players wait for the last of them."""


async def _play_batch(moves: list[Move]) -> list[Exception | None]:
    async with sent_after(add_public_part):
        return await _play_from_loop(moves)


async def _play_from_loop(moves: list[Move]) -> list[Exception | None]:
    """The moves this process can settle from the tables it keeps, stored from the loop; the
    rest (and all, if that batch failed) on the database thread."""
    checked: dict[int, tables.KeptMove] = {}
    for n, move in enumerate(moves):
        table_and_seats = table_frames.kept_table(move.table_id, move.expected_version)
        if table_and_seats is None:
            continue
        try:
            found = tables.check_on_kept(*table_and_seats, move.user, move.move, move.expected_version)
        except SynchronousOnlyOperation:
            found = None  # its state is not kept here: the thread's way reads it
        if found is not None:
            checked[n] = found
    stored = await loop_writes.store(list(checked.values())) if checked else None
    settled: set[int] = set()
    clocks: list[tables.KeptMove] = []
    for (n, kept), done in zip(checked.items(), stored or (), strict=False):
        if done:
            table_frames.remember_move(tables.stored_outside_django(kept))
            settled.add(n)
            if kept.armed:
                clocks.append(kept)
    outcomes: list[Exception | None] = [None] * len(moves)
    rest = [n for n in range(len(moves)) if n not in settled]
    if rest or clocks:
        # Their announcements go out as the thread's call returns; the loop's, at the batch's end.
        on_thread = partial(_on_thread, [moves[n] for n in rest], clocks)
        for n, outcome in zip(rest, await call_then_send(on_thread, prepare=add_public_part), strict=True):
            outcomes[n] = outcome
    return outcomes


def _on_thread(moves: list[Move], clocks: list[tables.KeptMove]) -> list[Exception | None]:
    # Celery's publish blocks: the clock tasks of the moves stored from the loop go from here.
    # One that fails is logged, and the sweeper makes it good once its deadline is past.
    for kept in clocks:
        try:
            tables.schedule_clock(kept)
        except Exception:
            logger.exception("the clock task of game %s was not sent", kept.after.pk)
    return play_batch(moves) if moves else []


_batches: ThreadBatches[Move, None] = ThreadBatches(_play_batch, BATCH)


async def play(
    table_id: int, user: User | None, move: str | Mapping[str, object], expected_version: int
) -> None:
    """``table_frames.play`` for one socket's move, in the next batch: raises what it raises
    (``GameError`` for a refusal). A socket that closes while it waits leaves the move to be
    played: it was sent."""
    await asyncio.shield(_batches.submit(Move(table_id, user, move, expected_version)))
