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
from collections.abc import Iterable
from functools import partial

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.db.models import CharField, Exists, OuterRef, Value
from django.db.models.functions import Cast, Concat
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts import languages
from accounts.models import Notice, User
from accounts.notice_texts import minutes_left, starts_soon
from accounts.notices import about_table, about_tournament, notify
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
                params={"tournament": tournament.name},
                url=url,
                key=f"table:{table.pk}",
                about=about_table(table.pk),
            )


def bye(tournament: Tournament, round_number: int, match_id: int, user: User | None) -> None:
    if user is not None:
        notify(
            user=user,
            kind=Notice.Kind.BYE,
            params={"round": round_number, "tournament": tournament.name},
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
                params={"round": round_number, "tournament": tournament.name},
                url=tournament.get_absolute_url(),
                key=f"pairings:{tournament.pk}:{round_number}",
                about=about_tournament(tournament.pk),
            )


def event_open(tournament: Tournament, user: User, url: str) -> None:
    """A solitaire event's window opened (or the person entered it late): their deals wait."""
    notify(
        user=user,
        kind=Notice.Kind.EVENT_OPEN,
        params={"tournament": tournament.name},
        url=url,
        key=f"event-open:{tournament.pk}",
        about=about_tournament(tournament.pk),
    )


def event_results(tournament: Tournament, user: User, place: int, entrants: int) -> None:
    notify(
        user=user,
        kind=Notice.Kind.RESULTS,
        params={"tournament": tournament.name, "place": place, "entrants": entrants},
        url=tournament.get_absolute_url(),
        key=f"results:{tournament.pk}",
    )


def timed_out(table: Table, seq: int, user: User | None, said: str) -> None:
    """The turn clock moved for a person (LP-1): they hear what it did in their name."""
    if user is not None:
        notify(
            user=user,
            kind=Notice.Kind.TIMED_OUT,
            # ``said``: the move in words, in the site's language until moves are narrated
            # from codes (issue 47).
            params={"game": table.game, "table": table.pk, "said": said},
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
            params={"name": asker.username, "game": table.game},
            url=table.get_absolute_url(),
            key=f"rematch:{table.pk}",
            about=about_table(table.pk),
        )


def invited(invitation: Invitation) -> None:
    """LP-9: the invitee is asked to a seat; the notice leads to the invitation (Accept, Decline),
    never to a private table's link, and is read once the invitation is answered."""
    table = invitation.table
    params = {
        "name": invitation.from_user.username,
        "game": table.game,
        "table": table.pk,
        "private": table.is_private,
    }
    notify(
        user=invitation.to_user,
        kind=Notice.Kind.INVITATION,
        params=params,
        url=invitation.get_absolute_url(),
        key=f"invitation:{invitation.pk}",
        about=f"invitation:{invitation.pk}",
    )


def invitation_answered(invitation: Invitation) -> None:
    """The inviter hears the invitee's answer. About no matter: one about the table would be
    read at once by the inviter's table page, which hears the invitee sit down."""
    table = invitation.table
    params = {
        "name": invitation.to_user.username,
        "game": table.game,
        "table": table.pk,
        "accepted": invitation.status == Invitation.Status.ACCEPTED,
    }
    notify(
        user=invitation.from_user,
        kind=Notice.Kind.INVITATION_ANSWER,
        params=params,
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
        minutes = minutes_left((tournament.starts_at - now).total_seconds())
        with transaction.atomic():
            notice = notify(
                user=user,
                kind=Notice.Kind.STARTS_SOON,
                params={"tournament": tournament.name, "minutes": minutes},
                url=tournament.get_absolute_url(),
                key=f"{STARTS_SOON_KEY}{tournament.pk}",
                about=about_tournament(tournament.pk),
            )
            if notice is None:
                continue  # another beat made it first
            reminded += 1
            if user.reminder_emails and user.email:
                # After commit, and only by the run that made the notice: at most one e-mail.
                transaction.on_commit(partial(_mail, user, tournament, minutes))
    return reminded


def _link(tournament: Tournament) -> str:
    if not settings.SITE_URL:
        return ""
    url = f"{settings.SITE_URL}{tournament.get_absolute_url()}"
    return _("The tournament: %(url)s") % {"url": url} + "\n\n"


def _what_happens(tournament: Tournament) -> str:
    if tournament.is_solitaire:
        return _(
            "At the start your deals open for the event's window: the site shows a notice with a"
            " link to them on whatever page you have open."
        )
    return _(
        "When your match is dealt, the site shows a notice with a link to your table on whatever"
        " page you have open."
    )


def _mail(user: User, tournament: Tournament, minutes: int) -> None:
    # In the entrant's language: the beat that sends it has none of its own.
    with translation.override(languages.of(user)):
        subject = starts_soon(tournament.name, minutes)
        starts = ngettext(
            "%(tournament)s, which you entered on %(site)s, starts in a minute (%(time)s UTC).",
            "%(tournament)s, which you entered on %(site)s, starts in %(minutes)d minutes (%(time)s UTC).",
            minutes,
        ) % {
            "tournament": tournament.name,
            "site": settings.SITE_NAME,
            "minutes": minutes,
            "time": f"{tournament.starts_at:%H:%M}",
        }
        body = (
            _("Hello %(name)s,") % {"name": user.username}
            + "\n\n"
            + f"{starts} {_what_happens(tournament)}\n\n"
            + _link(tournament)
            + _("To stop these e-mails, untick the reminder on your profile's edit page.")
            + f"\n\n{settings.SITE_NAME}\n"
        )
    try:
        send_mail(subject, body, None, [user.email])
    except Exception:
        # The notice on the site stands; a mail server that is down must not fail the beat
        # (which would retry nothing: the notice's key says this person was reminded).
        log.exception("a tournament reminder e-mail failed")
