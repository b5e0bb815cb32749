"""Every move of every game goes through here: a socket's, a solitaire page's, a bot's, a turn
clock's, a tie replay's, a closing event's resignation. docs/architecture.md ("One move
path") lists the hops.

1. **Decide** (``decide``, pure): the engine applies the move to the state of the version the
   move was made from (the snapshot, ``games.snapshots``), and the game's row is worked out
   as the move leaves it. A refusal raises ``GameError`` and nothing is written.
2. **Store** (``_store``, one transaction, Django's ORM, the same on SQLite and PostgreSQL):
   the game's row is updated only if it is still at that version (a compare-and-set: an
   ``UPDATE ... WHERE version = v``, which on PostgreSQL also waits for a concurrent move's
   lock and then finds the row moved on), the action is inserted, and a game that ends
   writes its result, ratings and table status. A game that moved on raises
   ``StaleVersion``; ``(game, seq)`` is unique, so no move is ever stored twice.
3. **Announce** (``_committed``, after commit): the new snapshot is kept, ``TableChanged``
   (the version, no card) is sent or handed back to the caller, and the turn clock's task
   goes out if the move needs one.
"""

from __future__ import annotations

import copy
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

from django.db import router, transaction
from django.db.models import F

from accounts.models import User
from games import announcements, finishes, moves, snapshots, turn_clocks
from games.announcements import TableChanged
from games.engine import get_engine
from games.errors import GameError, StaleVersion
from games.models import Action, GameRecord, Table
from games.snapshots import Snapshot

logger = logging.getLogger(__name__)

Move = str | Mapping[str, object]
"""A move's text, or the fields of the page's form (which the engine reads)."""
Outbox = list[TableChanged]
"""Where a move's announcement goes once committed, for its caller to send
(``announcements.send_async``); without one, it is sent at once."""

TABLE_STALE = "The table moved on before your move arrived: it is shown as it stands now."
GAME_STALE = "This game changed in another tab or window: the board is now shown as it stands. Try again."


@dataclass(frozen=True)
class Decided:
    """A move checked and applied to a snapshot, not yet stored."""

    before: Snapshot
    record: GameRecord
    """The game's row as the move leaves it (a copy: the snapshot's stays as it was)."""
    state: Any
    seat: int
    text: str
    timed_out: bool
    armed: bool
    """Whether the next turn needs a clock task of its own (``turn_clocks.arm``)."""

    @property
    def table(self) -> Table | None:
        return self.before.table

    @property
    def finished(self) -> bool:
        return self.record.is_over and not self.before.record.is_over


class _MovedOn(Exception):
    """The game's row was not as the snapshot had it: the compare-and-set wrote nothing."""


def decide(before: Snapshot, seat: int, move: Move, *, timed_out: bool = False) -> Decided:
    record = before.record
    engine = get_engine(record.game)
    action, state = moves.checked(engine, before.state, seat, move)
    after = copy.copy(record)
    moves.counted(after)
    moves.finish_if_over(after, engine, state)
    armed = False
    if before.table is not None:
        turn_clocks.set_deadline(after, before.table, before.seats, engine.current_player(state))
        armed = turn_clocks.arm(after)
    return Decided(before, after, state, seat, str(action), timed_out, armed)


def _store(decided: Decided, outbox: Outbox | None) -> None:
    """In the caller's transaction; raises ``_MovedOn`` if the game is no longer at the
    snapshot's version (or its clock task changed since)."""
    before, after = decided.before.record, decided.record
    changed = {
        field.attname: getattr(after, field.attname)
        for field in GameRecord._meta.concrete_fields
        if not field.primary_key and getattr(after, field.attname) != getattr(before, field.attname)
    }
    unmoved = GameRecord.objects.filter(
        pk=before.pk, version=before.version, clock_task_at=before.clock_task_at
    )
    if not unmoved.update(**changed):
        raise _MovedOn
    Action.objects.create(
        game_id=before.pk,
        seq=before.action_count,
        seat=decided.seat,
        text=decided.text,
        timed_out=decided.timed_out,
    )
    if after.is_over != before.is_over:
        finishes.sync(after)
    if decided.finished and decided.table is not None:
        _table_finished(decided)
    transaction.on_commit(partial(_committed, decided, outbox), using=router.db_for_write(GameRecord))


def _table_finished(decided: Decided) -> None:
    from accounts import notices, ratings

    table, record = decided.table, decided.record
    assert table is not None
    Table.objects.filter(pk=table.pk).update(
        status=Table.Status.FINISHED, lobby_version=F("lobby_version") + 1
    )
    notices.settle(about=notices.about_table(table.pk))  # "go to your table": done
    seats = decided.before.seats
    people = [seat.user for seat in seats if seat.user is not None and not seat.is_bot]
    # RT-2: a rated table whose every seat is a person rates its game, in this transaction (RT-4).
    if table.rated and len(people) == len(seats) and record.outcome is not None:
        places = get_engine(record.game).places(record.outcome)
        ratings.rate_game(record.pk, record.game, people, places)
    if record.kind == GameRecord.Kind.TOURNAMENT:
        transaction.on_commit(partial(_report_match, record.pk))


