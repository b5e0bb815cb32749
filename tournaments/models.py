"""Tournaments of the table games, in four formats (TN-1): single and double elimination,
round robin and Swiss.

A tournament takes entries until it starts; then its entrants are seeded (TN-2) and its
matches laid out by the pure functions of ``tournaments.formats``: an elimination bracket
at once (every match a ``Match`` row, later ones filled in as results arrive), a round
robin's or a Swiss event's rounds one at a time. A match seats two entrants, or up to six
at a table (TN-3), as ``Seating`` rows; each game it plays (up to five, best of N: TN-5) is
a ``MatchGame`` with its live table (``games.Table``), whose game is a ``GameRecord`` of
kind ``tournament``, so it has turn clocks, spectators and a replay.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from accounts import closed_names
from games.models import NamesItsGame
from tournaments.recurrence import DAY_MINUTES, EVERY_MINUTES, HOUR_MINUTES, Recurrence


class Tournament(NamesItsGame):
    class Format(models.TextChoices):
        SINGLE_ELIMINATION = "single_elimination", _("Single elimination")
        DOUBLE_ELIMINATION = "double_elimination", _("Double elimination")
        ROUND_ROBIN = "round_robin", _("Round robin")
        SWISS = "swiss", _("Swiss")
        SOLITAIRE = "solitaire", _("Solitaire event")
        PAR_MATCH = "par_match", _("Par match")

    class Status(models.TextChoices):
        OPEN = "open", _("Taking entries")
        RUNNING = "running", _("Playing")
        FINISHED = "finished", _("Finished")
        CANCELLED = "cancelled", _("Cancelled")

    name = models.CharField(max_length=80)
    format = models.CharField(max_length=24, choices=Format.choices, default=Format.SINGLE_ELIMINATION)
    best_of = models.PositiveSmallIntegerField(default=1, help_text="TN-5: games a heads-up match may take.")
    table_size = models.PositiveSmallIntegerField(
        default=2, help_text="TN-3: seats at a table of a round robin or Swiss round (2 is heads-up)."
    )
    third_place = models.BooleanField(default=False, help_text="Single elimination: a match for third place.")
    config = models.JSONField(default=dict, help_text="Every match's engine config, defaults filled in.")
    clock_seconds = models.PositiveIntegerField(default=30, help_text="A turn's clock (LP-8).")
    rated = models.BooleanField(default=False, help_text="RT-2: its matches are rated games.")
    max_entrants = models.PositiveSmallIntegerField(default=8)
    fill_with_bots = models.BooleanField(
        default=False, help_text="At the start, bots fill the places left up to max_entrants."
    )
    starts_at = models.DateTimeField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN)
    rounds = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Swiss: set when scheduled; the others: at the start."
    )
    current_round = models.PositiveSmallIntegerField(
        default=0, help_text="Round robin and Swiss: the round being played (0 before the start)."
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="tournaments_created"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    version = models.PositiveIntegerField(default=0, help_text="Bumped by every entry, start and result.")
    deal_count = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="TN-8: a solitaire event's deals, the same for every entrant."
    )
    window_minutes = models.PositiveIntegerField(
        null=True, blank=True, help_text="TN-8: how long a solitaire event is played, from its start."
    )
    deals = models.JSONField(
        default=list, blank=True, help_text="TN-8: a solitaire event's deal numbers, chosen at the start."
    )
    closes_at = models.DateTimeField(
        null=True, blank=True, help_text="TN-8: when a solitaire event's window closes (set at the start)."
    )
    series = models.ForeignKey(
        "Series", null=True, blank=True, on_delete=models.PROTECT, related_name="editions"
    )
    series_slot = models.DateTimeField(
        null=True,
        blank=True,
        help_text="TN-9: the slot of its series this edition fills (kept if it is started early).",
    )

    class Meta:
        indexes = [models.Index(fields=["status", "starts_at"])]
        ordering = ["-starts_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["series", "series_slot"],
                condition=Q(series__isnull=False),
                name="tournament_one_edition_per_slot",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournament", kwargs={"tournament_id": self.pk})

    @property
    def is_elimination(self) -> bool:
        return self.format in (self.Format.SINGLE_ELIMINATION, self.Format.DOUBLE_ELIMINATION)

    @property
    def by_rounds(self) -> bool:
        """Round robin and Swiss: rounds played one after another, every entrant each round."""
        return self.format in (self.Format.ROUND_ROBIN, self.Format.SWISS)

    @property
    def is_solitaire(self) -> bool:
        """TN-8: every entrant plays the same solitaire deals within a window; no tables."""
        return self.format in SOLITAIRE_FORMATS


SOLITAIRE_FORMATS = (Tournament.Format.SOLITAIRE, Tournament.Format.PAR_MATCH)
TABLE_FORMATS = tuple(value for value in Tournament.Format if value not in SOLITAIRE_FORMATS)


class Entry(models.Model):
    """A place in a tournament: a person's, or a bot's (``user`` empty)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT)
    seed = models.PositiveSmallIntegerField(null=True, blank=True, help_text="0 is the first seed.")
    rating = models.FloatField(null=True, blank=True, help_text="TN-2: the rating the entrant was seeded by.")
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    joined_at = models.DateTimeField(auto_now_add=True)
    forfeits = models.PositiveSmallIntegerField(default=0, help_text="TN-6: games lost by not moving.")
    withdrawn_at = models.DateTimeField(
        null=True, blank=True, help_text="TN-6, TN-7: out of the rounds to come (its results stay)."
    )
    solo_match = models.OneToOneField(
        "games.SoloMatch",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="event_entry",
        help_text="TN-8: the entrant's run at a solitaire event's deals.",
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "user"],
                condition=Q(user__isnull=False),
                name="entry_one_per_person_per_tournament",
            ),
        ]
        ordering = ["tournament", "seed", "joined_at"]

    def __str__(self) -> str:
        return self.name

    @property
    def name(self) -> str:
        if self.user is not None:
            # Issue 45: a closed account's entries stay in the event, its name does not.
            return closed_names.shown() if self.user.closed_at is not None else self.user.username
        return gettext("Bot %(number)d") % {"number": (self.seed or 0) + 1}


