"""LP-9 invitations: a person at an open table asks another, by name, to one of its seats.

- Who invites: someone seated at the table, or the person who opened it, while it is open.
- Who may be invited: an active person not already at the table, not already invited to it,
  whose ``invite_policy`` lets the inviter (anyone; only people the invitee follows; nobody).
- The seat is offered, not held: while the invitation waits the seat stays open to anyone,
  and accepting sits the invitee in it if it is still free, else in any free seat (a table
  filled meanwhile refuses the acceptance, and the invitation waits on for a seat to free).
- An invitation lasts ``lifetime``: a day at a turn-based table, minutes at a live one. No
  task waits for it: a pending invitation past its ``expires_at`` reads as expired wherever it
  is shown (``Invitation.current_status``), and its row says so once someone acts on it.
- At most ``PER_MINUTE`` invitations a minute from one person, counted from the rows
  themselves (the inviter's row locked meanwhile, so two requests at once count each other).
- A person who blocked the inviter is refused as their choice would refuse them (the inviter is
  never told of the block), and nobody may invite a person to a private table whose creator
  blocked them (``accounts.blocks``, LP-9).
- A pending or accepted invitation lets its invitee into a private table (``table_access``);
  a refusal says what a table that is not there would say to whoever may not enter it, and
  no refusal, notice or page of an invitation carries the table's link.

The invitee hears of it by a notice with Accept and Decline; the inviter hears the answer by a
notice and sees it on the table's page.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from accounts import notices
from accounts.blocks import is_blocked
from accounts.models import Follow, InvitePolicy, User
from games.core.errors import GameError
from games.live import tables, turn_clocks
from games.models import Invitation, Table

PER_MINUTE = 5
"""Invitations one person may send a minute: a table's seats at once, too few to spam anyone."""
MOST_NAMES = 5
"""Names one form may invite at once: a table has at most six seats, one of them the inviter's."""
USERNAME_LONGEST = 150
"""``User.username``'s length: no account has a longer name."""
NO_SUCH_TABLE = gettext_noop("There is no such table.")
"""Marked for the catalogue; raised worded: ``GameError(_(NO_SUCH_TABLE))``."""
"""What a table that is not there, or a private one the asker may not enter, answers."""

Status = Invitation.Status


def lifetime(table: Table) -> dt.timedelta:
    """How long an invitation to ``table`` waits for its answer."""
    if turn_clocks.is_turn_based(table.clock_seconds):
        return dt.timedelta(seconds=settings.INVITATION_TURN_BASED_EXPIRY_S)
    return dt.timedelta(seconds=settings.INVITATION_LIVE_EXPIRY_S)


def about(invitation_id: int) -> str:
    """The matter of the invitee's notice: settled (read) once the invitation is answered."""
    return f"invitation:{invitation_id}"


def parse_names(text: str) -> list[str]:
    """The usernames of a comma-separated list, each once, in order; a refusal for too many."""
    names: list[str] = []
    for part in text.split(","):
        name = part.strip()
        if name and name.lower() not in {n.lower() for n in names}:
            names.append(name)
    if len(names) > MOST_NAMES:
        raise GameError(_("Invite at most %(n)d people at once.") % {"n": MOST_NAMES})
    return names


def person_named(name: str) -> User:
    # A name no account can have is not looked for: PostgreSQL refuses a NUL (found by `make fuzz`).
    possible = len(name) <= USERNAME_LONGEST and "\x00" not in name
    found = User.objects.named(name).filter(is_active=True).first() if possible else None
    if found is None:
        raise GameError(_("There is no one called “%(name)s”.") % {"name": name[:40]})
    return found


def may_invite(inviter: User, invitee: User) -> bool:
    """Whether ``invitee``'s choice (LP-9) lets ``inviter`` invite them: never once they
    blocked the inviter, whatever their policy says."""
    if is_blocked(by=invitee, whom=inviter):
        return False
    policy = invitee.invite_policy
    if policy == InvitePolicy.ANYONE:
        return True
    if policy == InvitePolicy.FOLLOWED:
        return Follow.objects.filter(follower=invitee, followed=inviter).exists()
    return False


def policy_refusal(invitee: User) -> str:
    if invitee.invite_policy == InvitePolicy.FOLLOWED:
        return _("%(name)s takes invitations only from people they follow.") % {"name": invitee.username}
    return _("%(name)s does not take invitations.") % {"name": invitee.username}


