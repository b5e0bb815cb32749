"""A game is ``(game, config, seed, actions)``: everything else about it is derived.

``GameRecord`` holds the first three (and the engine version that must replay them);
``Action`` rows hold the actions, one per accepted move, numbered without gaps. The
outcome and score columns are a cache of what the engine says at the end, kept so that
leaderboards and statistics can be queried; they are written by the same transaction
that appends the last action.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts import closed_names


class NamesItsGame(models.Model):
    """A row about one game: its ``game`` is a slug of the registry (``games.kinds``), which is
    checked where rows are made, not by the column, so a new game needs no migration."""

    game = models.CharField(max_length=16)

    class Meta:
        abstract = True

    def get_game_display(self) -> str:
        from games import kinds  # the registry's modules import this one

        return str(kinds.BY_SLUG[self.game].name) if self.game in kinds.BY_SLUG else self.game


class DailyChallenge(NamesItsGame):
    """One shared deal a day per solitaire game, proven winnable by the solver."""

    date = models.DateField(help_text="The UTC day the deal belongs to.")
    seed = models.BigIntegerField()
    config = models.JSONField(default=dict)
    solution = models.JSONField(
        default=list, help_text="The solver's winning line, shown once the day is over."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "date"], name="daily_one_deal_per_game_and_day")
        ]
        ordering = ["-date", "game"]

    def __str__(self) -> str:
        return f"{self.game} daily {self.date:%Y-%m-%d}"


class SealedDeal(models.Model):
    """A deal number kept secret until ``sealed_until`` (LP-6): a solitaire event's deal while
    its window is open (TN-8). Daily deals need no row: their ``DailyChallenge`` says it."""

    seed = models.BigIntegerField(db_index=True)
    sealed_until = models.DateTimeField()

    class Meta:
        ordering = ["sealed_until"]

    def __str__(self) -> str:
        return f"deal {self.seed} sealed until {self.sealed_until:%Y-%m-%d %H:%M}"


class SoloMatch(NamesItsGame):
    """A solitaire match of deals played one after another without undo or hints, their scores
    added up: a solo challenge (the game's ``SoloMatchRule``, PY-8's par match), or one entrant's
    run at a solitaire event's deals (TN-8), which ends when the event's window closes."""

    config = models.JSONField(default=dict, help_text="Every deal's config, the rule's, defaults filled in.")
    seeds = models.JSONField(help_text="The deal numbers, in order.")
    title = models.CharField(max_length=80, help_text="What the match is: 'Par match', or its event's name.")
    par = models.IntegerField(
        null=True, blank=True, help_text="The total its score is compared with (PY-8), if any."
    )
    closes_at = models.DateTimeField(
        null=True, blank=True, help_text="An event's: no deal is dealt or played after it (TN-8)."
    )
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="solo_matches"
    )
    session_key = models.CharField(
        max_length=64, blank=True, help_text="An anonymous player's browser token."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.game} match #{self.pk}"

    def get_absolute_url(self) -> str:
        return reverse("solo_match", kwargs={"match_id": self.pk})

    def window_closed(self, now: dt.datetime | None = None) -> bool:
        return self.closes_at is not None and (now or timezone.now()) >= self.closes_at


DAILY_RANK_ORDER = (
    F("won").desc(),
    F("score").desc(nulls_last=True),
    F("finished_moves"),
    F("finished_elapsed"),
    F("finished_at"),
    F("id"),
)
"""The daily boards' order (PY-7, ``selectors.DAILY_ORDER``) as the rank indexes hold it."""


