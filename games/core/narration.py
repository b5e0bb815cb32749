"""A game's steps in plain English, and the standing beside each step, for the replay viewer.

``narrate(game, before, action, after, names, reveal=...)`` says in one sentence what one
action did; ``standing(game, state, names)`` lists the scores or chips at that moment. The
words of each game are its spec's (``games.kinds``); what may be said follows LP-3 (see
``games.kinds.words``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import get_language, gettext

from games import kinds
from games.engine import FORFEIT
from games.kinds.words import Step

__all__ = ["Said", "narrate", "standing"]


def narrate(game: str, before: Any, action: str, after: Any, names: Sequence[str], *, reveal: bool) -> str:
    """One sentence saying what ``action`` did, taking ``before`` to ``after``.

    ``names[seat]`` is each seat's display name. With ``reveal=False`` the sentence holds
    only what a spectator could see at that moment; ``reveal=True`` (finished games only)
    may name every card. ``ValueError`` for an unknown game or an unreadable action.
    """
    try:
        spec = kinds.get(game)
    except kinds.UnknownGame as exc:
        raise ValueError(str(exc)) from None
    engine = spec.engine
    if action.strip() == FORFEIT:
        seat = engine.current_player(before)
        who = names[seat] if seat is not None and 0 <= seat < len(names) else "A player"
        return gettext("%(who)s loses by forfeit: no move was made before the clock ran out twice.") % {
            "who": who
        }
    return spec.narrate(Step(engine, before, engine.parse_action(action), after, names, reveal))


def standing(game: str, state: Any, names: Sequence[str]) -> list[dict[str, Any]]:
    """The scores or chips at this moment, public information only: ``[{"label", "value"}]``."""
    spec = kinds.get(game)
    return spec.standing(spec.engine.view(state, None), names)


class Said:
    """A move as a spectator saw it (``reveal=False``), said in the language active when it is
    read: a live table's log keeps its moves once for readers of every language, so the
    sentence is made per reader's language, once each, not when the move is made."""

    def __init__(self, game: str, before: Any, action: str, after: Any, names: Sequence[str]) -> None:
        self._move = game, before, action, after, tuple(names)
        self._by_language: dict[str | None, str] = {}

    def __eq__(self, other: object) -> bool:
        # The same move said from equal states: one sentence in every language.
        return isinstance(other, Said) and self._move == other._move

    def __hash__(self) -> int:
        game, _before, action, _after, names = self._move
        return hash((game, action, names))

    def __str__(self) -> str:
        language = get_language()
        text = self._by_language.get(language)
        if text is None:
            game, before, action, after, names = self._move
            text = narrate(game, before, action, after, names, reveal=False)
            self._by_language[language] = text  # a dict's item assignment is atomic: threads share it
        return text
