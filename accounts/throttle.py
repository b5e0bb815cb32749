"""How failed log-ins are counted and refused: django-axes, with a second limit.

Both limits count the wrong passwords of the last ``AXES_COOLOFF_TIME`` (15 minutes) from
one client address, the ``REMOTE_ADDR`` daphne resolved (see docs/operations.md):
- ``AXES_FAILURE_LIMIT`` (5) for one username locks that username from that address only,
  so nobody can lock the owner out of their account from elsewhere;
- ``LOGIN_FAILURES_PER_ADDRESS`` (10), whatever the usernames, locks the address: a few
  common passwords tried against many accounts (password spraying) never reach five for
  any one of them.
The second limit reads axes' own records of failures (``AccessAttempt``), so both limits
share one store, one window and one lock-out page, and every server process sees them.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from axes.attempts import get_cool_off_threshold
from axes.conf import settings as axes_settings
from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username, get_cool_off
from axes.models import AccessAttempt
from axes.signals import user_locked_out
from django.conf import settings
from django.db.models import Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from accounts.models import User


class AxesHttpRequest(HttpRequest):
    """A request as axes hands it to its handler: its proxy handler has set these first.
    Only an annotation: the request is Django's own ``HttpRequest``."""

    axes_locked_out: bool
    axes_credentials: dict[str, Any] | None
    axes_ip_address: str | None


def lockout_username(request: HttpRequest, credentials: dict[str, Any] | None) -> str:
    """The username tried, lower-cased: "Alice" and "alice" are one account, so one counter.
    Cut to the longest username an account can have: axes stores it in 255 characters, and
    a longer one (no account has it) ended in a database error (found by `make fuzz`)."""
    username = (credentials or {}).get("username") or request.POST.get("username", "")
    return str(username).strip().lower()[: User.username.field.max_length]


def address_failures(request: HttpRequest) -> int:
    """Wrong passwords from this request's address within the cool-off, for any username."""
    address = getattr(request, "axes_ip_address", None)
    if not address:
        # Without an address there is nothing to pool on; the per-username limit still applies.
        return 0
    total = AccessAttempt.objects.filter(
        ip_address=address, attempt_time__gte=get_cool_off_threshold(request)
    ).aggregate(total=Sum("failures_since_start"))["total"]
    return total or 0


def address_is_locked(request: HttpRequest) -> bool:
    return address_failures(request) >= settings.LOGIN_FAILURES_PER_ADDRESS


class AccountAndAddressHandler(AxesDatabaseHandler):
    """axes' database handler plus the per-address limit.

    axes asks ``is_locked`` before checking a password (the standalone backend refuses a
    locked attempt, right password or not) and flags the response in ``user_login_failed``
    after a wrong one; the address limit joins in at both places.
    """

    def is_locked(self, request: HttpRequest, credentials: dict[str, Any] | None = None) -> bool:
        return super().is_locked(request, credentials) or address_is_locked(request)

    def user_login_failed(
        self,
        sender: Any,
        credentials: dict[str, Any],
        request: AxesHttpRequest | None = None,
        **kwargs: Any,
    ) -> None:
        super().user_login_failed(sender, credentials, request, **kwargs)
        if request is None or request.axes_locked_out or self.is_whitelisted(request, credentials):
            return
        if address_is_locked(request):
            # The failure that reaches the limit is refused with the lock-out page, as the
            # fifth for one username is.
            request.axes_locked_out = True
            request.axes_credentials = credentials
            user_locked_out.send(
                "axes",
                request=request,
                username=get_client_username(request, credentials),
                ip_address=request.axes_ip_address,
            )


def humane_duration(delta: timedelta) -> str:
    """'15 minutes', '1 hour', '1 hour 30 minutes': what a person reads, rounded up to minutes."""
    minutes = max(1, -(-int(delta.total_seconds()) // 60))
    hours, minutes = divmod(minutes, 60)
    parts = []
    if hours:
        parts.append(f"{hours} hour{'s' if hours != 1 else ''}")
    if minutes:
        parts.append(f"{minutes} minute{'s' if minutes != 1 else ''}")
    return " ".join(parts)


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None = None, credentials: Any = None
) -> HttpResponse:
    """The lock-out page, saying which limit was reached and how long to wait.

    axes' own page passes the cool-off as ISO 8601 ("PT15M") and knows only one limit.
    Every attempt during a lock-out starts the cool-off again, so the wait is the whole of it.
    """
    by_address = address_is_locked(request)
    cool_off = get_cool_off(request) or timedelta(0)
    context = {
        "by_address": by_address,
        "failure_limit": settings.LOGIN_FAILURES_PER_ADDRESS if by_address else settings.AXES_FAILURE_LIMIT,
        "wait": humane_duration(cool_off),
    }
    return render(
        request, settings.AXES_LOCKOUT_TEMPLATE, context, status=axes_settings.AXES_HTTP_RESPONSE_CODE
    )
