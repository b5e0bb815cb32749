"""Who may enter a private table (LP-9): its page, its socket, its seats and its replay.

A private table is listed nowhere; it is reached by its link, ``/tables/join/<key>/``. The
link is a path of its own rather than the table's page with ``?key=``: the join view puts
the table in the visitor's session and sends them on to the table's plain address, so the
key leaves the address bar at once and is never in a reload, a bookmark, a Referer the page
sends or the address a socket or an htmx request asks for.

``may_enter`` is the one check; an invitation widens it for its invitee (``invitations``), and
a block narrows it: a person the table's creator blocked does not enter it (LP-9) however they
came, unless they already sit there (a block unseats nobody).
"""

from __future__ import annotations

import secrets

from django.contrib.sessions.backends.base import SessionBase

from accounts.blocks import is_blocked
from accounts.models import User
from games.models import Seat, Table

SESSION_KEY = "private_tables"
"""The session's list of the private tables it reached by their link (ids, never keys)."""
REMEMBERED = 200
"""The most tables a session remembers: the oldest are forgotten first."""
KEY_BYTES = 24
"""A key's randomness: 192 bits, 32 characters of ``token_urlsafe``."""


def new_key() -> str:
    return secrets.token_urlsafe(KEY_BYTES)


def table_by_key(key: str) -> Table | None:
    """The private table whose link carries ``key``; ``None`` for a key no table has."""
    if not key or len(key) > Table._meta.get_field("private_key").max_length:  # type: ignore[operator]
        return None
    return Table.objects.filter(private_key=key).first()


def remember(session: SessionBase, table: Table) -> None:
    """The session came through the table's link: it may come back without it."""
    held = [pk for pk in session.get(SESSION_KEY, []) if pk != table.pk]
    session[SESSION_KEY] = [*held, table.pk][-REMEMBERED:]


def may_enter(table: Table, user: User | None, session: SessionBase | None) -> bool:
    """Whether ``user`` (with this ``session``) may see, watch, sit at or replay ``table``: any
    public table; a private one if they opened it, sit there, sat at the table it is the
    rematch of (they were asked to it), were invited to it (an invitation waiting or
    accepted), or their session came through its link."""
    from games.live import invitations  # it seats people through ``tables``, which imports this

    if not table.is_private:
        return True
    if user is not None and user.is_authenticated and _kept_out(table, user):
        return False
    if session is not None and table.pk in session.get(SESSION_KEY, []):
        return True
    if user is not None and user.is_authenticated:
        if table.created_by_id == user.pk:
            return True
        tables = [table.pk] if table.rematch_of_id is None else [table.pk, table.rematch_of_id]
        if Seat.objects.filter(table_id__in=tables, user=user).exists():
            return True
        return invitations.lets_in(table, user)
    return False


def _kept_out(table: Table, user: User) -> bool:
    """The table's creator blocked ``user``, who does not sit at it."""
    if table.created_by_id is None or table.created_by_id == user.pk:
        return False
    return is_blocked(by=table.created_by_id, whom=user) and not table.seats.filter(user=user).exists()


def may_enter_id(table_id: int, user: User | None, session: SessionBase | None) -> bool:
    """``may_enter`` for a table known by its id: ``False`` if there is no such table."""
    table = Table.objects.filter(pk=table_id).first()
    return table is not None and may_enter(table, user, session)
