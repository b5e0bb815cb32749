"""LP-8's e-mail digest: one e-mail listing the turn-based games that wait for a person, at most
one per ``TURN_DIGEST_EVERY`` however many games wait, and none if they turned it off.

Celery beat runs ``send`` every few minutes. A person is due when they want these e-mails,
have an address, got no digest within ``TURN_DIGEST_EVERY``, and a turn that their last digest
did not list has waited ``TURN_DIGEST_DELAY`` for them (someone playing on the site at that
moment moves before then). Live tables write no ``Turn`` rows, so they are never e-mailed about.

Set-based, a batch of people at a time: their rows locked (``SKIP LOCKED``: a second beat that
overlaps takes the others, never the same person), their waiting games read in two queries,
``turn_email_sent_at`` set in one UPDATE, and the e-mails sent once that commits. A mail
server that fails loses that batch's digests rather than ever sending one twice.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Sequence
from functools import partial

from django.conf import settings
from django.core.mail import EmailMessage, get_connection
from django.db import transaction
from django.db.models import DateTimeField, Exists, ExpressionWrapper, OuterRef, Prefetch, Q, QuerySet, Value
from django.db.models.functions import Coalesce
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation

from accounts import languages
from accounts.models import User
from games.live import clock_words
from games.models import Seat, Turn

log = logging.getLogger(__name__)

BATCH = 500
"""People e-mailed per transaction."""
LISTED = 10
"""Games an e-mail lists by name; the page has them all."""


NEVER = dt.datetime(2000, 1, 1, tzinfo=dt.UTC)
"""Before any turn: the last digest of a person who never had one."""


def due(now: dt.datetime) -> QuerySet[User]:
    every, delay = settings.TURN_DIGEST_EVERY, settings.TURN_DIGEST_DELAY
    # A turn is new if the last digest did not list it: it arrived after that digest's
    # ``now - delay`` (one that arrived just before the digest was not ripe then).
    last_listed = ExpressionWrapper(
        Coalesce(OuterRef("turn_email_sent_at"), Value(NEVER)) - Value(delay), output_field=DateTimeField()
    )
    new_turn = Turn.objects.filter(user=OuterRef("pk"), since__gt=last_listed, since__lte=now - delay)
    return (
        User.objects.filter(turn_emails=True, is_active=True)
        .exclude(email="")
        .filter(Q(turn_email_sent_at__isnull=True) | Q(turn_email_sent_at__lte=now - every))
        .filter(Exists(new_turn))
    )


def send(now: dt.datetime | None = None) -> int:
    """Sends the digests due at ``now``; returns how many people were e-mailed."""
    now = now or timezone.now()
    sent = 0
    while True:
        with transaction.atomic():
            people = list(due(now).order_by("pk").select_for_update(skip_locked=True, of=("self",))[:BATCH])
            if not people:
                break
            messages = _messages(people, now)
            User.objects.filter(pk__in=[p.pk for p in people]).update(turn_email_sent_at=now)
            transaction.on_commit(partial(_send, messages))
        sent += len(people)
        if len(people) < BATCH:
            break
    return sent


def _messages(people: Sequence[User], now: dt.datetime) -> list[EmailMessage]:
    seats = Seat.objects.select_related("user").only(
        "table_id", "number", "is_bot", "bot_name", "user_id", "user__username"
    )
    turns = (
        Turn.objects.filter(user__in=people)
        .order_by("user_id", "since", "game_id")
        .select_related("table")
        .only("game_id", "user_id", "seat", "since", "deadline", "table__game", "table__clock_seconds")
        .prefetch_related(Prefetch("table__seats", queryset=seats))
    )
    by_person: dict[int, list[Turn]] = {}
    for turn in turns:
        by_person.setdefault(turn.user_id, []).append(turn)
    return [_message(person, by_person.get(person.pk, []), now) for person in people]


def _message(person: User, turns: list[Turn], now: dt.datetime) -> EmailMessage:
    # In the person's language, whatever language the beat's process has active.
    with translation.override(languages.of(person)):
        games = [
            {
                "game": turn.table.get_game_display(),
                "others": ", ".join(s.name for s in turn.table.seats.all() if s.number != turn.seat),
                "left": clock_words.time_left(turn.deadline, now=now),
                "url": _address(turn.table.get_absolute_url()),
            }
            for turn in turns[:LISTED]
        ]
        context = {
            "username": person.username,
            "site_name": settings.SITE_NAME,
            "count": len(turns),
            "games": games,
            "more": max(0, len(turns) - LISTED),
            "page_url": _address(reverse("your_turn")),
            "profile_url": _address(reverse("edit_profile")),
        }
        subject = render_to_string("accounts/turn_digest_subject.txt", context).strip()
        body = render_to_string("accounts/turn_digest_email.txt", context)
    return EmailMessage(subject, body, None, [person.email])


def _address(path: str) -> str:
    """A link for an e-mail: the site's address when it is known (SITE_URL), else the path."""
    return f"{settings.SITE_URL}{path}" if settings.SITE_URL else ""


def _send(messages: list[EmailMessage]) -> None:
    try:
        get_connection().send_messages(messages)
    except Exception:
        # The digests are marked sent: a mail server that is down costs these e-mails, never
        # a second one to the same person within the window.
        log.exception("%d turn digest e-mails failed", len(messages))
