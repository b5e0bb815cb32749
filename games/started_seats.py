"""A started table's seats, read once per process and shared by its moves and frames.

Seats change only while a table is open (``tables._open_table`` refuses every other change),
and a dealt table never opens again (a rematch is a new table): who sits where at a started
table is fixed, so each process reads it once rather than at every move and every frame.
"""

from __future__ import annotations

from games.lru import Lru
from games.models import Seat, Table

CACHE_SIZE = 512
_seats: Lru[int, list[Seat]] = Lru(CACHE_SIZE)


def seats_of(table: Table) -> list[Seat]:
    """``table``'s seats by number, each with its user. ``table`` as read from the database:
    one this transaction is dealing may yet be rolled back to open, and must not be kept."""
    if table.status == Table.Status.OPEN:
        return _read(table)
    seats = _seats.find(table.pk)
    if seats is None:
        seats = _read(table)
        _seats.keep(table.pk, seats)
    return seats


def _read(table: Table) -> list[Seat]:
    return list(table.seats.select_related("user").order_by("number"))
