"""A socket's frame of an announced version: drawn on the event loop when this process keeps
what it needs, else in one trip to the database thread for all the sockets of this process
at the table, and one trip for the versions of many tables when they queue up.

A process keeps a table at the versions its sockets drew or its own moves made, and the next
version from the move's announcement (``table_frames.remember_carried``): under play, every
frame but a socket's first is drawn from what is kept. On the loop it costs no hand-over to
the thread and back, and no wait for the GIL between them (in every A/B pair of issue 21's
twelfth round a daphne spent less CPU a move so; a third thread for the frames cost more).
Whether a frame needs the database is only known as it is drawn: Django refuses database
work on the loop's thread (``SynchronousOnlyOperation``) before any starts, and the frame is
then drawn the thread's way. What was kept before the refusal is what the thread keeps too.

On the thread, the first socket to hear of a version asks for the frames of every viewer here
whose page is in sight (each seat's, and the spectators' one); the others wait for that rather
than ask again. Each still gets only its own seat's frame (LP-3). The asks wait in a queue,
and one call draws all those queued (up to ``BATCH``) while the thread is busy with the last
(``config.thread_batches``).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any, NamedTuple

from channels.db import database_sync_to_async
from django.core.exceptions import SynchronousOnlyOperation

from accounts.models import User
from config.thread_batches import ThreadBatches
from games import action_rows, stale_sockets
from games.stale_sockets import TableSocket
from games.table_frames import remember_carried, render_for_viewers, render_table, viewer_key
from games.table_presenter import keep_carried_public_part

Frames = dict[int | None, tuple[str, int | None]]
BATCH = 16
"""The most versions one call draws: their sockets wait for the last of them to be drawn."""


class Heard(NamedTuple):
    """What a move's announcement carried besides its version."""

    row: action_rows.Announced | None
    """The action that made the version."""
    game: object
    """What the move changed in the game's row (``carried_games``)."""
    public: object = None
    """The version's public part, as the process that made the move worked it out
    (``table_frames.add_public_part``)."""

    @classmethod
    def of(cls, event: dict[str, Any]) -> Heard:
        return cls(action_rows.from_announcement(event.get("row")), event.get("game"), event.get("public"))


@dataclass(eq=False)
class _Ask:
    table_id: int
    version: int
    viewers: list[User | None]
    heard: Heard | None


_drawing: dict[tuple[int, int], asyncio.Future[Frames]] = {}
"""The asks under way, by (table, version): a socket that hears of a version after its ask
was drawn makes one of its own, which finds the frames kept (``table_frames``)."""


async def frame_at(socket: TableSocket, version: int, heard: Heard | None = None) -> tuple[str, int | None]:
    """``socket``'s frame of its table at ``version`` (with what the announcement of the move
    that made it carried, if it is known), and the version it shows."""
    try:
        return _drawn_here(socket, version, heard)
    except SynchronousOnlyOperation:
        pass  # something must be read: the thread's way
    key = (socket.table_id, version)
    drawing = _drawing.get(key)
    if drawing is None or drawing.get_loop() is not asyncio.get_running_loop():
        in_sight = [s.person for s in stale_sockets.at_table(socket.table_id) if not s.hidden]
        viewers = {viewer_key(person): person for person in [*in_sight, socket.person]}
        drawing = _batches.submit(_Ask(socket.table_id, version, list(viewers.values()), heard))
        _drawing[key] = drawing
        drawing.add_done_callback(lambda done: _forget(key, done))
    # A socket that closes while it waits must not cancel what the others wait for.
    frames = await asyncio.shield(drawing)
    mine = frames.get(viewer_key(socket.person))
    if mine is None:  # it came after the ask set out
        mine = await database_sync_to_async(render_table)(socket.table_id, socket.person, "", version)
    return mine


def _drawn_here(socket: TableSocket, version: int, heard: Heard | None) -> tuple[str, int | None]:
    """``frame_at`` from what this process keeps, on the loop: raises ``SynchronousOnlyOperation``
    if it would read the database."""
    _remember_announced(socket.table_id, version, heard)
    return render_table(socket.table_id, socket.person, "", version)


def _remember_announced(table_id: int, version: int, heard: Heard | None) -> None:
    if heard is not None and heard.row is not None:
        action_rows.remember_announced(heard.row)
        remember_carried(table_id, version, heard.game)
        if heard.public is not None:
            keep_carried_public_part(heard.row[0], version, heard.public)


def _forget(key: tuple[int, int], done: asyncio.Future[Frames]) -> None:
    if _drawing.get(key) is done:
        del _drawing[key]
    if not done.cancelled():
        done.exception()  # looked at: the sockets that waited have it, and none may be left


async def _draw_in_thread(batch: list[_Ask]) -> list[Frames | BaseException]:
    return await database_sync_to_async(_draw)(batch)


_batches: ThreadBatches[_Ask, Frames] = ThreadBatches(_draw_in_thread, BATCH)


def _draw(batch: list[_Ask]) -> list[Frames | BaseException]:
    """Each ask's frames, or what stopped them (a table deleted under its sockets): one
    table's failure is its own sockets' only."""
    drawn: list[Frames | BaseException] = []
    for ask in batch:
        try:
            _remember_announced(ask.table_id, ask.version, ask.heard)
            drawn.append(render_for_viewers(ask.table_id, ask.viewers, ask.version))
        except Exception as exc:  # handed to the sockets that asked, which handle it
            drawn.append(exc)
    return drawn
