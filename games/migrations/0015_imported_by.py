"""Who imported a game, and who its file says played it (issue 41). Nullable columns alone,
added in place on SQLite as on PostgreSQL: a column with a default would make SQLite copy the
table, and the copy cannot have the daily boards' rank index (SQLite has no NULLS LAST in an
index, which is why 0008 and 0014 made it on PostgreSQL only)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0014_finish_frozen_for_hot_updates"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="gamerecord",
            name="imported_by",
            field=models.ForeignKey(
                blank=True,
                help_text="An import's: who brought its file here (empty for a visitor). Not its player.",
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="imports",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AddField(
            model_name="gamerecord",
            name="played_by",
            field=models.JSONField(
                blank=True,
                help_text="An import's players, seat by seat, as its file names them (the file's word).",
                null=True,
            ),
        ),
        migrations.AlterField(
            model_name="gamerecord",
            name="owner",
            field=models.ForeignKey(
                blank=True,
                help_text="Who plays or played it here. An import has none, so it counts for nobody.",
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="games",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
    ]
