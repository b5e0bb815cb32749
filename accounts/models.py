"""People: the user model (usernames, and e-mails when given, unique ignoring case)."""

from __future__ import annotations

from typing import ClassVar

from django.contrib.auth.models import AbstractUser, UserManager
from django.db import models
from django.db.models import Q, Value
from django.db.models.functions import Lower
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class CaseInsensitiveUserManager(UserManager["User"]):
    def named(self, username: str) -> models.QuerySet[User]:
        """The user called ``username`` in any case. Compared as ``lower()``, the expression of
        the index behind ``user_username_unique_ci``: ``username__iexact`` compares ``UPPER()``,
        which no index serves (a scan of every user). No username holds a NUL, which
        PostgreSQL refuses in a query: such a name (a forged URL) is nobody."""
        if "\x00" in username:
            return self.none()
        return self.alias(username_key=Lower("username")).filter(username_key=Lower(Value(username)))

    def get_by_natural_key(self, username: str | None) -> User:
        # Log-in accepts "Alice" for "alice": usernames are one per spelling, any case.
        return self.named(username or "").get()


class InvitePolicy(models.TextChoices):
    """LP-9: who may invite a person to a table."""

    ANYONE = "anyone", _("Anyone")
    FOLLOWED = "followed", _("People I follow")
    NOBODY = "nobody", _("Nobody")


class User(AbstractUser):
    # Empty only when the address given at sign-up already belonged to another account: it
    # stays with that account, and its owner is told (accounts.services.register).
    email = models.EmailField(_("e-mail address"), blank=True)
    bio = models.CharField(
        max_length=280, blank=True, help_text=_("A line or two about you, shown on your profile.")
    )
    last_seen = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the person's last open page closed (accounts.presence); online meanwhile.",
    )
    reminder_emails = models.BooleanField(
        _("E-mail me before a tournament I entered starts"),
        default=True,
        help_text=_("A reminder a few minutes before the start. The notice on the site comes either way."),
    )
    turn_emails = models.BooleanField(
        _("E-mail me when turn-based games wait for my move"),
        default=True,
        help_text=_(
            "At most one e-mail every few hours, however many games wait. The notice comes either way."
        ),
    )
    turn_email_sent_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the last turn digest went out (at most one every few hours, LP-8).",
    )
    hide_chat = models.BooleanField(
        _("Hide chat"),
        default=False,
        db_default=False,  # rows written in bulk (the generators' COPY) name no such column
        help_text=_("Chat at tables and tournaments is not shown to you."),
    )
    closed_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the account was closed: personal data erased, the username retired, games kept.",
    )
    invite_policy = models.CharField(
        _("Who may invite me to a table"),
        max_length=8,
        choices=InvitePolicy.choices,
        default=InvitePolicy.ANYONE,
    )

    # No choices here: the site's languages are settings.LANGUAGES, and adding one must need no
    # migration. Blank: none chosen yet, the browser's (accounts.languages).
    language = models.CharField(
        _("Language"),
        max_length=12,
        blank=True,
        default="",
        db_default="",  # rows written in bulk (the generators' COPY) name no such column
        help_text=_("The site's pages, notices and e-mails are in this language."),
    )

    objects: ClassVar[CaseInsensitiveUserManager] = CaseInsensitiveUserManager()

    class Meta:
        constraints = [
            models.UniqueConstraint(Lower("username"), name="user_username_unique_ci"),
            models.UniqueConstraint(Lower("email"), condition=~Q(email=""), name="user_email_unique_ci"),
        ]

    def __str__(self) -> str:
        return self.username

    def get_absolute_url(self) -> str:
        return reverse("profile", kwargs={"username": self.username})


PROVISIONAL_GAMES = 10
"""RT-3: a rating is provisional ("?") until this many rated games."""


