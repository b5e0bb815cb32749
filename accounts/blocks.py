"""Blocking (LP-9, LP-10): one person keeps another away from them.

A blocked person cannot follow the blocker, invite them to a table or sit at their private
tables, and the blocker does not see their chat. The blocked person is never told: every
refusal a block causes reads like the refusal the blocker's own choices would give.

Blocking also drops the blocked person's follow of the blocker (as lichess does), so the
blocker leaves their friends page; the blocker's own follow of the blocked person is theirs
to keep or drop, so it stays. Invitations the blocked person sent the blocker that still wait
lapse, as if their time had run out.

The block narrows the blocked person's ways in where they are checked: ``follows.follow``,
``games.live.invitations.may_invite`` and ``games.live.table_access.may_enter`` (a private
table's creator keeps out people they blocked, unless already seated: a block unseats
nobody). Only the tables the blocker opened count as theirs.
"""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser
from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils.translation import gettext as _

from accounts.models import Block, Follow, User

BLOCK_RATE = "30/m"
"""Blocks and unblocks a person may send a minute: the follow limit's figure."""


class BlockError(ValueError):
    """A block refused; its message says why, in words for the person."""


def block(*, blocker: User, blocked: User) -> bool:
    """``blocker`` now blocks ``blocked``; True if that is new. Blocking someone already
    blocked changes nothing (a second click, a form sent twice)."""
    from games.live import invitations  # it reads ``is_blocked``: imported once both are loaded

    if blocker.pk == blocked.pk:
        raise BlockError(_("You cannot block yourself."))
    with transaction.atomic():
        try:
            with transaction.atomic():
                _row, created = Block.objects.get_or_create(blocker=blocker, blocked=blocked)
        except IntegrityError:
            # The same block sent twice at once: the other request made the row.
            created = False
        Follow.objects.filter(follower=blocked, followed=blocker).delete()
        invitations.lapse_between(inviter=blocked, invitee=blocker)
    return created


def unblock(*, blocker: User, blocked: User) -> bool:
    """``blocker`` no longer blocks ``blocked``; True if they did."""
    deleted, _rows = Block.objects.filter(blocker=blocker, blocked=blocked).delete()
    return deleted > 0


def blocked_ids(user: User | AnonymousUser) -> set[int]:
    """The ids of the people ``user`` blocked (none for a visitor): whose chat to hide."""
    if not user.is_authenticated:
        return set()
    return set(Block.objects.filter(blocker_id=user.pk).values_list("blocked_id", flat=True))


def is_blocked(*, by: User | AnonymousUser | int | None, whom: User | AnonymousUser | int | None) -> bool:
    """Whether ``by`` blocked ``whom`` (never, if either is a visitor or nobody)."""
    by_id = by if by is None or isinstance(by, int) else by.pk
    whom_id = whom if whom is None or isinstance(whom, int) else whom.pk
    if by_id is None or whom_id is None:
        return False
    return Block.objects.filter(blocker_id=by_id, blocked_id=whom_id).exists()


def blocked_people(user: User) -> QuerySet[User]:
    """The people ``user`` blocked, the newest block first: their list with Unblock."""
    return User.objects.filter(blocked_by__blocker=user).order_by("-blocked_by__created_at", "username")
