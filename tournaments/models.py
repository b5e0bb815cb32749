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

from games.models import NamesItsGame


class Tournament(NamesItsGame):
    class Format(models.TextChoices):
        SINGLE_ELIMINATION = "single_elimination", "Single elimination"
        DOUBLE_ELIMINATION = "double_elimination", "Double elimination"
        ROUND_ROBIN = "round_robin", "Round robin"
        SWISS = "swiss", "Swiss"

    class Status(models.TextChoices):
        OPEN = "open", "Taking entries"
        RUNNING = "running", "Playing"
        FINISHED = "finished", "Finished"
        CANCELLED = "cancelled", "Cancelled"

    name = models.CharField(max_length=80)
    format = models.CharField(max_length=24, choices=Format.choices, default=Format.SINGLE_ELIMINATION)
    best_of = models.PositiveSmallIntegerField(default=1, help_text="TN-5: games a heads-up match may take.")
    table_size = models.PositiveSmallIntegerField(
        default=2, help_text="TN-3: seats at a table of a round robin or Swiss round (2 is heads-up)."
    )
    third_place = models.BooleanField(default=False, help_text="Single elimination: a match for third place.")
    config = models.JSONField(default=dict, help_text="Every match's engine config, defaults filled in.")
    clock_seconds = models.PositiveSmallIntegerField(default=30)
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

    class Meta:
        indexes = [models.Index(fields=["status", "starts_at"])]
        ordering = ["-starts_at"]

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
        return not self.is_elimination


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
            return self.user.username
        return f"Bot {(self.seed or 0) + 1}"


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
