"""A move at a live table stored without a read of its game: a compare-and-set on its row.

The locked way (``tables.act``) reads the game row ``FOR UPDATE``, then inserts the action
and updates the row: on PostgreSQL five round trips with ``BEGIN`` and ``COMMIT``. A process
that keeps the table at the version a move was made from has what that read gives (a
version's row never changes but for its turn-clock task, which is checked too). Here the
action is stored and the game's moved columns (``carried_games.MOVED``) are written only if
the row is still as kept: one statement on PostgreSQL (an ``UPDATE`` in a ``WITH``, the
insert taking its rows from it; in autocommit, its own transaction), an ``UPDATE`` and an
``INSERT`` in one transaction on SQLite, which has no ``UPDATE`` in a ``WITH``. Under
PostgreSQL's READ COMMITTED, an update that waited for another move's lock looks at the row
that move left, so two moves from one version can never both be stored.
"""

from __future__ import annotations

from typing import Any

from django.db import connections, router, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field

from config.compiled_writes import prepared
from games.carried_games import MOVED
from games.models import Action, GameRecord

_ACTION = ("game", "seq", "seat", "text", "timed_out", "created_at")
_UNMOVED = ("version", "clock_task_at", "status")
"""What must be as kept for the move to be stored."""


def _field(model: type[GameRecord | Action], name: str) -> Field[Any, Any]:
    field = model._meta.get_field(name)
    assert isinstance(field, Field)  # a column, not a relation's other side
    return field


def _column(model: type[GameRecord | Action], name: str, connection: BaseDatabaseWrapper) -> str:
    return str(connection.ops.quote_name(_field(model, name).column))


def _sql(connection: BaseDatabaseWrapper) -> tuple[str, str]:
    """The update and the insert: the insert takes the updated row's key as its game's on
    PostgreSQL (one statement), a parameter on SQLite (two)."""
    table = connection.ops.quote_name(GameRecord._meta.db_table)
    key = _column(GameRecord, "id", connection)
    same = "IS NOT DISTINCT FROM" if connection.vendor == "postgresql" else "IS"
    update = (
        f"UPDATE {table} SET {', '.join(f'{_column(GameRecord, name, connection)} = %s' for name in MOVED)}"
        f" WHERE {key} = %s AND "
        + " AND ".join(f"{_column(GameRecord, name, connection)} {same} %s" for name in _UNMOVED)
    )
    columns = ", ".join(_column(Action, name, connection) for name in _ACTION)
    returning = f"RETURNING {_column(Action, 'id', connection)}"
    into = f"INSERT INTO {connection.ops.quote_name(Action._meta.db_table)} ({columns})"
    if connection.vendor == "postgresql":
        values = ", ".join(["%s"] * (len(_ACTION) - 1))
        moved = f"WITH moved AS ({update} RETURNING {key})"
        return f"{moved} {into} SELECT {key}, {values} FROM moved {returning}", ""
    return update, f"{into} VALUES ({', '.join(['%s'] * len(_ACTION))}) {returning}"


_compiled: dict[str, tuple[str, str]] = {}


def _compiled_sql(db: str, connection: BaseDatabaseWrapper) -> tuple[str, str]:
    if db not in _compiled:
        _compiled[db] = _sql(connection)
    return _compiled[db]


def _value(model: type[GameRecord | Action], name: str, value: Any, connection: BaseDatabaseWrapper) -> Any:
    return prepared(_field(model, name), value, connection)


def _values(
    before: GameRecord, after: GameRecord, action: Action, connection: BaseDatabaseWrapper
) -> tuple[list[Any], Any, list[Any], list[Any]]:
    """The statement's values: the moved columns, the game's key, what must be unmoved, the
    action's row."""
    moved = [_value(GameRecord, name, getattr(after, name), connection) for name in MOVED]
    unmoved = [_value(GameRecord, name, getattr(before, name), connection) for name in _UNMOVED]
    row = [
        _value(Action, name, getattr(action, "game_id" if name == "game" else name), connection)
        for name in _ACTION
    ]
    return moved, _value(GameRecord, "id", before.pk, connection), unmoved, row


def postgres_statement(
    before: GameRecord, after: GameRecord, action: Action, db: str
) -> tuple[str, list[Any]]:
    """``store_if_unmoved``'s one statement on PostgreSQL and its values, for a connection of
    psycopg's other than Django's (``games.loop_writes``). Its row, if any, is the stored
    action's key (``mark_stored``)."""
    connection = connections[db]
    moved, key, unmoved, row = _values(before, after, action, connection)
    return _compiled_sql(db, connection)[0], [*moved, key, *unmoved, *row[1:]]


def sqlite_statements(
    before: GameRecord, after: GameRecord, action: Action, db: str
) -> tuple[tuple[str, list[Any]], tuple[str, list[Any]]]:
    """``store_if_unmoved``'s update and insert on SQLite, with their values, for a connection
    of sqlite3's other than Django's (``games.sqlite_loop_writes``): in sqlite3's own
    placeholders. The update changes one row if the game is still as kept; the insert's row is
    then the stored action's key."""
    connection = connections[db]
    update, insert = _compiled_sql(db, connection)
    moved, key, unmoved, row = _values(before, after, action, connection)
    # No literal % in either statement: each %s is a parameter, as Django's wrapper reads it.
    return (update.replace("%s", "?"), [*moved, key, *unmoved]), (insert.replace("%s", "?"), row)


def mark_stored(action: Action, key: int, db: str) -> None:
    action.pk = key
    action._state.adding = False
    action._state.db = db


def store_if_unmoved(before: GameRecord, after: GameRecord, action: Action) -> bool:
    """Store ``action`` (its ``pk`` set) and ``after``'s moved columns if the game's row is
    still ``before``'s; whether it was. In a transaction (a batch of moves), stored when it
    commits: what the caller keeps of the move waits for that (``transaction.on_commit``)."""
    db = router.db_for_write(GameRecord, instance=before)
    connection = connections[db]
    if connection.vendor not in ("postgresql", "sqlite"):
        return False
    update, insert = _compiled_sql(db, connection)
    moved, key, unmoved, row = _values(before, after, action, connection)
    if not insert:
        with connection.cursor() as cursor:
            cursor.execute(update, [*moved, key, *unmoved, *row[1:]])
            stored = cursor.fetchone()
    else:
        # No savepoint inside a batch's transaction (a statement a move on SQLite): an update
        # that matched nothing wrote nothing, and an insert that fails fails the batch, which
        # is then played one move at a time (``table_frames.play_batch``).
        with transaction.atomic(using=db, savepoint=False), connection.cursor() as cursor:
            cursor.execute(update, [*moved, key, *unmoved])
            if cursor.rowcount != 1:
                return False
            cursor.execute(insert, row)
            stored = cursor.fetchone()
    if stored is None:
        return False
    mark_stored(action, stored[0], db)
    return True
