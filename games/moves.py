"""Every move of every game, solitaire or at a table, goes through here.

``lock`` takes the game row's lock; ``apply_locked`` rebuilds the state from the stored
actions, checks that the move is the seat's to make, parses it (text, or a form's fields),
applies it, appends the ``Action`` with the next number, bumps the version, finishes the
game if the move ended it, and on commit keeps the new state and announces it. A refused
move raises ``GameError`` and changes nothing.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from config.compiled_writes import CompiledInsert
from games import finishes
from games.engine import FORFEIT, TABLE_SEAT, IllegalAction, get_engine
from games.engine.base import Engine
from games.errors import GameError, as_sentence
from games.models import Action, GameRecord
from games.state_cache import current_state, remember_state

MAX_MOVE_TEXT = 64


@dataclass(frozen=True)
class Moved:
    record: GameRecord
    state: Any
    action: Action
    """The move as stored."""


Announce = Callable[[GameRecord, Any, Action], None]
"""Called inside the transaction after a move is stored (the game, its new state, the move):
sets what the move changes beyond the game row (a table's clock and status) and queues what
is said after commit."""


def lock(game_id: int) -> GameRecord:
    """The game row, locked until the caller's transaction ends."""
    record = GameRecord.objects.select_for_update().filter(pk=game_id).first()
    if record is None:
        raise GameError("There is no such game.")
    return record


def check_text(text: object, example: str) -> str:
    if not isinstance(text, str) or not text.strip() or len(text) > MAX_MOVE_TEXT:
        raise GameError(f"A move is a short text such as {example}.")
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


_INSERT_ACTION = CompiledInsert(Action)


def checked(
    engine: Engine[Any, Any], state: Any, seat: int, move: str | Mapping[str, object]
) -> tuple[Any, Any]:
    """``move`` by ``seat`` in ``state``: the action and the state it leads to; ``GameError``
    if it is not the seat's turn, or not a move of the game."""
    to_act = engine.current_player(state)
    if to_act is None:
        raise GameError("This game is over.")
    if to_act != seat:
        raise GameError(
            "It is not your turn." if to_act != TABLE_SEAT else "The table is about to deal a tie replay."
        )
    try:
        action = _parse(engine, move)
        return action, engine.apply(state, action)
    except IllegalAction as exc:
        raise GameError(as_sentence(str(exc))) from exc


def counted(record: GameRecord) -> dt.datetime:
    """The game's count of actions, version and times after one more action (made now)."""
    record.action_count += 1
    record.version += 1
    now = timezone.now()
    record.first_viewed_at = record.first_viewed_at or now
    record.last_action_at = now
    return now


def apply_locked(
    record: GameRecord,
    seat: int,
    move: str | Mapping[str, object],
    *,
    announce: Announce | None = None,
    timed_out: bool = False,
) -> Moved:
    """Apply ``move`` for ``seat``; the caller holds the row's lock (``lock``) in a transaction."""
    engine = get_engine(record.game)
    state = current_state(record)
    action, new_state = checked(engine, state, seat, move)
    stored = _INSERT_ACTION.create(
        game=record, seq=record.action_count, seat=seat, text=str(action), timed_out=timed_out
    )
    was_over = record.is_over
    counted(record)
    finish_if_over(record, engine, new_state)
    # Kept before the announcement goes out, so the sockets it wakes find the new state cached.
    transaction.on_commit(lambda: remember_state(record, new_state))
    if announce is not None:
        announce(record, new_state, stored)
    record.save_changed()
    if record.is_over != was_over:
        finishes.sync(record)
    return Moved(record, new_state, stored)
