"""Reads about games: a player's games, daily deals and what may be seen of them (LP-6),
leaderboards, streaks and statistics."""

from __future__ import annotations

import datetime as dt
import json
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from django.db import connection
from django.db.models import (
    Case,
    Count,
    F,
    Max,
    Q,
    QuerySet,
    TextField,
    Value,
    When,
)
from django.db.models.functions import Cast
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import PROVISIONAL_GAMES, Rating, RatingChange, User
from games import kinds
from games.core.players import Player
from games.kinds.spec import GameSpec, TableSpec
from games.models import (
    DAILY_RANK_ORDER,
    DailyChallenge,
    DailyStanding,
    GameRecord,
    Participation,
    SealedDeal,
)
from games.stats import daily_standings
from tournaments.models import Tournament
from web.sql_constants import Constant

RECENT_RESULTS = 30


def utc_today() -> dt.date:
    """The day of the daily deals: a UTC calendar day (the settings' TIME_ZONE is UTC)."""
    return timezone.now().date()


def _knows_nobody(player: Player) -> bool:
    """A visitor whose browser never started a game: nothing is theirs (and ``ownership()``
    would match the games of no session at all)."""
    return player.user is None and not player.token


def unfinished_games(player: Player, game: str | None = None) -> QuerySet[GameRecord]:
    if _knows_nobody(player):
        return GameRecord.objects.none()
    games = GameRecord.objects.filter(
        status=GameRecord.Status.PLAYING, game__in=kinds.SOLITAIRE_SLUGS, **player.ownership()
    )
    if game:
        games = games.filter(game=game)
    return games.order_by("-last_action_at", "-created_at")


# Daily deals, event deals and LP-6: a daily deal is played only through the daily pages until
# its UTC day is over, and a solitaire event's deals only inside the event until its window
# closes.


DAILY_SECRET = "daily"
EVENT_SECRET = "event"


def deal_secret_kind(game: str, seed: int, today: dt.date | None = None) -> str:
    """``DAILY_SECRET`` if ``seed`` deals a daily deal whose UTC day is not over (today's, or
    one dealt ahead for the days to come), ``EVENT_SECRET`` if it deals a solitaire event's
    deal whose window is open (TN-8), else "": no casual game, hint, undo, solution, replay or
    export of a secret deal until then (LP-6). Both solitaire games deal the same 52-card
    order from a seed (the shuffle is one), so a Tri-Peaks game of the Pyramid deal's number
    would show its stock: the seed is secret for every solitaire game, whatever the daily's or
    the event's game."""
    if game not in kinds.SOLITAIRE_SLUGS:
        return ""
    if DailyChallenge.objects.filter(seed=seed, date__gte=today or utc_today()).exists():
        return DAILY_SECRET
    if SealedDeal.objects.filter(seed=seed, sealed_until__gt=timezone.now()).exists():
        return EVENT_SECRET
    return ""


def deal_is_secret(game: str, seed: int, today: dt.date | None = None) -> bool:
    return bool(deal_secret_kind(game, seed, today))


def secret_seeds(today: dt.date | None = None) -> set[int]:
    """The seeds ``deal_is_secret`` holds back, for drawing a random deal that is none of them."""
    daily = DailyChallenge.objects.filter(date__gte=today or utc_today()).values_list("seed", flat=True)
    sealed = SealedDeal.objects.filter(sealed_until__gt=timezone.now()).values_list("seed", flat=True)
    return {*daily, *sealed}


def daily_deals(day: dt.date) -> dict[str, DailyChallenge]:
    """The deals of ``day`` that exist, by game; a missing one is the task's to make, never a page's."""
    return {
        deal.game: deal for deal in DailyChallenge.objects.filter(date=day, game__in=kinds.SOLITAIRE_SLUGS)
    }


def daily_deal_page(game: str, day: dt.date, today: dt.date | None = None) -> DailyChallenge | None:
    """The deal a daily page shows: one that exists, dated at most tomorrow (the deals dealt
    further ahead stay unseen)."""
    if game not in kinds.SOLITAIRE_SLUGS or day > (today or utc_today()) + dt.timedelta(days=1):
        return None
    return DailyChallenge.objects.filter(game=game, date=day).first()


