"""Reads about games: a player's games, daily deals and what may be seen of them (LP-6),
leaderboards, streaks and statistics."""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass, field
from typing import Any

from django.core.paginator import Page, Paginator
from django.db.models import Count, F, IntegerField, Max, OrderBy, OuterRef, Q, QuerySet, Subquery, Window
from django.db.models.functions import Coalesce, RowNumber
from django.utils import timezone

from accounts.models import PROVISIONAL_GAMES, Rating, RatingChange, User
from games import kinds
from games.kinds.spec import GameSpec, TableSpec
from games.models import DailyChallenge, GameRecord, Seat
from games.players import Player
from tournaments.models import Tournament

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


# Daily deals and LP-6: a daily deal is played only through the daily pages until its UTC
# day is over.


def deal_is_secret(game: str, seed: int, today: dt.date | None = None) -> bool:
    """Whether ``seed`` deals a daily deal whose UTC day is not over (today's, or one dealt
    ahead for the days to come): no casual game, hint, undo, solution, replay or export of it
    until then (LP-6). Both solitaire games deal the same 52-card order from a seed (the
    shuffle is one), so a Tri-Peaks game of the Pyramid deal's number would show its stock:
    the seed is secret for every solitaire game, whatever the daily's game."""
    if game not in kinds.SOLITAIRE_SLUGS:
        return False
    return DailyChallenge.objects.filter(seed=seed, date__gte=today or utc_today()).exists()


def secret_daily_seeds(today: dt.date | None = None) -> set[int]:
    """The seeds ``deal_is_secret`` holds back, for drawing a random deal that is none of them."""
    return set(DailyChallenge.objects.filter(date__gte=today or utc_today()).values_list("seed", flat=True))


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
        return "A ranked daily attempt that is still being played is seen by its player only."
    if deal_is_secret(record.game, record.seed, today):
        return "Games of a daily deal are seen by their own player only until the deal's day is over."
    return ""


def replay_closed(record: GameRecord, player: Player, today: dt.date | None = None) -> str:
    """Why ``player`` may not replay, export or continue ``record``, or "" if they may. A
    replay of a finished game shows every card, so a game of a still-secret deal has none,
    not even for its own player, until the day is over (LP-6)."""
    if deal_is_secret(record.game, record.seed, today):
        return (
            "This deal is a daily challenge: its games can be replayed, downloaded or continued "
            "once its day is over (midnight UTC)."
        )
    return hidden_from(record, player, today)


DAILY_ORDER: tuple[str | OrderBy, ...] = (
    "-won",
    F("score").desc(nulls_last=True),
    "action_count",
    "elapsed",
    "finished_at",
)
"""How a day's finished ranked attempts are ranked (PY-7), ``elapsed`` being annotated."""


@dataclass(frozen=True)
class LeaderboardRow:
    rank: int
    record: GameRecord

    @property
    def seconds(self) -> float | None:
        return self.record.elapsed_seconds


