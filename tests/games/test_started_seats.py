"""A started table's seats are read once per process (games/started_seats.py); an open
table's, which people take and leave, at every look."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from games import started_seats, tables
from games.engine import get_engine
from games.models import GameRecord, Table
from games.state_cache import current_state
from tests.tournaments.support import person

pytestmark = pytest.mark.django_db


def seat_reads(queries: CaptureQueriesContext) -> list[str]:
    return [q["sql"] for q in queries.captured_queries if '"games_seat"' in q["sql"]]


def test_an_open_tables_seats_are_read_at_every_look() -> None:
    alice, bob = person("alice"), person("bob")
    table = tables.create_table(game="triad", creator=alice, config={"players": 2})
    before = started_seats.seats_of(Table.objects.get(pk=table.pk))
    tables.sit(table_id=table.pk, user=bob)
    after = started_seats.seats_of(Table.objects.get(pk=table.pk))
    assert [s.user_id for s in before] != [s.user_id for s in after]
    assert bob.pk in [s.user_id for s in after]


def test_a_move_at_a_started_table_reads_no_seat_once_they_are_known() -> None:
    alice, bob = person("alice"), person("bob")
    table = tables.create_table(game="triad", creator=alice, config={"players": 2})
    tables.sit(table_id=table.pk, user=bob)
    tables.start(table_id=table.pk, user=alice)
    started_seats._seats.clear()
    seats = started_seats.seats_of(Table.objects.get(pk=table.pk))
    assert [s.name for s in seats] == [
        s.name for s in Table.objects.get(pk=table.pk).seats.order_by("number")
    ]
    engine = get_engine("triad")
    record = GameRecord.objects.get(table__pk=table.pk)
    state = current_state(record)
    mover: User = alice if seats[engine.current_player(state)].user_id == alice.pk else bob
    move = next(str(a) for a in engine.legal_actions(state) if str(a) != "fold")
    with CaptureQueriesContext(connection) as queries:
        moved = tables.act(table_id=table.pk, user=mover, move=move, expected_version=record.version)
    assert seat_reads(queries) == []
    assert moved.seats == seats
