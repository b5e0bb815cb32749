"""TN-8: a solitaire event's deals are sealed until its window closes, and a solo match is a
titled run of deals, with a par or not, that an event's window may close. The matches made
before this are all Pyramid's par match (PY-8)."""

from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps


def name_par_matches(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    apps.get_model("games", "SoloMatch").objects.filter(game="pyramid").update(title="Par match", par=0)


class Migration(migrations.Migration):
    dependencies = [("games", "0010_solo_matches")]

    operations = [
        migrations.CreateModel(
            name="SealedDeal",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("seed", models.BigIntegerField(db_index=True)),
                ("sealed_until", models.DateTimeField()),
            ],
            options={"ordering": ["sealed_until"]},
        ),
        migrations.AddField(
            model_name="solomatch",
            name="title",
            field=models.CharField(
                default="", help_text="What the match is: 'Par match', or its event's name.", max_length=80
            ),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="solomatch",
            name="par",
            field=models.IntegerField(
                blank=True, help_text="The total its score is compared with (PY-8), if any.", null=True
            ),
        ),
        migrations.AddField(
            model_name="solomatch",
            name="closes_at",
            field=models.DateTimeField(
                blank=True, help_text="An event's: no deal is dealt or played after it (TN-8).", null=True
            ),
        ),
        migrations.RunPython(name_par_matches, migrations.RunPython.noop),
    ]
