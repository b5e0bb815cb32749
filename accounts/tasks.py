"""Housekeeping that Celery beat runs."""

from __future__ import annotations

from celery import shared_task
from django.core.management import call_command
from django.utils import timezone


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
