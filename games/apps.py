from typing import Any

from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in

        user_logged_in.connect(_claim_games, dispatch_uid="games.claim_anonymous_games")


def _claim_games(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    """Django's own log-in views offer no other hook: this only hands over to a service."""
    from games.core.players import SESSION_TOKEN
    from games.solitaire.services import claim_anonymous_games

    if request is not None and hasattr(request, "session"):
        claim_anonymous_games(user=user, token=request.session.get(SESSION_TOKEN))