class GameRecord(NamesItsGame):
    class Kind(models.TextChoices):
        CASUAL = "casual", _("Casual")
        DAILY = "daily", _("Daily challenge")
        TABLE = "table", _("Live table")
        TOURNAMENT = "tournament", _("Tournament")
        IMPORTED = "imported", _("Imported")
        MATCH = "match", _("Solo match")

    class Status(models.TextChoices):
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")

    TABLE_KINDS = (Kind.TABLE, Kind.TOURNAMENT)
    """The kinds played at a live table (seats, turn clocks, bots)."""

    engine_version = models.PositiveSmallIntegerField()
    config = models.JSONField(default=dict, help_text="The full config, defaults filled in.")
    seed = models.BigIntegerField()
    deck = models.JSONField(
        null=True, blank=True, help_text="A fixed deal (imported games); else the seed deals."
    )
    kind = models.CharField(max_length=16, choices=Kind.choices, default=Kind.CASUAL)

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="games",
        help_text="Who plays or played it here. An import has none, so it counts for nobody.",
    )
    session_key = models.CharField(
        max_length=64,
        blank=True,
        help_text="Who may play an anonymous game: the browser session that started it.",
    )
    imported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="imports",
        help_text="An import's: who brought its file here (empty for a visitor). Not its player.",
    )
    played_by = models.JSONField(
        null=True,
        blank=True,
        help_text="An import's players, seat by seat, as its file names them (the file's word).",
    )
    continued_from = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="continuations",
        help_text="The finished game whose replay this one was continued from (empty once that is gone).",
    )
    continued_from_step = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="A continued game's: the step of that replay it starts from. Set for every "
        "continued game, kept if its source goes, so it counts in no statistic.",
    )
    daily = models.ForeignKey(
        DailyChallenge, null=True, blank=True, on_delete=models.PROTECT, related_name="games"
    )
    ranked = models.BooleanField(default=False, help_text="A daily challenge's one ranked attempt.")
    solo_match = models.ForeignKey(
        "SoloMatch", null=True, blank=True, on_delete=models.CASCADE, related_name="games"
    )

    version = models.PositiveIntegerField(
        default=0, help_text="Bumped by every accepted move and every undo."
    )
    action_count = models.PositiveIntegerField(default=0, help_text="How many Action rows the game has.")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PLAYING)
    won = models.BooleanField(null=True)
    score = models.IntegerField(null=True)
    outcome = models.JSONField(null=True, blank=True)
    undo_count = models.PositiveIntegerField(default=0)
    hint_count = models.PositiveIntegerField(default=0)

    created_at = models.DateTimeField(auto_now_add=True)
    first_viewed_at = models.DateTimeField(null=True, blank=True)
    last_action_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    finished_moves = models.PositiveIntegerField(
        null=True, blank=True, help_text="``action_count`` when the game finished (None while it plays)."
    )
    finished_elapsed = models.DurationField(
        null=True,
        blank=True,
        help_text="``last_action_at - first_viewed_at`` when the game finished (None while it plays).",
    )
    turn_deadline = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the seat to act times out (LP-1); held here so a restart keeps it.",
    )
    clock_task_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the turn-clock task last sent for this game runs: while that is still "
        "ahead and no later than the deadline, a move sends none (games.live.turn_clocks.arm).",
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["owner", "daily"],
                condition=Q(ranked=True),
                name="daily_one_ranked_attempt_per_player",
            ),
        ]
        indexes = [
            models.Index(fields=["owner", "game", "-created_at"]),
            models.Index(fields=["daily", "ranked", "status"]),
            # The order the daily boards rank attempts in (PY-7, ``selectors.DAILY_ORDER``). From
            # the moves and time frozen at the finish, not ``action_count`` and ``last_action_at``:
            # a column of an index that a move changes makes PostgreSQL write a new entry in
            # every index of the table at every move, where it otherwise updates the row in
            # place (a heap-only tuple).
            models.Index(
                F("game"),
                *DAILY_RANK_ORDER,
                name="daily_attempt_rank",
                condition=Q(ranked=True, status="finished"),
            ),
            # The same order within one deal: a day's board (``selectors.daily_leaderboard``)
            # and each day of a week's walk its first rows, where they sorted all of the day's.
            models.Index(
                F("daily"),
                *DAILY_RANK_ORDER,
                name="daily_attempt_day_rank",
                condition=Q(ranked=True, status="finished"),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} #{self.pk} (seed {self.seed})"

    def get_absolute_url(self) -> str:
        return reverse("game", kwargs={"game_id": self.pk})

    @property
    def is_over(self) -> bool:
        return self.status == self.Status.FINISHED

    @property
    def at_table(self) -> bool:
        return self.kind in self.TABLE_KINDS

    @property
    def continued(self) -> bool:
        """Continued from a step of a replay: it starts from a position, not a fresh deal, so it
        proves nothing about its player (lichess never rates a game "from position")."""
        return self.continued_from_step is not None

    def freeze_finish(self) -> None:
        """Keep the moves and the time of a game that has just finished as the daily boards
        rank it (``finished_moves``, ``finished_elapsed``)."""
        self.finished_moves = self.action_count
        start, end = self.first_viewed_at, self.last_action_at
        self.finished_elapsed = None if start is None or end is None else end - start

    @property
    def elapsed_seconds(self) -> float | None:
        """Server-measured time from the first view of the deal to the last action."""
        if self.first_viewed_at is None or self.last_action_at is None:
            return None
        return max(0.0, (self.last_action_at - self.first_viewed_at).total_seconds())


class Action(models.Model):
    """One accepted move. ``(game, seq)`` is unique, so a move can never be stored twice."""

    # No index of its own: the unique (game, seq) leads with it, and each move inserts into
    # every index.
    game = models.ForeignKey(GameRecord, on_delete=models.CASCADE, related_name="actions", db_index=False)
    seq = models.PositiveIntegerField()
    seat = models.SmallIntegerField()
    text = models.CharField(max_length=64)
    timed_out = models.BooleanField(
        default=False, help_text="Played for the seat when its clock ran out (LP-1), not by its player."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="action_unique_seq_per_game")]
        ordering = ["game", "seq"]

    def __str__(self) -> str:
        return f"{self.game_id}#{self.seq} seat {self.seat}: {self.text}"


