"""The actions of games as this process has read or stored them, by (game, undo count, seq).

An undo takes the last action back and raises the game's undo count, so an action a later
move puts in the same place has another key: an entry is never stale. The process that
stores an action keeps it once committed (``remember``), and the others as the table's
announcement of it carries it (``remember_announced``); they read those they still lack in
one query and keep the last few (``rows``). The game's state (``state_cache``) and a live
table's log (``table_log``) both read them here, so a move another process made costs this
one no read at all.
"""

from __future__ import annotations

from django.db import transaction

from games.lru import Lru
from games.models import Action, GameRecord

KEPT_PER_READ = 8
"""How many of the last actions a read keeps: those a table's log shows (``LOG_LENGTH``)."""
CACHE_SIZE = 256 * KEPT_PER_READ
Row = tuple[str, bool]
"""An action's text and whether the turn clock made it."""
_rows: Lru[tuple[int, int, int], Row] = Lru(CACHE_SIZE)


def _committed() -> bool:
    # Inside a transaction a row may yet be rolled back, and its place taken by another.
    return not transaction.get_connection().in_atomic_block


Announced = tuple[int, int, int, str, bool]
"""An action as a table's announcement carries it to every process: its game, the game's
undo count, its place, its text and whether the turn clock made it."""


def remember(action: Action, undo_count: int) -> None:
    """An action as the process that stored it knows it, once committed."""
    if _committed():
        remember_announced(announced(action, undo_count))


def announced(action: Action, undo_count: int) -> Announced:
    return (action.game_id, undo_count, action.seq, action.text, action.timed_out)


def from_announcement(row: object) -> Announced | None:
    """The row an announcement carried (a list, once through the channel layer), if any."""
    if not isinstance(row, list | tuple) or len(row) != 5:
        return None
    game_id, undo_count, seq, text, timed_out = row
    return (int(game_id), int(undo_count), int(seq), str(text), bool(timed_out))


def remember_announced(row: Announced) -> None:
    """An action as its announcement carried it (or as it was stored): announced after commit,
    so a row of the game as it stands."""
    game_id, undo_count, seq, text, timed_out = row
    _rows.keep((game_id, undo_count, seq), (text, timed_out))


def rows(record: GameRecord, start: int, end: int) -> dict[int, Row]:
    """The actions ``start`` to ``end - 1`` of ``record`` as it was read: those this process
    knows, and the rest in one query."""
    found: dict[int, Row] = {}
    for seq in range(start, end):
        row = _rows.find((record.pk, record.undo_count, seq))
        if row is None:
            break
        found[seq] = row
    missing = start + len(found)
    if missing < end:
        read = record.actions.filter(seq__gte=missing, seq__lt=end).values_list("seq", "text", "timed_out")
        keep = _committed()
        for seq, text, timed_out in read.order_by("seq"):
            found[seq] = (text, timed_out)
            if keep and seq >= end - KEPT_PER_READ:
                _rows.keep((record.pk, record.undo_count, seq), (text, timed_out))
    return found
