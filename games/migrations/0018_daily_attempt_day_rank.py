"""A day's ranked attempts in the daily boards' order (PY-7), for one deal: the index
``daily_attempt_day_rank``. A day's board read its first ten by sorting all of the day's
attempts with their players (2.5-6 ms for 1,000 at a million games; issue 42). PostgreSQL
only, as 0008's and 0014's rank index: SQLite has no NULLS LAST in an index."""

from django.db import migrations, models
from django.db.models import F, Q

DAY_RANK_INDEX = models.Index(
    F("daily"),
    models.OrderBy(F("won"), descending=True),
    models.OrderBy(F("score"), descending=True, nulls_last=True),
    F("finished_moves"),
    F("finished_elapsed"),
    F("finished_at"),
    F("id"),
    condition=Q(("ranked", True), ("status", "finished")),
    name="daily_attempt_day_rank",
)


def day_rank_index(*, add: bool):
    def operation(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return
        model = apps.get_model("games", "GameRecord")
        if add:
            schema_editor.add_index(model, DAY_RANK_INDEX)
        else:
            schema_editor.remove_index(model, DAY_RANK_INDEX)

    return operation


class Migration(migrations.Migration):
    dependencies = [("games", "0017_continued_from")]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.AddIndex(model_name="gamerecord", index=DAY_RANK_INDEX)],
            database_operations=[migrations.RunPython(day_rank_index(add=True), day_rank_index(add=False))],
        ),
    ]
