"""Reports (issue 45): a person from their profile, a message from the chat; never oneself,
never a message the reporter could not read, a few an hour at most, and nothing of it shown
to the reported person."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts import blocks
from accounts.models import User
from games.live import tables
from games.models import Table
from talk import reports
from talk.models import Message, Report
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db
PASSWORD = "pw-long-enough-1"


def person(name: str) -> User:
    return User.objects.create_user(name, f"{name}@example.com", PASSWORD)


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def said(user: User, text: str, *, table: Table | None = None, room: str = Message.Room.PLAYERS) -> Message:
    if table is None:
        cup = Tournament.objects.create(name="Cup", game="triad", starts_at=timezone.now(), created_by=user)
        return Message.objects.create(room=Message.Room.TOURNAMENT, tournament=cup, user=user, text=text)
    return Message.objects.create(room=room, table=table, user=user, text=text)


def running_table(*players: User, private: bool = False) -> Table:
    table = tables.create_table(
        game="triad", creator=players[0], config={"players": len(players)}, private=private
    )
    for player in players[1:]:
        tables.sit(table_id=table.pk, user=player)
    tables.start(table_id=table.pk, user=players[0])
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    return table


def test_report_a_person_from_their_profile() -> None:
    ann, bob = person("ann"), person("bob")
    client = signed_in(ann)
    form = client.get("/u/bob/report/").content.decode()
    assert 'name="reason"' in form and "Insults or harassment" in form and "csrfmiddlewaretoken" in form
    response = client.post("/u/bob/report/", {"reason": "cheating", "details": " always wins "})
    assert response.status_code == 302 and response.url == "/u/bob/"
    report = Report.objects.get()
    assert (report.reporter, report.reported, report.message, report.reason, report.details) == (
        ann,
        bob,
        None,
        "cheating",
        "always wins",
    )
    assert report.status == Report.Status.OPEN
    assert "Thank you: staff will look at your report." in client.get("/u/bob/").content.decode()
    # Nothing of it reaches bob: his profile, his notices, anywhere he looks.
    seen_by_bob = signed_in(bob).get("/u/bob/").content.decode()
    assert "ann" not in seen_by_bob and "report" not in seen_by_bob.lower().replace("/report/", "")


def test_a_bad_report_changes_nothing_and_says_why() -> None:
    ann, _bob = person("ann"), person("bob")
    client = signed_in(ann)
    for data in ({}, {"reason": "bored"}, {"reason": "spam", "details": "x" * 501}):
        response = client.post("/u/bob/report/", data)
        assert response.status_code == 400
        assert 'class="field-errors"' in response.content.decode()
    response = client.post("/u/ann/report/", {"reason": "spam"})
    assert response.status_code == 200 and "This is you" in response.content.decode()
    with pytest.raises(reports.ReportError, match=r"You cannot report yourself\."):
        reports.report(reporter=ann, reported=ann, reason="spam")
    assert client.post("/u/nobody/report/", {"reason": "spam"}).status_code == 404
    assert Client().post("/u/bob/report/", {"reason": "spam"}).status_code == 302  # to log in
    assert client.put("/u/bob/report/").status_code == 405
    assert not Report.objects.exists()


def test_the_report_form_needs_its_csrf_token() -> None:
    ann, _bob = person("ann"), person("bob")
    client = Client(enforce_csrf_checks=True)
    client.force_login(ann)
    assert client.post("/u/bob/report/", {"reason": "spam"}).status_code == 403
    assert not Report.objects.exists()


def test_at_most_five_reports_an_hour() -> None:
    ann = person("ann")
    others = [person(f"p{n}") for n in range(6)]
    start = timezone.now() - dt.timedelta(minutes=59)
    for other in others[:5]:
        reports.report(reporter=ann, reported=other, reason="spam", now=start)
    response = signed_in(ann).post(f"/u/{others[5].username}/report/", {"reason": "spam"})
    assert response.status_code == 400
    assert "You have sent many reports this hour" in response.content.decode()
    assert Report.objects.count() == 5
    later = start + dt.timedelta(hours=1, seconds=1)
    assert reports.report(reporter=ann, reported=others[5], reason="spam", now=later).pk


def test_report_a_message_and_the_snippet_h45a_links_to() -> None:
    ann, bob = person("ann"), person("bob")
    table = running_table(ann, bob)
    message = said(bob, "<b>you lose</b>", table=table)
    client = signed_in(ann)
    url = reverse("report_message", args=[message.pk])
    assert url == f"/talk/messages/{message.pk}/report/"
    page = client.get(url, {"next": f"/tables/{table.pk}/"}).content.decode()
    assert "&lt;b&gt;you lose&lt;/b&gt;" in page and "<b>you lose" not in page  # escaped
    response = client.post(url, {"reason": "abuse", "next": f"/tables/{table.pk}/"})
    assert response.status_code == 302 and response.url == f"/tables/{table.pk}/"
    report = Report.objects.get()
    assert (report.reported, report.message) == (bob, message)
    # The same message twice is one report; one's own message is not reportable.
    assert client.post(url, {"reason": "abuse"}).status_code == 400
    assert signed_in(bob).get(url).status_code == 404
    assert Report.objects.count() == 1


def test_block_a_message_author_from_the_message_and_go_back_to_the_chat() -> None:
    """Blocking from a chat message: its flag leads to a page that reports or blocks, and the
    block leads back to the table; an address elsewhere offered as ``next`` is not drawn."""
    ann, bob = person("ann"), person("bob")
    table = running_table(ann, bob)
    message = said(bob, "you lose", table=table)
    client = signed_in(ann)
    url = reverse("report_message", args=[message.pk])
    page = client.get(url, {"next": "javascript:alert(1)"}).content.decode()
    assert 'data-testid="block-from-message"' in page and "javascript:" not in page
    assert f'name="next" value="/tables/{table.pk}/"' in page  # the table the message was said at
    response = client.post(reverse("block", args=["bob"]), {"next": f"/tables/{table.pk}/"})
    assert response.status_code == 302 and response.url == f"/tables/{table.pk}/"
    assert blocks.is_blocked(by=ann, whom=bob) and not blocks.is_blocked(by=bob, whom=ann)
    again = client.get(url).content.decode()
    assert "You blocked bob" in again and 'data-testid="block-button"' not in again
    cup = said(bob, "hello all")  # a tournament's message leads back to its tournament
    assert (
        f'value="/tournaments/{cup.tournament_id}/"'
        in client.get(reverse("report_message", args=[cup.pk])).content.decode()
    )


def test_a_message_the_reporter_could_not_read_is_not_there() -> None:
    ann, bob, carol, dan = person("ann"), person("bob"), person("carol"), person("dan")
    game = running_table(ann, bob)
    spectators = said(carol, "ann holds the ace", table=game, room=Message.Room.SPECTATORS)
    players = said(bob, "good luck", table=game)
    hidden = said(bob, "hidden word", table=game)
    hidden.hidden = True
    hidden.save(update_fields=["hidden"])
    private = running_table(person("eve"), person("fay"), private=True)
    secret = said(User.objects.get(username="fay"), "secret", table=private)

    def status(user: User, message: Message) -> int:
        return signed_in(user).get(reverse("report_message", args=[message.pk])).status_code

    # A player never reads the spectators' chat of a running game (LP-10), even by its id.
    assert status(ann, spectators) == 404
    assert (
        signed_in(ann).post(reverse("report_message", args=[spectators.pk]), {"reason": "abuse"}).status_code
        == 404
    )
    assert status(dan, spectators) == 200  # a spectator reads both rooms (talk.rooms)
    assert status(dan, players) == 200 and status(ann, players) == 200
    assert status(ann, hidden) == 404
    assert status(ann, secret) == 404  # another's private table
    assert status(ann, Message(pk=999_999)) == 404
    assert status(dan, said(bob, "hello all")) == 200  # a tournament's chat is read by anyone
    # Once the game is over both rooms are shown beside the replay.
    Table.objects.filter(pk=game.pk).update(status=Table.Status.FINISHED)
    assert status(ann, spectators) == 200
    assert not Report.objects.exists()
