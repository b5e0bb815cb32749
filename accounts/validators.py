"""Rules for new usernames. The column keeps Django's 150 characters: accounts made before the
limit keep their names, and pages cut long ones short (accounts.templatetags.player_names)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext, gettext_lazy

USERNAME_MIN = 3
USERNAME_MAX = 20
"""As lichess: long enough to tell people apart, short enough for a header, a seat or a
bracket line on a phone."""


def username_rule() -> str:
    """The rule as the sign-up form says it, in the reader's language."""
    return gettext(
        "%(low)d to %(high)d characters: letters, digits and @ . + - _ only. "
        "It is shown on every table, tournament and leaderboard."
    ) % {"low": USERNAME_MIN, "high": USERNAME_MAX}


def validate_new_username_length(username: str) -> None:
    length = len(username)
    if USERNAME_MIN <= length <= USERNAME_MAX:
        return
    raise ValidationError(
        gettext_lazy("A username has %(low)d to %(high)d characters; this one has %(length)d."),
        code="username_too_short" if length < USERNAME_MIN else "username_too_long",
        params={"low": USERNAME_MIN, "high": USERNAME_MAX, "length": length},
    )
