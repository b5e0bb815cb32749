"""Refusals the site shows a person: ``str()`` is the message, ``code`` its kind."""

from __future__ import annotations


class GameError(Exception):
    """A refused request; nothing was changed."""

    code = "refused"


class StaleVersion(GameError):
    """The page or socket showed an older version of the game than the one stored."""

    code = "stale"


class NotYourGame(GameError):
    code = "forbidden"


def as_sentence(message: str) -> str:
    """An engine's message (lower case, no stop) as a sentence for the page."""
    return message[:1].upper() + message[1:] + "."
