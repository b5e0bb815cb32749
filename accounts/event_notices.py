"""What a tournament tells its entrants: a match ready, a bye, a round's pairings, a solitaire
event open and its results, and the reminder a few minutes before the start (with an e-mail,
unless the person said no). Each but the results is about a matter (``accounts.notices``): its
table, or its tournament's stage, and is read once that is done.

``tournaments.running`` calls the first three under the tournament's lock; each is one
notice per person (bots have no one to tell), stored in that transaction and pushed when
it commits.
"""

from __future__ import annotations

import datetime as dt
import logging
import math
from collections.abc import Iterable
from functools import partial

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.db.models import CharField, Exists, OuterRef, Value
from django.db.models.functions import Cast, Concat
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import Notice, User
from accounts.notices import about_table, about_tournament, notify
from games.kinds.words import ordinal
from games.models import Invitation, Table
from tournaments.models import Entry, Tournament

log = logging.getLogger(__name__)

REMIND_BEFORE = dt.timedelta(minutes=5)
STARTS_SOON_KEY = "starts-soon:"


def match_ready(tournament: Tournament, table: Table, people: Iterable[User | None]) -> None:
    """A game of their match is dealt: each person seated goes to the table."""
    url = reverse("table", kwargs={"table_id": table.pk})
    for user in people:
        if user is not None:
            notify(
                user=user,
                kind=Notice.Kind.MATCH_READY,
                text=f"Your match in {tournament.name} is ready: go to your table",
                url=url,
                key=f"table:{table.pk}",
                about=about_table(table.pk),
            )


def bye(tournament: Tournament, round_number: int, match_id: int, user: User | None) -> None:
    if user is not None:
        notify(
            user=user,
            kind=Notice.Kind.BYE,
            text=f"You were given a bye in round {round_number} of {tournament.name}",
            url=tournament.get_absolute_url(),
            key=f"bye:{match_id}",
            about=about_tournament(tournament.pk),
        )


def pairings_out(tournament: Tournament, round_number: int, people: Iterable[User | None]) -> None:
    for user in people:
        if user is not None:
            notify(
                user=user,
                kind=Notice.Kind.PAIRINGS,
                text=f"Round {round_number} pairings are out in {tournament.name}",
                url=tournament.get_absolute_url(),
                key=f"pairings:{tournament.pk}:{round_number}",
                about=about_tournament(tournament.pk),
            )


def event_open(tournament: Tournament, user: User, url: str) -> None:
    """A solitaire event's window opened (or the person entered it late): their deals wait."""
    notify(
        user=user,
        kind=Notice.Kind.EVENT_OPEN,
        text=f"{tournament.name} is open: play your deals",
        url=url,
        key=f"event-open:{tournament.pk}",
        about=about_tournament(tournament.pk),
    )


def event_results(tournament: Tournament, user: User, place: int, entrants: int) -> None:
    notify(
        user=user,
        kind=Notice.Kind.RESULTS,
        text=f"{tournament.name} is over: you placed {ordinal(place)} of {entrants}",
        url=tournament.get_absolute_url(),
        key=f"results:{tournament.pk}",
    )


def timed_out(table: Table, seq: int, user: User | None, said: str) -> None:
    """The turn clock moved for a person (LP-1): they hear what it did in their name."""
    if user is not None:
        notify(
            user=user,
            kind=Notice.Kind.TIMED_OUT,
            text=f"Time ran out at {table.get_game_display()} table {table.pk}: {said}",
            url=table.get_absolute_url(),
            key=f"timed-out:{table.pk}:{seq}",
            about=about_table(table.pk),
        )


def rematch_asked(table: Table, asker: User, people: Iterable[User]) -> None:
    """A rematch table is open: each other player of the last game is asked to sit again."""
    for user in people:
        notify(
            user=user,
            kind=Notice.Kind.REMATCH,
            text=f"{asker.username} wants a rematch of {table.get_game_display()}: take your seat",
            url=table.get_absolute_url(),
            key=f"rematch:{table.pk}",
            about=about_table(table.pk),
        )