class Match(models.Model):
    """One match: ``round`` (from 1) and ``slot`` (from 0, top first) within its ``side`` of
    an elimination bracket (``node`` its place in ``formats.elimination``'s graph), or within
    a round of a round robin or Swiss event (``side`` empty). Its entrants are ``seatings``;
    a bye has one and plays no game."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="matches")
    side = models.CharField(max_length=24, blank=True)
    node = models.PositiveSmallIntegerField(null=True, blank=True)
    round = models.PositiveSmallIntegerField()
    slot = models.PositiveSmallIntegerField()
    bye = models.BooleanField(default=False, help_text="One entrant and no opponent: no game is played.")
    winner = models.ForeignKey(Entry, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "side", "round", "slot"], name="match_unique_place"
            ),
        ]
        ordering = ["tournament", "round", "side", "slot"]

    def __str__(self) -> str:
        return f"{self.tournament} round {self.round} match {self.slot + 1}"

    @property
    def decided(self) -> bool:
        return self.decided_at is not None


class Seating(models.Model):
    """An entrant's seat in a match, and the place they finished it in (1 the best; equal
    places share a number), once it is decided."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seatings")
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="seatings")
    seat = models.PositiveSmallIntegerField()
    place = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "seat"], name="seating_unique_seat"),
            models.UniqueConstraint(fields=["match", "entry"], name="seating_one_per_entry"),
        ]
        ordering = ["match", "seat"]

    def __str__(self) -> str:
        return f"{self.entry} at seat {self.seat} of {self.match}"


