"""The plans the ratings pages' statements run with, on data big enough to tell an index walk
from a scan (docs/benchmarks.md, "Ratings at a million games"; issue 42).

The statements are read as the site runs them: on the test connection, whose settings are the
site's (statements prepared after five runs, bound on the server), after ``RUNS`` runs of the
page, so that PostgreSQL has had the chance to switch a statement to its generic plan
(tests/query_plans.py). Each check holds for that plan and for the generic plan, which
PostgreSQL may switch to whenever its estimates say so.

The data (module-wide, committed, vacuumed and analysed as a real site's would be, then
removed): 4,000 people, one of them (``plan-00000``) in 4,000 of 40,000 table games where the
others have about 20 each: the skew that made the generic plan of the busiest player's games
read every one of them (issue 42); 12,000 ratings, a quarter provisional; 60 days of daily
deals of both solitaire games with 300 ranked attempts each; 77,000 rating changes, 3,000 of
them the busiest person's (1,000 a game); 20,000 follows, 1,000 of them of the busiest.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest
from django.core.cache import cache
from django.core.management.sql import emit_post_migrate_signal
from django.db import connection
from django.test import Client, override_settings

from accounts.models import Follow, Rating, RatingChange, User
from games import kinds
from games.models import DailyChallenge, GameRecord, Participation, Seat, Table
from games.stats import selectors
from games.stats.keysets import GameKey, RatingKey
from tests.query_plans import Plan, PlanReader, bulk_copies

pytestmark = pytest.mark.django_db

PEOPLE = 4_000
TABLE_GAMES = 40_000
BUSY_EVERY = 10
"""The busiest person sits at every tenth table game."""
DAYS, ATTEMPTS = 60, 300
BUSIEST = "plan-00000"
GAMES_READ = 'FROM "games_participation" WHERE'
"""A person's games (the page's rows are then read by their keys: a bounded read)."""
RATINGS = 'FROM "accounts_rating" '
OWN_RATINGS = '"accounts_rating"."user_id" = %s'
"""A person's own ratings, read by their key: not a read by rank."""
TODAY = dt.date(2026, 11, 29)
HISTORY = "FROM accounts_ratingchange WHERE user_id = %s AND game = %s"
"""A person's rated history of a game (``accounts.selectors.HISTORY_SQL``)."""
FOLLOWS = "FROM accounts_follow AS f"
"""A person's follow counts (``accounts.follows.STANDING_SQL``)."""
RATED_BY_BUSIEST = 3_000
TABLES = (
    "accounts_user",
    "accounts_rating",
    "accounts_ratingchange",
    "accounts_follow",
    "games_gamerecord",
    "games_participation",
    "games_dailychallenge",
    "games_table",
    "games_seat",
)


