"""Template filters for brackets."""

from __future__ import annotations

from django import template

from tournaments import pairing
from tournaments.models import Entry, Match

register = template.Library()


@register.filter
def entrants_of(match: Match) -> tuple[Entry | None, Entry | None]:
    """Both places of a match, empty ones as ``None`` (a bye, or a winner still to come)."""
    return match.first, match.second


@register.filter
def round_name(number: int, rounds: int) -> str:
    return pairing.round_name(number, rounds)
