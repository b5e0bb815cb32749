"""A move saves only the game's columns it changed (``GameRecord.changed_fields``), and no
change is lost to that: not one made in place in a JSON field, not one undone after a save."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import tables
from games.engine import get_engine
from games.models import GameRecord
from games.state_cache import current_state
from tests.games.table_moments import dealt_heads_up_triad

pytestmark = pytest.mark.django_db


def _game_update(queries: CaptureQueriesContext) -> str:
    (update,) = [
        q["sql"] for q in queries.captured_queries if q["sql"].startswith('UPDATE "games_gamerecord"')
    ]
    return update.split(" WHERE ")[0]


def test_a_move_writes_the_columns_it_changed_and_not_the_deal() -> None:
    table, alice, bob = dealt_heads_up_triad()
    record = table.record
    mover = alice if get_engine("triad").current_player(current_state(record)) == 0 else bob
    with CaptureQueriesContext(connection) as queries:
        tables.act(table_id=table.pk, user=mover, move="check", expected_version=0)
    written = _game_update(queries)
    assert '"version"' in written and '"action_count"' in written and '"last_action_at"' in written
    assert '"seed"' not in written and '"engine_version"' not in written and '"kind"' not in written
    record.refresh_from_db()
    assert (record.version, record.action_count) == (1, 1)


def test_a_change_in_place_and_a_change_undone_after_a_save_are_both_stored() -> None:
    table, _, _ = dealt_heads_up_triad()
    record = GameRecord.objects.get(pk=table.record.pk)
    record.config["note"] = "changed in place"
    record.hint_count = 5
    record.save(update_fields=record.changed_fields())
    record.hint_count = 0  # back to what was first read, but not to what is stored now
    record.save(update_fields=record.changed_fields())
    stored = GameRecord.objects.get(pk=record.pk)
    assert stored.config["note"] == "changed in place"
    assert stored.hint_count == 0


def test_a_record_not_read_from_the_database_saves_every_field() -> None:
    table, _, _ = dealt_heads_up_triad()
    assert GameRecord(pk=table.record.pk).changed_fields() is None
