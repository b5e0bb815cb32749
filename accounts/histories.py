"""A person's rated history of one game, as the profile shows it: the chart's points and the
newest games. Read with one statement (``HISTORY_SQL``) when a game is rated, in its
transaction (``accounts.ratings.rate_game``), and kept on the rating (``Rating.history``), so
that a profile reads it with the rating itself.

Kept in the database, not the cache: the busiest profile (9,273 rated games) read its three
histories in 7.2 ms of SQL whenever the cache had lost them; kept, a cold profile costs what a
warm one does (issue 42, docs/benchmarks.md). The price is that statement for each person of
a rated game when it ends (a millisecond for most; 2-3 ms for the busiest).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import connection

from accounts.rating_chart import MAX_POINTS

HISTORY_ROWS = 10
"""The profile's history table lists this many of the newest rated games of each game (the
chart shows them all; the list of games below pages through every one)."""

Rows = list[list[Any]]
"""``HISTORY_SQL``'s rows as JSON keeps them: times in ISO 8601."""


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


def read(person_id: int, game: str) -> Rows:
    with connection.cursor() as cursor:
        cursor.execute(HISTORY_SQL, [person_id, game] * 2)
        return [[_json(value) for value in row] for row in cursor.fetchall()]


def is_current(rows: Rows, games: int) -> bool:
    """Whether kept ``rows`` are the history of all ``games`` rated games (each row carries
    their number)."""
    return rows[0][3] == games if rows else games == 0


def keep_all(rating_model: Any, batch: int = 2000) -> int:
    """Every rating's history kept, a batch at a time: for ratings written without one (the
    migration that added ``Rating.history``, the generators' bulk rows). Takes the model, so
    that a migration passes its historical one. Returns how many were kept."""
    last, kept = 0, 0
    while True:
        ratings = list(rating_model.objects.filter(pk__gt=last).order_by("pk")[:batch])
        if not ratings:
            return kept
        for rating in ratings:
            rating.history = read(rating.user_id, rating.game)
        rating_model.objects.bulk_update(ratings, ["history"])
        last, kept = ratings[-1].pk, kept + len(ratings)


def _json(value: Any) -> Any:
    return value.isoformat() if isinstance(value, datetime) else value
