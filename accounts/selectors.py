"""Reads about people."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Count, Q, QuerySet
from django.shortcuts import get_object_or_404

from accounts.models import PROVISIONAL_GAMES, Rating, RatingChange, User
from accounts.rating_chart import Chart, rating_chart
from games import kinds
from games.kinds.spec import TableSpec
from tournaments.models import Entry


def public_profile(*, username: str) -> User:
    """The active user with this username in any case; 404 otherwise."""
    return get_object_or_404(User, username__iexact=username, is_active=True)


@dataclass(frozen=True)
class RatingHistoryRow:
    """One rated game in a person's history, as the profile's table shows it."""

    at: datetime
    record_id: int
    place: int
    after: str  # RT-3: "1512?" while provisional
    delta: int


@dataclass(frozen=True)
class GameRating:
    """A person's standing in one multiplayer game, for the profile."""

    spec: TableSpec
    rating: Rating
    rank: int | None  # among the game's non-provisional players; None while provisional
    ranked_players: int
    wins: int
    chart: Chart
    history: list[RatingHistoryRow]  # newest first, at most HISTORY_ROWS

    @property
    def games(self) -> int:
        return self.rating.games


HISTORY_ROWS = 100
"""The profile's history table lists this many of the newest rated games (the chart, all)."""


def profile_ratings(person: User) -> list[GameRating]:
    """The person's rating in each multiplayer game they have one for, in the registry's
    order, with rank, wins and history. Three queries, whatever the number of games."""
    specs = {spec.slug: spec for spec in kinds.TABLE_GAMES}
    ratings = {row.game: row for row in Rating.objects.filter(user=person, game__in=list(specs))}
    if not ratings:
        return []
    # One aggregate for every game's rank (run even while provisional: a constant count).
    mine = list(ratings.values())
    counts = Rating.objects.filter(games__gte=PROVISIONAL_GAMES).aggregate(
        **{f"above_{n}": Count("pk", filter=Q(game=row.game, mu__gt=row.mu)) for n, row in enumerate(mine)},
        **{f"all_{n}": Count("pk", filter=Q(game=row.game)) for n, row in enumerate(mine)},
    )
    above = {row.game: counts[f"above_{n}"] for n, row in enumerate(mine)}  # ranked players rated higher
    players = {row.game: counts[f"all_{n}"] for n, row in enumerate(mine)}  # ranked players
    changes: dict[str, list[tuple[datetime, int, int, float, float, int]]] = {slug: [] for slug in ratings}
    rows = (
        RatingChange.objects.filter(user=person, game__in=list(ratings))
        .order_by("created_at", "pk")
        .values_list("game", "created_at", "record_id", "place", "mu_before", "mu_after", "games_after")
    )
    for game, at, record_id, place, mu_before, mu_after, games_after in rows:
        changes[game].append((at, record_id, place, mu_before, mu_after, games_after))
    result = []
    for slug, spec in specs.items():
        if slug not in ratings:
            continue
        rating, history = ratings[slug], changes[slug]
        values = [history[0][3], *(entry[4] for entry in history)] if history else []
        table = [
            RatingHistoryRow(
                at=at,
                record_id=record_id,
                place=place,
                after=f"{round(mu_after)}?" if games_after < PROVISIONAL_GAMES else str(round(mu_after)),
                delta=round(mu_after) - round(mu_before),
            )
            for at, record_id, place, mu_before, mu_after, games_after in reversed(history[-HISTORY_ROWS:])
        ]
        result.append(
            GameRating(
                spec=spec,
                rating=rating,
                rank=None if rating.provisional else above[slug] + 1,
                ranked_players=0 if rating.provisional else players[slug],
                wins=sum(1 for entry in history if entry[2] == 1),
                chart=rating_chart(values),
                history=table,
            )
        )
    return result


def tournaments_played(person: User) -> QuerySet[Entry]:
    """The person's tournament entries, newest tournament first, each with its tournament
    and its number of entrants (``entrants``). One query."""
    return (
        Entry.objects.filter(user=person)
        .select_related("tournament")
        .annotate(entrants=Count("tournament__entries"))
        .order_by("-tournament__starts_at", "-tournament_id")
    )
