"""Following people: public, one-way, as on lichess. Following someone puts them on your
friends page (``accounts.presence.friends``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.db.models import QuerySet
from django.utils.translation import gettext as _

from accounts.blocks import is_blocked
from accounts.models import Follow, User

FOLLOW_RATE = "30/m"
"""Follows and unfollows a person may send a minute: far more than anyone clicks, too few
to follow the whole site from a script."""


class FollowError(ValueError):
    """A follow refused; its message says why, in words for the person."""


class Change(Protocol):
    def __call__(self, *, follower: User, followed: User) -> bool: ...


def follow(*, follower: User, followed: User) -> bool:
    """``follower`` now follows ``followed``; True if that is new. Following someone already
    followed changes nothing (a second click, a form sent twice). Someone ``followed`` blocked
    is not refused, which would tell them of the block: their follow is quietly not made."""
    if follower.pk == followed.pk:
        raise FollowError(_("You cannot follow yourself."))
    if not followed.is_active:
        raise FollowError(_("This account is closed."))
    if is_blocked(by=followed, whom=follower):
        return False
    _row, created = Follow.objects.get_or_create(follower=follower, followed=followed)
    return created


def unfollow(*, follower: User, followed: User) -> bool:
    """``follower`` no longer follows ``followed``; True if they did."""
    deleted, _rows = Follow.objects.filter(follower=follower, followed=followed).delete()
    return deleted > 0


def is_following(follower: User | AnonymousUser, followed: User) -> bool:
    if not follower.is_authenticated:
        return False
    return Follow.objects.filter(follower=follower, followed=followed).exists()


@dataclass(frozen=True)
class Counts:
    following: int
    followers: int


STANDING_SQL = (
    "SELECT (SELECT COUNT(*) FROM accounts_follow AS f JOIN accounts_user AS u ON u.id = f.followed_id"
    " WHERE f.follower_id = %s AND u.is_active),"
    " (SELECT COUNT(*) FROM accounts_follow AS f JOIN accounts_user AS u ON u.id = f.follower_id"
    " WHERE f.followed_id = %s AND u.is_active),"
    " EXISTS (SELECT 1 FROM accounts_follow WHERE follower_id = %s AND followed_id = %s)"
)
"""Whom a person follows and who follows them (active accounts only), and whether the viewer
follows them: one round trip, in SQL. Two ORM counts and an ``exists`` cost the profile 1.6 ms
a GET, 1.2 of it Python building the queries (issue 42)."""


def standing(person: User, viewer: User | AnonymousUser) -> tuple[Counts, bool]:
    """``person``'s counts, and whether ``viewer`` follows them (never, signed out)."""
    with connection.cursor() as cursor:
        cursor.execute(STANDING_SQL, [person.pk, person.pk, viewer.pk, person.pk])
        following, followers, followed = cursor.fetchone()
    return Counts(following=following, followers=followers), bool(followed)


def counts(person: User) -> Counts:
    return standing(person, AnonymousUser())[0]


def followers_of(person: User) -> QuerySet[User]:
    """The active people following ``person``, the newest follower first."""
    return User.objects.filter(following__followed=person, is_active=True).order_by(
        "-following__created_at", "username"
    )


def followed_by(person: User) -> QuerySet[User]:
    """The active people ``person`` follows, the newest first."""
    return User.objects.filter(followers__follower=person, is_active=True).order_by(
        "-followers__created_at", "username"
    )
