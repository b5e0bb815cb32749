"""One trip to the database thread per announced version of a table, for all the sockets of
this process at it.

Every socket of a table hears each announcement, and each used to render its frame in a
call of its own to the database thread, where a daphne runs all its database work one call
at a time. The first socket to hear of a version now starts one call that draws the frames
of every viewer here whose page is in sight (each seat's, and the spectators' one); the
others wait for that call rather than queue calls of their own. Each still gets only its own
seat's frame (LP-3).
"""

from __future__ import annotations

import asyncio

from channels.db import database_sync_to_async

from games import stale_sockets
from games.stale_sockets import TableSocket
from games.table_frames import render_for_viewers, render_table, viewer_key

Frames = dict[int | None, tuple[str, int | None]]
_drawing: dict[tuple[int, int], asyncio.Future[Frames]] = {}
"""The calls under way, by (table, version): a socket that hears of a version after its call
ended makes one of its own, which finds the frames kept (``table_frames``)."""


async def frame_at(socket: TableSocket, version: int) -> tuple[str, int | None]:
    """``socket``'s frame of its table at ``version``, and the version it shows."""
    key = (socket.table_id, version)
    drawing = _drawing.get(key)
    if drawing is None or drawing.get_loop() is not asyncio.get_running_loop():
        in_sight = [s.person for s in stale_sockets.at_table(socket.table_id) if not s.hidden]
        viewers = {viewer_key(person): person for person in [*in_sight, socket.person]}
        drawing = asyncio.ensure_future(
            database_sync_to_async(render_for_viewers)(socket.table_id, list(viewers.values()), version)
        )
        _drawing[key] = drawing
        drawing.add_done_callback(lambda done: _drawing.pop(key) if _drawing.get(key) is done else None)
    # A socket that closes while it waits must not cancel the call the others wait for.
    frames = await asyncio.shield(drawing)
    mine = frames.get(viewer_key(socket.person))
    if mine is None:  # it came after the call set out
        mine = await database_sync_to_async(render_table)(socket.table_id, socket.person, "", version)
    return mine
