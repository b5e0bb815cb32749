"""Template filters for tournaments: points, places, seeds, times and round names."""

from __future__ import annotations

from fractions import Fraction

from django import template

from games.kinds import words
from tournaments import selectors
from tournaments.models import Match, MatchGame

register = template.Library()


@register.filter
def points(value: Fraction | float | int | None) -> str:
    """Points as players write them: 3, 2½, ½; other fractions (a table bye's average) to
    two decimals."""
    if value is None:
        return ""
    value = Fraction(value).limit_denominator(1000)
    whole, part = divmod(value, 1)
    if part == 0:
        return str(whole)
    if part == Fraction(1, 2):
        return f"{whole or ''}½"
    return f"{float(value):.2f}"


@register.filter
def ordinal(number: int | None) -> str:
    return "" if number is None else words.ordinal(number)


@register.filter
def duration(seconds: float | None) -> str:
    """A solitaire event's time as a clock shows it: 0:42, 12:05, 1:02:09."""
    if seconds is None:
        return ""
    minutes, secs = divmod(round(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


@register.filter
def seed_number(seed: int | None) -> str:
    """A seed as people count them: the first seed is 1."""
    return "" if seed is None else str(seed + 1)


@register.filter
def round_of(match: Match) -> str:
    """The round a match (its tournament loaded) belongs to: 'Semi-finals', 'Round 2'."""
    return selectors.match_label(match)


@register.filter
def score_before(game: MatchGame) -> str:
    """TN-5: a best-of-N match's score as its ``game`` starts, by seat: '1-0'."""
    sides = dict(game.match.seatings.values_list("entry_id", "seat"))
    wins = [0, 0]
    for winner in game.match.games.filter(number__lt=game.number).values_list("winner_id", flat=True):
        if winner in sides:
            wins[sides[winner]] += 1
    return f"{wins[0]}-{wins[1]}"
