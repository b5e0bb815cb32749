"""LP-8: the person each turn-based game waits for (``games.models.Turn``), written in the
transaction that hands them the turn: the deal's, or the move's (``games.core.move_path``).

The rows answer "whose turn" for a person's pages (how many games wait for them, which) and
say when a turn-based game reached someone. A live table writes none.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils import timezone

from games.live import turn_clocks
from games.models import GameRecord, Seat, Table, Turn


def sync(
    table: Table, seats: Sequence[Seat], record: GameRecord, seat: int | None, *, new_turn: bool
) -> None:
    """After the deal or a move, in its transaction: ``seat`` is the one to act now, and
    ``new_turn`` whether the turn passed to it (not the same seat going on)."""
    if not turn_clocks.is_turn_based(table.clock_seconds):
        return
    user_id = next((s.user_id for s in seats if s.number == seat and not s.is_bot), None)
    waiting = Turn.objects.filter(game_id=record.pk)
    if record.is_over or seat is None or user_id is None or record.turn_deadline is None:
        waiting.delete()
        return
    if not new_turn and waiting.filter(user_id=user_id).update(deadline=record.turn_deadline):
        return
    waiting.delete()
    Turn.objects.create(
        game_id=record.pk,
        table=table,
        user_id=user_id,
        seat=seat,
        since=timezone.now(),
        deadline=record.turn_deadline,
    )