def daily_attempt(daily: DailyChallenge, player: Player) -> GameRecord | None:
    """The player's game of a daily deal to show on the daily page: the ranked one first."""
    if _knows_nobody(player):
        return None
    return (
        GameRecord.objects.filter(daily=daily, **player.ownership())
        .order_by("-ranked", "-created_at")
        .first()
    )


def hidden_from(record: GameRecord, player: Player, today: dt.date | None = None) -> str:
    """Why ``player`` may not look at ``record`` at all, or "" if they may (LP-6): a running
    ranked attempt is seen by its player only, even after its day; so is any game of a deal
    still secret, since its board shows cards (and its page the deal number)."""
    if player.owns(record):
        return ""
    if record.ranked and not record.is_over:
        return gettext("A ranked daily attempt that is still being played is seen by its player only.")
    secret = deal_secret_kind(record.game, record.seed, today)
    if secret == DAILY_SECRET:
        return gettext(
            "Games of a daily deal are seen by their own player only until the deal's day is over."
        )
    if secret == EVENT_SECRET:
        return gettext(
            "Games of a solitaire event's deal are seen by their own player only until the event closes."
        )
    return ""


def replay_closed(record: GameRecord, player: Player, today: dt.date | None = None) -> str:
    """Why ``player`` may not replay, export or continue ``record``, or "" if they may. A
    replay of a finished game shows every card, so a game of a still-secret deal has none,
    not even for its own player, until the day is over or the event's window closed (LP-6)."""
    secret = deal_secret_kind(record.game, record.seed, today)
    if secret == DAILY_SECRET:
        return gettext(
            "This deal is a daily challenge: its games can be replayed, downloaded or continued "
            "once its day is over (midnight UTC)."
        )
    if secret == EVENT_SECRET:
        return gettext(
            "This deal belongs to a solitaire event: its games can be replayed, downloaded or "
            "continued once the event's window closes."
        )
    return hidden_from(record, player, today)


DAILY_ORDER = DAILY_RANK_ORDER
"""How a day's finished ranked attempts are ranked (PY-7): won, score, fewer moves, less time,
then the earlier finish and the smaller id; the order the rank indexes hold."""


DAILY_ROW_FIELDS = (
    "game", "owner__username", "daily__game", "daily__date", "won", "score", "action_count",
    "first_viewed_at", "last_action_at", "finished_at",
)  # fmt: skip
"""What a row of a daily board shows (a record's config, outcome and deck are left unread)."""


@dataclass(frozen=True)
class LeaderboardRow:
    rank: int
    record: GameRecord

    @property
    def seconds(self) -> float | None:
        return self.record.elapsed_seconds


def daily_leaderboard(daily: DailyChallenge, limit: int | None = None) -> list[LeaderboardRow]:
    """Finished ranked attempts: won first, then score, then fewer actions, then less time (PY-7).
    A walk of the index ``daily_attempt_day_rank`` (its condition written into the SQL), which
    stops at ``limit``."""
    attempts = (
        GameRecord.objects.filter(daily=daily, ranked=True, status=Constant(GameRecord.Status.FINISHED.value))
        .select_related("owner", "daily")
        .only(*DAILY_ROW_FIELDS)
        .order_by(*DAILY_ORDER)
    )
    if limit is not None:
        attempts = attempts[:limit]
    return [LeaderboardRow(rank, record) for rank, record in enumerate(attempts, start=1)]


@dataclass(frozen=True)
class Streaks:
    played_current: int
    played_best: int
    won_current: int
    won_best: int


