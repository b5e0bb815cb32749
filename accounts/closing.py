"""Closing an account (issue 45): the person's own data erased, their games kept for the
other players.

The ``User`` row stays, inactive and marked ``closed_at``: the games, seats, rating changes and
tournament entries that the other players' pages show point at it, and its username stays
taken so that nobody can sign up as the person who left (``accounts.forms.SignupForm``). Pages
show "a closed account" in its place (``accounts.closed_names``).

Every session of the person ends: the password is made unusable and the account inactive, and
Django checks both on each request of every session (``django.contrib.auth.get_user``), so a
phone left signed in is signed out at its next page, not only the browser that closed it. Its
open sockets are closed at once (``web.consumers.person_group``): a table left open in another
tab can no longer move or chat for the person.
"""

from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from accounts import notices
from accounts.models import Block, Follow, Notice, Presence, Rating, StaffAction, User
from games.core.announcements import send_to_group
from games.models import DailyStanding, GameRecord, Invitation
from talk.models import Message
from web.consumers import person_group


def close_account(user: User, *, by: User | None = None, reason: str = "") -> bool:
    """Closes ``user``'s account in one transaction; ``by``: the member of staff who closed
    it, whose step is logged with ``reason`` (``StaffAction``). Returns False, changing
    nothing, if it was already closed."""
    with transaction.atomic():
        person = User.objects.select_for_update().get(pk=user.pk)
        if person.closed_at is not None:
            return False
        now = timezone.now()
        person.email = person.first_name = person.last_name = person.bio = ""
        person.set_unusable_password()
        person.is_active = False
        person.closed_at = now
        person.last_seen = person.last_login = None
        person.reminder_emails = person.turn_emails = False
        person.save()
        Message.objects.filter(user=person).exclude(text="").update(text="")
        Presence.objects.filter(user=person).delete()
        Follow.objects.filter(Q(follower=person) | Q(followed=person)).delete()
        Block.objects.filter(Q(blocker=person) | Q(blocked=person)).delete()
        Notice.objects.filter(user=person).delete()
        _end_invitations(person, now)
        # Out of every board and every rank (RT-3): a deleted rating is counted by no index
        # walk, where a kept one would still take a place that nobody is listed in.
        Rating.objects.filter(user=person).delete()
        DailyStanding.objects.filter(user=person).delete()
        # Off the daily deals' boards too (their rows would link to a profile that is gone); the
        # attempts stay, as every game does.
        GameRecord.objects.filter(owner=person, ranked=True).update(ranked=False)
        if by is not None:
            StaffAction.objects.create(staff=by, target=person, kind=StaffAction.Kind.CLOSE, reason=reason)
        transaction.on_commit(lambda: send_to_group(person_group(person.pk), {"type": "account.closed"}))
    user.refresh_from_db()
    return True


def _end_invitations(person: User, now: dt.datetime) -> None:
    """Pending invitations from the person are withdrawn (their invitees' notices read), those
    to the person declined: an answer nobody can give any more."""
    pending = Invitation.objects.filter(status=Invitation.Status.PENDING)
    sent = list(pending.filter(from_user=person).values_list("pk", flat=True))
    Invitation.objects.filter(pk__in=sent).update(status=Invitation.Status.CANCELLED, answered_at=now)
    for invitation_id in sent:
        notices.settle(about=f"invitation:{invitation_id}")
    pending.filter(to_user=person).update(status=Invitation.Status.DECLINED, answered_at=now)
