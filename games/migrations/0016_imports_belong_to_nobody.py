"""An imported game is nobody's (issue 41): it had its importer as owner, and so counted in
their statistics, streaks and list of games. The importer moves to ``imported_by`` and the
participation kept from the owner goes. Apart from 0015: PostgreSQL would not add 0015's
foreign key in a transaction whose updates still have foreign-key checks to run."""

from django.db import migrations
from django.db.models import F


def imports_to_nobody(apps, schema_editor):
    records = apps.get_model("games", "GameRecord")
    participations = apps.get_model("games", "Participation")
    imported = records.objects.filter(kind="imported")
    # An import is never a ranked daily attempt: no daily standing was kept from one.
    participations.objects.filter(record__in=imported.values("pk")).delete()
    imported.update(imported_by=F("owner"), owner=None, session_key="")


def imports_to_their_importers(apps, schema_editor):
    """As the site had them: owned by their importer, with a participation (games.participations)."""
    records = apps.get_model("games", "GameRecord")
    participations = apps.get_model("games", "Participation")
    imported = records.objects.filter(kind="imported")
    imported.update(owner=F("imported_by"), imported_by=None)
    participations.objects.bulk_create(
        participations(user_id=owner, record_id=pk, game=game, finished_at=finished_at, seat=None, won=won)
        for pk, owner, game, finished_at, won in imported.filter(
            owner__isnull=False, status="finished", finished_at__isnull=False
        ).values_list("pk", "owner_id", "game", "finished_at", "won")
    )


class Migration(migrations.Migration):
    dependencies = [("games", "0015_imported_by")]

    operations = [migrations.RunPython(imports_to_nobody, imports_to_their_importers)]
