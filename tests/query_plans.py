"""The plans PostgreSQL runs the site's statements with, read the way the site runs them.

The site's connections prepare a statement after psycopg's ``prepare_threshold`` runs (5,
config/settings/base.py), and PostgreSQL plans a prepared statement's first five runs with its
parameters' values (custom plans), then may switch to one generic plan made without them. So
``PlanReader`` records the statements a piece of the site's code runs on the test connection,
runs that code ``RUNS`` times (past both thresholds), finds each statement among the
connection's prepared ones (``pg_prepared_statements``) and reads, with ``EXPLAIN (FORMAT
JSON) EXECUTE``, the plan its next run would get, and the generic plan PostgreSQL could switch
to (``plan_cache_mode = force_generic_plan``).

``bulk_copies`` fills tables fast for such checks: copies of one row made with the ORM, in one
``INSERT ... SELECT`` over ``generate_series`` with some columns given as SQL of ``n``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import psycopg
from django.db import connection, models

RUNS = 12
"""Five runs before psycopg prepares, five custom plans, then PostgreSQL's choice: 12 is past both."""


@dataclass(frozen=True)
class Node:
    kind: str  # "Index Only Scan", "Seq Scan", "Sort" ...
    relation: str
    index: str


@dataclass(frozen=True)
class Plan:
    sql: str
    nodes: list[Node]
    text: str
    """The whole plan, for a failing assertion's message."""

    def walks(self, index: str) -> bool:
        """Whether the plan reads ``index`` as an index scan (in its order), not a bitmap."""
        return any(
            node.index == index and node.kind in ("Index Scan", "Index Only Scan") for node in self.nodes
        )

    def reads_only(self, index: str) -> bool:
        return any(node.index == index and node.kind == "Index Only Scan" for node in self.nodes)

    def uses(self, index: str) -> bool:
        """Whether the plan reads ``index`` at all (a bitmap of a few keys included)."""
        return any(node.index == index for node in self.nodes)

    def scans(self, relation: str) -> bool:
        """Whether the plan reads ``relation`` whole (a sequential scan) or by bitmap (every
        matching row, in no order)."""
        return any(
            node.relation == relation and node.kind in ("Seq Scan", "Bitmap Heap Scan") for node in self.nodes
        )

    def reads_whole(self, relation: str) -> bool:
        return any(node.relation == relation and node.kind == "Seq Scan" for node in self.nodes)

    def sorts(self) -> bool:
        return any(node.kind in ("Sort", "Incremental Sort") for node in self.nodes)


def _nodes(plan: dict[str, Any]) -> Iterator[Node]:
    yield Node(plan["Node Type"], plan.get("Relation Name", ""), plan.get("Index Name", ""))
    for child in plan.get("Plans", []):
        yield from _nodes(child)


def _describe(plan: dict[str, Any], depth: int = 0) -> Iterator[str]:
    where = " ".join(filter(None, [plan.get("Relation Name", ""), plan.get("Index Name", "")]))
    yield f"{'  ' * depth}{plan['Node Type']} {where} rows={plan.get('Plan Rows')}"
    for child in plan.get("Plans", []):
        yield from _describe(child, depth + 1)


def _numbered(sql: str) -> str:
    """Django's SQL with psycopg's placeholders, as PostgreSQL keeps the prepared statement."""
    count = iter(range(1, 10_000))
    return re.sub(r"%s", lambda _: f"${next(count)}", sql)


@dataclass(frozen=True)
class Statements:
    """What each statement whose SQL holds a given text gets: ``site`` the plan its next run
    gets, ``generic`` the one PostgreSQL may switch to."""

    site: list[Plan]
    generic: list[Plan]


class PlanReader:
    def read(self, run: Callable[[], object], *needles: str, without: str = "") -> Statements:
        """Runs ``run`` ``RUNS`` times and reads the plans of its statements whose SQL holds
        every one of ``needles`` (and not ``without``, if given), with the parameters of the
        last run."""
        seen: list[tuple[str, Any]] = []

        def record(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
            seen.append((sql, params))
            return execute(sql, params, many, context)

        for _ in range(RUNS):
            seen.clear()
            with connection.execute_wrapper(record):
                run()
        wanted = {
            sql: params
            for sql, params in seen
            if all(needle in sql for needle in needles) and not (without and without in sql)
        }
        assert wanted, f"no statement holds {needles}; the statements run: {[sql for sql, _ in seen]}"
        raw = connection.connection
        with raw.cursor() as cursor:
            cursor.execute("SELECT statement, name FROM pg_prepared_statements")
            prepared = dict(cursor.fetchall())
        site, generic = [], []
        for sql, params in wanted.items():
            name = prepared.get(_numbered(sql))
            assert name is not None, f"not prepared after {RUNS} runs: {sql}"
            site.append(self._explain(raw, name, sql, params, "auto"))
            generic.append(self._explain(raw, name, sql, params, "force_generic_plan"))
        return Statements(site, generic)

    @staticmethod
    def _explain(raw: Any, name: str, sql: str, params: Any, mode: str) -> Plan:
        # The parameters go in as literals (EXECUTE's arguments), each cast as the statement has it.
        cursor = psycopg.ClientCursor(raw)
        try:
            cursor.execute(f"SET plan_cache_mode = {mode}")
            arguments = ", ".join(["%s"] * len(params or ()))
            cursor.execute(
                f"EXPLAIN (FORMAT JSON) EXECUTE {name}" + (f"({arguments})" if arguments else ""),
                list(params or ()),
            )
            tree = cursor.fetchone()[0][0]["Plan"]  # type: ignore[index]
        finally:
            cursor.execute("RESET plan_cache_mode")
            cursor.close()
        return Plan(sql, list(_nodes(tree)), "\n".join(_describe(tree)))


def bulk_copies(
    model: type[models.Model], template: models.Model, count: int, columns: dict[str, str]
) -> None:
    """``count`` copies of ``template``'s row, each with the columns in ``columns`` set to SQL of
    ``n`` (1 to ``count``); the others as in the template, the key from the table's identity."""
    meta = model._meta
    quote = connection.ops.quote_name
    names = [field.column for field in meta.concrete_fields if not field.primary_key]
    unknown = set(columns) - set(names)
    assert not unknown, f"no such columns: {unknown}"
    values = [columns.get(name, f"t.{quote(name)}") for name in names]
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {quote(meta.db_table)} ({', '.join(map(quote, names))}) "
            f"SELECT {', '.join(values)} FROM {quote(meta.db_table)} t, generate_series(1, %s) AS n "
            f"WHERE t.{quote(meta.pk.column)} = %s ORDER BY n",
            [count, template.pk],
        )