class Rating(models.Model):
    """A person's rating in one multiplayer game (RT-1), on openskill's Plackett-Luce model
    scaled around 1500 (``accounts.ratings``)."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="ratings")
    game = models.CharField(max_length=16)
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField(default=0, help_text="Rated games played.")
    updated_at = models.DateTimeField(auto_now=True)
    history = models.JSONField(
        null=True,
        blank=True,
        help_text="The profile's chart and newest games, kept with each rated game.",
    )

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="rating_one_per_user_and_game")]
        # Only ranked (non-provisional) ratings are ever ordered or counted by rating (RT-3).
        indexes = [
            models.Index(
                fields=["game", "-mu"], condition=Q(games__gte=PROVISIONAL_GAMES), name="rating_ranked"
            )
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.game} {self.shown}"

    @property
    def value(self) -> int:
        return round(self.mu)

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES

    @property
    def shown(self) -> str:
        """RT-3: "1512", or "1512?" while provisional."""
        return f"{self.value}?" if self.provisional else str(self.value)


class RatingChange(models.Model):
    """RT-4: one rated game's effect on one person's rating, kept as history."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="rating_changes")
    record = models.ForeignKey("games.GameRecord", on_delete=models.CASCADE, related_name="rating_changes")
    game = models.CharField(max_length=16)
    place = models.PositiveSmallIntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    games_after = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["record", "user"], name="rating_change_once_per_game_and_user")
        ]
        # Covers what the profile's chart reads of every rated game, so they are read from the
        # index alone (9,000 rows: 14 ms from the table, docs/benchmarks.md).
        indexes = [
            models.Index(
                fields=["user", "game", "created_at"],
                include=["mu_before", "mu_after", "place", "id"],
                name="rating_change_history",
            )
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.game} game {self.record_id}: {self.before} -> {self.after}"

    @property
    def before(self) -> int:
        return round(self.mu_before)

    @property
    def after(self) -> int:
        return round(self.mu_after)

    @property
    def delta(self) -> int:
        """The change as shown: the difference of the shown ratings (+12, -9)."""
        return self.after - self.before

    @property
    def shown_after(self) -> str:
        return f"{self.after}?" if self.games_after < PROVISIONAL_GAMES else str(self.after)


class Notice(models.Model):
    """Something a person should know now ("your match is ready"), shown as a toast and in
    the header's list until read (``accounts.notices``). ``key`` names the notice itself, so
    the same notice is never made twice for one person (a task run twice, a beat repeated);
    ``about`` names the matter it is about, so that whatever settles that matter marks it read."""

    class Kind(models.TextChoices):
        MATCH_READY = "match_ready", _("Match ready")
        STARTS_SOON = "starts_soon", _("Starts soon")
        BYE = "bye", _("Bye")
        PAIRINGS = "pairings", _("Pairings")
        EVENT_OPEN = "event_open", _("Event open")
        RESULTS = "results", _("Results")
        TIMED_OUT = "timed_out", _("Time ran out")
        REMATCH = "rematch", _("Rematch")
        YOUR_TURN = "your_turn", _("Your turn")
        INVITATION = "invitation", _("Invitation")
        INVITATION_ANSWER = "invite_answer", _("Invitation answered")

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="notices")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    text = models.CharField(max_length=200)
    params = models.JSONField(
        null=True,
        blank=True,
        help_text="What the notice names, worded in the reader's language when read (accounts.notice_texts).",
    )
    url = models.CharField(max_length=200, blank=True, help_text="A path on this site.")
    key = models.CharField(max_length=100)
    about = models.CharField(
        max_length=100,
        blank=True,
        help_text="The matter it tells of ('table:12', 'tournament:3'): read once that is done.",
    )
    created_at = models.DateTimeField(default=timezone.now)
    read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="notice_once_per_user_and_key")]
        # Every signed-in page reads a person's unread notices, newest first.
        indexes = [
            models.Index(
                fields=["user", "-created_at", "-id"], condition=Q(read_at__isnull=True), name="notice_unread"
            ),
            # A matter settled (a table's game over) finds its unread notices, whoever they are for.
            models.Index(fields=["about"], condition=Q(read_at__isnull=True), name="notice_unread_about"),
        ]

    def __str__(self) -> str:
        return f"{self.user}: {self.text}"

    @property
    def words(self) -> str:
        """What the notice says, in the active language: worded from ``params`` now, else (a
        notice made with a fixed text) ``text``."""
        from accounts import notice_texts  # it reads the game registry, which imports the models

        if self.params is None or self.kind not in notice_texts.TEXTS:
            return self.text
        try:
            return notice_texts.words(self.kind, self.params)
        except (KeyError, TypeError, ValueError):
            # Params a later version words differently: the words kept when it was made.
            return self.text


