"""Notices to one person: stored, then pushed to their open pages (``accounts.consumers``).

Check, store, then tell on commit (Zulip's habit): a notice made inside a transaction that
rolls back never reaches a page, and a page that hears of one can read it back.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, Literal

from channels.layers import get_channel_layer
from django.db import IntegrityError, transaction
from django.db.models import Count, Window
from django.utils import timezone, translation

from accounts import languages, notice_texts
from accounts.models import Notice, User
from games.core.announcements import send_to_group

logger = logging.getLogger(__name__)

SHOWN = 10
"""Unread notices a page lists (the count in the header counts them all)."""


def group_name(user_id: int) -> str:
    """The channel-layer group of a person's notice sockets."""
    return f"notices.user.{user_id}"


def as_json(notice: Notice) -> dict[str, Any]:
    """The notice for a page's script, worded in the active language (the reader's)."""
    return {
        "id": notice.pk,
        "kind": notice.kind,
        "text": notice.words,
        "url": notice.url,
        "created_at": notice.created_at.isoformat(),
    }


def about_table(table_id: int) -> str:
    """The matter of a table's game: its notices are read once the person opens the table, and
    everyone's once the game is over."""
    return f"table:{table_id}"


def about_tournament(tournament_id: int) -> str:
    """The matter of a tournament's latest stage: its notices (starts soon, a round's pairings, a
    bye, the event open) are read as the next stage begins, and at its end."""
    return f"tournament:{tournament_id}"


def notify(
    *,
    user: User,
    kind: str,
    url: str,
    key: str,
    about: str = "",
    params: dict[str, Any] | None = None,
    text: str = "",
) -> Notice | None:
    """Stores the notice unless ``user`` already has one with ``key``; once stored and
    committed, their open pages show it. Returns the new notice, or ``None`` if it existed.
    A notice ``about`` a matter is read by ``settle`` once that matter is done.

    The site's notices give ``params``, worded for each reader when read
    (``accounts.notice_texts``); a ``text`` alone is shown as it is, in every language."""
    if url and not url.startswith("/"):
        raise ValueError("a notice links to a path on this site")
    if params is not None:
        text = notice_texts.stored(kind, params)
    try:
        with transaction.atomic():
            notice, created = Notice.objects.get_or_create(
                user=user,
                key=key,
                defaults={"kind": kind, "text": text[:200], "params": params, "url": url, "about": about},
            )
    except IntegrityError:
        if User.objects.filter(pk=user.pk).exists():
            raise
        # The person's row went meanwhile (deleted by staff while a clock task ran): nobody to tell.
        logger.info("no notice %s for user %s: the account is gone", key, user.pk)
        return None
    if not created:
        return None
    transaction.on_commit(partial(_push_new, user, notice))
    return notice


def _push_new(user: User, notice: Notice) -> None:
    # Worded for its reader, whoever's request or task made it.
    with translation.override(languages.of(user)):
        event = {"type": "notice.new", "notice": as_json(notice)}
    _push(user.pk, event)


def mark_read(*, user: User, ids: Collection[int] | Literal["all"]) -> int:
    """Marks ``user``'s notices ``ids`` (or all of them) read; returns how many were unread.
    Their other pages hear of it, so every tab shows the same count."""
    unread = Notice.objects.filter(user=user, read_at__isnull=True)
    if ids != "all":
        unread = unread.filter(pk__in=list(ids))
    changed = unread.update(read_at=timezone.now())
    if changed:
        shown: list[int] | Literal["all"] = "all" if ids == "all" else sorted(ids)
        transaction.on_commit(lambda: _push(user.pk, {"type": "notice.read", "ids": shown}))
    return changed


def settle(*, about: str, user: User | None = None, kind: str = "", but_user_id: int | None = None) -> int:
    """The matter ``about`` is done (for ``user`` only, if given; for everyone but ``but_user_id``,
    if given; only its notices of ``kind``, if given): its unread notices are read, and their
    person's open pages hear of it as of any notice read. Returns how many were unread."""
    if not about:
        raise ValueError("settle names a matter: the notices about none are read by their person")
    unread = Notice.objects.filter(about=about, read_at__isnull=True)
    if user is not None:
        unread = unread.filter(user=user)
    if kind:
        unread = unread.filter(kind=kind)
    if but_user_id is not None:
        unread = unread.exclude(user_id=but_user_id)
    found = list(unread.values_list("pk", "user_id"))
    if not found:
        return 0
    Notice.objects.filter(pk__in=[pk for pk, _ in found]).update(read_at=timezone.now())
    by_person: dict[int, list[int]] = {}
    for pk, user_id in found:
        by_person.setdefault(user_id, []).append(pk)
    for user_id, ids in by_person.items():
        transaction.on_commit(partial(_push, user_id, {"type": "notice.read", "ids": sorted(ids)}))
    return len(found)


def unread_count(user: User) -> int:
    return Notice.objects.filter(user=user, read_at__isnull=True).count()


@dataclass(frozen=True)
class Unread:
    """What a page shows of a person's unread notices: the newest ``SHOWN``, and how many in all."""

    notices: Sequence[Notice]
    count: int


def unread(user: User) -> Unread:
    """One query: the newest unread notices, each carrying the count of them all."""
    rows = list(
        Notice.objects.filter(user=user, read_at__isnull=True)
        .annotate(total=Window(Count("pk")))
        .order_by("-created_at", "-pk")[:SHOWN]
    )
    return Unread(rows, rows[0].total if rows else 0)


def _push(user_id: int, event: dict[str, Any]) -> None:
    if get_channel_layer() is None:
        return
    # The count as committed when sent: every tab shows the server's count, not its own tally.
    event["unread"] = Notice.objects.filter(user_id=user_id, read_at__isnull=True).count()
    send_to_group(group_name(user_id), event)
