"""What staff do about reports (issue 45), each step logged as a ``StaffAction`` (who, when,
about whom, why) in the step's own transaction, so that no step happens unlogged.

- ``dismiss``: the report was not worth acting on; it leaves the queue.
- ``hide_message``: the reported message is hidden from everyone but its author (as a word-list
  hit is); every open report of that message is settled with it.
- ``mute``: the person is kept out of every chat for a time (``talk.mutes``); every open report
  about them is settled.
- ``close``: the person's account is closed (``accounts.closing``, which logs its own step);
  every open report about them is settled.
- ``unmute``: a running mute ends now.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy

from accounts.closing import close_account
from accounts.models import StaffAction, User
from talk.models import Message, Mute, Report

MUTE_LENGTHS = [
    (3600, gettext_lazy("One hour")),
    (86400, gettext_lazy("One day")),
    (7 * 86400, gettext_lazy("One week")),
    (30 * 86400, gettext_lazy("30 days")),
]
"""The lengths of mute staff choose from, in seconds."""


def _settle(reports: Iterable[Report], *, staff: User, status: str, now: dt.datetime) -> list[int]:
    ids = [report.pk for report in reports]
    Report.objects.filter(pk__in=ids, status=Report.Status.OPEN).update(
        status=status, handled_by=staff, handled_at=now
    )
    return ids


def _open(reports: Iterable[Report]) -> list[Report]:
    """The reports still open, locked: two members of staff never settle one twice."""
    ids = [report.pk for report in reports]
    return list(
        Report.objects.select_for_update(of=("self",))
        .filter(pk__in=ids, status=Report.Status.OPEN)
        .select_related("reported", "message")
        .order_by("created_at", "pk")
    )


def dismiss(reports: Iterable[Report], *, staff: User, reason: str) -> int:
    """Each open report leaves the queue unacted on; how many did."""
    now = timezone.now()
    with transaction.atomic():
        found = _open(reports)
        for report in found:
            _settle([report], staff=staff, status=Report.Status.DISMISSED, now=now)
            StaffAction.objects.create(
                staff=staff,
                target=report.reported,
                kind=StaffAction.Kind.DISMISS,
                reason=reason,
                details={"report": report.pk},
                created_at=now,
            )
    return len(found)


def hide_message(reports: Iterable[Report], *, staff: User, reason: str) -> int:
    """Each open report's message is hidden; how many messages were."""
    now = timezone.now()
    hidden = 0
    with transaction.atomic():
        for report in _open(reports):
            if report.message is None:
                continue  # a report of a person: no message to hide
            message = Message.objects.select_for_update().get(pk=report.message.pk)
            if not message.hidden:
                message.hidden = True
                message.save(update_fields=["hidden"])
                hidden += 1
            settled = _settle(
                Report.objects.filter(message=message, status=Report.Status.OPEN),
                staff=staff,
                status=Report.Status.ACTIONED,
                now=now,
            )
            StaffAction.objects.create(
                staff=staff,
                target=report.reported,
                kind=StaffAction.Kind.HIDE_MESSAGE,
                reason=reason,
                details={"message": message.pk, "reports": settled, "text": message.text},
                created_at=now,
            )
    return hidden


def mute(person: User, *, staff: User, reason: str, seconds: int) -> Mute:
    """``person`` may not chat for ``seconds`` from now; their open reports are settled."""
    now = timezone.now()
    until = now + dt.timedelta(seconds=seconds)
    with transaction.atomic():
        row = Mute.objects.create(user=person, until=until, reason=reason, by=staff, created_at=now)
        settled = _settle(
            Report.objects.select_for_update().filter(reported=person, status=Report.Status.OPEN),
            staff=staff,
            status=Report.Status.ACTIONED,
            now=now,
        )
        StaffAction.objects.create(
            staff=staff,
            target=person,
            kind=StaffAction.Kind.MUTE,
            reason=reason,
            details={"until": until.isoformat(), "reports": settled, "mute": row.pk},
            created_at=now,
        )
    return row


def unmute(row: Mute, *, staff: User, reason: str) -> bool:
    """A running mute ends now; False if it had already ended."""
    now = timezone.now()
    with transaction.atomic():
        if not Mute.objects.filter(pk=row.pk, until__gt=now).update(until=now):
            return False
        StaffAction.objects.create(
            staff=staff,
            target_id=row.user_id,
            kind=StaffAction.Kind.UNMUTE,
            reason=reason,
            details={"mute": row.pk},
            created_at=now,
        )
    return True


def close(person: User, *, staff: User, reason: str) -> bool:
    """``person``'s account is closed by staff; False if it already was."""
    now = timezone.now()
    with transaction.atomic():
        if not close_account(person, by=staff, reason=reason):  # it logs the step itself
            return False
        _settle(
            Report.objects.select_for_update().filter(reported=person, status=Report.Status.OPEN),
            staff=staff,
            status=Report.Status.ACTIONED,
            now=now,
        )
    return True


def context(message: Message, around: int = 5) -> list[Message]:
    """``message`` among the ``around`` messages said before and after it in its room, in
    order: what staff read it in."""
    where: dict[str, Any] = (
        {"table_id": message.table_id}
        if message.table_id is not None
        else {"tournament_id": message.tournament_id}
    )
    room = Message.objects.filter(room=message.room, **where).select_related("user")
    earlier = Q(created_at__lt=message.created_at) | Q(created_at=message.created_at, pk__lt=message.pk)
    later = Q(created_at__gt=message.created_at) | Q(created_at=message.created_at, pk__gt=message.pk)
    before = list(room.filter(earlier).order_by("-created_at", "-pk")[:around])
    after = list(room.filter(later).order_by("created_at", "pk")[:around])
    return [*reversed(before), message, *after]
