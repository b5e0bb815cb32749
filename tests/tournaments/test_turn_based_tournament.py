"""TN-10: a tournament at a turn-based speed (LP-8). A round is drawn as soon as the previous
round's games end, however long they took: nothing in the running of a tournament waits for
a live clock. Days pass in the database (deadlines moved), not in the test."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.core import move_path
from games.core.snapshots import state_of
from games.engine import get_engine
from games.engine.bots import bot_seed
from games.live import tables, turn_clocks
from games.models import GameRecord, SiteHeartbeat, Turn
from tests.tournaments.support import person
from tests.tournaments.test_format_services import started
from tests.tournaments.test_services import playing
from tournaments import services
from tournaments.models import MatchGame, Tournament

pytestmark = pytest.mark.django_db
DAY = 86400


@pytest.fixture
def site_seen_up() -> None:
    """The web and the worker seen just now (LP-5): a person's clock acts only while the site is up."""
    SiteHeartbeat.objects.bulk_create(
        [SiteHeartbeat(component=component, seen_at=timezone.now()) for component in SiteHeartbeat.Component],
        update_conflicts=True,
        unique_fields=["component"],
        update_fields=["seen_at"],
    )


@pytest.mark.usefixtures("site_seen_up")
def test_a_one_day_swiss_plays_its_rounds_by_moves_and_a_clock_that_ran_out() -> None:
    tournament, players = started(4, config={"hands": 1}, format="swiss", rounds=2, clock_seconds=DAY)
    assert tournament.status == Tournament.Status.RUNNING and tournament.current_round == 1
    engine = get_engine("triad")
    timed_out = 0
    while (game := playing(tournament)) is not None:
        record = game.table.record
        turn = Turn.objects.get(game_id=record.pk)  # a person waits: "your turn" pages read this
        assert dt.timedelta(hours=23) < turn.deadline - timezone.now() <= dt.timedelta(days=1)
        assert record.clock_task_at is None  # no task waits a day in Redis
        while not record.is_over:
            state = state_of(record)
            seat = engine.current_player(state)
            occupant = game.table.seats.filter(number=seat).first()
            if occupant is None:  # the table's tie replay: seconds, not a day
                assert tables.advance(game_id=record.pk, version=record.version)
            elif occupant.user == players[-1] and not timed_out:
                # A day passes without their move (in the database): the clock checks or folds (LP-1).
                GameRecord.objects.filter(pk=record.pk).update(
                    turn_deadline=timezone.now() - dt.timedelta(seconds=1)
                )
                assert tables.advance(game_id=record.pk, version=record.version)
                timed_out += 1
            else:
                text = engine.bot_action(
                    engine.view(state, seat), bot_seed(record.seed, seat, record.action_count)
                )
                move_path.play_at_table(
                    table_id=game.table_id, user=occupant.user, move=text, expected_version=record.version
                )
            record.refresh_from_db()
        assert not Turn.objects.filter(game_id=record.pk).exists()
        assert services.record_match(game_id=record.pk) is True
        tournament.refresh_from_db()
    assert timed_out == 1
    assert tournament.status == Tournament.Status.FINISHED and tournament.current_round == 2
    assert MatchGame.objects.filter(match__tournament=tournament).count() == 4
    assert all(game.table.clock_seconds == DAY for game in MatchGame.objects.select_related("table"))


def test_the_tournament_form_offers_the_turn_based_speeds_and_the_page_says_the_speed(client: Client) -> None:
    host = person("host")
    client.force_login(host)
    form = client.get(reverse("tournaments")).content.decode()
    assert "Turn-based: per move" in form and '<option value="604800">7 days</option>' in form
    response = client.post(
        reverse("tournament_create"),
        {
            "name": "Week of Triad",
            "game": "triad",
            "max_entrants": 8,
            "starts_in": 60,
            "clock_seconds": 2 * DAY,
            "format": "swiss",
            "rounds": 3,
            "table_size": 2,
            "best_of": 1,
            "triad_hands": 3,
        },
    )
    tournament = Tournament.objects.get()
    assert response.status_code == 302 and tournament.clock_seconds == 2 * DAY
    assert "2 days per move" in client.get(tournament.get_absolute_url()).content.decode()

    forged = client.post(
        reverse("tournament_create"),
        {
            "name": "Forged",
            "game": "triad",
            "max_entrants": 8,
            "starts_in": 60,
            "clock_seconds": 5000,
            "format": "swiss",
        },
    )
    assert str(turn_clocks.CLOCK_REFUSED) in forged.content.decode()
    assert Tournament.objects.count() == 1
