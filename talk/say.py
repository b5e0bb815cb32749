"""The one way a chat message is written (LP-10), from a table's socket or form, or a
tournament page's form.

Refused with a ``ChatError`` saying why, and nothing stored: a visitor, text that is empty or
longer than ``text.MAX_LENGTH`` after ``text.clean``, an unknown preset, a person past the
rate limit (``RATE`` messages in ``WINDOW``, counted in the database so that every server
process and the forms share it), a muted person (``talk.mutes``), a table whose chat is off,
and a room the person may not write in (``talk.rooms``).

A message with a word of the staff's list (``BannedWord``) is kept with ``hidden=True``: only
its author sees it, and the hidden flag is what flags it for staff (the admin lists hidden
messages; nothing else hides one but staff themselves).
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from django.contrib.sessions.backends.base import SessionBase
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games.models import Table
from talk import mutes, rooms, text
from talk.models import BannedWord, Message
from talk.presets import PRESETS

RATE = 5
WINDOW = dt.timedelta(seconds=10)


class ChatError(ValueError):
    """A message refused; its text says why, in words for the person."""


def too_fast() -> str:
    return _("Slow down: at most %(count)d messages every %(seconds)d seconds. Nothing was sent.") % {
        "count": RATE,
        "seconds": WINDOW.seconds,
    }


def _words(user: Any, said: Any, preset: Any) -> tuple[str, str]:
    """The cleaned text and the preset key, or why they are refused."""
    if user is None or not user.is_authenticated:
        raise ChatError(_("Sign in to chat."))
    if not isinstance(said, str) or not isinstance(preset, str):
        raise ChatError(_("That message could not be read: nothing was sent."))
    if preset:
        if preset not in PRESETS:
            raise ChatError(_("There is no such phrase."))
        return "", preset
    cleaned = text.clean(said)
    if not cleaned:
        raise ChatError(_("Write something first."))
    if len(cleaned) > text.MAX_LENGTH:
        raise ChatError(
            _("A message is at most %(most)d characters; this one has %(count)d.")
            % {"most": text.MAX_LENGTH, "count": len(cleaned)}
        )
    return cleaned, ""


def _listed(said: str) -> bool:
    """Whether ``said`` holds a word of the staff's list, as a word of its own (any case): "ass"
    is not found in "class"."""
    words = list(BannedWord.objects.values_list("word", flat=True))
    return any(re.search(rf"(?<!\w){re.escape(word)}(?!\w)", said, re.IGNORECASE) for word in words if word)


def _store(user: User, said: str, preset: str, **where: Any) -> Message:
    until = mutes.muted_until(user)
    if until is not None:
        raise ChatError(
            _("You are muted from chat until %(until)s (UTC).")
            % {"until": f"{until.astimezone(dt.UTC):%Y-%m-%d %H:%M}"}
        )
    hidden = bool(said) and _listed(said)
    with transaction.atomic():
        # One person's messages one at a time, whichever process or form sends them: the
        # count below is then exact.
        User.objects.select_for_update().filter(pk=user.pk).values_list("pk", flat=True).first()
        now = timezone.now()
        if Message.objects.filter(user=user, created_at__gt=now - WINDOW).count() >= RATE:
            raise ChatError(too_fast())
        return Message.objects.create(
            user=user, text=said, preset=preset, hidden=hidden, created_at=now, **where
        )


def at_table(
    *,
    table_id: int,
    user: User | None,
    session: SessionBase | None,
    room: Any = None,
    said: Any = "",
    preset: Any = "",
) -> Message:
    """``user``'s message in the table's room (``None``: the room they write in)."""
    cleaned, key = _words(user, said, preset)
    assert user is not None
    table = Table.objects.filter(pk=table_id).first()
    standing = None if table is None else rooms.table_standing(table, user, session)
    if table is None or standing is None:
        raise ChatError(_("There is no such table."))
    if user.hide_chat:
        raise ChatError(_("You have hidden chat: show it again to write."))
    if not table.chat_enabled:
        raise ChatError(_("Chat is off at this table."))
    room = standing.writes if room in (None, "") else room
    if room not in rooms.TABLE_ROOMS:
        raise ChatError(_("There is no such chat room."))
    if room != standing.writes:
        if room == rooms.PLAYERS:
            raise ChatError(_("Only the players write in the players' chat: yours is the spectators' chat."))
        raise ChatError(_("You are playing: you write in the players' chat only."))
    return _store(user, cleaned, key, room=room, table_id=table_id)


def in_tournament(*, tournament_id: int, user: User | None, said: Any = "", preset: Any = "") -> Message:
    """An entrant's message in the tournament's chat."""
    cleaned, key = _words(user, said, preset)
    assert user is not None
    if user.hide_chat:
        raise ChatError(_("You have hidden chat: show it again to write."))
    if not rooms.is_entrant(tournament_id, user):
        raise ChatError(_("Only the tournament's entrants write in its chat."))
    return _store(user, cleaned, key, room=rooms.TOURNAMENT, tournament_id=tournament_id)
