"""A move at a live table updates its game's row in place on PostgreSQL (a heap-only tuple): no
index of the game table reads a column a move writes, so a move adds no entry to any of them.
The daily boards rank by the moves and the time frozen when a game finishes (PY-7), which a
move at a playing table never writes."""

from __future__ import annotations

import re

import pytest
from django.db import connection, transaction

from accounts.models import User
from games.core import move_path
from games.core.players import Player
from games.core.snapshots import state_of
from games.engine import get_engine
from games.models import GameRecord, Seat
from games.solitaire import services
from tests.games.table_moments import dealt_heads_up_triad

pytestmark = pytest.mark.django_db(transaction=True)

MOVED = ("version", "action_count", "first_viewed_at", "last_action_at", "turn_deadline", "clock_task_at")
"""The columns a move at a playing table writes (``games.core.move_path.decide``)."""


def _index_definitions() -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_get_indexdef(indexrelid) FROM pg_index WHERE indrelid = %s::regclass",
            [GameRecord._meta.db_table],
        )
        return [row[0] for row in cursor.fetchall()]


def _updated_in_this_transaction() -> tuple[int, int]:
    """The game table's rows updated so far in this transaction, and those of them in place."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_stat_get_xact_tuples_updated(%s::regclass),"
            " pg_stat_get_xact_tuples_hot_updated(%s::regclass)",
            [GameRecord._meta.db_table] * 2,
        )
        updated, in_place = cursor.fetchone()
        return updated, in_place


def test_no_index_of_the_game_table_reads_a_column_a_move_writes() -> None:
    definitions = _index_definitions()
    assert any("daily_attempt_rank" in definition for definition in definitions)
    written = {GameRecord._meta.get_field(name).column for name in MOVED}
    for definition in definitions:
        read = set(re.findall(r"\w+", definition.split(" USING ", 1)[1]))
        assert not read & written, definition


def _mover(record: GameRecord, people: dict[int, User]) -> tuple[User, str]:
    engine = get_engine(record.game)
    state = state_of(record)
    return people[engine.current_player(state)], str(engine.legal_actions(state)[0])


def test_a_table_move_updates_its_game_in_place() -> None:
    # The suite empties tables with DELETE (config/test_postgres): the rows earlier tests left
    # dead still fill the table's pages, and an update finding no room on its row's page is
    # not in place, whatever the indexes. A site's autovacuum frees that room; here, VACUUM.
    with connection.cursor() as cursor:
        cursor.execute(f'VACUUM "{GameRecord._meta.db_table}"')
    table, alice, bob = dealt_heads_up_triad()
    people = {seat.number: seat.user for seat in Seat.objects.filter(table=table).select_related("user")}
    assert {alice, bob} == set(people.values())
    with transaction.atomic():
        before = _updated_in_this_transaction()
        for version in range(3):
            record = GameRecord.objects.get(table__pk=table.pk)
            user, move = _mover(record, people)
            move_path.play_at_table(table_id=table.pk, user=user, move=move, expected_version=version)
        after = _updated_in_this_transaction()
    updated, in_place = after[0] - before[0], after[1] - before[1]
    assert updated >= 3 and in_place == updated


def test_a_game_keeps_its_moves_and_time_when_it_finishes_and_drops_them_when_reopened() -> None:
    alice = Player(user=User.objects.create_user("alice", "alice@example.com", "pw-long-enough-1"), token="a")
    record = services.start_solitaire(game="pyramid", player=alice, seed=5)
    engine = get_engine("pyramid")
    move = str(engine.legal_actions(state_of(record))[0])
    services.submit_action(game_id=record.pk, player=alice, move=move, expected_version=0)
    services.submit_action(game_id=record.pk, player=alice, move="resign", expected_version=1)
    record.refresh_from_db()
    assert record.is_over and record.finished_moves == record.action_count == 2
    assert record.last_action_at is not None and record.first_viewed_at is not None
    assert record.finished_elapsed == record.last_action_at - record.first_viewed_at
    services.undo(game_id=record.pk, player=alice, expected_version=2)
    record.refresh_from_db()
    assert not record.is_over and (record.finished_moves, record.finished_elapsed) == (None, None)