class Table(NamesItsGame):
    """A live table: seats for people and bots, then one game (a Triad match or a Pyramid Poker game)."""

    class Status(models.TextChoices):
        OPEN = "open", _("Waiting for players")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")

    config = models.JSONField(default=dict, help_text="The full engine config, defaults filled in.")
    clock_seconds = models.PositiveIntegerField(
        default=30, help_text="Each turn's clock (LP-1): live up to 10 minutes, else turn-based (LP-8)."
    )
    rated = models.BooleanField(default=False, help_text="RT-2: opened as rated (casual if not).")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tables_created"
    )
    record = models.OneToOneField(
        GameRecord, null=True, blank=True, on_delete=models.PROTECT, related_name="table"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    lobby_version = models.PositiveIntegerField(
        default=0, help_text="Bumped by every change of seats or status."
    )
    private_key = models.CharField(
        max_length=43,
        null=True,
        blank=True,
        unique=True,
        help_text="LP-9: a private table's link token (secrets.token_urlsafe); none for a public table.",
    )
    chat_enabled = models.BooleanField(
        default=True,
        db_default=True,  # rows written in bulk (the generators' COPY) name no such column
        help_text="LP-10: the table's creator may turn its chat off.",
    )
    rematch_of = models.OneToOneField(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="rematch",
        help_text="The finished table whose players asked for this one (one rematch per table).",
    )

    class Meta:
        indexes = [
            models.Index(fields=["status", "-created_at"]),
            # The overdue-turn sweeper's live tables (``tables.overdue_games``), a few hundred
            # among the 100,000 turn-based ones (LP-8). On the table, not the game: a move
            # writes no table row, so the game's row keeps its heap-only updates.
            models.Index(
                fields=["record"],
                name="table_short_clock_playing",
                condition=Q(status="playing", clock_seconds__lt=3600),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} table {self.pk}"

    def get_absolute_url(self) -> str:
        return reverse("table", kwargs={"table_id": self.pk})

    @property
    def seat_count(self) -> int:
        return int(self.config.get("players", 2))

    @property
    def is_private(self) -> bool:
        return self.private_key is not None

    @property
    def rates(self) -> bool:
        """``rates_with`` its seats (prefetched by the lobby, else read)."""
        return self.rates_with(self.seats.all())

    def rates_with(self, seats: Iterable[Seat]) -> bool:
        """RT-2, RT-5: whether the table's result will move ratings, so whether it says "Rated":
        opened as rated and no seat a bot's (an open seat is a person's to take; a game starts
        with every seat taken). Where its game ends, a game everyone had left to the clocks
        is still unrated (``games.core.rated``)."""
        return self.rated and not any(seat.is_bot for seat in seats)


class Turn(models.Model):
    """LP-8: the person a turn-based table's game waits for, and until when. One row per such
    game while a person is to act, written with the move that hands them the turn
    (``games.live.turns``). Live tables have none: their moves write nothing more, and the
    game's row keeps no index a move would have to update."""

    game = models.OneToOneField(GameRecord, primary_key=True, on_delete=models.CASCADE, related_name="+")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="turns")
    seat = models.PositiveSmallIntegerField()
    since = models.DateTimeField(help_text="When the turn reached this person.")
    deadline = models.DateTimeField()

    class Meta:
        indexes = [
            models.Index(fields=["user", "since"], name="turn_waiting_for"),
            models.Index(fields=["deadline"], name="turn_deadline"),
        ]

    def __str__(self) -> str:
        return f"game {self.game_id}: {self.user_id}'s turn"


_SEAT_NAMED_BY = frozenset({"user", "user_id", "is_bot", "bot_name", "number"})
"""A seat's attributes its ``name`` is worked out from."""


class Seat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT)
    is_bot = models.BooleanField(default=False)
    bot_name = models.CharField(
        max_length=32, blank=True, help_text="A bot's name where it has one of its own (a tournament's bot)."
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="seat_unique_number_per_table"),
            models.UniqueConstraint(
                fields=["table", "user"],
                condition=Q(user__isnull=False),
                name="seat_one_per_person_per_table",
            ),
        ]
        ordering = ["table", "number"]

    def __setattr__(self, attribute: str, value: Any) -> None:
        if attribute in _SEAT_NAMED_BY:  # the kept username no longer holds
            self.__dict__.pop("_username", None)
        super().__setattr__(attribute, value)

    def __str__(self) -> str:
        return f"seat {self.number} of {self.table_id}"

    @property
    def taken(self) -> bool:
        return self.is_bot or self.user_id is not None

    @functools.cached_property
    def _username(self) -> str | None:
        """The seated person's username, "" for a closed account, None for a bot or nobody.
        Kept on the seat until what it comes from is set again: a live table's frames ask for
        each seat's name several times, and through ``user`` that was a twentieth of a frame's
        drawing."""
        if self.is_bot or self.user is None:
            return None
        # Issue 45: a closed account's games stay, its name does not (replays, narration, files).
        return "" if self.user.closed_at is not None else self.user.username

    @property
    def name(self) -> str:
        """In the reader's language where the seat has no name of its own: the kept part is
        the username, so that a seat drawn for readers of two languages says each theirs."""
        username = self._username
        if username:
            return username
        if username is not None:
            return closed_names.shown()
        if self.is_bot:
            return self.bot_name or gettext("Bot %(number)d") % {"number": self.number + 1}
        return gettext("Empty seat")


