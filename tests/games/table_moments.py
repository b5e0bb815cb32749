"""Tables built straight into a chosen moment of their game (a tie, a timeout, the end), for
the table clarity tests and their screenshots: bots play every seat in pure Python until
the moment is reached, then the rows are written as the site would have written them.

No task is scheduled for these games, so nothing moves them on while a test looks.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Collection, Sequence
from typing import Any

from django.utils import timezone

from accounts.models import User
from games import kinds
from games.core import finishes
from games.core.moves import finish_if_over
from games.engine import TABLE_SEAT
from games.engine.bots import bot_seed
from games.live import table_frames, tables
from games.models import Action, GameRecord, Seat, Table

Stop = Callable[[Any, Any, list[str]], bool]


def frames_for(table_id: int, viewers: Collection[User | None]) -> dict[int | None, tuple[str, int | None]]:
    """Each viewer's frame of the table as it stands (``table_frames.render_table``), by user id
    (``None``: a spectator's)."""
    return {None if user is None else user.pk: table_frames.render_table(table_id, user) for user in viewers}


def dealt_triad_tables(count: int) -> list[tuple[int, User, User]]:
    """``count`` dealt two-seat Triad tables, each with its first and second seat's person."""
    dealt = []
    for n in range(count):
        first = User.objects.create_user(f"first{n}", f"f{n}@example.com", "pw-long-enough-1")
        second = User.objects.create_user(f"second{n}", f"s{n}@example.com", "pw-long-enough-1")
        table = tables.create_table(game="triad", creator=first, config={"players": 2})
        tables.sit(table_id=table.pk, user=second)
        tables.start(table_id=table.pk, user=first)
        dealt.append((table.pk, first, second))
    return dealt


def dealt_heads_up_triad() -> tuple[Table, User, User]:
    """A two-seat Triad table of alice and bob, dealt through the services as the site deals
    one (its first turn's task scheduled), for tests that play it on from the deal."""
    alice = User.objects.create_user("alice", "a@example.com", "pw-long-enough-1")
    bob = User.objects.create_user("bob", "b@example.com", "pw-long-enough-1")
    table = tables.create_table(game="triad", creator=alice, config={"players": 2})
    tables.sit(table_id=table.pk, user=bob)
    tables.start(table_id=table.pk, user=alice)
    table.refresh_from_db()
    return table, alice, bob


def play_until(game: str, config: dict[str, Any], seed: int, stop: Stop, limit: int = 20_000) -> list[str]:
    """The bots' actions from the deal until ``stop(engine, state, actions)`` (or the end)."""
    engine = kinds.get_table_game(game).engine
    full = engine.normalize_config(config)
    state = engine.initial_state(full, seed)
    actions: list[str] = []
    while not stop(engine, state, actions) and len(actions) < limit:
        seat = engine.current_player(state)
        if seat is None:
            break
        if seat == TABLE_SEAT:
            text = str(engine.legal_actions(state)[0])
        else:
            text = engine.bot_action(engine.view(state, seat), bot_seed(seed, seat, len(actions)))
        state = engine.apply(state, text)
        actions.append(text)
    return actions


def find_game(
    game: str, config: dict[str, Any], stop: Stop, seeds: Sequence[int] = range(1, 400)
) -> tuple[int, list[str]]:
    """The first seed whose bot game reaches ``stop``, and the actions to get there."""
    engine = kinds.get_table_game(game).engine
    full = engine.normalize_config(config)
    for seed in seeds:
        actions = play_until(game, config, seed, stop)
        state = engine.replay(full, seed, actions)[-1]
        if stop(engine, state, actions):
            return seed, actions
    raise AssertionError("no seed reaches that moment")


def build_table(
    game: str,
    config: dict[str, Any],
    people: dict[int, User],
    seed: int,
    actions: Sequence[str],
    *,
    timed_out: Collection[int] = (),
    clock_s: float | None = 600,
) -> Table:
    """A table of ``game`` whose seats are ``people`` (by number) and bots elsewhere, at the
    moment after ``actions``; the actions numbered in ``timed_out`` were the turn clock's."""
    spec = kinds.get_table_game(game)
    engine = spec.engine
    full = engine.normalize_config(config)
    creator = next(iter(people.values()))
    table = Table.objects.create(game=game, config=full, clock_seconds=30, created_by=creator)
    Seat.objects.bulk_create(
        [
            Seat(table=table, number=n, user=people.get(n), is_bot=n not in people)
            for n in range(engine.seat_count(full))
        ]
    )
    record = GameRecord.objects.create(
        game=game,
        engine_version=engine.version,
        config=full,
        seed=seed,
        kind=GameRecord.Kind.TABLE,
        first_viewed_at=timezone.now(),
    )
    states = engine.replay(full, seed, list(actions))
    rows = []
    for seq, text in enumerate(actions):
        seat = engine.current_player(states[seq])
        rows.append(Action(game=record, seq=seq, seat=seat, text=text, timed_out=seq in timed_out))
    Action.objects.bulk_create(rows)
    record.action_count = record.version = len(actions)
    finish_if_over(record, engine, states[-1])
    if not record.is_over and clock_s is not None:
        record.turn_deadline = timezone.now() + dt.timedelta(seconds=clock_s)
    record.save()
    if record.is_over:
        finishes.sync(record)
    table.record = record
    table.status = Table.Status.FINISHED if record.is_over else Table.Status.PLAYING
    table.save()
    return table
