"""A table's turn clock (LP-1, LP-8): each turn's deadline, and the task that acts when it passes.

The deadline lives in the game's row (``turn_deadline``), so a restart keeps it. A Celery task
(``games.tasks.advance_table``) is sent for a deadline, but not at every move: while the task
sent for an earlier turn runs after now and no later than this turn's deadline
(``clock_task_at``), that task, finding the game moved on, sends the one for the turn then
current (``rearm``). People moving faster than their clocks cost one task per clock's
length. A task that is lost is made good by the sweeper once its deadline is overdue.

A turn-based clock (hours to days, LP-8) sends no task for a person's turn: no task waits in
Redis for days. The sweeper (``games.tasks.sweep_overdue_turns``) acts once the deadline in the
row is overdue.
"""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy

from games.engine import TABLE_SEAT
from games.models import GameRecord, Seat, Table

LIVE_CLOCKS = (10, 600)
"""A live clock's bounds, in seconds a turn (LP-1)."""
TURN_BASED_CLOCKS = (3600, 12 * 3600, 86400, 2 * 86400, 3 * 86400, 7 * 86400)
"""The turn-based speeds offered (LP-8), in seconds a move: Board Game Arena's and lichess's
correspondence choices, from an hour to a week."""
TASK_HORIZON = dt.timedelta(seconds=LIVE_CLOCKS[1])
"""A deadline further off than this gets no Celery task: the sweeper acts on it."""


CLOCK_REFUSED = gettext_lazy("Choose a turn clock of 10 seconds to 10 minutes, or a turn-based speed.")


def valid_clock(seconds: int) -> bool:
    low, high = LIVE_CLOCKS
    return low <= seconds <= high or seconds in TURN_BASED_CLOCKS


def is_turn_based(seconds: int) -> bool:
    return seconds >= TURN_BASED_CLOCKS[0]


def delay(table: Table, seats: list[Seat], seat: int | None) -> float | None:
    """How long the seat to act has, in seconds; ``None`` when the game is over."""
    if seat is None:
        return None
    if seat == TABLE_SEAT:
        return float(settings.TABLE_TIE_REPLAY_DELAY_S)
    if is_bot(seats, seat):
        return float(settings.TABLE_BOT_DELAY_S)
    return float(table.clock_seconds)


def is_bot(seats: list[Seat], seat: int) -> bool:
    return any(s.number == seat and s.is_bot for s in seats)


def is_person(seats: list[Seat], seat: int | None) -> bool:
    if seat is None or seat == TABLE_SEAT:
        return False
    return not is_bot(seats, seat)


def set_deadline(record: GameRecord, table: Table, seats: list[Seat], seat: int | None) -> None:
    wait = delay(table, seats, seat)
    record.turn_deadline = None if wait is None else timezone.now() + dt.timedelta(seconds=wait)


def arm(record: GameRecord) -> bool:
    """Whether the turn just set needs a task of its own; if so, ``clock_task_at`` is set and
    the caller sends it (``schedule``) once its change commits."""
    deadline, pending = record.turn_deadline, record.clock_task_at
    if deadline is None or deadline - timezone.now() > TASK_HORIZON:
        return False
    if pending is not None and timezone.now() < pending <= deadline:
        return False
    record.clock_task_at = deadline
    return True


def schedule(game_id: int, version: int, deadline: dt.datetime | None) -> None:
    if deadline is None:
        return
    from games.tasks import advance_table

    advance_table.apply_async((game_id, version), eta=deadline)


def rearm(record: GameRecord) -> None:
    """A task of an earlier turn ran: send the current turn's, unless one is pending. Only if
    the row is still as read (a move in between arms its own)."""
    before = record.clock_task_at
    if not arm(record):
        return
    moved = GameRecord.objects.filter(pk=record.pk, version=record.version, clock_task_at=before)
    if moved.update(clock_task_at=record.clock_task_at):
        transaction.on_commit(lambda: schedule(record.pk, record.version, record.turn_deadline))
