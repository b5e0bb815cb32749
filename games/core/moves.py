"""What a move does to a game, decided without the database (``games.core.move_path`` stores it):
whether it is the seat's to make and legal (text, or a form's fields), and how it changes
the game's row: its count, version and times, and its result if it ended the game. A refused
move raises ``GameError``."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext

from games.core.errors import GameError
from games.engine import FORFEIT, TABLE_SEAT, IllegalAction
from games.engine.base import Engine
from games.kinds.refusals import refusal
from games.models import GameRecord

MAX_MOVE_TEXT = 64


def check_text(text: object, example: str) -> str:
    if not isinstance(text, str) or not text.strip() or len(text) > MAX_MOVE_TEXT:
        raise GameError(gettext("A move is a short text such as %(example)s.") % {"example": example})
    return text


def _parse(engine: Engine[Any, Any], move: str | Mapping[str, object]) -> Any:
    if isinstance(move, str):
        # A forfeit is the engine's to apply as text: it is no action of the game (TN-6).
        return FORFEIT if move.strip() == FORFEIT else engine.parse_action(move)
    return engine.action_from_fields(move)


def finish_if_over(record: GameRecord, engine: Engine[Any, Any], state: Any) -> None:
    """Set the record's result from the state (or clear it: an undo may reopen a game)."""
    outcome = engine.outcome(state)
    if outcome is None:
        record.status, record.won, record.score, record.outcome, record.finished_at = (
            GameRecord.Status.PLAYING,
            None,
            None,
            None,
            None,
        )
        record.finished_moves = record.finished_elapsed = None
        return
    record.status = GameRecord.Status.FINISHED
    record.won = outcome.get("won")
    record.score = outcome.get("score")
    record.outcome = outcome
    record.finished_at = timezone.now()
    record.freeze_finish()


def checked(
    engine: Engine[Any, Any], state: Any, seat: int, move: str | Mapping[str, object]
) -> tuple[Any, Any]:
    """``move`` by ``seat`` in ``state``: the action and the state it leads to; ``GameError``
    if it is not the seat's turn, or not a move of the game."""
    to_act = engine.current_player(state)
    if to_act is None:
        raise GameError(gettext("This game is over."))
    if to_act != seat:
        raise GameError(
            gettext("It is not your turn.")
            if to_act != TABLE_SEAT
            else gettext("The table is about to deal a tie replay.")
        )
    try:
        action = _parse(engine, move)
        return action, engine.apply(state, action)
    except IllegalAction as exc:
        raise GameError(refusal(exc.words)) from exc


def counted(record: GameRecord) -> dt.datetime:
    """The game's count of actions, version and times after one more action (made now)."""
    record.action_count += 1
    record.version += 1
    now = timezone.now()
    record.first_viewed_at = record.first_viewed_at or now
    record.last_action_at = now
    return now
