"""A read of one row by key whose SQL Django compiles once per process, not at every call.

Django builds a query's SQL anew each time it runs: for a table's game and its table, the
read every move makes under its lock and every other process makes for its frames, that was
about 270 of its 300 µs (``cProfile``, SQLite), the query itself the other 30. The two hot
reads of a live table (``games.tables``, ``games.table_frames``) compile their query once,
with Django's own compiler, and then only run it: the rows become model instances, with
their ``select_related`` objects, the way ``QuerySet`` makes them (``ModelIterable``).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.db import connections
from django.db.models import Model, QuerySet
from django.db.models.query import get_related_populators  # type: ignore[attr-defined]  # ModelIterable's own, not in the stubs
from django.db.models.sql.compiler import SQLCompiler
from django.db.transaction import TransactionManagementError

M = TypeVar("M", bound=Model)

PLACEHOLDER = 0
"""The key the query is compiled with; its one parameter is the key of each call."""


@dataclass(frozen=True)
class _Compiled:
    sql: str
    compiler: SQLCompiler
    converters: dict[int, Any]
    fields: tuple[int, int]
    attnames: list[str]
    populators: list[Any]


class CompiledGet(Generic[M]):
    """``query().get(<lookup>=key)``, compiled on first use. ``query`` must take no parameter
    of its own; one that locks rows (``select_for_update``) runs in a transaction only."""

    def __init__(self, query: Callable[[], QuerySet[M]], lookup: str) -> None:
        self.query = query
        self.lookup = lookup
        self._compiled: dict[str, _Compiled] = {}
        self._lock = threading.Lock()

    def get(self, key: int) -> M:
        queryset = self.query()
        db = queryset.db
        if queryset.query.select_for_update and connections[db].get_autocommit():
            raise TransactionManagementError("select_for_update is for a transaction only")
        compiled = self._compiled.get(db) or self._compile(queryset, db)
        with connections[db].cursor() as cursor:
            cursor.execute(compiled.sql, (key,))
            rows = cursor.fetchall()
        if len(rows) != 1:
            model: Any = queryset.model  # for its DoesNotExist, which the stubs do not know
            wanted = f"{model.__name__} with {self.lookup}={key}"
            raise model.MultipleObjectsReturned(wanted) if rows else model.DoesNotExist(wanted)
        row = rows[0]
        if compiled.converters:
            row = next(iter(compiled.compiler.apply_converters(rows, compiled.converters)))
        start, end = compiled.fields
        found: M = queryset.model.from_db(db, compiled.attnames, row[start:end])
        for populator in compiled.populators:
            populator.populate(row, found)
        return found

    def _compile(self, queryset: QuerySet[M], db: str) -> _Compiled:
        with self._lock:
            compiler = queryset.filter(**{self.lookup: PLACEHOLDER}).query.get_compiler(using=db)
            # as_sql() also fills in what the rows are read with: the columns, the related models.
            sql, params = compiler.as_sql()
            if tuple(params) != (PLACEHOLDER,):
                raise ValueError(f"a compiled read takes its key as its one parameter, not {params!r}")
            columns = [column[0] for column in compiler.select[: compiler.col_count]]
            if compiler.annotation_col_map or compiler.has_composite_fields(columns):
                raise ValueError("a compiled read reads a model and its select_related ones only")
            klass_info = compiler.klass_info
            select_fields = klass_info["select_fields"]
            start, end = select_fields[0], select_fields[-1] + 1
            compiled = _Compiled(
                sql=sql,
                compiler=compiler,
                converters=compiler.get_converters(columns),
                fields=(start, end),
                attnames=[column[0].target.attname for column in compiler.select[start:end]],
                populators=get_related_populators(klass_info, compiler.select, db),
            )
            self._compiled[db] = compiled
            return compiled
