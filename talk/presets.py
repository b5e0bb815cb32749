"""Preset phrases: one click away, for people who prefer not to type (LP-10). A message keeps
the phrase's key, and each reader sees the phrase in their own language."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

PRESETS: dict[str, Promise] = {
    "hello": _("Hello"),
    "gl": _("Good luck"),
    "gg": _("Good game"),
    "wp": _("Well played"),
    "thanks": _("Thanks"),
}


def phrase(key: str) -> str:
    """The phrase of ``key`` in the current language; "" for a key that is not a preset."""
    found = PRESETS.get(key)
    return "" if found is None else str(found)
