"""A chat message drawn as one line of HTML, for the page and for the sockets alike.

Everything said is escaped text: a tag, an attribute or a ``javascript:`` link reads as the
characters typed, and no address becomes a link. The name and the words are each inside a
``<bdi>``, so right-to-left text cannot reorder the line around it (``talk.text`` has already
dropped the overrides that could reorder the words themselves).

A line is drawn from a message's ``payload``, the dict that also travels to the room's sockets
through the channel layer (chat text is public to its room; no card ever travels so): each
socket draws it for its own reader (a preset in the reader's language, a hidden message only
for its author, nothing for a blocker).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from accounts.templatetags.player_names import player_name
from talk.models import Message
from talk.presets import phrase


def payload(message: Message, name: str) -> dict[str, Any]:
    """What a room's sockets are sent of a message (``type``: the consumers' handler)."""
    return {
        "type": "chat.message",
        "id": message.pk,
        "room": message.room,
        "user": message.user_id,
        "name": name,
        "text": message.text,
        "preset": message.preset,
        "hidden": message.hidden,
    }


def shown_to(data: Mapping[str, Any], reader_id: int | None, blocked: Collection[int]) -> bool:
    """Whether the reader sees the message: not someone they blocked, not hidden unless it is
    their own, and not emptied (its author closed their account)."""
    if data["user"] in blocked:
        return False
    if data["hidden"] and data["user"] != reader_id:
        return False
    return bool(data["text"] or data["preset"])


def line(data: Mapping[str, Any], reader_id: int | None) -> SafeString:
    """The message as ``reader_id`` sees it: a signed-in reader may report another's words or
    block their author (one small flag a line, leading to both)."""
    words = phrase(data["preset"]) if data["preset"] else data["text"]
    note = (
        format_html(' <span class="chat-hidden">({})</span>', _("hidden: only you see it"))
        if data["hidden"]
        else ""
    )
    report = (
        format_html(
            ' <a class="chat-report" href="{}" title="{}" data-testid="chat-report">'
            '<span aria-hidden="true">\u2691</span><span class="visually-hidden">{}</span></a>',
            reverse("report_message", args=[data["id"]]),
            _("Report or block"),
            _("Report or block"),
        )
        if reader_id is not None and reader_id != data["user"]
        else ""
    )
    return format_html(
        '<li class="chat-line{}" data-said="{}" data-testid="chat-line"><bdi class="chat-name">{}</bdi>'
        ' <bdi class="chat-text">{}</bdi>{}{}</li>',
        " is-preset" if data["preset"] else "",
        data["id"],
        player_name(data["name"]),
        words,
        note,
        report,
    )


def appended(data: Mapping[str, Any], reader_id: int | None) -> str:
    """A socket's frame: the line added at the end of its room's log on the page."""
    return format_html(
        '<ol data-hx-swap-oob="beforeend:#chat-log-{}">{}</ol>', data["room"], line(data, reader_id)
    )


def notice(words: str) -> str:
    """A socket's frame: why a message was refused, in the chat's status line."""
    return format_html(
        '<p id="chat-status" class="chat-status is-error" role="status" aria-live="polite"'
        ' data-testid="chat-status">{}</p>',
        words,
    )
