"""LP-8's e-mail digest (accounts.turn_digest), under a fixed clock: one e-mail for the games
waiting, at most one per person every TURN_DIGEST_EVERY, none for people who turned it off or
have no address, none for live games, and never the same person twice when two beats overlap."""

from __future__ import annotations

import datetime as dt
import threading
from typing import Any

import pytest
from django.core import mail
from django.db import connection, transaction
from django.test import Client

from accounts import turn_digest
from accounts.forms import ProfileForm
from accounts.models import User
from accounts.tasks import send_turn_digests
from games.core import move_path
from games.engine import get_engine
from games.live import tables
from games.models import Table, Turn
from tests.accounts.turn_support import game_waiting_for, person, play_one

pytestmark = pytest.mark.django_db(transaction=True)

T0 = dt.datetime(2026, 3, 2, 9, 0, tzinfo=dt.UTC)
"""The fixed clock: every turn below reached its person at a time set from this."""


@pytest.fixture(autouse=True)
def site_address(settings: Any) -> None:
    settings.SITE_URL = "https://capstone.example"


def reached(table: Table, at: dt.datetime, left: dt.timedelta = dt.timedelta(days=1)) -> None:
    Turn.objects.filter(table=table).update(since=at, deadline=at + left)


def test_one_email_lists_the_three_games_waiting_then_none_within_the_window() -> None:
    alice, bob, carol = person("alice"), person("bob"), person("carol")
    games = [game_waiting_for(alice, bob), game_waiting_for(alice, carol), game_waiting_for(alice, bob)]
    for minutes, table in zip((30, 20, 10), games, strict=True):
        reached(table, T0 - dt.timedelta(minutes=minutes))
    mail.outbox.clear()

    assert turn_digest.send(T0) == 1
    (message,) = mail.outbox
    assert message.to == ["alice@example.com"]
    assert message.subject == "Your move in 3 games on Capstone"
    lines = message.body.splitlines()
    assert lines[0] == "Hello alice,"
    assert "3 turn-based games on Capstone wait for your move:" in lines
    listed = [line for line in lines if line.startswith("- ")]
    assert listed == [
        "- Triad against bob: 23 h 30 min left",
        "- Triad against carol: 23 h 40 min left",
        "- Triad against bob: 23 h 50 min left",
    ]
    for table in games:
        assert f"  https://capstone.example{table.get_absolute_url()}" in lines
    assert "Every game waiting for you: https://capstone.example/turns/" in lines
    assert "https://capstone.example/accounts/profile/" in message.body
    alice.refresh_from_db()
    assert alice.turn_email_sent_at == T0

    # A new game reaches her an hour later: within the window, no second e-mail...
    later = game_waiting_for(alice, carol)
    reached(later, T0 + dt.timedelta(hours=1))
    assert turn_digest.send(T0 + dt.timedelta(hours=2)) == 0
    # ...until the window has passed, when it is new to her.
    assert turn_digest.send(T0 + dt.timedelta(hours=3, minutes=1)) == 1
    assert len(mail.outbox) == 2
    assert mail.outbox[1].subject == "Your move in 4 games on Capstone"


def test_no_email_when_nothing_new_has_reached_the_person_since_the_last() -> None:
    alice, bob = person("alice"), person("bob")
    table = game_waiting_for(alice, bob)
    reached(table, T0 - dt.timedelta(hours=1))
    assert turn_digest.send(T0) == 1
    # Days later the same game still waits: she was told of it.
    assert turn_digest.send(T0 + dt.timedelta(days=2)) == 0
    assert len(mail.outbox) == 1


def test_a_turn_younger_than_the_delay_waits_for_the_next_beat(settings: Any) -> None:
    alice, bob = person("alice"), person("bob")
    table = game_waiting_for(alice, bob)
    reached(table, T0 - settings.TURN_DIGEST_DELAY + dt.timedelta(seconds=1))
    assert turn_digest.send(T0) == 0
    assert turn_digest.send(T0 + dt.timedelta(seconds=1)) == 1


def test_none_when_turned_off_or_without_an_address() -> None:
    alice, bob = person("alice"), person("bob", email="")
    off = game_waiting_for(alice, bob)
    User.objects.filter(pk=alice.pk).update(turn_emails=False)
    nowhere = game_waiting_for(bob, alice)
    for table in (off, nowhere):
        reached(table, T0 - dt.timedelta(hours=1))
    assert turn_digest.send(T0) == 0
    assert mail.outbox == []
    assert not User.objects.filter(turn_email_sent_at__isnull=False).exists()


def test_none_for_a_live_game() -> None:
    alice, bob = person("alice"), person("bob")
    table = tables.create_table(game="triad", creator=bob, config={"players": 2}, clock_seconds=600)
    tables.sit(table_id=table.pk, user=alice)
    tables.start(table_id=table.pk, user=bob)
    table.refresh_from_db()
    now = move_path.table_now(table.pk)
    if move_path.seat_of(now.seats, alice) != get_engine("triad").current_player(now.state):
        play_one(table, bob)  # her turn now, at a live table
    assert turn_digest.send(T0 + dt.timedelta(days=1)) == 0
    assert mail.outbox == []


def test_the_turned_off_box_is_on_the_profile_form() -> None:
    alice = person("alice")
    client = Client()
    client.force_login(alice)
    page = client.get("/accounts/profile/").content.decode()
    assert 'name="turn_emails"' in page and "E-mail me when turn-based games wait for my move" in page
    data = {k: v for k, v in ProfileForm(instance=alice).initial.items() if v not in (None, False)}
    data.pop("turn_emails")
    assert client.post("/accounts/profile/", data).status_code == 302
    alice.refresh_from_db()
    assert alice.turn_emails is False


def test_a_beat_skips_the_people_another_beat_is_e_mailing() -> None:
    alice, bob = person("alice"), person("bob")
    reached(game_waiting_for(alice, bob), T0 - dt.timedelta(hours=1))
    reached(game_waiting_for(bob, alice), T0 - dt.timedelta(hours=1))
    locked, release = threading.Event(), threading.Event()

    def other_beat() -> None:
        # Another beat, in its transaction, holding alice's row as send() holds its batch's.
        try:
            with transaction.atomic():
                list(User.objects.filter(pk=alice.pk).select_for_update())
                locked.set()
                release.wait(timeout=30)
        finally:
            connection.close()

    thread = threading.Thread(target=other_beat)
    thread.start()
    try:
        assert locked.wait(timeout=30)
        assert turn_digest.send(T0) == 1  # bob only: alice's row is the other beat's
        assert [m.to for m in mail.outbox] == [["bob@example.com"]]
    finally:
        release.set()
        thread.join()
    assert turn_digest.send(T0) == 1  # alice, once the other beat let go
    assert turn_digest.send(T0) == 0
    assert [m.to for m in mail.outbox] == [["bob@example.com"], ["alice@example.com"]]


def test_the_beat_task_sends_them() -> None:
    alice, bob = person("alice"), person("bob")
    reached(game_waiting_for(alice, bob), dt.datetime.now(dt.UTC) - dt.timedelta(hours=1))
    assert send_turn_digests() == 1
    assert len(mail.outbox) == 1
