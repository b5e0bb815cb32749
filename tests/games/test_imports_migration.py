"""RT-5 for the imports made before it held: migration 0016 makes each one nobody's (its
importer kept as ``imported_by``) and drops the participation its owner had; backwards, each
is its importer's again, as the site then had it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from accounts.models import User

BEFORE = ("games", "0014_finish_frozen_for_hot_updates")
LATEST = ("games", "0016_imports_belong_to_nobody")


def models_at(node: tuple[str, str]) -> Any:
    return MigrationExecutor(connection).loader.project_state(node).apps


@pytest.fixture
def games_at_0014(worker_runs_nothing: None, transactional_db: None) -> Iterator[None]:
    call_command("migrate", *BEFORE, verbosity=0)
    yield
    call_command("migrate", verbosity=0)


def test_imports_become_nobodys_and_back(games_at_0014: None) -> None:
    alice = User.objects.create_user("alice", "alice@example.com", "pw-long-enough-1")
    old = models_at(BEFORE)
    records, participations = old.get_model("games", "GameRecord"), old.get_model("games", "Participation")
    now = timezone.now()
    done = {"game": "tripeaks", "engine_version": 1, "config": {}, "status": "finished", "won": True}
    imported = records.objects.create(kind="imported", owner_id=alice.pk, seed=1, finished_at=now, **done)
    played = records.objects.create(kind="casual", owner_id=alice.pk, seed=2, finished_at=now, **done)
    for record in (imported, played):
        participations.objects.create(user_id=alice.pk, record_id=record.pk, game="tripeaks", finished_at=now)

    call_command("migrate", *LATEST, verbosity=0)
    new = models_at(LATEST)
    moved = new.get_model("games", "GameRecord").objects.get(pk=imported.pk)
    assert (moved.owner_id, moved.imported_by_id, moved.session_key) == (None, alice.pk, "")
    assert new.get_model("games", "GameRecord").objects.get(pk=played.pk).owner_id == alice.pk
    kept = new.get_model("games", "Participation").objects.values_list("record_id", flat=True)
    assert list(kept) == [played.pk]

    call_command("migrate", *BEFORE, verbosity=0)
    old = models_at(BEFORE)
    assert old.get_model("games", "GameRecord").objects.get(pk=imported.pk).owner_id == alice.pk
    back = old.get_model("games", "Participation").objects.values_list("record_id", "user_id")
    assert sorted(back) == sorted([(played.pk, alice.pk), (imported.pk, alice.pk)])
