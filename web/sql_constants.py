"""A constant written into a statement's SQL rather than sent as one of its parameters.

The site's statements are prepared on PostgreSQL (``prepare_threshold``, config/settings/base.py)
and, after five runs of one, PostgreSQL may run it with a generic plan: one made without the
parameters' values. Such a plan cannot prove a partial index's condition from a parameter
(``games >= $2`` for the index's ``games >= 10``, ``status = $3`` for its ``status =
'finished'``), so it does not use the index at all: the generic plan of a rating board's top
ten read every rating (45-195 ms at a million games), of the all-time daily board every game
(500-590 ms), where the index walk takes under 1 ms (docs/benchmarks.md, "Ratings at a
million games"). Written into the SQL, the condition is proven in every plan, generic or not.

    Rating.objects.filter(game=game, games__gte=Constant(PROVISIONAL_GAMES))
"""

from __future__ import annotations

import re
from typing import Any

from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Value
from django.db.models.sql.compiler import SQLCompiler

_WORD = re.compile(r"[a-z_]{1,32}")
"""The only text written: a choice's stored value (``finished``), nothing that needs quoting."""


class Constant(Value):
    """A whole number or a plain lower-case word of the code's own (never a visitor's input),
    written into the SQL as a literal."""

    def __init__(self, value: int | str, output_field: Any = None) -> None:
        if isinstance(value, bool) or not isinstance(value, int | str):
            raise TypeError(f"Constant takes an int or a str, not {type(value).__name__}")
        if isinstance(value, str) and not _WORD.fullmatch(value):
            raise ValueError(f"Constant writes plain lower-case words only, not {value!r}")
        super().__init__(value if isinstance(value, int) else str(value), output_field)

    def as_sql(
        self, compiler: SQLCompiler, connection: BaseDatabaseWrapper, **extra: Any
    ) -> tuple[str, list[Any]]:
        if isinstance(self.value, int):
            return str(int(self.value)), []
        return f"'{self.value}'", []