class MatchGame(models.Model):
    """The ``number``-th game of a match (from 1), played at its own live table. ``winner``
    is the heads-up game's winning entrant; empty for a tie (replayed, TN-5), a table game
    or one not over."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField()
    table = models.OneToOneField("games.Table", on_delete=models.PROTECT, related_name="tournament_game")
    winner = models.ForeignKey(Entry, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "number"], name="match_game_unique_number")]
        ordering = ["match", "number"]

    def __str__(self) -> str:
        return f"game {self.number} of {self.match}"


WEEKLY_AT = (
    _("Weekly on Mondays at %(time)s UTC"),
    _("Weekly on Tuesdays at %(time)s UTC"),
    _("Weekly on Wednesdays at %(time)s UTC"),
    _("Weekly on Thursdays at %(time)s UTC"),
    _("Weekly on Fridays at %(time)s UTC"),
    _("Weekly on Saturdays at %(time)s UTC"),
    _("Weekly on Sundays at %(time)s UTC"),
)
"""A weekly series' schedule, one sentence a weekday: the day's plural is no suffix in every language."""


class Series(NamesItsGame):
    """TN-9: tournaments on a schedule, defined by staff. Each slot of its recurrence (UTC)
    becomes an edition, a ``Tournament`` with these options, created (and taking entries)
    ``opens_minutes`` before it starts; ``tournaments.series`` creates them."""

    class Repeat(models.TextChoices):
        EVERY_MINUTES = "minutes", _("Every few minutes")
        HOURLY = "hourly", _("Hourly")
        DAILY = "daily", _("Daily")
        WEEKLY = "weekly", _("Weekly")

    class Weekday(models.IntegerChoices):
        MONDAY = 0, _("Monday")
        TUESDAY = 1, _("Tuesday")
        WEDNESDAY = 2, _("Wednesday")
        THURSDAY = 3, _("Thursday")
        FRIDAY = 4, _("Friday")
        SATURDAY = 5, _("Saturday")
        SUNDAY = 6, _("Sunday")

    name = models.CharField(max_length=60, help_text="Each edition is named after it, with its date.")
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="series_owned",
        help_text="Editions are scheduled in this user's name; they are not entered.",
    )
    active = models.BooleanField(default=True, help_text="Editions are created only while it is active.")
    format = models.CharField(
        max_length=24, choices=Tournament.Format.choices, default=Tournament.Format.SINGLE_ELIMINATION
    )
    best_of = models.PositiveSmallIntegerField(
        default=1, help_text="Games a heads-up match may take: 1, 3 or 5."
    )
    table_size = models.PositiveSmallIntegerField(
        default=2, help_text="Round robin and Swiss: seats at a table (2 is heads-up)."
    )
    rounds = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Swiss only: its rounds.")
    third_place = models.BooleanField(default=False, help_text="Single elimination: a match for third place.")
    deal_count = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Solitaire event only: its deals (a par match has six)."
    )
    window_minutes = models.PositiveIntegerField(
        null=True, blank=True, help_text="Solitaire event and par match: minutes to play the deals."
    )
    config = models.JSONField(
        default=dict,
        blank=True,
        help_text='The game\'s options as JSON, e.g. {"hands": 3}; empty for the defaults.',
    )
    clock_seconds = models.PositiveIntegerField(default=30, help_text="The turn clock.")
    max_entrants = models.PositiveSmallIntegerField(default=8)
    fill_with_bots = models.BooleanField(
        default=False, help_text="At the start, bots fill the places left (once a person has entered)."
    )
    rated = models.BooleanField(default=False)
    repeat = models.CharField(max_length=8, choices=Repeat.choices, default=Repeat.DAILY)
    every_minutes = models.PositiveSmallIntegerField(
        choices=[(n, f"every {n} minutes") for n in EVERY_MINUTES],
        null=True,
        blank=True,
        help_text="Every few minutes only.",
    )
    weekday = models.PositiveSmallIntegerField(
        choices=Weekday.choices, null=True, blank=True, help_text="Weekly only."
    )
    hour = models.PositiveSmallIntegerField(default=0, help_text="UTC, 0 to 23: daily and weekly.")
    minute = models.PositiveSmallIntegerField(
        default=0, help_text="0 to 59: the minute of the hour it starts at."
    )
    opens_minutes = models.PositiveIntegerField(
        default=60,
        help_text="Minutes ahead of its start that each edition is created, open for entry.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name_plural = "series"

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournament_series", kwargs={"series_id": self.pk})

    def recurrence(self) -> Recurrence:
        """Raises ``ValueError`` when its fields do not make one."""
        if self.repeat == self.Repeat.EVERY_MINUTES:
            if self.every_minutes is None:
                raise ValueError("every few minutes needs its number of minutes")
            return Recurrence.every(self.every_minutes, minute=self.minute)
        if self.repeat == self.Repeat.HOURLY:
            return Recurrence.hourly(minute=self.minute)
        if self.repeat == self.Repeat.DAILY:
            return Recurrence.daily(hour=self.hour, minute=self.minute)
        if self.weekday is None:
            raise ValueError("a weekly series needs its weekday")
        return Recurrence.weekly(weekday=self.weekday, hour=self.hour, minute=self.minute)

    @property
    def opens_text(self) -> str:
        """``opens_minutes`` as people say it: '10 min', '1 h 30 min', '7 days'."""
        days, rest = divmod(self.opens_minutes, DAY_MINUTES)
        hours, minutes = divmod(rest, HOUR_MINUTES)
        parts = (
            ngettext("%(count)d day", "%(count)d days", days) % {"count": days} if days else "",
            gettext("%(count)d h") % {"count": hours} if hours else "",
            gettext("%(count)d min") % {"count": minutes} if minutes else "",
        )
        return " ".join(part for part in parts if part) or gettext("%(count)d min") % {"count": 0}

    @property
    def schedule_text(self) -> str:
        """When it plays, as a person says it: 'Every 10 minutes (:03, :13, ...)', 'Daily at 20:00 UTC'."""
        at = f"{self.hour:02d}:{self.minute:02d}"
        if self.repeat == self.Repeat.EVERY_MINUTES:
            every = self.every_minutes or 60
            return gettext("Every %(count)d minutes, from :%(minute)02d") % {
                "count": every,
                "minute": self.minute % every,
            }
        if self.repeat == self.Repeat.HOURLY:
            return gettext("Hourly at :%(minute)02d") % {"minute": self.minute}
        if self.repeat == self.Repeat.DAILY:
            return gettext("Daily at %(time)s UTC") % {"time": at}
        if self.weekday is None:
            return gettext("Weekly at %(time)s UTC") % {"time": at}
        return str(WEEKLY_AT[self.weekday]) % {"time": at}
