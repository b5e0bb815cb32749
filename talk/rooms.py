"""Who may read and write which room (LP-10, in LP-3's spirit).

At a table, its players read and write the players' chat; its spectators write their own chat
and read both. While the game runs the players never read the spectators' chat: a spectator
sees every card a player may not, and nothing a spectator writes may reach a player before the
game is over. Once it is over, everyone reads both rooms. A visitor reads and writes nothing
they could not see (a private table's chat is for whoever ``table_access.may_enter``); writing
needs an account.

A tournament's chat is read by anyone and written by its entrants.

Each table room is a channel-layer group of its own (``group``): a socket joins the groups
of the rooms its person may read, and a message is sent to its room's group only, so a
spectator's message never travels to a player's socket while the game runs.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.sessions.backends.base import SessionBase

from accounts.models import User
from games.live import table_access
from games.models import Seat, Table
from talk.models import Message

PLAYERS = Message.Room.PLAYERS.value
SPECTATORS = Message.Room.SPECTATORS.value
TOURNAMENT = Message.Room.TOURNAMENT.value
TABLE_ROOMS = (PLAYERS, SPECTATORS)


@dataclass(frozen=True)
class Standing:
    """What one person may do in a table's chat."""

    reads: frozenset[str]
    writes: str | None
    """The room they write in; ``None`` for a visitor (no account)."""
    seated: bool
    over: bool


def standing(*, seated: bool, over: bool, signed_in: bool) -> Standing:
    reads = {PLAYERS} if seated and not over else {PLAYERS, SPECTATORS}
    writes = (PLAYERS if seated else SPECTATORS) if signed_in else None
    return Standing(frozenset(reads), writes, seated, over)


def table_standing(table: Table, user: User | None, session: SessionBase | None) -> Standing | None:
    """``user``'s standing in the table's chat; ``None`` if they may not enter the table at all."""
    if not table_access.may_enter(table, user, session):
        return None
    signed_in = user is not None and user.is_authenticated
    seated = signed_in and Seat.objects.filter(table_id=table.pk, user_id=user.pk).exists()  # type: ignore[union-attr]
    return standing(seated=seated, over=table.status == Table.Status.FINISHED, signed_in=signed_in)


def group(table_id: int, room: str) -> str:
    """The channel-layer group of one room of a table."""
    return f"table-{table_id}-{room}"


def is_entrant(tournament_id: int, user: User | None) -> bool:
    from tournaments.models import Entry

    if user is None or not user.is_authenticated:
        return False
    return Entry.objects.filter(tournament_id=tournament_id, user_id=user.pk).exists()
