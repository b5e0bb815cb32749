"""Reads about people."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.core.cache import cache
from django.db.models import Count, Q, QuerySet
from django.shortcuts import get_object_or_404

from accounts.models import PROVISIONAL_GAMES, Rating, RatingChange, User
from accounts.rating_chart import Chart, rating_chart
from config.sql_constants import Constant
from games import kinds
from games.kinds.spec import TableSpec
from tournaments.models import Entry


def public_profile(*, username: str) -> User:
    """The active user with this username in any case; 404 otherwise."""
    return get_object_or_404(User.objects.named(username), is_active=True)


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


HISTORY_ROWS = 10
"""The profile's history table lists this many of the newest rated games of each game (the
chart shows them all; the list of games below pages through every one)."""


def profile_ratings(person: User) -> list[GameRating]:
    """The person's rating in each multiplayer game they have one for, in the registry's
    order, with rank, wins and history: a query for the ratings and one per game for its rank,
    whatever the number of games played, and the histories (``_histories``)."""
    specs = {spec.slug: spec for spec in kinds.TABLE_GAMES}
    ratings = {row.game: row for row in Rating.objects.filter(user=person, game__in=list(specs))}
    if not ratings:
        return []
    # Counted along the index ``rating_ranked`` alone (no row read), even while provisional:
    # a constant number of queries. Its condition is written into the SQL (``Constant``): a
    # prepared statement's generic plan proves it only so.
    above: dict[str, int] = {}  # ranked players rated higher
    players: dict[str, int] = {}  # ranked players
    for slug, row in ratings.items():
        counts = Rating.objects.filter(game=slug, games__gte=Constant(PROVISIONAL_GAMES)).aggregate(
            above=Count("mu", filter=Q(mu__gt=row.mu)), all=Count("*")
        )
        above[slug], players[slug] = counts["above"], counts["all"]
    histories = _histories(person, ratings)
    result = []
    for slug, spec in specs.items():
        if slug not in ratings:
            continue
        rating = ratings[slug]
        result.append(
            GameRating(
                spec=spec,
                rating=rating,
                rank=None if rating.provisional else above[slug] + 1,
                ranked_players=0 if rating.provisional else players[slug],
                wins=histories[slug].wins,
                chart=histories[slug].chart,
                history=histories[slug].history,
            )
        )
    return result


@dataclass(frozen=True)
class RatingHistory:
    """What a person's rated games of one game show: it changes only with their next one."""

    wins: int
    chart: Chart
    history: list[RatingHistoryRow]


HISTORY_CACHE_SECONDS = 24 * 3600


def _history_key(rating: Rating) -> str:
    # Each rated game bumps ``games`` and ``updated_at``: a key never names an old history.
    return f"rating-history:{rating.pk}:{rating.games}:{rating.updated_at.timestamp()}"


def _histories(person: User, ratings: dict[str, Rating]) -> dict[str, RatingHistory]:
    """Each game's history, from the cache when the person has played no rated game since,
    else read (``_read_histories``) and kept: a busy player's chart is drawn
    from thousands of games (docs/benchmarks.md, "Ratings at a million games")."""
    keys = {slug: _history_key(rating) for slug, rating in ratings.items()}
    cached = cache.get_many(list(keys.values()))
    found = {slug: cached[key] for slug, key in keys.items() if key in cached}
    missing = [slug for slug in ratings if slug not in found]
    if missing:
        read = _read_histories(person, missing)
        cache.set_many({keys[slug]: history for slug, history in read.items()}, HISTORY_CACHE_SECONDS)
        found.update(read)
    return found


def _read_histories(person: User, games: list[str]) -> dict[str, RatingHistory]:
    """Two queries a game, each along the index ``rating_change_history``: every rated game's
    ratings for the chart and the wins (from the index alone: it covers them), then the newest
    ``HISTORY_ROWS`` for the table."""
    histories = {}
    for game in games:
        changes = RatingChange.objects.filter(user=person, game=game)
        values: list[float] = []
        wins = 0
        for mu_before, mu_after, place in changes.order_by("created_at", "pk").values_list(
            "mu_before", "mu_after", "place"
        ):
            if not values:
                values.append(mu_before)
            values.append(mu_after)
            wins += place == 1
        newest = changes.order_by("-created_at", "-pk").values_list(
            "created_at", "record_id", "place", "mu_before", "mu_after", "games_after"
        )[:HISTORY_ROWS]
        rows = [
            RatingHistoryRow(
                at=at,
                record_id=record_id,
                place=place,
                after=f"{round(mu_after)}?" if games_after < PROVISIONAL_GAMES else str(round(mu_after)),
                delta=round(mu_after) - round(mu_before),
            )
            for at, record_id, place, mu_before, mu_after, games_after in newest
        ]
        histories[game] = RatingHistory(wins, rating_chart(values), rows)
    return histories


def tournaments_played(person: User) -> QuerySet[Entry]:
    """The person's tournament entries, newest tournament first, each with its tournament
    and its number of entrants (``entrants``). One query."""
    return (
        Entry.objects.filter(user=person)
        .select_related("tournament")
        .annotate(entrants=Count("tournament__entries"))
        .order_by("-tournament__starts_at", "-tournament_id")
    )
