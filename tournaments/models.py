"""Knock-out tournaments of the table games.

A tournament takes entries until it starts; then its bracket is drawn at once: every
match of every round is a ``Match`` row, the later rounds' entrants filled in as winners
arrive. Each match that is played is a live table (``games.Table``) whose game is a
``GameRecord`` of kind ``tournament``, so it has turn clocks, spectators and a replay.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse

from games.models import NamesItsGame


class Tournament(NamesItsGame):
    class Status(models.TextChoices):
        OPEN = "open", "Taking entries"
        RUNNING = "running", "Playing"
        FINISHED = "finished", "Finished"
        CANCELLED = "cancelled", "Cancelled"

    name = models.CharField(max_length=80)
    config = models.JSONField(default=dict, help_text="Every match's engine config, defaults filled in.")
    clock_seconds = models.PositiveSmallIntegerField(default=30)
    rated = models.BooleanField(default=False, help_text="RT-2: its matches are rated games.")
    max_entrants = models.PositiveSmallIntegerField(default=8)
    fill_with_bots = models.BooleanField(
        default=False, help_text="At the start, bots fill the bracket up to a power of two."
    )
    starts_at = models.DateTimeField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN)
    draw_seed = models.BigIntegerField(help_text="Orders the entrants into seeds at the start.")
    rounds = models.PositiveSmallIntegerField(null=True, blank=True)
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


class Entry(models.Model):
    """A place in a tournament: a person's, or a bot's (``user`` empty)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT)
    seed = models.PositiveSmallIntegerField(null=True, blank=True, help_text="0 is the first seed.")
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    joined_at = models.DateTimeField(auto_now_add=True)

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
    """One place of the bracket: round ``round`` (from 1), ``slot`` from the top."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="matches")
    round = models.PositiveSmallIntegerField()
    slot = models.PositiveSmallIntegerField()
    first = models.ForeignKey(Entry, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    second = models.ForeignKey(Entry, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    bye = models.BooleanField(default=False, help_text="One entrant and no opponent: no game is played.")
    table = models.OneToOneField(
        "games.Table", null=True, blank=True, on_delete=models.PROTECT, related_name="tournament_match"
    )
    winner = models.ForeignKey(Entry, null=True, blank=True, on_delete=models.PROTECT, related_name="+")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "round", "slot"], name="match_unique_place"),
        ]
        ordering = ["tournament", "round", "slot"]

    def __str__(self) -> str:
        return f"{self.tournament} round {self.round} match {self.slot + 1}"

    @property
    def entrants(self) -> list[Entry]:
        return [entry for entry in (self.first, self.second) if entry is not None]