def invite(*, inviter: User, table_id: int, invitee: User, seat: int | None = None) -> Invitation:
    """``inviter`` asks ``invitee`` to a seat of the open table ``table_id`` (``seat``, or a free
    one nobody is invited to if there is one); the invitee is told by a notice."""
    from accounts import event_notices  # accounts' notices import the tournaments app

    with transaction.atomic():
        table = Table.objects.select_for_update().filter(pk=table_id).first()
        seats = [] if table is None else list(table.seats.all())
        seated = any(s.user_id == inviter.pk for s in seats)
        if table is None or not (seated or table.created_by_id == inviter.pk):
            # A private table is not there for whoever may not invite to it (its link untold).
            if table is None or table.is_private:
                raise GameError(_(NO_SUCH_TABLE))
            raise GameError(_("Only someone sitting at the table can invite."))
        if table.status != Table.Status.OPEN:
            raise GameError(_("This table has started: seats can no longer change."))
        if invitee.pk == inviter.pk:
            raise GameError(_("You cannot invite yourself."))
        if any(s.user_id == invitee.pk for s in seats):
            raise GameError(_("%(name)s is already sitting at this table.") % {"name": invitee.username})
        free = [s.number for s in seats if not s.taken]
        if not free:
            raise GameError(_("Every seat is taken."))
        if seat is not None and seat not in free:
            raise GameError(_("That seat is not free."))
        if not may_invite(inviter, invitee):
            raise GameError(policy_refusal(invitee))
        if table.is_private and is_blocked(by=table.created_by_id, whom=invitee):
            # They could not enter it (``table_access``): an invitation would lead nowhere.
            raise GameError(_("%(name)s cannot be invited to this table.") % {"name": invitee.username})
        now = timezone.now()
        _expire(Invitation.objects.filter(table=table, to_user=invitee), now)
        waiting = Invitation.objects.filter(table=table, status=Status.PENDING)
        if waiting.filter(to_user=invitee).exists():
            raise GameError(_("%(name)s is already invited to this table.") % {"name": invitee.username})
        # The flood limit counts under the inviter's row lock: two requests at once see each other.
        list(User.objects.select_for_update().filter(pk=inviter.pk).values_list("pk", flat=True))
        recent = Invitation.objects.filter(from_user=inviter, created_at__gt=now - dt.timedelta(minutes=1))
        if recent.count() >= PER_MINUTE:
            raise GameError(_("Too many invitations at once: wait a minute and try again."))
        if seat is None:
            offered = set(waiting.values_list("seat", flat=True))
            seat = next((n for n in free if n not in offered), free[0])
        try:
            with transaction.atomic():
                invitation = Invitation.objects.create(
                    table=table,
                    seat=seat,
                    from_user=inviter,
                    to_user=invitee,
                    created_at=now,
                    expires_at=now + lifetime(table),
                )
        except IntegrityError:  # the same invitation, sent at the same moment
            raise GameError(
                _("%(name)s is already invited to this table.") % {"name": invitee.username}
            ) from None
        event_notices.invited(invitation)
    return invitation


def invite_names(*, inviter: User, table_id: int, names: Iterable[str]) -> tuple[list[Invitation], list[str]]:
    """``invite`` each person named: the invitations made, and a refusal for each one not made."""
    made, refused = [], []
    for name in names:
        try:
            made.append(invite(inviter=inviter, table_id=table_id, invitee=person_named(name)))
        except GameError as exc:
            refused.append(str(exc))
    return made, refused


def accept(*, invitation_id: int, user: User) -> Table:
    """``user`` takes the seat they were invited to (or another free one): their table."""
    from accounts import event_notices

    invitation = _invitation_to(user, invitation_id)
    with transaction.atomic():
        # The table first, as ``invite`` and ``tables.sit`` lock it: no two lock in turn.
        table = Table.objects.select_for_update().get(pk=invitation.table_id)
        invitation = Invitation.objects.select_for_update().get(pk=invitation.pk)
        refusal = _unanswerable(invitation)
        if refusal is None and table.status != Table.Status.OPEN:
            invitation.status = Status.EXPIRED
            refusal = _("The game at this table started without you.")
        if refusal is not None:
            _close(invitation)
        else:
            if not table.seats.filter(user=user).exists():
                free = table.seats.filter(user__isnull=True, is_bot=False)
                number = invitation.seat if free.filter(number=invitation.seat).exists() else None
                tables.sit(table_id=table.pk, user=user, number=number)  # "Every seat is taken."
            invitation.status = Status.ACCEPTED
            _close(invitation)
            event_notices.invitation_answered(invitation)
    if refusal is not None:
        raise GameError(refusal)
    return table


def decline(*, invitation_id: int, user: User) -> Invitation:
    """``user`` says no; the inviter is told."""
    from accounts import event_notices

    invitation = _invitation_to(user, invitation_id)
    with transaction.atomic():
        invitation = Invitation.objects.select_for_update().get(pk=invitation.pk)
        refusal = _unanswerable(invitation)
        if refusal is None:
            invitation.status = Status.DECLINED
            event_notices.invitation_answered(invitation)
        _close(invitation)
    if refusal is not None:
        raise GameError(refusal)
    return invitation