def daily_streaks(user: User, today: dt.date) -> Streaks:
    """Consecutive UTC days with a finished ranked daily attempt, and with a won one."""
    attempts = GameRecord.objects.filter(owner=user, ranked=True, status=GameRecord.Status.FINISHED)
    played: set[dt.date] = set()
    won: set[dt.date] = set()
    for date, won_it in attempts.values_list("daily__date", "won"):  # one query, not one a set
        played.add(date)
        if won_it:
            won.add(date)
    return Streaks(*daily_standings.runs(played, today), *daily_standings.runs(won, today))


@dataclass
class VariantStats:
    game: str
    config: dict[str, Any]
    played: int = 0
    won: int = 0
    best_score: int | None = None
    total_seconds: float = 0.0
    timed: int = 0
    current_streak: int = 0
    best_streak: int = 0
    recent: list[bool] = field(default_factory=list)

    @property
    def info(self) -> GameSpec:
        return kinds.get(self.game)

    @property
    def win_rate(self) -> float:
        return self.won / self.played if self.played else 0.0

    @property
    def average_seconds(self) -> float | None:
        return self.total_seconds / self.timed if self.timed else None


def player_stats(user: User) -> list[VariantStats]:
    """Per game and variant (config), over the player's finished solitaire games, oldest first.
    Read from their participations, as their list of games is: a game the person has none in
    (an import, a game continued from a replay's step) counts in no statistic, and
    ``games.stats.participations`` is the one place that decides it. Reads tuples, not models: a
    keen player has thousands of games."""
    finished = (
        Participation.objects.filter(user=user, game__in=kinds.SOLITAIRE_SLUGS)
        .annotate(
            elapsed=F("record__last_action_at") - F("record__first_viewed_at"),
            # As text, decoded once a variant below: a keen player's thousand games have a
            # handful of variants, and decoding each game's cost more than reading it.
            config_text=Cast("record__config", TextField()),
        )
        .order_by("finished_at", "record_id")
        .values_list("game", "config_text", "won", "record__score", "elapsed")
    )
    stats: dict[tuple[str, str], VariantStats] = {}
    recent: dict[tuple[str, str], deque[bool]] = {}
    variants: dict[str, str] = {}  # a config as stored -> its key (one spelling of each)
    for game, config_text, won, score, elapsed in finished:
        if config_text not in variants:
            variants[config_text] = json.dumps(json.loads(config_text), sort_keys=True)
        key = (game, variants[config_text])
        entry = stats.get(key)
        if entry is None:
            entry = stats[key] = VariantStats(game, json.loads(config_text))
            recent[key] = deque(maxlen=RECENT_RESULTS)
        entry.played += 1
        entry.won += bool(won)
        if score is not None:
            entry.best_score = score if entry.best_score is None else max(entry.best_score, score)
        if elapsed is not None:
            entry.total_seconds += max(0.0, elapsed.total_seconds())
            entry.timed += 1
        entry.current_streak = entry.current_streak + 1 if won else 0
        entry.best_streak = max(entry.best_streak, entry.current_streak)
        recent[key].append(bool(won))
    for key, entry in stats.items():
        entry.recent = list(recent[key])
    return sorted(stats.values(), key=lambda s: (s.game, -s.played))


def daily_champions(limit: int) -> QuerySet[DailyStanding]:
    """Players by ranked daily wins, then by ranked attempts; ties by who won most recently.
    One query along the index ``daily_standing_wins``."""
    return DailyStanding.objects.select_related("user").order_by(
        "-won", "-played", F("last_won_at").desc(nulls_last=True), "user__username"
    )[:limit]


def player_games(
    user: User, *, game: str = "", result: str = "", public: bool = True
) -> QuerySet[Participation]:
    """The person's finished games, newest first (each row's ``record`` and ``won``, the
    person's own result): solitaire games they own, tables they sat at (an import is
    nobody's). ``public`` leaves out what ``hidden_from`` hides from a visitor who owns
    nothing (LP-6): games of a solitaire deal still secret (a daily deal whose UTC day is
    not over, an event's deal whose window is open). A walk of the index
    ``participation_newest``, however many games the site or the person has."""
    played = Participation.objects.filter(user=user)
    if game:
        played = played.filter(game=game)
    if result == "won":
        played = played.filter(won=True)
    elif result == "lost":
        played = played.exclude(won=True)
    if public:
        hidden = hidden_from_public(user)
        if hidden:
            played = played.exclude(record_id__in=hidden)
    return played.select_related("record").order_by("-finished_at", "-record_id")


