"""A live table's frames (its live part as HTML for one viewer) and the lobby's list.

A started table's frame depends only on its version and the viewer's seat, so the frame
built for one socket serves every other socket of the same seat (and every spectator) in
this process; versions only grow, so a kept frame is never stale. Likewise the table and its
seats, read once per announced version for all the sockets that render it.
"""

from __future__ import annotations

import copy
import logging
from collections.abc import Iterable, Mapping, Sequence
from functools import partial
from typing import Any, NamedTuple

from django.core.exceptions import SynchronousOnlyOperation
from django.db import transaction
from django.db.models import Prefetch
from django.template.loader import render_to_string

from accounts.models import User
from config.compiled_reads import CompiledGet
from config.live_templates import live_template
from games import action_rows, carried_games, table_presenter, tables
from games.lru import Lru
from games.models import Seat, Table
from games.started_seats import seats_of
from games.state_cache import kept_state
from games.table_presenter import my_seat, table_context

logger = logging.getLogger(__name__)
_TABLE_AND_GAME = CompiledGet(lambda: Table.objects.select_related("record"), "pk")
FRAME_CACHE_SIZE = 512
_frames: Lru[tuple[int, int, int | None], str] = Lru(FRAME_CACHE_SIZE)
_tables: Lru[tuple[int, int], tuple[Table, list[Seat]]] = Lru(FRAME_CACHE_SIZE)


def _render(table: Table, user: User | None, error: str, seats: list[Seat]) -> tuple[str, int | None]:
    context = table_context(table, user, error, seats=seats)
    context["user"] = user
    return live_template("games/partials/table_live.html").render(context), context["version"]


def _table_and_seats(table_id: int, version: int | None) -> tuple[Table, list[Seat]]:
    """The table, its game and its seats: those read for ``version`` of its game by an earlier
    socket of this process if there are, else from the database (and kept for the sockets to
    come). A move changes the game's version and the table (its status) in one transaction,
    so what was read for a version holds for it; a change of seats comes without a version
    (only while the table is open), and is read afresh."""
    if version is not None:
        kept = _tables.find((table_id, version))
        if kept is not None:
            return kept
    table = _TABLE_AND_GAME.get(table_id)
    seats = seats_of(table)
    _keep_table(table, seats)
    return table, seats


def play(table_id: int, user: User | None, move: str | Mapping[str, object], expected_version: int) -> None:
    """A person's move at the table: from the table as this process keeps it at the version the
    move was made from (``tables.act_on_kept``), else the locked way (``tables.act``). The
    table and seats it leaves are those of the version it made, and the log knows the move:
    this process's sockets render it without a read."""
    kept = _tables.find((table_id, expected_version))
    moved = None if kept is None else tables.act_on_kept(*kept, user, move, expected_version)
    if moved is None:
        moved = tables.act(table_id=table_id, user=user, move=move, expected_version=expected_version)
    remember_move(moved)


class Move(NamedTuple):
    table_id: int
    user: User | None
    move: str | Mapping[str, object]
    expected_version: int


def play_batch(moves: Sequence[Move]) -> list[Exception | None]:
    """``play`` for each of ``moves`` (different sockets'), and what each raised (a refusal's
    ``GameError``) or ``None``.

    Those this process can settle from the tables it keeps are stored in one transaction: one
    commit for them all, where each commit on PostgreSQL waits for the log to reach the disk
    (docs/benchmarks.md, issue 21's ninth round). Each is still its own compare-and-set, so a
    move whose game moved on is not stored, and they are stored in the order of their games'
    rows, so that two batches never each hold a row that the other waits for. The rest go the
    locked way after it, one by one, as do all of them if the transaction failed (then none of
    it was stored)."""
    kept = []
    for n, move in enumerate(moves):
        found = kept_table(move.table_id, move.expected_version)
        if found is not None:
            kept.append((found[0].record_id, n, *found))
    if len(kept) < 2:  # alone, a move is its own statement: no BEGIN and COMMIT around it
        kept = []
    one_by_one = sorted(set(range(len(moves))) - {n for _, n, _, _ in kept})
    if kept:
        try:
            with transaction.atomic():
                for _, n, table, seats in sorted(kept, key=lambda each: each[:2]):
                    move = moves[n]
                    moved = tables.act_on_kept(table, seats, move.user, move.move, move.expected_version)
                    if moved is None:
                        one_by_one.append(n)
                    else:
                        transaction.on_commit(partial(remember_move, moved))
        except Exception as exc:
            logger.warning("%d moves played one by one, their batch failed: %r", len(kept), exc)
            one_by_one = list(range(len(moves)))
    outcomes: list[Exception | None] = [None] * len(moves)
    for n in sorted(one_by_one):
        try:
            play(*moves[n])
        except Exception as exc:  # the asker's to handle: a refusal is shown, anything else raised
            outcomes[n] = exc
    return outcomes