def _fill() -> None:
    busy = User.objects.create(username=BUSIEST, password="!")
    bulk_copies(User, busy, PEOPLE - 1, {"username": "'plan-' || lpad(n::text, 5, '0')"})
    first = busy.pk
    assert User.objects.filter(pk__gt=first).count() == PEOPLE - 1
    others = PEOPLE - 1  # people first + 1 .. first + others, in the order made
    for spec in kinds.TABLE_GAMES:
        mine = Rating.objects.create(user=busy, game=spec.slug, mu=1600, sigma=100, games=30)
        bulk_copies(
            Rating,
            mine,
            others,
            {"user_id": f"{first} + n", "mu": "1000 + mod(n * 7919, 1000)", "games": "mod(n, 40)"},
        )
    start = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    game = GameRecord.objects.create(
        game="triad",
        engine_version=1,
        config={},
        seed=1,
        kind=GameRecord.Kind.TABLE,
        status=GameRecord.Status.FINISHED,
        outcome={"winner": 0, "places": [1, 2]},
        created_at=start,
        finished_at=start,
    )
    bulk_copies(
        GameRecord,
        game,
        TABLE_GAMES - 1,
        {
            "finished_at": "t.finished_at + n * interval '1 minute'",
            "created_at": "t.created_at + n * interval '1 minute'",
        },
    )
    seat = Participation.objects.create(
        user=busy, record=game, game="triad", finished_at=start, seat=0, won=True
    )
    # Seat 0 of game n: the busiest person at every tenth, else someone of the others; seat 1
    # someone else again.
    someone = f"mod(n * 13, {others})"
    before = f"mod((n - 1) * 13, {others})"  # seat 0's someone, where seat 1 is in game n - 1
    bulk_copies(
        Participation,
        seat,
        TABLE_GAMES - 1,
        {
            "record_id": f"{game.pk} + n",
            "finished_at": "t.finished_at + n * interval '1 minute'",
            "user_id": f"CASE WHEN mod(n, {BUSY_EVERY}) = 0 THEN {first} ELSE {first} + 1 + {someone} END",
        },
    )
    bulk_copies(
        Participation,
        seat,
        TABLE_GAMES,
        {
            "record_id": f"{game.pk} + n - 1",
            "finished_at": "t.finished_at + (n - 1) * interval '1 minute'",
            "seat": "1",
            "won": "false",
            "user_id": f"{first} + 1 + mod({before} + 1 + mod(n - 1, {others} - 1), {others})",
        },
    )
    # Each table game's table, every fiftieth private, and its two seats as the participations.
    first_table = Table.objects.create(
        game="triad", config={}, created_by=busy, status=Table.Status.FINISHED, record=game
    )
    bulk_copies(
        Table,
        first_table,
        TABLE_GAMES - 1,
        {"record_id": f"{game.pk} + n", "private_key": "CASE WHEN mod(n, 50) = 0 THEN 'plan-' || n END"},
    )
    chair = Seat.objects.create(table=first_table, number=0, user=busy)
    bulk_copies(
        Seat,
        chair,
        TABLE_GAMES - 1,
        {
            "table_id": f"{first_table.pk} + n",
            "user_id": f"CASE WHEN mod(n, {BUSY_EVERY}) = 0 THEN {first} ELSE {first} + 1 + {someone} END",
        },
    )
    bulk_copies(
        Seat,
        chair,
        TABLE_GAMES,
        {
            "table_id": f"{first_table.pk} + n - 1",
            "number": "1",
            "user_id": f"{first} + 1 + mod({before} + 1 + mod(n - 1, {others} - 1), {others})",
        },
    )
    # The busiest person's rated games: the first 3,000 table games, a third of each game; then
    # two others' changes in each of 37,000 games (records 3,000 on: never the busiest's pair).
    change = RatingChange.objects.create(
        user=busy,
        record=game,
        game="triad",
        place=1,
        mu_before=1500,
        sigma_before=100,
        mu_after=1510,
        sigma_after=100,
        games_after=1,
    )
    games = [spec.slug for spec in kinds.TABLE_GAMES]
    bulk_copies(
        RatingChange,
        change,
        RATED_BY_BUSIEST - 1,
        {
            "record_id": f"{game.pk} + n",
            "game": f"(ARRAY{games})[1 + mod(n, {len(games)})]",
            "mu_before": "1500 + mod(n * 37, 200)",
            "mu_after": "1500 + mod((n + 1) * 37, 200)",
            "games_after": "n / 3 + 1",
            "created_at": "t.created_at + n * interval '1 minute'",
        },
    )
    bulk_copies(
        RatingChange,
        change,
        74_000,
        {
            "record_id": f"{game.pk} + {RATED_BY_BUSIEST} + (n - 1) / 2",
            "user_id": f"{first} + 1 + mod(n, {others})",
            "game": f"(ARRAY{games})[1 + mod(n / 2, {len(games)})]",
            "mu_after": "1500 + mod(n * 37, 200)",
            "created_at": "t.created_at + n * interval '1 minute'",
        },
    )
    # Five follows a person (each follows the next five), and a thousand of the busiest.
    follow = Follow.objects.create(follower_id=first + 1, followed=busy)
    bulk_copies(Follow, follow, 999, {"follower_id": f"{first} + 1 + n"})
    bulk_copies(
        Follow,
        follow,
        19_000,
        {
            "follower_id": f"{first} + 1 + mod(n, {others})",
            "followed_id": f"{first} + 1 + mod(mod(n, {others}) + 1 + mod(n / {others}, 5), {others})",
        },
    )
    today = TODAY
    for slug in kinds.SOLITAIRE_SLUGS:
        DailyChallenge.objects.bulk_create(
            DailyChallenge(game=slug, date=today - dt.timedelta(days=back), seed=back) for back in range(DAYS)
        )
        attempt = GameRecord.objects.create(
            game=slug,
            engine_version=1,
            config={},
            seed=0,
            kind=GameRecord.Kind.DAILY,
            daily=DailyChallenge.objects.get(game=slug, date=today),
            ranked=True,
            owner=busy,
            status=GameRecord.Status.FINISHED,
            won=True,
            score=500,
            finished_moves=50,
            finished_elapsed=dt.timedelta(seconds=100),
            created_at=start,
            finished_at=start,
        )
        bulk_copies(
            GameRecord,
            attempt,
            DAYS * ATTEMPTS - 1,
            {
                "daily_id": (
                    f"(SELECT d.id FROM games_dailychallenge d WHERE d.game = '{slug}' "
                    f"AND d.date = DATE '{today}' - (n / {ATTEMPTS}))"
                ),
                "owner_id": f"{first} + 1 + mod(mod(n, {ATTEMPTS}) * 13, {others})",
                "won": "mod(n, 3) = 0",
                "score": "mod(n * 37, 1000)",
                "finished_moves": "20 + mod(n, 90)",
            },
        )
    with connection.cursor() as cursor:
        for table in TABLES:
            cursor.execute(f"VACUUM ANALYZE {table}")


