"""Turn-based games set up through the table services, waiting for a chosen person (LP-8)."""

from __future__ import annotations

from accounts.models import User
from games.core import move_path
from games.engine import get_engine
from games.live import tables
from games.models import Table, Turn

DAY = 86400
PREFERRED = ("check", "call")
"""Moves that keep a Triad hand going (a fold would end it)."""


def person(name: str, email: str | None = None) -> User:
    return User.objects.create_user(
        name, f"{name}@example.com" if email is None else email, "pw-long-enough-1"
    )


def play_one(table: Table, user: User) -> None:
    """``user`` (who must be the one to act) makes a move that keeps the hand going."""
    now = move_path.table_now(table.pk)
    legal = [str(action) for action in get_engine(table.game).legal_actions(now.state)]
    move = next((m for m in PREFERRED if m in legal), legal[0])
    move_path.play_at_table(table_id=table.pk, user=user, move=move, expected_version=now.record.version)


def game_waiting_for(me: User, other: User, *, clock: int = DAY, private: bool = False) -> Table:
    """A two-seat Triad table of ``other``'s, ``me`` seated, dealt and played until ``me`` is to act."""
    table = tables.create_table(
        game="triad", creator=other, config={"players": 2}, clock_seconds=clock, private=private
    )
    tables.sit(table_id=table.pk, user=me)
    tables.start(table_id=table.pk, user=other)
    table.refresh_from_db()
    while Turn.objects.get(game_id=table.record_id).user_id != me.pk:
        play_one(table, other)
    return table
