"""Writes of one row whose SQL Django compiles once per process, not at every call.

A move writes two rows under its game's lock: its action (an insert) and its game's changed
columns (an update). Through ``Model.save`` each cost 90 to 140 µs, nearly all of it the
building of the query (SQLite, 2,000 of each in a transaction); the statements themselves
cost about 15. Here Django's own compilers make the SQL once per database (and, for an
update, per set of columns and which of them are NULL), and each call only prepares the
values as ``save`` does (``Field.pre_save``, then ``get_db_prep_save``) and runs it.

What ``save`` does besides is left out, so only a model that needs none of it may be written
this way: no ``pre_save`` or ``post_save`` receiver (checked when the SQL is made), values
only (no expressions), and an automatic primary key for an insert.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.db import DatabaseError, connections, router
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, Model, Q, signals
from django.db.models.sql import InsertQuery, UpdateQuery

M = TypeVar("M", bound=Model)

UPDATE_SHAPES = 64
"""How many shapes of update are kept compiled (all are dropped past it): a model's writes
change a few sets of columns, a few of them to NULL."""
_UpdateKey = tuple[str, tuple[str, ...], tuple[bool, ...]]
"""The database, the columns, and which of them are set to NULL."""


@dataclass(frozen=True)
class _Compiled:
    sql: str
    fields: list[Field[Any, Any]]


def _check_no_receivers(model: type[Model]) -> None:
    for signal in (signals.pre_save, signals.post_save):
        if signal.has_listeners(model):
            raise ValueError(f"{model.__name__} has save receivers: a compiled write would skip them")


def prepared(field: Field[Any, Any], value: Any, connection: BaseDatabaseWrapper) -> Any:
    """``value`` as ``save`` hands it to the database for ``field`` (a value, not an expression)."""
    if hasattr(value, "resolve_expression"):
        raise TypeError(f"a compiled write takes values, not expressions ({field.name}={value!r})")
    return field.get_db_prep_save(value, connection=connection)


class CompiledUpdate(Generic[M]):
    """``instance.save(update_fields=names)`` for a row read from the database."""

    def __init__(self, model: type[M]) -> None:
        self.model = model
        self._compiled: dict[_UpdateKey, str] = {}
        self._lock = threading.Lock()

    def save(self, instance: M, names: Sequence[str]) -> None:
        db = instance._state.db or router.db_for_write(self.model, instance=instance)
        connection = connections[db]
        fields = [self._fields(name) for name in names]
        values = [field.pre_save(instance, False) for field in fields]
        # Django writes a None as NULL in the SQL itself, not as a parameter.
        key = (db, tuple(names), tuple(value is None for value in values))
        written = list(zip(fields, values, strict=True))
        sql = self._compiled.get(key) or self._compile(instance, key, written)
        params = [prepared(field, value, connection) for field, value in written if value is not None]
        params.append(self.model._meta.pk.get_db_prep_value(instance.pk, connection))  # type: ignore[union-attr]
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            if cursor.rowcount != 1:
                raise DatabaseError("Save with update_fields did not affect any rows.")

    def _fields(self, name: str) -> Field[Any, Any]:
        field: Field[Any, Any] = self.model._meta.get_field(name)  # type: ignore[assignment]
        if field.primary_key or not field.concrete:
            raise ValueError(f"an update writes columns other than the key, not {name!r}")
        return field

    def _compile(self, instance: M, key: _UpdateKey, written: list[tuple[Field[Any, Any], Any]]) -> str:
        db, names, nulls = key
        with self._lock:
            _check_no_receivers(self.model)
            query = UpdateQuery(self.model)
            query.add_update_fields([(field, None, value) for field, value in written])
            query.add_q(Q(pk=instance.pk))
            sql, params = query.get_compiler(db).as_sql()
            if len(params) != nulls.count(False) + 1:
                raise ValueError(f"an update of {names!r} did not compile to one value a column")
            if len(self._compiled) >= UPDATE_SHAPES:
                self._compiled.clear()
            self._compiled[key] = sql
            return sql


class CompiledInsert(Generic[M]):
    """``model.objects.create(**values)`` for a model with an automatic primary key."""

    def __init__(self, model: type[M]) -> None:
        self.model = model
        self._compiled: dict[str, _Compiled] = {}
        self._lock = threading.Lock()

    def create(self, **values: Any) -> M:
        instance = self.model(**values)
        db = router.db_for_write(self.model, instance=instance)
        connection = connections[db]
        compiled = self._compiled.get(db) or self._compile(instance, db)
        params = [prepared(field, field.pre_save(instance, True), connection) for field in compiled.fields]
        with connection.cursor() as cursor:
            cursor.execute(compiled.sql, params)
            (instance.pk,) = cursor.fetchone()
        instance._state.adding = False
        instance._state.db = db
        return instance

    def _compile(self, instance: M, db: str) -> _Compiled:
        with self._lock:
            _check_no_receivers(self.model)
            opts = self.model._meta
            if opts.auto_field is None or not connections[db].features.can_return_columns_from_insert:
                raise ValueError("a compiled insert needs an automatic key the database returns")
            fields = [field for field in opts.local_concrete_fields if field is not opts.auto_field]
            query = InsertQuery(self.model)
            query.insert_values(fields, [instance])
            compiler = query.get_compiler(db)
            compiler.returning_fields = [opts.pk]
            ((sql, params),) = compiler.as_sql()
            if len(params) != len(fields) or compiler.returning_params:
                raise ValueError(f"an insert into {opts.db_table} did not compile to one value a column")
            compiled = _Compiled(sql, fields)
            self._compiled[db] = compiled
            return compiled
