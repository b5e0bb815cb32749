"""Game states rebuilt from ``(game, config, seed, actions)``, with a small per-process cache.

The cache is keyed by ``(game id, version)``; versions only grow, so an entry can never
be stale, only unused, provided it holds committed data: services add entries after
their transaction commits, and reads add them only outside a transaction.

A version this process has not seen is rebuilt from the latest state it kept of the game,
with only the actions since (a live table's other process, which did not make the move):
unless a move was undone since, the actions it applied are still the game's first ones.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction

from games import action_rows
from games.engine import get_engine
from games.lru import Lru
from games.models import GameRecord

CACHE_SIZE = 512
_states: Lru[tuple[int, int], Any] = Lru(CACHE_SIZE)


@dataclass(frozen=True)
class _Kept:
    """The latest state this process keeps of a game, and where in the game it stands."""

    version: int
    action_count: int
    undo_count: int
    state: Any


_latest: Lru[int, _Kept] = Lru(CACHE_SIZE)


def _rebuild(record: GameRecord) -> Any:
    engine = get_engine(record.game)
    if record.engine_version != engine.version:
        raise RuntimeError(
            f"game {record.pk} was played with {record.game} engine version {record.engine_version}, "
            f"and this server has version {engine.version}"
        )
    kept = _latest.find(record.pk)
    # Only the actions of the version read: a move committed since must not appear in it.
    if kept is not None and kept.undo_count == record.undo_count and kept.action_count <= record.action_count:
        state = kept.state
        for text, _ in action_rows.rows(record, kept.action_count, record.action_count).values():
            state = engine.apply(state, text)
        return state
    texts = [text for text, _ in action_rows.rows(record, 0, record.action_count).values()]
    return engine.replay(record.config, record.seed, texts, deck=record.deck)[-1]


def _still_at(record: GameRecord) -> bool:
    """Whether the game is still at the version ``record`` was read at. Versions only grow,
    so if it is, no move or undo committed between that read and now: the actions read in
    between were that version's (an undo and a new move could otherwise put another action
    at the same place). A live table's moves are never undone: its actions before the
    version read are that version's whenever they are read."""
    return record.at_table or GameRecord.objects.filter(pk=record.pk, version=record.version).exists()


def current_state(record: GameRecord) -> Any:
    key = (record.pk, record.version)
    state = _states.find(key)
    if state is None:
        state = _rebuild(record)
        # Inside a transaction the rows may yet be rolled back, and a later version with
        # the same number would then find this state: only committed reads are cached, and
        # only when nothing moved while they were read.
        if not transaction.get_connection().in_atomic_block and _still_at(record):
            remember_state(record, state)
    return state


def kept_state(record: GameRecord) -> Any:
    """The state at ``record``'s version if this process keeps it, else ``None``: no read."""
    return _states.find((record.pk, record.version))


def remember_state(record: GameRecord, state: Any) -> None:
    _states.keep((record.pk, record.version), state)
    kept = _latest.find(record.pk)
    if kept is None or kept.version < record.version:
        _latest.keep(record.pk, _Kept(record.version, record.action_count, record.undo_count, state))
