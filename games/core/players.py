"""Who is playing: a signed-in user, or an anonymous browser known by a token in its session."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest

from accounts.models import User
from games.models import GameRecord, SoloMatch

SESSION_TOKEN = "player_token"


@dataclass(frozen=True)
class Player:
    user: User | None
    token: str
    """Random, kept in the session: it survives log-in (Django keeps session data when it
    rotates the session key), so a game started anonymously stays playable after it."""

    @classmethod
    def from_request(cls, request: HttpRequest) -> Player:
        token = request.session.get(SESSION_TOKEN)
        if not token:
            token = secrets.token_urlsafe(24)
            request.session[SESSION_TOKEN] = token
        user = request.user if request.user.is_authenticated else None
        return cls(user=user, token=token)

    def ownership(self) -> dict[str, Any]:
        """The fields that make a new game this player's."""
        return {"owner": self.user, "session_key": "" if self.user else self.token}

    def owns(self, record: GameRecord | SoloMatch) -> bool:
        if record.owner_id is not None:
            return self.user is not None and record.owner_id == self.user.pk
        return bool(record.session_key) and secrets.compare_digest(record.session_key, self.token)
