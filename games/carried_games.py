"""A live table's game as a move's announcement carries it: what the move changed in its row.

A table's sockets may be served by several processes, and each draws the frames of its own
sockets at every version. The process that stored a move knows the game's new row; the others
used to read it (one query a move and process, a round trip on PostgreSQL). A move at a
playing table changes only ``MOVED`` in its game's row (the rest of a table game's row is set
when it is dealt, or when it ends: a move that ends the game is not carried), so a process that
kept the row at the version before has the row at the new one from the announcement alone.
"""

from __future__ import annotations

import copy
import datetime as dt
from typing import Any

from games.models import GameRecord

MOVED = ("version", "action_count", "first_viewed_at", "last_action_at", "turn_deadline", "clock_task_at")
"""The columns a move at a playing table writes (``games.moves.apply_locked``, and the turn
clock's deadline in ``games.tables``)."""

Carried = list[Any]
"""``MOVED``'s values in order, a time as ISO 8601 text (the channel layer's msgpack has no
datetime)."""


def carried(record: GameRecord) -> Carried:
    """What the announcement of ``record``'s latest move carries of it."""
    return [_out(getattr(record, name)) for name in MOVED]


def _out(value: Any) -> Any:
    return value.isoformat() if isinstance(value, dt.datetime) else value


def _in(name: str, value: Any) -> Any:
    return dt.datetime.fromisoformat(value) if name in _TIMES and value is not None else value


_TIMES = frozenset(MOVED[2:])


def advanced(before: GameRecord, values: object) -> GameRecord | None:
    """A copy of ``before`` with a move's ``carried`` values, or ``None`` when they are not of
    the move that follows it (or not readable): the caller reads the row instead."""
    if not isinstance(values, list | tuple) or len(values) != len(MOVED):
        return None
    fields = dict(zip(MOVED, values, strict=True))
    if fields["version"] != before.version + 1 or fields["action_count"] != before.action_count + 1:
        return None
    try:
        changed = {name: _in(name, value) for name, value in fields.items()}
    except (TypeError, ValueError):
        return None
    after = copy.copy(before)
    for name, value in changed.items():
        setattr(after, name, value)
    return after