def invited(invitation: Invitation) -> None:
    """LP-9: the invitee is asked to a seat; the notice leads to the invitation (Accept, Decline),
    never to a private table's link, and is read once the invitation is answered."""
    table = invitation.table
    if table.is_private:
        text = _("%(name)s invites you to a private %(game)s table") % {
            "name": invitation.from_user.username,
            "game": table.get_game_display(),
        }
    else:
        text = _("%(name)s invites you to %(game)s table %(table)d") % {
            "name": invitation.from_user.username,
            "game": table.get_game_display(),
            "table": table.pk,
        }
    notify(
        user=invitation.to_user,
        kind=Notice.Kind.INVITATION,
        text=text,
        url=invitation.get_absolute_url(),
        key=f"invitation:{invitation.pk}",
        about=f"invitation:{invitation.pk}",
    )


def invitation_answered(invitation: Invitation) -> None:
    """The inviter hears the invitee's answer. About no matter: one about the table would be
    read at once by the inviter's table page, which hears the invitee sit down."""
    table = invitation.table
    words = {"name": invitation.to_user.username, "game": table.get_game_display(), "table": table.pk}
    if invitation.status == Invitation.Status.ACCEPTED:
        text = _("%(name)s accepted your invitation to %(game)s table %(table)d") % words
    else:
        text = _("%(name)s declined your invitation to %(game)s table %(table)d") % words
    notify(
        user=invitation.from_user,
        kind=Notice.Kind.INVITATION_ANSWER,
        text=text,
        url=table.get_absolute_url(),
        key=f"invitation-answer:{invitation.pk}",
    )


def remind_entrants(now: dt.datetime | None = None) -> int:
    """Tells each person entered in an open tournament that starts within ``REMIND_BEFORE``
    that it is about to, once (the notice's key), and e-mails them once with it unless they
    turned reminders off. Returns how many were reminded."""
    now = now or timezone.now()
    key = Concat(Value(STARTS_SOON_KEY), Cast("tournament_id", CharField()))
    due = (
        Entry.objects.filter(
            user__isnull=False,
            tournament__status=Tournament.Status.OPEN,
            tournament__starts_at__gt=now,
            tournament__starts_at__lte=now + REMIND_BEFORE,
        )
        .alias(notice_key=key)
        # The ones reminded already cost nothing on the beats that follow.
        .exclude(Exists(Notice.objects.filter(user=OuterRef("user"), key=OuterRef("notice_key"))))
        .select_related("tournament", "user")
    )
    reminded = 0
    for entry in due:
        tournament, user = entry.tournament, entry.user
        assert user is not None  # filtered above
        when = _starts_in(tournament.starts_at - now)
        with transaction.atomic():
            notice = notify(
                user=user,
                kind=Notice.Kind.STARTS_SOON,
                text=f"{tournament.name} starts {when}",
                url=tournament.get_absolute_url(),
                key=f"{STARTS_SOON_KEY}{tournament.pk}",
                about=about_tournament(tournament.pk),
            )
            if notice is None:
                continue  # another beat made it first
            reminded += 1
            if user.reminder_emails and user.email:
                # After commit, and only by the run that made the notice: at most one e-mail.
                transaction.on_commit(partial(_mail, user, tournament, when))
    return reminded


def _starts_in(left: dt.timedelta) -> str:
    minutes = math.ceil(left.total_seconds() / 60)
    return "in a minute" if minutes <= 1 else f"in {minutes} minutes"


def _link(tournament: Tournament) -> str:
    if not settings.SITE_URL:
        return ""
    return f"The tournament: {settings.SITE_URL}{tournament.get_absolute_url()}\n\n"


def _what_happens(tournament: Tournament) -> str:
    if tournament.is_solitaire:
        return (
            "At the start your deals open for the event's window: the site shows a notice with a"
            " link to them on whatever page you have open."
        )
    return (
        "When your match is dealt, the site shows a notice with a link to your table on whatever"
        " page you have open."
    )


def _mail(user: User, tournament: Tournament, when: str) -> None:
    subject = f"{tournament.name} starts {when}"
    body = (
        f"Hello {user.username},\n\n"
        f"{tournament.name}, which you entered on {settings.SITE_NAME}, starts {when}"
        f" ({tournament.starts_at:%H:%M} UTC). {_what_happens(tournament)}\n\n"
        f"{_link(tournament)}"
        "To stop these e-mails, untick the reminder on your profile's edit page.\n\n"
        f"{settings.SITE_NAME}\n"
    )
    try:
        send_mail(subject, body, None, [user.email])
    except Exception:
        # The notice on the site stands; a mail server that is down must not fail the beat
        # (which would retry nothing: the notice's key says this person was reminded).
        log.exception("a tournament reminder e-mail failed")
