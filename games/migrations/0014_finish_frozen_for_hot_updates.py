"""The daily boards' rank index reads the moves and the time frozen when a game finishes, so
that no column a move writes is indexed (PostgreSQL then updates the row in place, a heap-only
tuple, rather than adding an entry to each of the table's indexes at every move); and an
action's game has no index of its own beside the unique (game, seq), which leads with it."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models
from django.db.models import F, Q

OLD_RANK_INDEX = models.Index(
    F("game"),
    models.OrderBy(F("won"), descending=True),
    models.OrderBy(F("score"), descending=True, nulls_last=True),
    F("action_count"),
    models.expressions.CombinedExpression(F("last_action_at"), "-", F("first_viewed_at")),
    F("finished_at"),
    F("id"),
    condition=Q(("ranked", True), ("status", "finished")),
    name="daily_attempt_rank",
)
RANK_INDEX = models.Index(
    F("game"),
    models.OrderBy(F("won"), descending=True),
    models.OrderBy(F("score"), descending=True, nulls_last=True),
    F("finished_moves"),
    F("finished_elapsed"),
    F("finished_at"),
    F("id"),
    condition=Q(("ranked", True), ("status", "finished")),
    name="daily_attempt_rank",
)


def rank_index(*, new: bool):
    """PostgreSQL only, as in 0008: SQLite has no NULLS LAST in an index."""

    def operation(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return
        model = apps.get_model("games", "GameRecord")
        schema_editor.remove_index(model, OLD_RANK_INDEX if new else RANK_INDEX)
        schema_editor.add_index(model, RANK_INDEX if new else OLD_RANK_INDEX)

    return operation


def freeze_finished(apps, schema_editor):
    records = apps.get_model("games", "GameRecord")
    records.objects.filter(status="finished").update(
        finished_moves=F("action_count"), finished_elapsed=F("last_action_at") - F("first_viewed_at")
    )


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0013_turn_clock_task"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="gamerecord",
            name="finished_elapsed",
            field=models.DurationField(
                blank=True,
                help_text="``last_action_at - first_viewed_at`` when the game finished (None while it plays).",
                null=True,
            ),
        ),
        migrations.AddField(
            model_name="gamerecord",
            name="finished_moves",
            field=models.PositiveIntegerField(
                blank=True, help_text="``action_count`` when the game finished (None while it plays).", null=True
            ),
        ),
        migrations.RunPython(freeze_finished, migrations.RunPython.noop),
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveIndex(model_name="gamerecord", name="daily_attempt_rank"),
                migrations.AddIndex(model_name="gamerecord", index=RANK_INDEX),
            ],
            database_operations=[migrations.RunPython(rank_index(new=True), rank_index(new=False))],
        ),
        migrations.AlterField(
            model_name="action",
            name="game",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="actions",
                to="games.gamerecord",
            ),
        ),
    ]
