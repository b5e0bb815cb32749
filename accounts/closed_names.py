"""The usernames of closed accounts, for the pages that are handed a name as text.

Most places show a player by their name alone (a seat, a bracket line, a board's row), and
``accounts.templatetags.player_names.player_name`` draws them all: it asks here whether a name
is a closed account's, and then shows "a closed account" instead.

Each process keeps the names (few: accounts are closed rarely), and looks at most once a
``CHECK_EVERY_S`` at a token in the shared cache that every closing replaces: a new token and
the names are read again from the database. Asking is then a set lookup, cheap enough for a
live table that draws its seats' names in every frame. A closed username is never taken again
(``accounts.forms.SignupForm``), so a name once in the set stays right.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
import uuid
from typing import TYPE_CHECKING

from django.core.cache import cache
from django.utils.translation import gettext

if TYPE_CHECKING:
    from accounts.models import User

log = logging.getLogger(__name__)

TOKEN_KEY = "closed-accounts:token"
CHECK_EVERY_S = 1.0
"""How stale another process's names may be after an account closes."""

_lock = threading.Lock()
_names: frozenset[str] = frozenset()
_token: str | None = None
_checked_at = float("-inf")


def shown() -> str:
    """What pages say in place of a closed account's name."""
    return gettext("a closed account")


def username(user: User | None) -> str | None:
    """A person's username as files and the API give it: none for nobody, nor for a closed
    account (its name is retired; its row says "a closed account")."""
    if user is None or user.closed_at is not None:
        return None
    return user.username


def is_closed(name: str) -> bool:
    """Whether ``name`` (in any case: usernames are one per spelling) is a closed account's."""
    return name.lower() in names()


def names() -> frozenset[str]:
    global _names, _token, _checked_at
    now = time.monotonic()
    if now - _checked_at < CHECK_EVERY_S or _in_event_loop():
        return _names
    with _lock:
        if now - _checked_at < CHECK_EVERY_S:
            return _names
        try:
            # A cache emptied (a restart of Redis) has lost no closing: this process's names
            # still hold, and its token stands again for them.
            cache.add(TOKEN_KEY, _token or uuid.uuid4().hex, timeout=None)
            token = cache.get(TOKEN_KEY)
        except Exception:
            # The cache down: a page still shows, with the names as last read.
            log.exception("could not read the closed accounts' token")
            return _names
        if token != _token or token is None:
            _names = _read()
            _token = token
        _checked_at = now
        return _names


def _in_event_loop() -> bool:
    """A socket's frame drawn on the event loop (``games.live.table_frames.frame`` reads
    nothing) must not wait on the cache or the database: it uses the names as they are, which
    the process's next page or database-reading frame brings up to date."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def _read() -> frozenset[str]:
    from accounts.models import User

    closed = User.objects.filter(closed_at__isnull=False).values_list("username", flat=True)
    return frozenset(name.lower() for name in closed)


def forget() -> None:
    """An account was closed (called once its transaction committed): this process reads the
    names again at once, and every other one at its next look at the token."""
    global _names, _token, _checked_at
    token = uuid.uuid4().hex
    with _lock:
        _names = _read()
        _token = token
        _checked_at = time.monotonic()
    try:
        cache.set(TOKEN_KEY, token, timeout=None)
    except Exception:
        log.exception("could not tell the other processes of a closed account")
