"""``Participation`` rows follow the games: one per person once a game is over, none while it
is played or after an undo reopens it, given to whoever claims a game (never for an import), written by
the backfill migration and by the scale generators exactly as the site writes them; and so
do the ranked daily standings (``DailyStanding``)."""

from __future__ import annotations

import datetime as dt
import importlib
import json
from io import StringIO
from typing import Any

import pytest
from django.apps import apps
from django.core.management import CommandError, call_command

from games.core import finishes
from games.core.players import Player
from games.models import DailyChallenge, DailyStanding, GameRecord, Participation
from games.replays import replays
from games.solitaire import services
from tests.games.test_generate_rated_games import generate
from tests.games.test_replays import person, table_game

pytestmark = pytest.mark.django_db

Row = tuple[Any, ...]


def rows() -> list[Row]:
    return sorted(
        Participation.objects.values_list("user_id", "record_id", "game", "finished_at", "seat", "won")
    )


def standings() -> list[Row]:
    return sorted(
        DailyStanding.objects.values_list(
            "user_id", "played", "won", "last_won_at", "best", "latest_run", "last_day"
        )
    )


def test_a_solitaire_game_counts_once_it_is_over_and_not_after_an_undo_reopens_it() -> None:
    alice = person("alice")
    player = Player(user=alice, token="")
    record = services.start_solitaire(game="pyramid", player=player, seed=7)
    services.submit_action(game_id=record.pk, player=player, move="draw", expected_version=0)
    assert rows() == []
    services.submit_action(game_id=record.pk, player=player, move="resign", expected_version=1)
    record.refresh_from_db()
    assert rows() == [(alice.pk, record.pk, "pyramid", record.finished_at, None, False)]
    services.undo(game_id=record.pk, player=player, expected_version=2)
    assert rows() == []
    services.submit_action(game_id=record.pk, player=player, move="resign", expected_version=3)
    assert Participation.objects.get().finished_at == GameRecord.objects.get().finished_at


@pytest.mark.parametrize("game", ["triad", "blocks", "tauron"])
def test_a_table_game_counts_for_its_people_not_its_bots(game: str) -> None:
    alice = person("alice")
    record = table_game(game, alice).record
    winner = record.outcome["winner"]
    assert rows() == [(alice.pk, record.pk, game, record.finished_at, 0, winner == 0)]


def test_a_browsers_games_go_to_whoever_signs_in_there() -> None:
    anonymous = Player(user=None, token="tab-token")
    over = services.start_solitaire(game="tripeaks", player=anonymous, seed=3)
    services.submit_action(game_id=over.pk, player=anonymous, move="resign", expected_version=0)
    services.start_solitaire(game="pyramid", player=anonymous, seed=4)  # still being played
    assert rows() == []
    bob = person("bob")
    assert services.claim_anonymous_games(user=bob, token="tab-token") == 2
    over.refresh_from_db()
    assert rows() == [(bob.pk, over.pk, "tripeaks", over.finished_at, None, False)]


def test_an_imported_game_counts_for_nobody() -> None:
    """Issue 41: its importer did not play it, and its file's players did not play it here."""
    alice, carol = person("alice"), person("carol")
    source = table_game("triad", alice).record
    before = rows()
    data = replays.parse_import(json.dumps(replays.export(replays.from_record(source))))
    imported = services.import_game(data=data, player=Player(user=carol, token=""))
    assert rows() == before
    assert (imported.owner, imported.imported_by, imported.played_by) == (None, carol, ["alice", "Bot 2"])
    finishes.sync(imported)  # as a later writer of its result would
    assert rows() == before


def ranked_attempt(owner: Any, day: dt.date, *, won: bool) -> None:
    deal = DailyChallenge.objects.create(game="pyramid", date=day, seed=day.toordinal())
    at = dt.datetime.combine(day, dt.time(12), tzinfo=dt.UTC)
    record = GameRecord.objects.create(
        game="pyramid", engine_version=1, seed=deal.seed, kind=GameRecord.Kind.DAILY, daily=deal,
        ranked=True, owner=owner, status=GameRecord.Status.FINISHED, won=won, score=1,
        first_viewed_at=at, last_action_at=at, finished_at=at,
    )  # fmt: skip
    finishes.sync(record)


def test_the_backfill_writes_what_the_site_writes() -> None:
    alice, bob = person("alice"), person("bob")
    for game in ("triad", "blocks"):
        table_game(game, alice)
    player = Player(user=bob, token="")
    record = services.start_solitaire(game="pyramid", player=player, seed=7)
    services.submit_action(game_id=record.pk, player=player, move="resign", expected_version=0)
    services.start_solitaire(game="pyramid", player=player, seed=8)
    for day in (dt.date(2024, 5, 1), dt.date(2024, 5, 2), dt.date(2024, 5, 4)):
        ranked_attempt(bob, day, won=day.day == 2)
    written, kept = rows(), standings()
    assert len(written) == 6 and kept == [(bob.pk, 3, 1, kept[0][3], 2, 1, dt.date(2024, 5, 4))]
    Participation.objects.all().delete()
    DailyStanding.objects.all().delete()
    importlib.import_module("games.migrations.0007_participations").backfill(apps, None)
    importlib.import_module("games.migrations.0008_daily_standings").backfill(apps, None)
    assert rows() == written and standings() == kept


def test_the_generator_writes_what_the_site_writes() -> None:
    generate("--seed", "3")
    written = rows()
    assert len(written) == sum(len(record.table.seats.all()) for record in GameRecord.objects.all())
    finishes.sync(list(GameRecord.objects.all()))
    assert rows() == written


def test_the_daily_generator_writes_what_the_site_writes() -> None:
    generate("--seed", "4")
    call_command("generate_daily_attempts", "--days", "6", "--players-per-day", "5", stdout=StringIO())
    attempts = GameRecord.objects.filter(ranked=True)
    assert attempts.count() == 6 * 5 * 2 and DailyChallenge.objects.count() == 6 * 2
    written, kept = rows(), standings()
    assert kept and {row[0] for row in kept} == set(attempts.values_list("owner_id", flat=True))
    DailyStanding.objects.all().delete()
    finishes.sync(list(GameRecord.objects.all()))
    assert rows() == written and standings() == kept
    with pytest.raises(CommandError, match="already"):
        call_command("generate_daily_attempts", "--days", "1", "--players-per-day", "1", stdout=StringIO())