def kept_table(table_id: int, version: int) -> tuple[Table, list[Seat]] | None:
    """The started table and its seats at ``version``, if this process keeps them."""
    found = _tables.find((table_id, version))
    return None if found is None or found[0].record_id is None else found


def remember_move(moved: tables.TableMove) -> None:
    """A move this process stored: its sockets draw the version it made without a read."""
    _keep_table(moved.table, moved.seats)
    action_rows.remember(moved.action, moved.record.undo_count)


def remember_carried(table_id: int, version: int, game: object) -> None:
    """The table at ``version`` from the one kept at the version before and what the move's
    announcement carried of its game (``carried_games``): its sockets here then render it
    without a read. Nothing if either is missing, or they do not follow on."""
    if _tables.find((table_id, version)) is not None:
        return
    kept = _tables.find((table_id, version - 1))
    if kept is None or game is None:
        return
    table, seats = kept
    record = table.record
    if record is None:
        return
    after = carried_games.advanced(record, game)
    if after is None or after.version != version:
        return
    moved = copy.copy(table)
    moved.record = after
    _keep_table(moved, seats)


def _keep_table(table: Table, seats: list[Seat]) -> None:
    if table.record is None:
        return
    _tables.keep((table.pk, table.record.version), (table, seats))


def render_table(
    table_id: int, user: User | None, error: str = "", version: int | None = None
) -> tuple[str, int | None]:
    """The table's live part as HTML for one person, and the game version it shows. ``version``
    is the one a move announced: the sockets told of it share one read of the table."""
    table, seats = _table_and_seats(table_id, None if error else version)
    record = table.record
    if record is None or error:
        return _render(table, user, error, seats)
    key = (record.pk, record.version, my_seat(seats, user))
    frame = _frames.find(key)
    if frame is None:
        frame, _ = _render(table, user, "", seats)
        _frames.keep(key, frame)
    return frame, record.version


def add_public_part(group: str, message: dict[str, Any]) -> None:
    """A move's announcement, made by this process, carries the public part of the version it
    made (``public_part``): the other processes at the table draw their sockets' frames
    without working it out again. Called on the event loop before the announcement is sent
    (``config.group_sends.call_then_send``); this process draws its own sockets' frames next,
    from the part worked out here."""
    table_id, version = message.get("table"), message.get("version")
    if message.get("type") == "table.changed" and message.get("row") and table_id and version is not None:
        message["public"] = public_part(table_id, version)


def public_part(table_id: int, version: int) -> dict[str, Any] | None:
    """The public part of the table at ``version`` as an announcement carries it
    (``table_presenter.public_part_to_carry``), from what this process keeps, on the event
    loop; ``None`` when it keeps too little, or the part would need a read."""
    table, seats = _tables.find((table_id, version)) or (None, [])
    record = None if table is None else table.record
    state = None if record is None else kept_state(record)
    if table is None or record is None or state is None:
        return None
    try:
        return table_presenter.public_part_to_carry(table, seats, record, state)
    except SynchronousOnlyOperation:
        return None


def viewer_key(user: User | None) -> int | None:
    return None if user is None else user.pk


def render_for_viewers(
    table_id: int, viewers: Iterable[User | None], version: int
) -> dict[int | None, tuple[str, int | None]]:
    """``render_table`` at an announced version for each of ``viewers`` (by ``viewer_key``):
    the frames every socket of this process at the table needs, in one call."""
    return {viewer_key(user): render_table(table_id, user, "", version) for user in viewers}


def lobby_tables() -> dict[str, list[Table]]:
    seats = Prefetch("seats", queryset=Seat.objects.select_related("user"))
    recent = Table.objects.prefetch_related(seats).order_by("-created_at")
    live = recent.filter(status=Table.Status.PLAYING).select_related("tournament_game__match__tournament")
    return {
        "open_tables": list(recent.filter(status=Table.Status.OPEN)[:50]),
        "live_tables": list(live[:50]),
    }


def render_lobby() -> str:
    return render_to_string("games/partials/lobby_tables.html", lobby_tables())