def _remove() -> None:
    """Every table emptied, as after a test that commits, with TRUNCATE (Django's flush): the
    fill is all that is committed here, since every test that commits is flushed after it.
    DELETE, as the suite's flush does (config/test_postgres/base.py), would check the foreign keys
    of each of the fill's 500,000 rows: 11 s, against well under one."""
    tables = connection.introspection.django_table_names(only_existing=True, include_views=False)
    with connection.cursor() as cursor:
        cursor.execute(f"TRUNCATE {', '.join(map(connection.ops.quote_name, tables))}")
    emit_post_migrate_signal(verbosity=0, interactive=False, db=connection.alias)


@pytest.fixture(scope="module")
def plan_data(django_db_setup: None, django_db_blocker: Any) -> Iterator[None]:
    with django_db_blocker.unblock():
        # A session of its own: no statement prepared and planned with other tests' few rows.
        connection.close()
        _fill()
        try:
            yield
        finally:
            _remove()
            connection.close()


@pytest.fixture
def plans(plan_data: None, monkeypatch: pytest.MonkeyPatch) -> Iterator[PlanReader]:
    monkeypatch.setattr(selectors, "utc_today", lambda: TODAY)
    with override_settings(RATELIMIT_ENABLE=False):  # 12 GETs a page, as many as a reader may make
        yield PlanReader()


def explain(plans: list[Plan]) -> str:
    return "\n\n".join(f"{plan.sql}\n{plan.text}" for plan in plans)


def get(client: Client, url: str) -> None:
    assert client.get(url).status_code == 200, url


@pytest.fixture
def deep(plans: PlanReader) -> dict[str, str]:
    """Keys far down the lists, as the pages' links hold them: the 2,001st Triad rating, the
    busiest person's 2,001st game."""
    rating = selectors.ranked_ratings("triad")[2000]
    busy = User.objects.get(username=BUSIEST)
    finished_at, record_id = selectors.player_games(busy).values_list("finished_at", "record_id")[2000]
    return {
        "rating": quote(RatingKey(rating.mu, rating.pk).token),
        "game": quote(GameKey(finished_at, record_id).token),
    }


@pytest.mark.parametrize("query", ["", "?page=30", "?after={game}", "?before={game}"])
def test_the_busiest_players_games_walk_their_index_newest_first(
    plans: PlanReader, client: Client, deep: dict[str, str], query: str
) -> None:
    """The cause of issue 42's slowest page: the generic plan joined each of the person's 4,000
    games to its record and table, then sorted them, to show 50."""
    url = f"/api/users/{BUSIEST}/games{query.format(**deep)}"
    read = plans.read(lambda: get(client, url), GAMES_READ, " LIMIT ")
    for plan in read.site + read.generic:
        assert plan.walks("participation_newest"), explain([plan])
        assert not plan.sorts() and not plan.scans("games_participation"), explain([plan])


def test_a_players_counts_by_game_read_their_index_alone(plans: PlanReader, client: Client) -> None:
    read = plans.read(lambda: get(client, f"/api/users/{BUSIEST}"), 'AS "n" FROM "games_participation"')
    for plan in read.site + read.generic:
        assert plan.reads_only("participation_game_newest"), explain([plan])


def test_the_profiles_list_of_games_walks_its_index(plans: PlanReader, client: Client) -> None:
    read = plans.read(lambda: get(client, f"/u/{BUSIEST}/"), GAMES_READ, " LIMIT ")
    for plan in read.site + read.generic:
        assert plan.walks("participation_newest"), explain([plan])
        assert not plan.sorts() and not plan.scans("games_participation"), explain([plan])


