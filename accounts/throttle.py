"""How django-axes keys failed log-ins."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest


def lockout_username(request: HttpRequest, credentials: dict[str, Any] | None) -> str:
    """The username tried, lower-cased: "Alice" and "alice" are one account, so one counter."""
    username = (credentials or {}).get("username") or request.POST.get("username", "")
    return str(username).strip().lower()
