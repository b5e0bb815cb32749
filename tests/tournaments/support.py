"""Playing a tournament match to its end through the real services, as its seats would."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from games.core import move_path
from games.core.snapshots import state_of
from games.engine import TABLE_SEAT, get_engine
from games.engine.bots import bot_seed
from games.live import tables
from games.models import GameRecord, Table

User = get_user_model()


def person(name: str) -> User:
    return User.objects.create_user(name, f"{name}@example.com", "pw-long-enough-1")


def play_out(table: Table, max_moves: int = 3000) -> GameRecord:
    """People move through ``move_path.play_at_table`` (choosing as the bot would), bots and the table
    through ``tables.advance``: the paths a real match takes."""
    engine = get_engine(table.game)
    record = GameRecord.objects.get(pk=table.record_id)
    for _ in range(max_moves):
        record.refresh_from_db()
        if record.is_over:
            return record
        state = state_of(record)
        seat = engine.current_player(state)
        occupant = None if seat == TABLE_SEAT else table.seats.get(number=seat)
        if occupant is None or occupant.is_bot:
            # With a worker running, its own task may make this move first: then this one is a no-op.
            tables.advance(game_id=record.pk, version=record.version)
        else:
            choose = get_engine(table.game).bot_action
            text = choose(engine.view(state, seat), bot_seed(record.seed, seat, record.action_count))
            move_path.play_at_table(
                table_id=table.pk, user=occupant.user, move=text, expected_version=record.version
            )
    raise AssertionError(f"game {record.pk} did not end in {max_moves} moves")