HIDDEN_SQL = (
    "SELECT r.id FROM games_gamerecord AS r WHERE r.owner_id = %s AND r.game IN ({games})"
    " AND (r.seed IN (SELECT d.seed FROM games_dailychallenge AS d WHERE d.date >= %s)"
    " OR r.seed IN (SELECT e.seed FROM games_sealeddeal AS e WHERE e.sealed_until > %s))"
    " UNION SELECT t.record_id FROM games_table AS t JOIN games_seat AS s ON s.table_id = t.id"
    " WHERE t.private_key IS NOT NULL AND t.record_id IS NOT NULL AND s.user_id = %s"
)
"""The person's games a visitor does not see listed: their own games of secret deals (a daily
deal whose UTC day is not over, an event's deal whose window is open; LP-6), and games of
private tables they sat at (LP-9: seen only by who may enter the table)."""


def hidden_from_public(user: User) -> list[int]:
    """``HIDDEN_SQL``'s few record ids, read once and left out of the list by id: as subqueries
    in the list's statements they were planned and run twice a page (its count and its keys),
    and building them through the ORM cost the profile 1.5 ms of Python a GET (issue 42); a
    filter on the records' seeds would join every listed row to its record (128 ms to count
    9,000 games)."""
    games = list(kinds.SOLITAIRE_SLUGS)
    with connection.cursor() as cursor:
        cursor.execute(
            HIDDEN_SQL.format(games=", ".join(["%s"] * len(games))),
            [user.pk, *games, utc_today(), timezone.now(), user.pk],
        )
        return [record_id for (record_id,) in cursor.fetchall()]


def imports_by(user: User, limit: int) -> list[GameRecord]:
    """The games ``user`` imported, newest first. Found by ``imported_by``, never ``owner``:
    an import is nobody's game, so no statistic, list or board of a player holds it."""
    return list(
        GameRecord.objects.filter(imported_by=user, kind=GameRecord.Kind.IMPORTED)
        .only("game", "finished_at", "played_by")
        .order_by("-finished_at", "-pk")[:limit]
    )


# The leaderboards page: rating boards of the table games (RT-3), the best daily results
# over a day, a week and all time, the longest daily streaks and the most tournament wins.


@dataclass(frozen=True)
class RatingRow:
    rank: int
    rating: Rating
    wins: int


def rating_rows(game: str, ratings: list[Rating], first_rank: int, *, wins: bool = True) -> list[RatingRow]:
    """The rows of ``ratings`` (consecutive places from ``first_rank``) with each player's wins
    (first places) in ``game``, unless ``wins`` is False: counted for these players alone (a
    subquery per row would run for every row a deep page skips: 190 ms at page 500 of 940). A
    deactivated account's rating keeps its place (the rank the profile gives) but is not
    listed: its profile is not found."""
    placed = _listed(ratings, first_rank)
    counted = _first_places({game: placed}) if wins else {}
    return [RatingRow(rank, rating, counted.get((game, rating.user_id), 0)) for rank, rating in placed]


def _listed(ratings: list[Rating], first_rank: int) -> list[tuple[int, Rating]]:
    return [(first_rank + i, rating) for i, rating in enumerate(ratings) if rating.user.is_active]


def _first_places(boards: dict[str, list[tuple[int, Rating]]]) -> dict[tuple[str, int], int]:
    """(game, person): first places, for the people listed on each game's board, in one query."""
    people = sorted({rating.user_id for placed in boards.values() for _, rating in placed})
    if not people:
        return {}
    counts = (
        RatingChange.objects.filter(game__in=list(boards), place=1, user__in=people)
        .order_by()
        .values("game", "user")
        .annotate(n=Count("pk"))
        .values_list("game", "user", "n")
    )
    return {(game, user): n for game, user, n in counts}


