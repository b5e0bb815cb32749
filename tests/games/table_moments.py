"""Tables built straight into a chosen moment of their game (a tie, a timeout, the end), for
the table clarity tests and their screenshots: bots play every seat in pure Python until
the moment is reached, then the rows are written as the site would have written them.

No task is scheduled for these games, so nothing moves them on while a test looks.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Awaitable, Callable, Collection, Sequence
from typing import Any

from django.utils import timezone

from accounts.models import User
from games import finishes, kinds, queued_moves, table_frames, tables
from games.engine import TABLE_SEAT, get_engine
from games.engine.bots import bot_seed
from games.models import Action, GameRecord, Seat, Table
from games.moves import finish_if_over
from games.state_cache import current_state

Stop = Callable[[Any, Any, list[str]], bool]


async def moves_behind_a_held_one(
    dealt: Sequence[tuple[int, User, User]], held: Awaitable[object], release: Callable[[], None]
) -> list[object]:
    """The first dealt table's move played, and held (``held`` returns once it is); meanwhile
    a move at each other table and one out of turn at the last queue behind it, and once they
    have, ``release()`` lets the first go on. The queued moves' outcomes (a refusal as the
    exception it raised), the move out of turn's last."""
    first = asyncio.ensure_future(queued_moves.play(dealt[0][0], dealt[0][1], {"action": "check"}, 0))
    await held
    rest = [queued_moves.play(pk, mover, {"action": "check"}, 0) for pk, mover, _ in dealt[1:]]
    wrong = queued_moves.play(dealt[-1][0], dealt[-1][2], {"action": "check"}, 0)  # not their turn
    waiting = asyncio.gather(*rest, wrong, return_exceptions=True)
    await asyncio.sleep(0.05)
    release()
    await first
    return await waiting


def one_move_on(before: GameRecord) -> tuple[GameRecord, Action]:
    """The game's row after one more move from ``before`` (read again, from its database), and
    the move: what a move at a kept table would store."""
    after = GameRecord.objects.using(before._state.db).get(pk=before.pk)
    after.version, after.action_count = before.version + 1, before.action_count + 1
    after.last_action_at = timezone.now()
    action = Action(game=after, seq=before.action_count, seat=0, text="check", created_at=timezone.now())
    return after, action


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


def dealt_kept_triad_tables(count: int) -> list[tuple[int, User, User]]:
    """``count`` dealt two-seat Triad tables, each kept by this process at version 0 (drawn
    once, as a socket's first frame draws it), with the person to move and the other."""
    dealt = []
    for table_id, first, second in dealt_triad_tables(count):
        record = GameRecord.objects.get(table__pk=table_id)
        seat = get_engine("triad").current_player(current_state(record))
        mover = Seat.objects.get(table_id=table_id, number=seat).user
        assert mover is not None
        table_frames.render_table(table_id, None, "", 0)
        dealt.append((table_id, mover, second if mover == first else first))
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
