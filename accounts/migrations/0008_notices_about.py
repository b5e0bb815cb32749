"""Notices carry the matter they tell of (``Notice.about``), and are read once it is done.

The notices made before this are given theirs from their keys (a table's, a tournament's;
a bye's key names its match, which holds its tournament), and those whose matter is already
done (a table's game over, a tournament finished or cancelled) are read now: they were what
piled up in the bell."""

from django.db import migrations, models
from django.utils import timezone

TABLE_KEYS = ("table:", "rematch:", "timed-out:")
TOURNAMENT_KEYS = ("pairings:", "event-open:", "starts-soon:")


def backfill(apps, schema_editor):
    Notice = apps.get_model("accounts", "Notice")
    Table = apps.get_model("games", "Table")
    Tournament = apps.get_model("tournaments", "Tournament")
    Match = apps.get_model("tournaments", "Match")
    for notice in Notice.objects.filter(about="").only("key").iterator():
        prefix, _, rest = notice.key.partition(":")
        number = rest.split(":")[0]
        if not number.isdigit():
            continue
        if f"{prefix}:" in TABLE_KEYS:
            about = f"table:{number}"
        elif f"{prefix}:" in TOURNAMENT_KEYS:
            about = f"tournament:{number}"
        elif prefix == "bye":
            tournament_id = Match.objects.filter(pk=int(number)).values_list("tournament_id", flat=True).first()
            if tournament_id is None:
                continue
            about = f"tournament:{tournament_id}"
        else:
            continue
        Notice.objects.filter(pk=notice.pk).update(about=about)
    finished_tables = Table.objects.filter(status="finished").values_list("pk", flat=True)
    over = Tournament.objects.filter(status__in=("finished", "cancelled")).values_list("pk", flat=True)
    done = [f"table:{pk}" for pk in finished_tables] + [f"tournament:{pk}" for pk in over]
    unread = Notice.objects.filter(read_at__isnull=True).exclude(kind="results")
    for start in range(0, len(done), 500):
        unread.filter(about__in=done[start : start + 500]).update(read_at=timezone.now())


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0007_table_notices'),
        ('games', '0014_finish_frozen_for_hot_updates'),
        ('tournaments', '0006_solitaire_events'),
    ]

    operations = [
        migrations.AddField(
            model_name='notice',
            name='about',
            field=models.CharField(blank=True, help_text="The matter it tells of ('table:12', 'tournament:3'): read once that is done.", max_length=100),
        ),
        migrations.AddIndex(
            model_name='notice',
            index=models.Index(condition=models.Q(('read_at__isnull', True)), fields=['about'], name='notice_unread_about'),
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop),
    ]