def _report_match(game_id: int) -> None:
    """Tell the tournaments app that a match ended. By task name, so that games never imports
    tournaments; its sweeper records any result whose message is lost."""
    from config.celery import app

    app.send_task("tournaments.tasks.record_match", args=(game_id,))


def _committed(decided: Decided, outbox: Outbox | None) -> None:
    record, table = decided.record, decided.table
    try:
        snapshots.keep(_snapshot_after(decided))
    except Exception:  # a snapshot is a convenience: the next reader builds it from the rows
        logger.exception("the snapshot of game %s at version %s was not kept", record.pk, record.version)
    if table is not None:
        event = TableChanged(table.pk, record.pk, record.version, lobby=decided.finished)
        if outbox is None:
            announcements.send([event])
        else:
            outbox.append(event)
    if decided.armed:
        turn_clocks.schedule(record.pk, record.version, record.turn_deadline)


def _snapshot_after(decided: Decided) -> Snapshot:
    table = decided.table
    if table is None:
        return Snapshot(decided.record, decided.state)
    moved = copy.copy(table)
    moved.record = decided.record
    if decided.finished:
        moved.status = Table.Status.FINISHED
    row = (decided.text, decided.timed_out)
    return snapshots.following(decided.before, moved, decided.record, [row], [decided.state])


def _store_decided(decided: Decided, outbox: Outbox | None) -> None:
    with transaction.atomic(using=router.db_for_write(GameRecord)):
        _store(decided, outbox)


# Tables


def seat_of(snapshot: Snapshot, user: User | None) -> int | None:
    if user is None or not user.is_authenticated:
        return None
    return next((seat.number for seat in snapshot.seats if seat.user_id == user.pk), None)


def table_now(table_id: int) -> Snapshot:
    """The started table as it stands (read from the database, its snapshot built or found)."""
    try:
        table = snapshots.read_table(table_id)
    except Table.DoesNotExist:
        raise GameError("There is no such table.") from None
    if table.record is None:
        raise GameError("This table has not started yet.")
    return snapshots.of_table(table)


def play_at_table(
    *,
    table_id: int,
    user: User | None,
    move: Move,
    expected_version: int | None,
    game_id: int | None = None,
    outbox: Outbox | None = None,
) -> Decided:
    """A person's move from their seat, made from ``expected_version`` (``None``: as the table
    stands). ``game_id``, if the caller knows it, finds the snapshot without a read."""
    if not isinstance(move, Mapping):
        moves.check_text(move, "'check' or 'take 0,3'")
    kept = None if game_id is None or expected_version is None else snapshots.find(game_id, expected_version)
    before = kept if kept is not None and kept.table is not None and kept.table.pk == table_id else None
    for _ in range(2):
        if before is None:
            before = table_now(table_id)
        if expected_version is not None and before.version != expected_version:
            raise StaleVersion(TABLE_STALE)
        seat = seat_of(before, user)
        if seat is None:
            raise GameError("You are watching this table: only its players can move.")
        decided = decide(before, seat, move)
        try:
            _store_decided(decided, outbox)
            return decided
        except _MovedOn:
            # The row moved on since the snapshot (another process's move), or only its clock
            # task changed (a clock that ran and sent the next): read it once again.
            before = None
    raise StaleVersion(TABLE_STALE)


def play_due(before: Snapshot, seat: int, text: str, *, timed_out: bool = False) -> Decided | None:
    """The move due at ``before``'s version for ``seat`` (a bot's, a timed-out seat's, the
    table's tie replay), from a Celery task; ``None`` if the game moved on meanwhile."""
    decided = decide(before, seat, text, timed_out=timed_out)
    try:
        _store_decided(decided, None)
    except _MovedOn:
        return None
    return decided


# Games alone


def play_game(
    record: GameRecord, move: Move, *, expected_version: int | None, unrank: bool = False
) -> Decided:
    """A solitaire move (seat 0) on ``record`` as the caller read and checked it (its owner,
    its day, its event's window): ``StaleVersion`` if the game is no longer at that version,
    or at ``expected_version``. ``unrank``: the move no longer counts on its day's board."""
    if expected_version is not None and expected_version != record.version:
        raise StaleVersion(GAME_STALE)
    before = Snapshot(record, snapshots.state_of(record))
    decided = decide(before, 0, move)
    if unrank:
        decided.record.ranked = False
    try:
        _store_decided(decided, None)
    except _MovedOn:
        raise StaleVersion(GAME_STALE) from None
    return decided
