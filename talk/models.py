"""What people say to each other (LP-10) and what is reported about it.

A ``Message`` is said in one room: a table's players' chat, its spectators' chat (which the
players read only once the game is over, LP-3's spirit), or a tournament's chat. ``BannedWord``
is the word list staff keep in the admin: a message with one is hidden from everyone but its
author, and flagged. A ``Report`` names a person, and a message if it is about one; a ``Mute``
keeps a person out of every chat until it ends.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Message(models.Model):
    class Room(models.TextChoices):
        PLAYERS = "players", _("Players")
        SPECTATORS = "spectators", _("Spectators")
        TOURNAMENT = "tournament", _("Tournament")

    room = models.CharField(max_length=16, choices=Room.choices)
    table = models.ForeignKey(
        "games.Table", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    tournament = models.ForeignKey(
        "tournaments.Tournament", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="messages")
    text = models.CharField(
        max_length=300, blank=True, help_text="Empty once its author closed their account."
    )
    preset = models.CharField(
        max_length=16, blank=True, help_text="A preset phrase's key ('gg'): shown in each reader's language."
    )
    created_at = models.DateTimeField(default=timezone.now)
    hidden = models.BooleanField(
        default=False, help_text="Hidden from everyone but its author: a word-list hit, or hidden by staff."
    )

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(room="tournament", table__isnull=True, tournament__isnull=False)
                | Q(room__in=["players", "spectators"], table__isnull=False, tournament__isnull=True),
                name="message_in_one_room",
            )
        ]
        indexes = [
            # A room's newest messages (the last 50 shown to a newcomer).
            models.Index(fields=["table", "room", "-created_at"], name="message_table_room"),
            models.Index(fields=["tournament", "-created_at"], name="message_tournament"),
            models.Index(fields=["user", "-created_at"], name="message_by_user"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.room}: {self.text[:40]}"


class BannedWord(models.Model):
    """A word staff keep out of chat: a message containing it is hidden and flagged."""

    word = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return self.word


class Report(models.Model):
    """A person (and a message of theirs, if it is about one) reported to staff. The reported
    person is never told who reported them."""

    class Reason(models.TextChoices):
        ABUSE = "abuse", _("Insults or harassment")
        SPAM = "spam", _("Spam or advertising")
        CHEATING = "cheating", _("Cheating")
        OTHER = "other", _("Something else")

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        ACTIONED = "actioned", _("Acted on")
        DISMISSED = "dismissed", _("Dismissed")

    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports_made"
    )
    reported = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports_about"
    )
    message = models.ForeignKey(
        Message, null=True, blank=True, on_delete=models.SET_NULL, related_name="reports"
    )
    reason = models.CharField(max_length=16, choices=Reason.choices)
    details = models.CharField(max_length=500, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN)
    handled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    handled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["created_at"], condition=Q(status="open"), name="report_open"),
            models.Index(fields=["reporter", "-created_at"], name="report_by_reporter"),
        ]

    def __str__(self) -> str:
        return f"report {self.pk} about {self.reported_id}"


class Mute(models.Model):
    """A person kept out of every chat until ``until``, by a member of staff."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="mutes")
    until = models.DateTimeField()
    reason = models.TextField()
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [models.Index(fields=["user", "-until"], name="mute_by_user")]

    def __str__(self) -> str:
        return f"{self.user_id} muted until {self.until:%Y-%m-%d %H:%M}"