def ranked_ratings(game: str) -> QuerySet[Rating]:
    """The game's rated players by rating along the index ``rating_ranked``, provisional ones
    left out (RT-3). The index's condition is written into the SQL (``Constant``): a generic
    plan of a prepared statement proves it only so. Without each rating's kept history
    (``Rating.history``, the profile's): the boards show none of it, and reading and decoding
    it cost the leaderboards page ~5 of its ~50 ms at a million games."""
    return (
        Rating.objects.filter(game=game, games__gte=Constant(PROVISIONAL_GAMES))
        .defer("history")
        .select_related("user")
        .order_by("-mu", "pk")
    )


@dataclass(frozen=True)
class RatingTop:
    info: TableSpec
    rows: list[RatingRow]
    more: bool
    """Whether more players are rated than ``rows`` shows."""


def rating_tops(limit: int) -> list[RatingTop]:
    """Each multiplayer game's ``limit`` best rated players, for the leaderboards page: a query
    a game, one for everyone's wins, and no count of every rated player."""
    walked = {spec.slug: list(ranked_ratings(spec.slug)[: limit + 1]) for spec in kinds.TABLE_GAMES}
    placed = {slug: _listed(ratings[:limit], 1) for slug, ratings in walked.items()}
    counted = _first_places(placed)
    return [
        RatingTop(
            kinds.TABLE_BY_SLUG[slug],
            [RatingRow(rank, rating, counted.get((slug, rating.user_id), 0)) for rank, rating in rows],
            len(walked[slug]) > limit,
        )
        for slug, rows in placed.items()
    ]


def week_start(today: dt.date) -> dt.date:
    """This week's Monday: the weekly boards count the UTC days from it to today."""
    return today - dt.timedelta(days=today.weekday())


def best_daily_attempts(
    game: str, *, since: dt.date | None = None, until: dt.date | None = None, limit: int = 10
) -> list[LeaderboardRow]:
    """Each player's best finished ranked attempt at ``game``'s daily deals dated from ``since``
    to ``until`` (either open), ranked as ``daily_leaderboard`` ranks a day (``_best_walk``)."""
    return _attempt_rows([_best_walk(game, since, until, limit)])[0]


def best_daily_boards(
    games: list[str], *, week: dt.date, today: dt.date, limit: int = 10
) -> list[BestBoards]:
    """Each game's best attempts of the week since ``week`` and of all time up to ``today``:
    the boards' walks, then all their rows in one query."""
    walks = [
        walk
        for game in games
        for walk in (_best_walk(game, week, today, limit), _best_walk(game, None, today, limit))
    ]
    rows = _attempt_rows(walks)
    return [BestBoards(game, rows[2 * n], rows[2 * n + 1]) for n, game in enumerate(games)]


@dataclass(frozen=True)
class BestBoards:
    game: str
    week: list[LeaderboardRow]
    ever: list[LeaderboardRow]


BEST_WALK_SQL = """
SELECT r.id, r.owner_id FROM games_gamerecord r JOIN games_dailychallenge d ON r.daily_id = d.id
WHERE d.game = %s AND r.game = %s AND r.ranked AND r.status = '{finished}'{dates}
ORDER BY r.won DESC, r.score DESC NULLS LAST, r.finished_moves, r.finished_elapsed, r.finished_at, r.id
LIMIT {size} OFFSET {start}
"""
"""``_best_walk``'s read, in SQL: the ORM built these four statements anew at every GET of the
leaderboards page, about 1 ms each of its ~40 (issue 42). Its order is ``DAILY_ORDER``, and its
conditions are those of the index ``daily_attempt_rank`` (the status written as a constant, so
that a generic plan uses the index too), its LIMIT and OFFSET written in as the ORM writes them
(a generic plan of a parameter LIMIT sorts the lot); ``tests/site/test_query_plans.py`` reads
its plan."""
BEST_WALK_DATES = {
    (False, False): "",
    (True, False): " AND d.date >= %s",
    (False, True): " AND d.date <= %s",
    (True, True): " AND d.date >= %s AND d.date <= %s",
}