class Invitation(models.Model):
    """LP-9: a person asked to a seat of an open table (``games.live.invitations``).

    The seat is offered, not held: it stays open to anyone while the invitation waits, and
    accepting sits the invitee in it if it is still free, else in any free seat. A pending
    invitation past ``expires_at`` is expired whether or not its row says so yet: the row is
    brought up to date when someone acts on it (no task waits for it)."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        ACCEPTED = "accepted", _("Accepted")
        DECLINED = "declined", _("Declined")
        EXPIRED = "expired", _("Expired")
        CANCELLED = "cancelled", _("Cancelled")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="invitations")
    seat = models.PositiveSmallIntegerField(help_text="The seat offered (taken by then: any free one).")
    from_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations_sent"
    )
    to_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations_received"
    )
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            # Two invitations sent at once to one person for one table: the second is refused.
            models.UniqueConstraint(
                fields=["table", "to_user"], condition=Q(status="pending"), name="invitation_one_pending"
            )
        ]
        indexes = [
            # The invitee's list; the flood limit counts an inviter's last minute.
            models.Index(fields=["to_user", "-created_at"], name="invitation_received"),
            models.Index(fields=["from_user", "-created_at"], name="invitation_sent"),
        ]

    def __str__(self) -> str:
        return f"{self.from_user_id} invites {self.to_user_id} to table {self.table_id}"

    def get_absolute_url(self) -> str:
        return reverse("invitation", kwargs={"invitation_id": self.pk})

    def current_status(self, now: dt.datetime | None = None) -> str:
        """The status as of ``now``: a pending invitation past its time is expired."""
        if self.status == self.Status.PENDING and self.expires_at <= (now or timezone.now()):
            return self.Status.EXPIRED
        return self.status


class Participation(models.Model):
    """A person's part in a finished game: its owner (solitaire) or a person at one of its
    seats; an import has neither. Written where a game ends, reopens (undo) or is claimed
    (``games.stats.participations``), so that a person's games are an index range
    (``user, -finished_at``) rather than an OR across games, tables and seats, which no index
    answers at a million games (docs/benchmarks.md, "Ratings at a million games")."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    record = models.ForeignKey(GameRecord, on_delete=models.CASCADE, related_name="participations")
    game = models.CharField(max_length=16)
    finished_at = models.DateTimeField()
    seat = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Empty for an owned game.")
    won = models.BooleanField(null=True, help_text="This person's result: their seat won, or their game.")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "record"], name="participation_one_per_person_per_game"),
        ]
        indexes = [
            models.Index(fields=["user", "-finished_at", "-record"], name="participation_newest"),
            models.Index(
                fields=["user", "game", "-finished_at", "-record"], name="participation_game_newest"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.record_id}"


class DailyStanding(models.Model):
    """A person's record at the ranked daily deals: attempts, wins, and runs of consecutive UTC
    days with a finished attempt. Kept by ``games.streaks`` each time one of their attempts
    ends, so that the daily boards read their top rows instead of every attempt ever played.
    The current run is ``latest_run`` while ``last_day`` is today or yesterday, else 0."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="+"
    )
    played = models.PositiveIntegerField(help_text="Finished ranked attempts.")
    won = models.PositiveIntegerField(help_text="Won ranked attempts.")
    last_won_at = models.DateTimeField(null=True, blank=True)
    best = models.PositiveIntegerField(help_text="The longest run of days.")
    latest_run = models.PositiveIntegerField(help_text="The run that ends on ``last_day``.")
    last_day = models.DateField()

    class Meta:
        indexes = [
            models.Index(fields=["-best", "-latest_run"], name="daily_standing_streak"),
            models.Index(fields=["-won", "-played"], name="daily_standing_wins"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.won} of {self.played}"


class SiteHeartbeat(models.Model):
    """When each part of the site was last seen running (LP-5), kept in the database so that
    it outlives a Redis restart. One row per component:

    - ``web``: written every few seconds by each daphne process;
    - ``worker``: written every few seconds by each Celery worker;
    - ``site``: the last moment both were known to be running, kept by ``games.live.outages``.
      A gap in it is an outage, and clocks move on by the gap.
    """

    class Component(models.TextChoices):
        WEB = "web", _("Web server")
        WORKER = "worker", _("Celery worker")
        SITE = "site", _("Whole site")

    component = models.CharField(max_length=16, choices=Component.choices, primary_key=True)
    seen_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.component} seen at {self.seen_at:%Y-%m-%d %H:%M:%S}"


class SiteOutage(models.Model):
    """A time the site was down (LP-5), recorded when play resumed and clocks were moved on."""

    down_since = models.DateTimeField(help_text="The last moment the whole site was seen running.")
    resumed_at = models.DateTimeField()
    games_moved = models.PositiveIntegerField(help_text="How many running games' deadlines moved later.")

    class Meta:
        ordering = ["-resumed_at"]

    def __str__(self) -> str:
        return f"outage of {self.duration_seconds:.0f} s ending {self.resumed_at:%Y-%m-%d %H:%M:%S}"

    @property
    def duration_seconds(self) -> float:
        return (self.resumed_at - self.down_since).total_seconds()


class GameAnalysis(models.Model):
    """What was worked out about a finished game for its replay (issue 46, LP-11), by a task on
    the analysis queue. A solitaire game (``games.solitaire.analysis``): the player's chance to
    win after each move, from their view, and where the deal stopped being winnable with every
    card known. A table game (``games.replays.table_odds``): every seat's chance to win the
    deal at each step, every dealt card known. Of the game as it stood at ``version``: an undo
    that reopens a solitaire game leaves it behind, and its next replay works it out again."""

    record = models.OneToOneField(
        GameRecord, primary_key=True, on_delete=models.CASCADE, related_name="analysis"
    )
    version = models.PositiveIntegerField(help_text="The game's version the figures are of.")
    chances = models.JSONField(
        help_text="Per step from the deal. Solitaire: [percent or null, margin or null, exact, unknown"
        " samples]. Tables: [deal, [[percent, margin, standing] per seat], hand, kind, result or null].",
    )
    outcome = models.CharField(
        max_length=16,
        help_text="Solitaire: lost at, won, never winnable, still winnable or unknown (never guessed);"
        " tables: empty.",
    )
    turning_point = models.JSONField(
        null=True, blank=True, help_text='{"step": n, "played": move, "instead": move} when lost at a move.'
    )
    computed_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"analysis of game {self.record_id} at version {self.version}"
