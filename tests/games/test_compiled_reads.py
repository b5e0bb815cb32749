"""A live table's two hot reads (config/compiled_reads.py) give what Django's own ``get`` gives,
related objects included, with one query and without compiling their SQL again."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection, transaction
from django.db.models import Model
from django.db.models.sql.compiler import SQLCompiler
from django.test.utils import CaptureQueriesContext

from config.compiled_reads import CompiledGet
from games.models import GameRecord, Table
from tests.games.table_moments import dealt_heads_up_triad

pytestmark = pytest.mark.django_db


def _fields(instance: Model) -> dict[str, Any]:
    return {field.attname: getattr(instance, field.attname) for field in instance._meta.concrete_fields}


def _table_and_game() -> CompiledGet[Table]:
    return CompiledGet(lambda: Table.objects.select_related("record"), "pk")


def _locked_game() -> CompiledGet[GameRecord]:
    return CompiledGet(
        lambda: GameRecord.objects.select_for_update(of=("self",)).select_related("table"), "table__pk"
    )


def test_a_table_and_its_game_as_django_reads_them_in_one_query() -> None:
    table, _, _ = dealt_heads_up_triad()
    read = _table_and_game()
    expected = Table.objects.select_related("record").get(pk=table.pk)
    for _ in range(2):  # compiled at the first, only run at the second
        with CaptureQueriesContext(connection) as queries:
            found = read.get(table.pk)
            assert found.record is not None
            assert _fields(found) == _fields(expected)
            assert _fields(found.record) == _fields(expected.record)
        assert len(queries) == 1
    # Made as Django makes it, the game knows which of its columns a save must write.
    assert found.record.changed_fields() == expected.record.changed_fields() is not None


def test_the_locked_game_and_its_table_as_django_reads_them() -> None:
    table, _, _ = dealt_heads_up_triad()
    read = _locked_game()
    with transaction.atomic():
        expected = GameRecord.objects.select_related("table").get(table__pk=table.pk)
        with CaptureQueriesContext(connection) as queries:
            found = read.get(table.pk)
            assert _fields(found) == _fields(expected)
            assert _fields(found.table) == _fields(expected.table)
    (sql,) = [query["sql"] for query in queries.captured_queries]
    assert sql.endswith('FOR UPDATE OF "games_gamerecord"')


def test_the_sql_is_compiled_once(monkeypatch: pytest.MonkeyPatch) -> None:
    table, _, _ = dealt_heads_up_triad()
    read = _table_and_game()
    read.get(table.pk)
    compiled: list[SQLCompiler] = []
    as_sql = SQLCompiler.as_sql

    def counted(self: SQLCompiler, *args: Any, **kwargs: Any) -> Any:
        compiled.append(self)
        return as_sql(self, *args, **kwargs)

    monkeypatch.setattr(SQLCompiler, "as_sql", counted)
    for _ in range(3):
        read.get(table.pk)
    assert compiled == []


def test_a_missing_row_raises_its_models_does_not_exist() -> None:
    table, _, _ = dealt_heads_up_triad()
    with pytest.raises(Table.DoesNotExist):
        _table_and_game().get(table.pk + 1000)
    with transaction.atomic(), pytest.raises(GameRecord.DoesNotExist):
        _locked_game().get(table.pk + 1000)


@pytest.mark.django_db(transaction=True)
def test_a_lock_outside_a_transaction_is_refused_as_django_refuses_it() -> None:
    table, _, _ = dealt_heads_up_triad()
    with pytest.raises(transaction.TransactionManagementError):
        _locked_game().get(table.pk)


def test_a_query_with_parameters_of_its_own_is_refused() -> None:
    table, _, _ = dealt_heads_up_triad()
    read = CompiledGet(lambda: Table.objects.filter(status=Table.Status.PLAYING), "pk")
    with pytest.raises(ValueError, match="one parameter"):
        read.get(table.pk)
