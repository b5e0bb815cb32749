"""People: the user model (usernames, and e-mails when given, unique ignoring case)."""

from __future__ import annotations

from typing import ClassVar

from django.contrib.auth.models import AbstractUser, UserManager
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower
from django.urls import reverse


class CaseInsensitiveUserManager(UserManager["User"]):
    def get_by_natural_key(self, username: str | None) -> User:
        # Log-in accepts "Alice" for "alice": usernames are one per spelling, any case.
        return self.get(username__iexact=username)


class User(AbstractUser):
    # Empty only when the address given at sign-up already belonged to another account: it
    # stays with that account, and its owner is told (accounts.services.register).
    email = models.EmailField("e-mail address", blank=True)
    bio = models.CharField(
        max_length=280, blank=True, help_text="A line or two about you, shown on your profile."
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
