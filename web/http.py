"""Request types for the type checker (django-stubs' pattern for typed request attributes).

Only annotations: Django still passes a plain ``HttpRequest``; nothing creates these.
"""

from __future__ import annotations

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails

from accounts.models import User


class HtmxHttpRequest(HttpRequest):
    """Every request of this site: django-htmx's middleware sets ``htmx``."""

    htmx: HtmxDetails


class AuthenticatedHttpRequest(HtmxHttpRequest):
    """The request of a view behind ``login_required``: its user is signed in, never anonymous."""

    user: User