class Follow(models.Model):
    """One person following another. Public, as on lichess: anyone sees who follows whom."""

    follower = models.ForeignKey(User, on_delete=models.CASCADE, related_name="following")
    followed = models.ForeignKey(User, on_delete=models.CASCADE, related_name="followers")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["follower", "followed"], name="follow_once_per_pair"),
            models.CheckConstraint(condition=~Q(follower=models.F("followed")), name="follow_not_oneself"),
        ]
        # The followers list and count read by the followed person; the unique constraint's
        # index serves the follower's side.
        indexes = [models.Index(fields=["followed", "-created_at"], name="follow_by_followed")]

    def __str__(self) -> str:
        return f"{self.follower} follows {self.followed}"


class Presence(models.Model):
    """One open notice socket (a page of a signed-in person), and the table page it is on.

    Written when the socket opens and closes and refreshed by its heartbeat; a row whose
    heartbeat stopped (its server process died) is stale after ``presence.STALE`` and is
    deleted by a beat task. Never written for a move."""

    channel_name = models.CharField(max_length=100, unique=True)
    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="presences")
    table_id = models.PositiveBigIntegerField(
        null=True,
        blank=True,
        help_text="The table whose page holds the socket; unchecked, so read through shown_table.",
    )
    seen_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [
            models.Index(fields=["user", "-seen_at"], name="presence_by_user"),
            models.Index(fields=["seen_at"], name="presence_by_seen_at"),
        ]

    def __str__(self) -> str:
        return f"{self.user} on {self.channel_name}"


class Block(models.Model):
    """One person blocking another (LP-9, LP-10): the blocked person's chat is hidden from the
    blocker, and they cannot follow, invite or sit at the blocker's private tables. The blocked
    person is never told."""

    blocker = models.ForeignKey(User, on_delete=models.CASCADE, related_name="blocking")
    blocked = models.ForeignKey(User, on_delete=models.CASCADE, related_name="blocked_by")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="block_once_per_pair"),
            models.CheckConstraint(condition=~Q(blocker=models.F("blocked")), name="block_not_oneself"),
        ]
        # "Is this person blocked by that one?" from either side: the constraint's index serves
        # the blocker's side.
        indexes = [models.Index(fields=["blocked", "blocker"], name="block_by_blocked")]

    def __str__(self) -> str:
        return f"{self.blocker_id} blocks {self.blocked_id}"


class StaffAction(models.Model):
    """Every moderation step a member of staff takes (a mute, an account closed, a report
    settled): who, when, about whom, and why. Written with the step, in its transaction."""

    class Kind(models.TextChoices):
        MUTE = "mute", _("Muted from chat")
        UNMUTE = "unmute", _("Unmuted")
        CLOSE = "close", _("Closed the account")
        DISMISS = "dismiss", _("Dismissed a report")
        HIDE_MESSAGE = "hide", _("Hid a message")

    staff = models.ForeignKey(User, on_delete=models.PROTECT, related_name="staff_actions")
    target = models.ForeignKey(User, on_delete=models.PROTECT, related_name="staff_actions_about")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    reason = models.TextField()
    details = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [models.Index(fields=["target", "-created_at"], name="staff_action_target")]

    def __str__(self) -> str:
        return f"{self.staff_id} {self.kind} {self.target_id}"
