"""A live table's frames (its live part as HTML for one viewer) and the lobby's list.

A started table's frame depends only on its version, the viewer's seat and the viewer's
language: it is drawn once per seat and language from the version's snapshot
(``games.core.snapshots``), for every socket of that seat (and every spectator) in this process.
Drawing from a snapshot reads nothing, so a socket's consumer draws on the event loop when the
snapshot is kept (``frame``), and on the database thread otherwise (``render_table``, which
reads it).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from django.db.models import Prefetch
from django.template.loader import render_to_string
from django.utils.translation import get_language

from accounts.models import User
from games.core import snapshots
from games.core.move_path import seat_of
from games.core.snapshots import Snapshot
from games.live import turn_clocks
from games.live.live_templates import live_template
from games.live.table_presenter import table_context
from games.models import Seat, Table


def _render(context: dict[str, Any], user: User | None) -> str:
    context["user"] = user
    return live_template("games/partials/table_live.html").render(context)


def frame(snapshot: Snapshot, user: User | None) -> str:
    """``user``'s frame of a started table at the snapshot's version, in the active language;
    reads nothing. A turn-based table's frame says the time left in words (LP-8), so it is drawn
    again once a minute: its version may stand for days."""
    assert snapshot.table is not None
    key = ("frame", seat_of(snapshot.seats, user), get_language())
    minute = int(time.time() // 60) if turn_clocks.is_turn_based(snapshot.table.clock_seconds) else None
    kept: tuple[int | None, str] | None = snapshot.memo.get(key)
    if kept is None or kept[0] != minute:
        kept = minute, _render(table_context(snapshot.table, user, snapshot=snapshot), user)
        snapshot.memo[key] = kept
    return kept[1]


def started_snapshots(table_ids: Sequence[int]) -> list[Snapshot | Exception | None]:
    """Each table's snapshot as it stands (``None`` while it is open, ``Table.DoesNotExist``
    if it is gone), the tables read in one query."""
    found = {table.pk: table for table in Table.objects.select_related("record").filter(pk__in=table_ids)}
    started = [table for table in found.values() if table.record is not None]
    drawn = dict(zip((table.pk for table in started), snapshots.of_tables(started), strict=True))
    return [
        drawn.get(table_id) if table_id in found else Table.DoesNotExist(f"no table {table_id}")
        for table_id in table_ids
    ]


def render_table(table_id: int, user: User | None, error: str = "") -> tuple[str, int | None]:
    """The table's live part as HTML for one person as it stands now, and the game version it
    shows (``None`` while the table is open); ``Table.DoesNotExist`` if it is gone."""
    table = snapshots.read_table(table_id)
    if table.record is None:
        return _render(table_context(table, user, error), user), None
    snapshot = snapshots.of_table(table)
    if error:
        return _render(table_context(table, user, error, snapshot=snapshot), user), snapshot.version
    return frame(snapshot, user), snapshot.version


def lobby_tables() -> dict[str, list[Table]]:
    seats = Prefetch("seats", queryset=Seat.objects.select_related("user"))
    # LP-9: a private table is in no list; it is reached by its link only.
    recent = Table.objects.filter(private_key__isnull=True).prefetch_related(seats).order_by("-created_at")
    live = recent.filter(status=Table.Status.PLAYING).select_related("tournament_game__match__tournament")
    return {
        "open_tables": list(recent.filter(status=Table.Status.OPEN)[:50]),
        "live_tables": list(live[:50]),
    }


def render_lobby() -> str:
    return render_to_string("games/partials/lobby_tables.html", lobby_tables())
