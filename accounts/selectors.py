"""Reads about people."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.core.cache import cache
from django.db import connection
from django.db.models import Count, QuerySet
from django.shortcuts import get_object_or_404
from django.urls import reverse

from accounts.models import PROVISIONAL_GAMES, Rating, User
from accounts.rating_chart import MAX_POINTS, Chart, thinned_chart
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

    @property
    def at_iso(self) -> str:
        return self.at.strftime("%Y-%m-%dT%H:%M:%S%z")

    @property
    def replay_url(self) -> str:
        return reverse("replay", args=[self.record_id])

    @property
    def change(self) -> str:
        return f"{self.delta:+d}" if self.delta else "0"

    @property
    def trend(self) -> str:
        return "rating-up" if self.delta > 0 else "rating-down" if self.delta < 0 else ""


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


RANK_SQL = (
    'SELECT COUNT(*) FILTER (WHERE "mu" > %s), COUNT(*) FROM "accounts_rating" '
    f'WHERE "game" = %s AND "games" >= {PROVISIONAL_GAMES}'
)
"""A rating's rank in its game: the ranked players rated higher, and all ranked players.
Counted along the index ``rating_ranked`` alone (no row read), even while provisional: a
query a game whatever the number of players. The index's condition is written into the SQL,
not sent as a parameter: a prepared statement's generic plan proves it only so
(``web.sql_constants``). In SQL, not the ORM: building the query cost more than running
it for most games (0.4 ms of Python a count). A statement a game, not one for all (``UNION
ALL``): PostgreSQL runs such a union's counts in parallel workers, whose start cost more than
the round trips saved (11.1 ms against 8.1 for the busiest profile, issue 42)."""


def profile_ratings(person: User) -> list[GameRating]:
    """The person's rating in each multiplayer game they have one for, in the registry's
    order, with rank, wins and history: a query for the ratings and one per game for its rank,
    whatever the number of games played, and the histories (``_histories``)."""
    specs = {spec.slug: spec for spec in kinds.TABLE_GAMES}
    ratings = {row.game: row for row in Rating.objects.filter(user=person, game__in=list(specs))}
    if not ratings:
        return []
    above: dict[str, int] = {}  # ranked players rated higher
    players: dict[str, int] = {}  # ranked players
    with connection.cursor() as cursor:
        for slug, row in ratings.items():
            cursor.execute(RANK_SQL, [row.mu, slug])
            above[slug], players[slug] = cursor.fetchone()
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


HISTORY_SQL = f"""
SELECT kept.point, kept.mu_before, kept.mu_after, kept.games, kept.wins,
    newest.created_at, newest.record_id, newest.place, newest.games_after
FROM (
    SELECT id, point, mu_before, mu_after, games, wins FROM (
        SELECT id, ROW_NUMBER() OVER oldest_first AS point, mu_before, mu_after,
            MIN(mu_after) OVER oldest_first AS low_so_far, MAX(mu_after) OVER oldest_first AS high_so_far
        FROM accounts_ratingchange WHERE user_id = %s AND game = %s
        WINDOW oldest_first AS (ORDER BY created_at, id)
    ) AS history, (
        SELECT COUNT(*) AS games, MIN(mu_after) AS low, MAX(mu_after) AS high,
            SUM(CASE WHEN place = 1 THEN 1 ELSE 0 END) AS wins
        FROM accounts_ratingchange WHERE user_id = %s AND game = %s
    ) AS totals
    WHERE point = 1
        OR point > games - {HISTORY_ROWS}
        OR mu_after <= low + 1 AND mu_after = low_so_far
        OR mu_after >= high - 1 AND mu_after = high_so_far
        OR ((2 * point + 1) * {MAX_POINTS - 1} - 1) / (2 * games)
            >= ((2 * point - 1) * {MAX_POINTS - 1} + 2 * games - 1) / (2 * games)
) AS kept
LEFT JOIN accounts_ratingchange AS newest
    ON newest.id = CASE WHEN kept.point > kept.games - {HISTORY_ROWS} THEN kept.id END
ORDER BY kept.point
"""
"""A rated history in one statement: the points that ``thinned_chart`` needs, thinned in the
database, and the newest ``HISTORY_ROWS`` games for the table. One row per rated game, oldest
first (point n is the rating after the n-th game; the first row also gives point 0, the rating
before it). A row is kept if ``thin`` keeps its point, or if it could be the first to round to
the lowest or the highest rating: such a point is within 1 of the lowest (highest) and the
lowest (highest) so far, since rounding never reverses an order; or if it is one of the newest,
which alone are joined to their rows for what the index ``rating_change_history`` does not hold
(the record, the games rated after it): the others' key is NULL, which the primary key's index
answers without reading a page. The totals are a plain aggregate: a window over the whole
history cost twice as much. ``thin`` keeps ``round(j * games / (MAX_POINTS - 1))`` for j in
0..MAX_POINTS - 1: point n is one when such a j lies in [(2n - 1) m / 2g, ((2n + 1) m - 1) / 2g]
(m = MAX_POINTS - 1, g = games), in whole numbers as written. m is odd, so no j * g / m ends in
exactly .5 and Python's rounding (half to even) and this one agree. Along
``rating_change_history``, on PostgreSQL and SQLite alike; a busy player's history sends about
MAX_POINTS rows, not thousands (docs/benchmarks.md, issue 42).

One statement a game, not two (the newest rows were an ORM query of their own: 1.5 ms of
Python for the busiest profile's three), nor one for all games (``PARTITION BY game`` and a
hash join of the totals cost 1.2 ms more than three statements; issue 42)."""


def _read_histories(person: User, games: list[str]) -> dict[str, RatingHistory]:
    """The history of each of ``games``: a statement a game (``HISTORY_SQL``)."""
    histories = {}
    with connection.cursor() as cursor:
        for game in games:
            cursor.execute(HISTORY_SQL, [person.pk, game] * 2)
            histories[game] = _history(cursor.fetchall())
    return histories


def _history(rows: list[tuple[Any, ...]]) -> RatingHistory:
    values: dict[int, float] = {}
    newest = []
    for point, mu_before, mu_after, _, _, at, record_id, place, games_after in rows:
        if point == 1:
            values[0] = mu_before
        values[point] = mu_after
        if record_id is not None:
            shown = str(round(mu_after)) + ("?" if games_after < PROVISIONAL_GAMES else "")
            newest.append(RatingHistoryRow(at, record_id, place, shown, round(mu_after) - round(mu_before)))
    # Every row carries the history's number of games and wins.
    count, wins = (rows[0][3], rows[0][4]) if rows else (-1, 0)
    return RatingHistory(wins, thinned_chart(values, count + 1), newest[::-1])


def tournaments_played(person: User) -> QuerySet[Entry]:
    """The person's tournament entries, newest tournament first, each with its tournament
    and its number of entrants (``entrants``). One query."""
    return (
        Entry.objects.filter(user=person)
        .select_related("tournament")
        .annotate(entrants=Count("tournament__entries"))
        .order_by("-tournament__starts_at", "-tournament_id")
    )
