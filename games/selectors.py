"""Reads about games: a player's games, daily leaderboards, streaks and statistics."""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, F, Max, Q, QuerySet

from accounts.models import User
from games.catalogue import GAMES_BY_SLUG, SOLITAIRE_GAMES, GameInfo
from games.models import DailyChallenge, GameRecord
from games.players import Player

RECENT_RESULTS = 30


def unfinished_games(player: Player, game: str | None = None) -> QuerySet[GameRecord]:
    games = GameRecord.objects.filter(
        status=GameRecord.Status.PLAYING, game__in=SOLITAIRE_GAMES, **player.ownership()
    )
    if game:
        games = games.filter(game=game)
    return games.order_by("-last_action_at", "-created_at")


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
        .order_by("-won", F("score").desc(nulls_last=True), "action_count", "elapsed", "finished_at")
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
    def info(self) -> GameInfo:
        return GAMES_BY_SLUG[self.game]

    @property
    def win_rate(self) -> float:
        return self.won / self.played if self.played else 0.0

    @property
    def average_seconds(self) -> float | None:
        return self.total_seconds / self.timed if self.timed else None


def player_stats(user: User) -> list[VariantStats]:
    """Per game and variant (config), over the player's finished solitaire games, oldest first."""
    finished = GameRecord.objects.filter(
        owner=user, status=GameRecord.Status.FINISHED, game__in=SOLITAIRE_GAMES
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
    records = (
        GameRecord.objects.filter(
            Q(owner=user) | Q(table__seats__user=user), status=GameRecord.Status.FINISHED
        )
        .select_related("table")
        .distinct()
        .order_by("-finished_at", "-pk")
    )
    if game:
        records = records.filter(game=game)
    played = []
    for record in records[:limit]:
        won = record.won
        if record.at_table:
            seat = record.table.seats.filter(user=user).values_list("number", flat=True).first()
            won = (record.outcome or {}).get("winner") == seat
        if (result == "won" and not won) or (result == "lost" and won):
            continue
        played.append(PlayedGame(record, won))
    return played
