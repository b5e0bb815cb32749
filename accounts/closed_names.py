"""A closed account's name, as pages, files and the API give it (issue 45).

The account's row stays (its games stay for the other players) and its username is retired
(``accounts.forms.SignupForm`` refuses it again), but no page shows it: ``Seat.name``,
``Entry.name`` and the pages that read a user say ``shown()`` in its place, files and the API
give no username (``username``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.translation import gettext

if TYPE_CHECKING:
    from accounts.models import User


def shown() -> str:
    """What pages say in place of a closed account's name."""
    return gettext("a closed account")


def username(user: User | None) -> str | None:
    """A person's username as files and the API give it: none for nobody, nor for a closed
    account (its name is retired; its row says "a closed account")."""
    if user is None or user.closed_at is not None:
        return None
    return user.username