def _best_walk(game: str, since: dt.date | None, until: dt.date | None, limit: int) -> list[int]:
    """The attempts shown: walks the attempts in rank order along the index
    ``daily_attempt_rank`` and keeps each player's first: the first ``5 * limit`` attempts,
    then twice as many each time until ``limit`` players are found, so a board costs the same
    with a thousand attempts or millions. The walk reads ids alone; the rows shown are read
    after, by id (joining every attempt of a week to its player before sorting cost 6 of its
    10 ms)."""
    dates_sql = BEST_WALK_DATES[since is not None, until is not None]
    dates = [day for day in (since, until) if day is not None]
    best: list[int] = []
    seen: set[int] = set()
    start, size = 0, 5 * limit
    with connection.cursor() as cursor:
        while len(best) < limit:
            sql = BEST_WALK_SQL.format(
                finished=GameRecord.Status.FINISHED.value, dates=dates_sql, size=int(size), start=int(start)
            )
            cursor.execute(sql, [game, game, *dates])
            rows = cursor.fetchall()
            for record_id, owner_id in rows:
                if owner_id is not None and owner_id not in seen:
                    seen.add(owner_id)
                    best.append(record_id)
            if len(rows) < size:
                break
            start, size = start + size, 2 * size
    return best[:limit]


def _attempt_rows(boards: list[list[int]]) -> list[list[LeaderboardRow]]:
    """The rows of boards of attempts (their ids, best first), read together."""
    shown = (
        GameRecord.objects.select_related("owner", "daily")
        .only(*DAILY_ROW_FIELDS)
        .in_bulk([record_id for board in boards for record_id in board])
    )
    return [
        [LeaderboardRow(rank, shown[record_id]) for rank, record_id in enumerate(board, start=1)]
        for board in boards
    ]


@dataclass(frozen=True)
class StreakRow:
    rank: int
    user: User
    best: int
    current: int


def longest_daily_streaks(today: dt.date, limit: int = 10) -> list[StreakRow]:
    """Players by their longest run of UTC days with a finished ranked daily attempt (as
    ``daily_streaks`` counts them), then by their current run: one query of ``DailyStanding``
    along its index ``daily_standing_streak``."""
    still_running = Case(
        When(last_day__gte=today - daily_standings.DAY, then=F("latest_run")), default=Value(0)
    )
    rows = (
        DailyStanding.objects.select_related("user")
        .annotate(current=still_running)
        .order_by("-best", "-current", "user_id")[:limit]
    )
    return [StreakRow(rank, row.user, row.best, row.current) for rank, row in enumerate(rows, start=1)]


def bot_tournament_titles() -> int:
    """Finished tournaments won by a bot (a first place with no person): the bots' titles,
    counted together as a series' page counts them, beside the people's board."""
    return (
        Tournament.objects.filter(
            status=Tournament.Status.FINISHED, entries__place=1, entries__user__isnull=True
        )
        .distinct()
        .count()
    )


def tournament_champions(limit: int = 10) -> QuerySet[User]:
    """People by tournaments won (first place of a finished tournament), then by tournaments
    finished; ties by who won most recently. A closed account's titles stay with its events
    but leave the board (issue 45)."""
    finished = Q(entry__tournament__status=Tournament.Status.FINISHED)
    won = finished & Q(entry__place=1)
    return (
        User.objects.filter(finished, closed_at__isnull=True)
        .annotate(
            tournament_wins=Count("entry", filter=won, distinct=True),
            tournaments_played=Count("entry", filter=finished, distinct=True),
            last_tournament_win=Max("entry__tournament__finished_at", filter=won),
        )
        .filter(tournament_wins__gt=0)
        .order_by(
            "-tournament_wins",
            "-tournaments_played",
            F("last_tournament_win").desc(nulls_last=True),
            "username",
        )[:limit]
    )
