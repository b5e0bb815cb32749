"""Mutes: staff keep a person out of every chat for a time (issue 45)."""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.models import AnonymousUser
from django.db.models import Max
from django.utils import timezone

from accounts.models import User
from talk.models import Mute


def muted_until(user: User | AnonymousUser, *, now: datetime | None = None) -> datetime | None:
    """When ``user``'s latest running mute ends, or None if they may chat."""
    if not user.is_authenticated:
        return None
    now = now or timezone.now()
    running = Mute.objects.filter(user_id=user.pk, until__gt=now)
    until: datetime | None = running.aggregate(end=Max("until"))["end"]
    return until
