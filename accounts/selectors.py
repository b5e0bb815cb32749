"""Reads about people."""

from __future__ import annotations

from django.shortcuts import get_object_or_404

from accounts.models import User


def public_profile(*, username: str) -> User:
    """The active user with this username in any case; 404 otherwise."""
    return get_object_or_404(User, username__iexact=username, is_active=True)
