"""Where a game continued from a replay's step comes from (issue 41): such a game starts from a
position, not a fresh deal, so it counts in no statistic. Nullable columns alone, added in place
on SQLite as on PostgreSQL (see 0015: a column with a default makes SQLite copy the table,
and the copy cannot have the PostgreSQL-only rank index). The continuations made before are not
told apart: nothing stored says which casual games they were."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("games", "0016_imports_belong_to_nobody")]

    operations = [
        migrations.AddField(
            model_name="gamerecord",
            name="continued_from",
            field=models.ForeignKey(
                blank=True,
                help_text="The finished game whose replay this one was continued from (empty once that is gone).",
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="continuations",
                to="games.gamerecord",
            ),
        ),
        migrations.AddField(
            model_name="gamerecord",
            name="continued_from_step",
            field=models.PositiveIntegerField(
                blank=True,
                help_text="A continued game's: the step of that replay it starts from. Set for every "
                "continued game, kept if its source goes, so it counts in no statistic.",
                null=True,
            ),
        ),
    ]
