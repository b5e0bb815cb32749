"""Rules for new usernames and passwords. The username column keeps Django's 150 characters:
accounts made before the limit keep their names, and pages cut long ones short
(accounts.templatetags.player_names)."""

from __future__ import annotations

from django.contrib.auth import password_validation
from django.core.exceptions import ValidationError
from django.utils.translation import gettext, gettext_lazy, ngettext

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


class MinimumLengthValidator(password_validation.MinimumLengthValidator):
    """Django's, its refusal worded by this site's catalogue: Django 5.2 words it anew ("at
    least %d characters") and its own Italian catalogue has only the old wording, so the
    refusal came out in English to an Italian reader."""

    def get_error_message(self) -> str:
        return ngettext(
            "This password is too short. It must contain at least %(min_length)d character.",
            "This password is too short. It must contain at least %(min_length)d characters.",
            self.min_length,
        ) % {"min_length": self.min_length}
