"""Reads about people."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

from django.db import connection
from django.db.models import Count, QuerySet
from django.shortcuts import get_object_or_404
from django.urls import reverse

from accounts import histories
from accounts.models import PROVISIONAL_GAMES, Rating, User
from accounts.rating_chart import Chart, thinned_chart
from games import kinds
from games.kinds.spec import TableSpec
from games.stats.selectors import hidden_from_public
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
    private: bool = False
    """A game of a private table, shown to someone who may not open it: no replay link (LP-9)."""

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


HISTORY_ROWS = histories.HISTORY_ROWS


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


def profile_ratings(person: User, *, public: bool = False) -> list[GameRating]:
    """The person's rating in each multiplayer game they have one for, in the registry's
    order, with rank, wins and history: a query for the ratings and one per game for its rank,
    whatever the number of games played, and the histories (``_histories``). ``public``: for
    anyone but the person, whose history rows of private tables' games carry no replay link
    (LP-9: the replay answers them as a table that is not there)."""
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
    if public:
        histories = _private_marked(person, histories)
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


def _histories(person: User, ratings: dict[str, Rating]) -> dict[str, RatingHistory]:
    """Each game's history as its rating keeps it (``accounts.histories``, written with each
    rated game), else read now: a rating whose kept history is behind its games (none kept
    yet) is read with ``HISTORY_SQL``, a statement a game."""
    found = {}
    for game, rating in ratings.items():
        kept: histories.Rows | None = rating.history
        if kept is None or not histories.is_current(kept, rating.games):
            kept = histories.read(person.pk, game)
        found[game] = _history(kept)
    return found


def _private_marked(person: User, found: dict[str, RatingHistory]) -> dict[str, RatingHistory]:
    """``found`` with its rows of private tables' games marked: those the person's list of games
    leaves out for others too (``hidden_from_public``, the one rule of what a visitor sees)."""
    if not any(history.history for history in found.values()):
        return found
    private = set(hidden_from_public(person))
    if not private:
        return found
    return {
        game: replace(
            history,
            history=[
                replace(row, private=True) if row.record_id in private else row for row in history.history
            ],
        )
        for game, history in found.items()
    }


def _history(rows: histories.Rows) -> RatingHistory:
    values: dict[int, float] = {}
    newest = []
    for point, mu_before, mu_after, _, _, when, record_id, place, games_after in rows:
        if point == 1:
            values[0] = mu_before
        values[point] = mu_after
        if record_id is not None:
            at = datetime.fromisoformat(when) if isinstance(when, str) else when
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