def cancel(*, invitation_id: int, user: User) -> Invitation:
    """The inviter takes back an invitation still waiting."""
    invitation = Invitation.objects.filter(pk=invitation_id, from_user=user).first()
    if invitation is None:
        raise GameError(_("There is no such invitation."))
    with transaction.atomic():
        invitation = Invitation.objects.select_for_update().get(pk=invitation.pk)
        refusal = _unanswerable(invitation)
        if refusal is None:
            invitation.status = Status.CANCELLED
        _close(invitation)
    if refusal is not None:
        raise GameError(refusal)
    return invitation


def _invitation_to(user: User, invitation_id: int) -> Invitation:
    """The invitation ``user`` received: anyone else's is not there for them."""
    invitation = Invitation.objects.filter(pk=invitation_id, to_user=user).first()
    if invitation is None:
        raise GameError(_("There is no such invitation."))
    return invitation


def _unanswerable(invitation: Invitation) -> str | None:
    """Why ``invitation`` can no longer be answered (or withdrawn), its row made to say so."""
    now = timezone.now()
    status = invitation.current_status(now)
    if status == Status.PENDING:
        return None
    invitation.status = status
    return {
        Status.EXPIRED: _("This invitation has expired."),
        Status.ACCEPTED: _("This invitation was accepted."),
        Status.DECLINED: _("This invitation was declined."),
        Status.CANCELLED: _("This invitation was withdrawn."),
    }[Status(status)]


def _close(invitation: Invitation) -> None:
    """Stores the invitation's status (if it changed from pending) and reads its invitee's notice."""
    if invitation.status == Status.PENDING:
        return
    moved = Invitation.objects.filter(pk=invitation.pk, status=Status.PENDING)
    if moved.update(status=invitation.status, answered_at=timezone.now()):
        notices.settle(about=about(invitation.pk))


def _expire(invitations: QuerySet[Invitation], now: dt.datetime) -> None:
    """Rows of pending invitations past their time now say expired (their notices read)."""
    stale = list(invitations.filter(status=Status.PENDING, expires_at__lte=now).values_list("pk", flat=True))
    if stale:
        Invitation.objects.filter(pk__in=stale, status=Status.PENDING).update(status=Status.EXPIRED)
        for pk in stale:
            notices.settle(about=about(pk))


def lapse_between(*, inviter: User, invitee: User) -> None:
    """``invitee`` blocked ``inviter``: the invitations waiting between them lapse, their notices
    read, as an invitation past its time does (nothing says why)."""
    waiting = Invitation.objects.filter(from_user=inviter, to_user=invitee, status=Status.PENDING)
    for pk in list(waiting.values_list("pk", flat=True)):
        if Invitation.objects.filter(pk=pk, status=Status.PENDING).update(
            status=Status.EXPIRED, answered_at=timezone.now()
        ):
            notices.settle(about=about(pk))


def lets_in(table: Table, user: User) -> bool:
    """Whether an invitation lets ``user`` into ``table`` (LP-9): one waiting, or accepted."""
    return (
        Invitation.objects.filter(table=table, to_user=user)
        .filter(Q(status=Status.ACCEPTED) | Q(status=Status.PENDING, expires_at__gt=timezone.now()))
        .exists()
    )


def waiting_for(user: User) -> QuerySet[Invitation]:
    """The invitations ``user`` may still answer, the newest first."""
    return (
        Invitation.objects.filter(
            to_user=user,
            status=Status.PENDING,
            expires_at__gt=timezone.now(),
            table__status=Table.Status.OPEN,
        )
        .select_related("table", "from_user")
        .order_by("-created_at", "-pk")
    )


def sent_by(user: User, shown: int = 20) -> list[Invitation]:
    """The last ``shown`` invitations ``user`` sent, with their answers."""
    return list(
        Invitation.objects.filter(from_user=user)
        .select_related("table", "to_user")
        .order_by("-created_at", "-pk")[:shown]
    )


def sent_from(table: Table, shown: int = 20) -> list[Invitation]:
    """The last ``shown`` invitations to ``table``, for its page: who was asked, and the answer."""
    return list(
        Invitation.objects.filter(table=table)
        .select_related("to_user", "from_user")
        .order_by("-created_at", "-pk")[:shown]
    )


def open_tables_of(user: User) -> list[Table]:
    """The open tables ``user`` may invite to (seated there, or opened it) with a free seat."""
    return list(
        Table.objects.filter(
            Q(seats__user=user) | Q(created_by=user),
            status=Table.Status.OPEN,
            record__isnull=True,
        )
        .filter(pk__in=Table.objects.filter(seats__user__isnull=True, seats__is_bot=False).values("pk"))
        .distinct()
        .order_by("-created_at")[:20]
    )
