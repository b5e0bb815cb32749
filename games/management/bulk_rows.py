"""Rows written in bulk, as they are, by the commands that fill a database for benchmarks."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from django.db import connection, models
from django.db.models import Max

Row = tuple[Any, ...]

RECORD_FIELDS = (
    "id", "game", "engine_version", "config", "seed", "deck", "kind", "owner_id", "session_key",
    "daily_id", "ranked", "version", "action_count", "status", "won", "score", "outcome",
    "undo_count", "hint_count", "created_at", "first_viewed_at", "last_action_at", "finished_at",
    "finished_moves", "finished_elapsed", "turn_deadline",
)  # fmt: skip
SEAT_FIELDS = ("id", "table_id", "number", "user_id", "is_bot", "bot_name")
PARTICIPATION_FIELDS = ("id", "user_id", "record_id", "game", "finished_at", "seat", "won")


def write_rows(model: type[models.Model], names: Sequence[str], rows: Sequence[Row]) -> None:
    """Insert ``rows`` (values of the fields ``names``, by attname) into ``model``'s table as
    they are: no ``save()``, no ``auto_now``. PostgreSQL: one ``COPY``; else ``executemany``."""
    if not rows:
        return
    meta = model._meta
    fields = [cast("models.Field[Any, Any]", meta.get_field(name)) for name in names]
    quote = connection.ops.quote_name
    table = quote(meta.db_table)
    columns = ", ".join(quote(f.column) for f in fields)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            from psycopg.types.json import Jsonb

            json_at = [n for n, f in enumerate(fields) if isinstance(f, models.JSONField)]
            with cursor.cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
                for row in rows:
                    if json_at:
                        values = list(row)
                        for n in json_at:
                            if values[n] is not None:
                                values[n] = Jsonb(values[n])
                        copy.write_row(values)
                    else:
                        copy.write_row(row)
        else:
            prepared = [
                [f.get_db_prep_save(value, connection) for f, value in zip(fields, row, strict=True)]
                for row in rows
            ]
            marks = ", ".join(["%s"] * len(fields))
            cursor.executemany(f"INSERT INTO {table} ({columns}) VALUES ({marks})", prepared)


def next_id(model: type[models.Model]) -> int:
    return int(model._default_manager.aggregate(top=Max("pk"))["top"] or 0) + 1