def daily_leaderboard(daily: DailyChallenge, limit: int | None = None) -> list[LeaderboardRow]:
    """Finished ranked attempts: won first, then score, then fewer actions, then less time (PY-7)."""
    attempts = (
        GameRecord.objects.filter(daily=daily, ranked=True, status=GameRecord.Status.FINISHED)
        .select_related("owner")
        .annotate(elapsed=F("last_action_at") - F("first_viewed_at"))
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


def _runs(days: set[dt.date], today: dt.date) -> tuple[int, int]:
    """(current, best) runs of consecutive days; the current run may end today or yesterday."""
    best = run = 0
    previous: dt.date | None = None
    for day in sorted(days):
        run = run + 1 if previous is not None and day - previous == dt.timedelta(days=1) else 1
        best = max(best, run)
        previous = day
    current = run if previous is not None and today - previous <= dt.timedelta(days=1) else 0
    return current, best


def daily_streaks(user: User, today: dt.date) -> Streaks:
    """Consecutive UTC days with a finished ranked daily attempt, and with a won one."""
    attempts = GameRecord.objects.filter(owner=user, ranked=True, status=GameRecord.Status.FINISHED)
    played = set(attempts.values_list("daily__date", flat=True))
    won = set(attempts.filter(won=True).values_list("daily__date", flat=True))
    return Streaks(*_runs(played, today), *_runs(won, today))


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
    """Per game and variant (config), over the player's finished solitaire games, oldest first."""
    finished = GameRecord.objects.filter(
        owner=user, status=GameRecord.Status.FINISHED, game__in=kinds.SOLITAIRE_SLUGS
    ).order_by("finished_at")
    stats: dict[tuple[str, str], VariantStats] = {}
    for record in finished.only("game", "config", "won", "score", "first_viewed_at", "last_action_at"):
        key = (record.game, json.dumps(record.config, sort_keys=True))
        entry = stats.setdefault(key, VariantStats(record.game, record.config))
        entry.played += 1
        entry.won += bool(record.won)
        if record.score is not None:
            entry.best_score = (
                record.score if entry.best_score is None else max(entry.best_score, record.score)
            )
        if (seconds := record.elapsed_seconds) is not None:
            entry.total_seconds += seconds
            entry.timed += 1
        entry.current_streak = entry.current_streak + 1 if record.won else 0
        entry.best_streak = max(entry.best_streak, entry.current_streak)
        entry.recent = [*entry.recent, bool(record.won)][-RECENT_RESULTS:]
    return sorted(stats.values(), key=lambda s: (s.game, -s.played))


def daily_champions(limit: int) -> QuerySet[User]:
    """Players by ranked daily wins, then by ranked attempts; ties by who won most recently."""
    ranked = Q(games__ranked=True, games__status=GameRecord.Status.FINISHED)
    return (
        User.objects.filter(ranked)
        .annotate(
            daily_wins=Count("games", filter=ranked & Q(games__won=True)),
            daily_played=Count("games", filter=ranked),
            last_win=Max("games__finished_at", filter=ranked & Q(games__won=True)),
        )
        .order_by("-daily_wins", "-daily_played", F("last_win").desc(nulls_last=True), "username")[:limit]
    )


@dataclass(frozen=True)
class PlayedGame:
    record: GameRecord
    won: bool | None
    """For a table game, whether this player's seat won; for solitaire, the game's result."""


def player_games(user: User, *, game: str = "", result: str = "", limit: int = 200) -> list[PlayedGame]:
    """The player's finished games, newest first: solitaire and imports they own, tables they sat at."""
    # The person's seat comes with each record: a query per listed table game cost 200 of
    # the 209 queries of a busy profile (docs/benchmarks.md, "Ratings at a million games").
    my_seat = Seat.objects.filter(table__record=OuterRef("pk"), user=user).values("number")[:1]
    records = (
        GameRecord.objects.filter(
            Q(owner=user) | Q(table__seats__user=user), status=GameRecord.Status.FINISHED
        )
        .annotate(my_seat=Subquery(my_seat))
        .distinct()
        .order_by("-finished_at", "-pk")
    )
    if game:
        records = records.filter(game=game)
    played = []
    for record in records[:limit]:
        won = record.won
        if record.at_table:
            won = (record.outcome or {}).get("winner") == record.my_seat
        if (result == "won" and not won) or (result == "lost" and won):
            continue
        played.append(PlayedGame(record, won))
    return played


# The leaderboards page: rating boards of the table games (RT-3), the best daily results
# over a day, a week and all time, the longest daily streaks and the most tournament wins.

RATING_PAGE_SIZE = 50


@dataclass(frozen=True)
class RatingRow:
    rank: int
    rating: Rating
    wins: int


@dataclass(frozen=True)
class RatingBoard:
    info: TableSpec
    page: Page[Rating]
    rows: list[RatingRow]


def rating_leaderboard(
    game: str, page: int | str | None = 1, per_page: int = RATING_PAGE_SIZE
) -> RatingBoard:
    """The game's rated players by rating (``rating_game_mu``), provisional ones left out
    (RT-3), one page of them with their wins (first places): two queries, the count and the page."""
    wins = (
        RatingChange.objects.filter(user=OuterRef("user"), game=game, place=1)
        .order_by()
        .values("user")
        .annotate(n=Count("pk"))
        .values("n")
    )
    ratings: QuerySet[Rating] = (
        Rating.objects.filter(game=game, games__gte=PROVISIONAL_GAMES)
        .select_related("user")
        .annotate(wins=Coalesce(Subquery(wins, output_field=IntegerField()), 0))
        .order_by("-mu", "pk")
    )
    shown = Paginator(ratings, per_page).get_page(page)
    start = shown.start_index()
    rows = [RatingRow(start + i, rating, rating.wins) for i, rating in enumerate(shown.object_list)]
    return RatingBoard(kinds.TABLE_BY_SLUG[game], shown, rows)


def week_start(today: dt.date) -> dt.date:
    """This week's Monday: the weekly boards count the UTC days from it to today."""
    return today - dt.timedelta(days=today.weekday())


def best_daily_attempts(
    game: str, *, since: dt.date | None = None, until: dt.date | None = None, limit: int = 10
) -> list[LeaderboardRow]:
    """Each player's best finished ranked attempt at ``game``'s daily deals dated from ``since``
    to ``until`` (either open), ranked as ``daily_leaderboard`` ranks a day: one query, the
    best per player picked in SQL by a window."""
    attempts = GameRecord.objects.filter(
        daily__game=game, ranked=True, status=GameRecord.Status.FINISHED, owner__isnull=False
    )
    if since is not None:
        attempts = attempts.filter(daily__date__gte=since)
    if until is not None:
        attempts = attempts.filter(daily__date__lte=until)
    best = (
        attempts.select_related("owner", "daily")
        .annotate(elapsed=F("last_action_at") - F("first_viewed_at"))
        .annotate(place=Window(RowNumber(), partition_by=[F("owner_id")], order_by=[*_ordering(DAILY_ORDER)]))
        .filter(place=1)
        .order_by(*DAILY_ORDER, "pk")[:limit]
    )
    return [LeaderboardRow(rank, record) for rank, record in enumerate(best, start=1)]


def _ordering(order: tuple[str | OrderBy, ...]) -> list[OrderBy]:
    """``order_by`` arguments as expressions, for a window's ``order_by``."""
    return [
        item
        if isinstance(item, OrderBy)
        else F(item.lstrip("-")).desc()
        if item.startswith("-")
        else F(item).asc()
        for item in order
    ]


@dataclass(frozen=True)
class StreakRow:
    rank: int
    user: User
    best: int
    current: int


def longest_daily_streaks(today: dt.date, limit: int = 10) -> list[StreakRow]:
    """Players by their longest run of UTC days with a finished ranked daily attempt (as
    ``daily_streaks`` counts them), then by their current run: two queries, the days of
    everyone and the users shown."""
    days: dict[int, set[dt.date]] = {}
    played = (
        GameRecord.objects.filter(ranked=True, status=GameRecord.Status.FINISHED, owner__isnull=False)
        .values_list("owner_id", "daily__date")
        .distinct()
        .order_by()
    )
    for owner_id, day in played:
        days.setdefault(owner_id, set()).add(day)
    runs = {owner_id: _runs(dates, today) for owner_id, dates in days.items()}
    top = sorted(runs, key=lambda owner_id: (-runs[owner_id][1], -runs[owner_id][0], owner_id))[:limit]
    users = User.objects.in_bulk(top)
    return [
        StreakRow(rank, users[owner_id], runs[owner_id][1], runs[owner_id][0])
        for rank, owner_id in enumerate(top, start=1)
        if owner_id in users
    ]


def tournament_champions(limit: int = 10) -> QuerySet[User]:
    """People by tournaments won (first place of a finished tournament), then by tournaments
    finished; ties by who won most recently."""
    finished = Q(entry__tournament__status=Tournament.Status.FINISHED)
    won = finished & Q(entry__place=1)
    return (
        User.objects.filter(finished)
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
