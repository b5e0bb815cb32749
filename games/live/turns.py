"""LP-8: the person each turn-based game waits for (``games.models.Turn``), written in the
transaction that hands them the turn: the deal's, or the move's (``games.core.move_path``).

The rows answer "whose turn" for a person's pages (how many games wait for them, which) and
say when a turn-based game reached someone. A live table writes none. Once the change
commits, the person the turn reached gets a notice and the people seated hear their counts
(``accounts.turn_notices``): nothing of that is written in the move's transaction.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from django.db import transaction
from django.utils import timezone

from games.live import turn_clocks
from games.models import GameRecord, Seat, Table, Turn


def sync(
    table: Table, seats: Sequence[Seat], record: GameRecord, seat: int | None, *, new_turn: bool
) -> None:
    """After the deal or a move, in its transaction: ``seat`` is the one to act now, and
    ``new_turn`` whether the turn passed to it (not the same seat going on)."""
    from accounts import turn_notices  # accounts' modules import the games app's

    if not turn_clocks.is_turn_based(table.clock_seconds):
        return
    user_id = next((s.user_id for s in seats if s.number == seat and not s.is_bot), None)
    people = [s.user_id for s in seats if s.user_id is not None and not s.is_bot]
    waiting = Turn.objects.filter(game_id=record.pk)
    if record.is_over or seat is None or user_id is None or record.turn_deadline is None:
        if waiting.delete()[0]:
            transaction.on_commit(partial(turn_notices.counts_changed, people), robust=True)
        return
    if not new_turn and waiting.filter(user_id=user_id).update(deadline=record.turn_deadline):
        return
    waiting.delete()
    turn = Turn.objects.create(
        game_id=record.pk,
        table=table,
        user_id=user_id,
        seat=seat,
        since=timezone.now(),
        deadline=record.turn_deadline,
    )
    reached = partial(
        turn_notices.turn_reached,
        table_id=table.pk,
        game_id=record.pk,
        user_id=user_id,
        since=turn.since,
        people=people,
    )
    transaction.on_commit(reached, robust=True)
