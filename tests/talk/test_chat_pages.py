"""The chat's pages and forms (LP-10): the table's panel and its form without JavaScript, the
creator's switch, "Hide chat", the tournament's chat, the replay's, and CSRF on every form."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from accounts.forms import ProfileForm
from accounts.models import Block
from games.live import tables
from games.models import Table
from talk import text
from talk.models import Message
from tests.games.table_moments import build_table, find_game
from tournaments.models import Entry, Tournament

pytestmark = pytest.mark.django_db
PASSWORD = "pw-long-enough-1"


def person(name: str) -> Any:
    return get_user_model().objects.create_user(name, f"{name}@example.com", PASSWORD)


def signed_in(user: Any, csrf: bool = False) -> Client:
    client = Client(enforce_csrf_checks=csrf)
    client.force_login(user)
    return client


def csrf_of(client: Client, path: str) -> str:
    client.get(path)
    return str(client.cookies["csrftoken"].value)


@pytest.fixture
def running() -> tuple[Table, Any, Any, Any]:
    ann, ben, cat = person("ann"), person("ben"), person("cat")
    table = tables.create_table(game="triad", creator=ann, config={"players": 2}, clock_seconds=600)
    tables.sit(table_id=table.pk, user=ben)
    tables.start(table_id=table.pk, user=ann)
    table.refresh_from_db()
    return table, ann, ben, cat


def test_clean_drops_overrides_zero_widths_and_controls() -> None:
    said = "a\u202eb\u2066c\u2069 d\u200be\u200df\u200cg\ufeff h\x00i\x1b j\n\tk \ud800"
    assert text.clean(said) == "abc defg hi j k"
    assert text.clean("  \u200b  ") == ""
    assert text.clean("שלום world") == "שלום world"  # right-to-left text itself is kept


def test_the_table_page_shows_the_panel_and_its_form_says_without_javascript(running: Any) -> None:
    table, ann, ben, _cat = running
    client = signed_in(ann, csrf=True)
    page = client.get(table.get_absolute_url()).content.decode()
    assert 'id="table-chat"' in page and 'id="chat-log-players"' in page and "Good luck" in page
    assert 'id="chat-log-spectators"' not in page  # a player, while the game runs
    token = str(client.cookies["csrftoken"].value)
    answer = client.post(
        f"/tables/{table.pk}/chat/",
        {"chat": "<b>hi</b> there", "room": "players", "csrfmiddlewaretoken": token},
    )
    assert answer.status_code == 302 and answer["Location"].endswith(f"/tables/{table.pk}/#table-chat")
    other = signed_in(ben).get(table.get_absolute_url()).content.decode()
    assert "&lt;b&gt;hi&lt;/b&gt; there" in other and "<b>hi</b>" not in other
    answer = client.post(
        f"/tables/{table.pk}/chat/", {"preset": "wp", "room": "players", "csrfmiddlewaretoken": token}
    )
    assert "Well played" in signed_in(ben).get(table.get_absolute_url()).content.decode()


def test_a_spectator_reads_both_rooms_and_a_visitor_reads_and_may_not_write(running: Any) -> None:
    table, ann, _ben, cat = running
    Message.objects.create(user=cat, table=table, room="spectators", text="from the rail")
    Message.objects.create(user=ann, table=table, room="players", text="from the table")
    watcher = signed_in(cat).get(table.get_absolute_url()).content.decode()
    assert "from the rail" in watcher and "from the table" in watcher
    assert 'name="room" value="spectators"' in watcher
    visitor = Client().get(table.get_absolute_url()).content.decode()
    assert "from the rail" in visitor and 'data-testid="chat-form"' not in visitor and "to chat." in visitor
    player = signed_in(ann).get(table.get_absolute_url()).content.decode()
    assert "from the rail" not in player
    answer = Client().post(f"/tables/{table.pk}/chat/", {"chat": "anon"})
    assert answer.status_code == 302 and "/login/" in answer["Location"]
    assert not Message.objects.filter(text="anon").exists()


@pytest.mark.parametrize(
    ("path", "fields"),
    [
        ("/tables/{table}/chat/", {"chat": "forged", "room": "players"}),
        ("/tables/{table}/chat/switch/", {"enabled": "0"}),
        ("/chat/visibility/", {"hide": "1", "next": "/"}),
        ("/tournaments/{tournament}/chat/", {"chat": "forged"}),
    ],
)
def test_every_chat_form_refuses_a_post_without_its_csrf_token(
    running: Any, path: str, fields: dict[str, str]
) -> None:
    table, ann, _ben, _cat = running
    tournament = Tournament.objects.create(
        name="Cup", game="triad", created_by=ann, starts_at=timezone.now() + dt.timedelta(days=1)
    )
    Entry.objects.create(tournament=tournament, user=ann)
    client = signed_in(ann, csrf=True)
    answer = client.post(path.format(table=table.pk, tournament=tournament.pk), fields)
    assert answer.status_code == 403
    assert not Message.objects.exists()
    ann.refresh_from_db()
    table.refresh_from_db()
    assert table.chat_enabled and not ann.hide_chat


def test_only_the_creator_turns_chat_off_and_then_nobody_writes(running: Any) -> None:
    table, ann, ben, _cat = running
    answer = signed_in(ben).post(f"/tables/{table.pk}/chat/switch/", {"enabled": "0"}, follow=True)
    assert "Only the table&#x27;s creator" in answer.content.decode()
    table.refresh_from_db()
    assert table.chat_enabled
    for bad in ("", "2", "off"):
        signed_in(ann).post(f"/tables/{table.pk}/chat/switch/", {"enabled": bad})
        table.refresh_from_db()
        assert table.chat_enabled
    signed_in(ann).post(f"/tables/{table.pk}/chat/switch/", {"enabled": "0"})
    table.refresh_from_db()
    assert not table.chat_enabled
    page = signed_in(ben).post(f"/tables/{table.pk}/chat/", {"chat": "hello?"}, follow=True).content.decode()
    assert "Chat is off at this table" in page and not Message.objects.exists()
    assert "Turn chat on at this table" in signed_in(ann).get(table.get_absolute_url()).content.decode()


def test_the_table_form_opens_a_table_with_chat_off() -> None:
    ann = person("ann")
    fields = {"game": "triad", "triad_players": "2", "clock_seconds": "30", "chat_off": "on"}
    answer = signed_in(ann).post("/tables/new/", fields)
    assert answer.status_code == 302
    assert not Table.objects.get(created_by=ann).chat_enabled
    del fields["chat_off"]
    signed_in(ann).post("/tables/new/", fields)
    assert Table.objects.filter(created_by=ann, chat_enabled=True).count() == 1


def test_hide_chat_from_the_table_and_from_the_profile(running: Any) -> None:
    table, ann, ben, _cat = running
    Message.objects.create(user=ben, table=table, room="players", text="can you read me")
    client = signed_in(ann)
    answer = client.post("/chat/visibility/", {"hide": "1", "next": table.get_absolute_url()})
    assert answer.status_code == 302 and answer["Location"] == table.get_absolute_url()
    page = client.get(table.get_absolute_url()).content.decode()
    assert "can you read me" not in page and "You have hidden chat" in page and "Show chat" in page
    # Elsewhere, never: a next address off the site goes to the profile form instead.
    answer = client.post("/chat/visibility/", {"hide": "0", "next": "https://evil.example/"})
    assert answer["Location"] == "/accounts/profile/"
    ann.refresh_from_db()
    assert not ann.hide_chat
    form = ProfileForm(data={"bio": "", "invite_policy": "anyone", "hide_chat": "on"}, instance=ann)
    assert form.is_valid(), form.errors
    form.save()
    ann.refresh_from_db()
    assert ann.hide_chat


def test_a_blocked_persons_messages_are_not_on_the_blockers_page(running: Any) -> None:
    table, ann, ben, _cat = running
    Block.objects.create(blocker=ann, blocked=ben)
    Message.objects.create(user=ben, table=table, room="players", text="blocked words")
    assert "blocked words" not in signed_in(ann).get(table.get_absolute_url()).content.decode()
    assert "blocked words" in signed_in(ben).get(table.get_absolute_url()).content.decode()


def test_each_message_but_ones_own_has_a_report_link_for_the_signed_in(running: Any) -> None:
    """A message is reported from where it is read (issue 45); its author and visitors get no link."""
    table, ann, ben, _cat = running
    said = Message.objects.create(user=ben, table=table, room="players", text="rude words")
    link = f'href="/talk/messages/{said.pk}/report/"'
    assert link in signed_in(ann).get(table.get_absolute_url()).content.decode()
    assert link not in signed_in(ben).get(table.get_absolute_url()).content.decode()
    assert link not in Client().get(table.get_absolute_url()).content.decode()
    form = signed_in(ann).get(f"/talk/messages/{said.pk}/report/")
    assert form.status_code == 200 and "rude words" in form.content.decode()


def test_the_replay_shows_both_rooms_of_a_finished_game() -> None:
    ann, ben, cat = person("ann"), person("ben"), person("cat")
    seed, actions = find_game(
        "triad", {"players": 2, "hands": 1}, lambda e, s, a: e.current_player(s) is None
    )
    table = build_table("triad", {"players": 2, "hands": 1}, {0: ann, 1: ben}, seed, actions)
    Message.objects.create(user=ann, table=table, room="players", text="gg all")
    Message.objects.create(user=cat, table=table, room="spectators", text="what a hand")
    Message.objects.create(user=cat, table=table, room="spectators", text="hidden one", hidden=True)
    page = signed_in(ben).get(f"/games/{table.record.pk}/replay/").content.decode()
    assert 'data-testid="replay-chat"' in page and "gg all" in page and "what a hand" in page
    assert "hidden one" not in page
    assert "data-ws-send" not in page  # read only


def test_tournament_chat_entrants_write_anyone_reads_the_page_polls(running: Any) -> None:
    _table, ann, ben, _cat = running
    tournament = Tournament.objects.create(
        name="Cup", game="triad", created_by=ann, starts_at=timezone.now() + dt.timedelta(days=1)
    )
    Entry.objects.create(tournament=tournament, user=ann)
    page = signed_in(ann).get(tournament.get_absolute_url()).content.decode()
    assert 'id="tournament-chat"' in page and 'data-testid="chat-form"' in page
    signed_in(ann).post(f"/tournaments/{tournament.pk}/chat/", {"chat": "see you at the tables"})
    refused = signed_in(ben).post(f"/tournaments/{tournament.pk}/chat/", {"chat": "let me in"}, follow=True)
    assert "Only the tournament&#x27;s entrants" in refused.content.decode()
    visitor = Client().get(tournament.get_absolute_url()).content.decode()
    assert "see you at the tables" in visitor and "let me in" not in visitor
    assert 'data-testid="chat-form"' not in visitor
    newest = Message.objects.get(text="see you at the tables").pk
    log = f"/tournaments/{tournament.pk}/chat/log/"
    assert Client().get(log, {"since": str(newest)}, headers={"HX-Request": "true"}).status_code == 204
    fresh = Client().get(log, {"since": "0"}, headers={"HX-Request": "true"})
    assert fresh.status_code == 200 and "see you at the tables" in fresh.content.decode()
    # htmx's form gets the panel back, with the refusal in it.
    answer = signed_in(ben).post(
        f"/tournaments/{tournament.pk}/chat/", {"chat": "again"}, headers={"HX-Request": "true"}
    )
    assert answer.status_code == 200 and "Only the tournament" in answer.content.decode()


def test_a_muted_person_is_refused_with_when_it_ends(running: Any) -> None:
    from talk.models import Mute

    table, ann, _ben, cat = running
    until = timezone.now() + dt.timedelta(minutes=30)
    Mute.objects.create(user=ann, until=until, reason="spam", by=cat)
    page = signed_in(ann).post(f"/tables/{table.pk}/chat/", {"chat": "hi"}, follow=True).content.decode()
    assert f"muted from chat until {until.astimezone(dt.UTC):%Y-%m-%d %H:%M}" in page
    assert not Message.objects.exists()
