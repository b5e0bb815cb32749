"""Reports (issue 45): a person, or a message of theirs, reported to staff with a reason.

- Nobody reports themselves, nor a message they could not read (a private table's chat they
  may not enter, a running game's spectators' chat read from a seat at it, a hidden message):
  the report form shows the message, and must not carry what its reader may not see (LP-10).
- At most ``PER_HOUR`` reports an hour from one person, counted from the rows themselves under
  the reporter's row lock (as invitations count theirs), so a script cannot flood the queue.
- The reported person is never told who reported them: nothing a report makes reaches them.
"""

from __future__ import annotations

import datetime as dt

from django.contrib.sessions.backends.base import SessionBase
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.models import User
from games.models import Table
from talk import rooms
from talk.models import Message, Report

PER_HOUR = 5
"""Reports one person may make an hour: a bad evening's worth, too few to flood the queue."""
DETAILS_LONGEST = 500
"""``Report.details``' length."""

REASONS = [
    (Report.Reason.ABUSE, gettext_lazy("Insults or harassment")),
    (Report.Reason.SPAM, gettext_lazy("Spam or advertising")),
    (Report.Reason.CHEATING, gettext_lazy("Cheating")),
    (Report.Reason.OTHER, gettext_lazy("Something else")),
]
"""The reasons as the reporter reads them (the model's labels are the staff's, untranslated)."""


class ReportError(ValueError):
    """A report refused; its message says why, in words for the person."""


def may_read(message: Message, user: User, session: SessionBase | None = None) -> bool:
    """Whether ``user`` could read ``message`` where it was said (so may report it): the
    chat's own rule (``talk.rooms``), a hidden message and one's own aside."""
    if message.hidden or message.user_id == user.pk:
        return False
    if message.room == Message.Room.TOURNAMENT:
        return True
    table: Table | None = message.table
    found = None if table is None else rooms.table_standing(table, user, session)
    return found is not None and message.room in found.reads


def report(
    *,
    reporter: User,
    reported: User,
    reason: str,
    details: str = "",
    message: Message | None = None,
    now: dt.datetime | None = None,
) -> Report:
    """``reporter`` reports ``reported`` (about ``message``, if given) to staff."""
    now = now or timezone.now()
    if reporter.pk == reported.pk:
        raise ReportError(_("You cannot report yourself."))
    if message is not None and message.user_id != reported.pk:
        raise ReportError(_("There is no such message."))
    if reason not in Report.Reason.values:
        raise ReportError(_("Choose a reason."))
    if len(details) > DETAILS_LONGEST:
        raise ReportError(_("Say it in at most %(n)d characters.") % {"n": DETAILS_LONGEST})
    with transaction.atomic():
        # Counted under the reporter's row lock: two reports sent at once see each other.
        list(User.objects.select_for_update().filter(pk=reporter.pk).values_list("pk", flat=True))
        recent = Report.objects.filter(reporter=reporter, created_at__gt=now - dt.timedelta(hours=1))
        if recent.count() >= PER_HOUR:
            raise ReportError(_("You have sent many reports this hour: wait a while and try again."))
        if (
            message is not None
            and Report.objects.filter(reporter=reporter, message=message, status=Report.Status.OPEN).exists()
        ):
            raise ReportError(_("You have already reported this message: staff will look at it."))
        return Report.objects.create(
            reporter=reporter,
            reported=reported,
            message=message,
            reason=reason,
            details=details.strip(),
            created_at=now,
        )
