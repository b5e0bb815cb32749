"""A move's two writes (config/compiled_writes.py) store what Django's own ``save`` and
``create`` store, in one statement each, without compiling their SQL again."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.db import DatabaseError, connection
from django.db.models import F, Model, signals
from django.db.models.sql.compiler import SQLInsertCompiler, SQLUpdateCompiler
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from config.compiled_writes import CompiledInsert, CompiledUpdate
from games.models import Action, GameRecord
from tests.games.table_moments import dealt_heads_up_triad

pytestmark = pytest.mark.django_db


def _fields(instance: Model, *leave_out: str) -> dict[str, Any]:
    return {
        field.attname: getattr(instance, field.attname)
        for field in instance._meta.concrete_fields
        if field.attname not in leave_out
    }


@pytest.fixture
def compiles(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The SQL compiled for inserts and updates while the test runs."""
    made: list[str] = []
    for compiler in (SQLInsertCompiler, SQLUpdateCompiler):
        original = compiler.as_sql

        def as_sql(self: Any, *args: Any, _original: Any = original, **kwargs: Any) -> Any:
            made.append(type(self).__name__)
            return _original(self, *args, **kwargs)

        monkeypatch.setattr(compiler, "as_sql", as_sql)
    yield made


def _game() -> GameRecord:
    table, _, _ = dealt_heads_up_triad()
    return GameRecord.objects.get(pk=table.record_id)


def test_a_games_changed_columns_are_saved_as_django_saves_them(compiles: list[str]) -> None:
    record = _game()
    compiles.clear()
    for step in range(3):
        record.version += 1
        record.last_action_at = timezone.now()
        record.config = {**record.config, "step": step}
        # Django writes a None into the SQL itself (SET ... = NULL): another shape of update.
        record.turn_deadline = None if step == 1 else timezone.now()
        with CaptureQueriesContext(connection) as queries:
            record.save_changed()
        (sql,) = [query["sql"] for query in queries.captured_queries]
        assert sql.startswith('UPDATE "games_gamerecord" SET')
        assert _fields(GameRecord.objects.get(pk=record.pk)) == _fields(record)
        # What was saved is now what the row holds: only a JSON value is written again.
        assert record.changed_fields() == ["config"]
    assert compiles == ["SQLUpdateCompiler"] * 2  # once for a deadline, once for none


def test_an_update_of_a_row_that_is_gone_is_an_error() -> None:
    record = _game()
    GameRecord.objects.filter(pk=record.pk).update(version=F("version"))  # the row is there
    update = CompiledUpdate(GameRecord)
    update.save(record, ["version"])
    record.table.delete()
    GameRecord.objects.filter(pk=record.pk).delete()
    with pytest.raises(DatabaseError, match="did not affect any rows"):
        update.save(record, ["version"])


def test_an_action_is_stored_as_django_creates_it(compiles: list[str]) -> None:
    record = _game()
    insert = CompiledInsert(Action)
    seq = record.action_count
    expected = Action.objects.create(game=record, seq=seq, seat=1, text="check", timed_out=True)
    compiles.clear()
    for n in (1, 2):
        with CaptureQueriesContext(connection) as queries:
            stored = insert.create(game=record, seq=seq + n, seat=1, text="check", timed_out=True)
        assert len(queries) == 1
        assert stored.pk is not None and not stored._state.adding and stored._state.db == "default"
        assert _fields(Action.objects.get(pk=stored.pk)) == _fields(stored)
        assert _fields(stored, "id", "seq", "created_at") == _fields(expected, "id", "seq", "created_at")
        assert stored.created_at >= expected.created_at
    assert compiles == ["SQLInsertCompiler"]


def test_what_a_compiled_write_would_skip_is_refused() -> None:
    def receiver(**kwargs: Any) -> None:
        raise AssertionError("not called: the write is refused before")

    record = _game()
    signals.pre_save.connect(receiver, sender=Action)
    try:
        with pytest.raises(ValueError, match="save receivers"):
            CompiledInsert(Action).create(game=record, seq=record.action_count, seat=0, text="check")
    finally:
        signals.pre_save.disconnect(receiver, sender=Action)
    record.version = F("version") + 1  # type: ignore[assignment]
    with pytest.raises(TypeError, match="values, not expressions"):
        CompiledUpdate(GameRecord).save(record, ["version"])
