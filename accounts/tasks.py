"""What Celery beat runs for people: housekeeping, and reminders before a tournament starts."""

from __future__ import annotations

from celery import shared_task
from django.core.management import call_command
from django.utils import timezone

from accounts import event_notices, presence, turn_digest


@shared_task
def clear_expired_sessions() -> None:
    call_command("clearsessions")


@shared_task
def forget_old_login_failures() -> int:
    """Drop failed-log-in records older than the cool-off: they can no longer lock anyone out."""
    from axes.models import AccessAttempt
    from django.conf import settings

    cutoff = timezone.now() - settings.AXES_COOLOFF_TIME
    deleted, _ = AccessAttempt.objects.filter(attempt_time__lt=cutoff).delete()
    return deleted


@shared_task
def forget_stale_presence() -> int:
    """Deletes the presence rows of sockets that went without closing (a process died)."""
    return presence.forget_stale()


@shared_task
def remind_tournament_entrants() -> int:
    """Notices (and e-mails) to the people entered in a tournament about to start."""
    return event_notices.remind_entrants()


@shared_task
def send_turn_digests() -> int:
    """LP-8: the e-mail digests of turn-based games waiting for people (at most one per person
    every few hours); returns how many people were e-mailed."""
    return turn_digest.send()