def test_the_profiles_ranks_count_along_the_rating_index(plans: PlanReader, client: Client) -> None:
    read = plans.read(lambda: get(client, f"/u/{BUSIEST}/ratings/"), RATINGS, without=OWN_RATINGS)
    for plan in read.site + read.generic:
        assert plan.reads_only("rating_ranked"), explain([plan])
        assert not plan.scans("accounts_rating"), explain([plan])


@pytest.mark.parametrize(
    "url",
    [
        "/leaderboards/",
        "/leaderboards/triad/",
        "/leaderboards/triad/?page=50",
        "/leaderboards/triad/?after={rating}",
        "/leaderboards/triad/?before={rating}",
        "/api/leaderboards/triad?page=50",
        "/api/leaderboards/triad?after={rating}",
    ],
)
def test_rating_boards_walk_the_rating_index(
    plans: PlanReader, client: Client, deep: dict[str, str], url: str
) -> None:
    """Every statement of a board that reads ratings by rank (its rows, counts, the place of a
    page), at the top and deep down."""
    read = plans.read(lambda: get(client, url.format(**deep)), RATINGS, without=OWN_RATINGS)
    for plan in read.site + read.generic:
        if " LIMIT " in plan.sql:  # a page, a place: in the index's order
            assert plan.walks("rating_ranked"), explain([plan])
        else:  # a count: of a range of the index, or of the few ratings as high as a key
            assert plan.uses("rating_ranked"), explain([plan])
        ties = '"accounts_rating"."mu" = %s' in plan.sql
        assert not plan.scans("accounts_rating") or (ties and not plan.reads_whole("accounts_rating")), (
            explain([plan])
        )


def test_the_all_time_daily_boards_walk_the_rank_index(plans: PlanReader, client: Client) -> None:
    """Each game's best results of all time: a walk of ``daily_attempt_rank`` in rank order."""
    read = plans.read(
        lambda: get(client, "/leaderboards/"), "ORDER BY r.won DESC", without="d.date >= "
    )  # selectors.BEST_WALK_SQL, without a first day
    all_time = read.site + read.generic
    assert all_time
    for plan in all_time:
        assert plan.walks("daily_attempt_rank"), explain([plan])
        assert not plan.scans("games_gamerecord"), explain([plan])


def test_a_days_board_walks_its_index_to_its_top_ten(plans: PlanReader, client: Client) -> None:
    """Today's boards on the leaderboards page: the first ten of the day's attempts along
    ``daily_attempt_day_rank``, where they sorted all 300 (1,000 a day at a million games)."""
    read = plans.read(lambda: get(client, "/leaderboards/"), '"games_gamerecord"."daily_id" = %s')
    for plan in read.site + read.generic:
        assert plan.walks("daily_attempt_day_rank"), explain([plan])
        assert not plan.sorts() and not plan.scans("games_gamerecord"), explain([plan])


def test_the_profiles_rated_histories_read_their_index_alone(plans: PlanReader, client: Client) -> None:
    """A game's chart, wins and newest rows in one statement along ``rating_change_history`` (the
    newest rows then by their key), from an empty cache as after a rated game (issue 42)."""

    def cold_profile() -> None:
        cache.clear()
        get(client, f"/u/{BUSIEST}/ratings/")

    read = plans.read(cold_profile, HISTORY)
    for plan in read.site + read.generic:
        assert plan.reads_only("rating_change_history"), explain([plan])
        assert not plan.scans("accounts_ratingchange"), explain([plan])


def test_the_profiles_follow_counts_read_the_follow_indexes(plans: PlanReader, client: Client) -> None:
    """Both counts of the busiest person's follows (1,000 followers) and whether the viewer
    follows, each along an index of its side (``accounts.follows.STANDING_SQL``): a count reads
    its rows (by bitmap or in order, the count is the same), never the whole table."""
    read = plans.read(lambda: get(client, f"/u/{BUSIEST}/"), FOLLOWS)
    for plan in read.site + read.generic:
        assert plan.uses("follow_by_followed") and plan.uses("follow_once_per_pair"), explain([plan])
        assert not plan.reads_whole("accounts_follow"), explain([plan])


def test_the_games_hidden_from_visitors_are_found_by_index(plans: PlanReader, client: Client) -> None:
    """The busiest person's games of secret deals and private tables (``HIDDEN_SQL``), read once
    a page: their own records by owner, never every record."""
    read = plans.read(lambda: get(client, f"/u/{BUSIEST}/"), "FROM games_gamerecord AS r")
    for plan in read.site + read.generic:
        assert not plan.reads_whole("games_gamerecord"), explain([plan])
        assert not plan.reads_whole("games_seat"), explain([plan])
