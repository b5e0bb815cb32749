"""Moderation in the admin (issue 45): the queue of open reports oldest first, a report's review
with its message in context, and each action (dismiss, hide, mute, close) taken only after a
reason, logged as a StaffAction in its transaction, and shown in a log nobody can edit."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.utils import timezone

from accounts.models import StaffAction, User
from games.live import tables
from games.models import Table
from talk import moderation
from talk.models import Message, Mute, Report
from talk.mutes import muted_until

pytestmark = pytest.mark.django_db
PASSWORD = "pw-long-enough-1"
QUEUE = "/admin/talk/report/"


def person(name: str) -> User:
    return User.objects.create_user(name, f"{name}@example.com", PASSWORD)


def staff_client(user: User | None = None) -> tuple[User, Client]:
    user = user or User.objects.create_superuser("mod", "mod@example.com", PASSWORD)
    client = Client()
    client.force_login(user)
    return user, client


def table_of(*players: User) -> Table:
    table = tables.create_table(game="triad", creator=players[0], config={"players": len(players)})
    for player in players[1:]:
        tables.sit(table_id=table.pk, user=player)
    return table


def chat(table: Table, *lines: tuple[User, str]) -> list[Message]:
    start = timezone.now() - dt.timedelta(minutes=30)
    return [
        Message.objects.create(
            room=Message.Room.PLAYERS,
            table=table,
            user=user,
            text=text,
            created_at=start + dt.timedelta(seconds=n),
        )
        for n, (user, text) in enumerate(lines)
    ]


def reported(reporter: User, message: Message, minutes_ago: int = 5) -> Report:
    return Report.objects.create(
        reporter=reporter,
        reported=message.user,
        message=message,
        reason=Report.Reason.ABUSE,
        created_at=timezone.now() - dt.timedelta(minutes=minutes_ago),
    )


def act(client: Client, action: str, reports: list[Report], **form: str) -> str:
    """The queue's action on ``reports``: its intermediate page first, then its form sent."""
    ids = [str(report.pk) for report in reports]
    page = client.post(QUEUE, {"action": action, "_selected_action": ids, "index": "0"})
    html = page.content.decode()
    assert page.status_code == 200 and 'name="reason"' in html
    # The page's own form carries on the selection still open (the browser sends it back).
    still_open = [i for i in ids if Report.objects.filter(pk=i, status=Report.Status.OPEN).exists()]
    assert re.findall(r'name="_selected_action" value="(\d+)"', html) == still_open
    done = client.post(QUEUE, {"action": action, "_selected_action": ids, "apply": "1", **form}, follow=True)
    assert done.status_code == 200
    return done.content.decode()


def test_the_queue_is_the_open_reports_oldest_first() -> None:
    ann, bob, carol = person("ann"), person("bob"), person("carol")
    said = chat(table_of(ann, bob), (bob, "first"), (carol, "second"))
    newer = reported(ann, said[0], minutes_ago=1)
    older = reported(ann, said[1], minutes_ago=50)
    settled = reported(bob, said[1], minutes_ago=90)
    settled.status = Report.Status.DISMISSED
    settled.save()
    _mod, client = staff_client()
    page = client.get(QUEUE).content.decode()
    links = re.findall(r'href="/admin/talk/report/(\d+)/review/"', page)
    assert links == [str(older.pk), str(newer.pk)]
    everything = client.get(QUEUE, {"queue": "all"}).content.decode()
    assert f"/admin/talk/report/{settled.pk}/review/" in everything


def test_the_review_shows_the_message_in_its_room() -> None:
    ann, bob = person("ann"), person("bob")
    table = table_of(ann, bob)
    other = table_of(person("x"), person("y"))
    lines = chat(table, *[(ann if n % 2 else bob, f"line {n}") for n in range(14)])
    chat(other, (bob, "elsewhere"))
    report = reported(ann, lines[7])
    _mod, client = staff_client()
    page = client.get(f"/admin/talk/report/{report.pk}/review/").content.decode()
    context = page.split('data-testid="message-context"')[1].split("</ol>")[0]
    # Five before and five after, in order, the reported one marked; another table's not at all.
    assert re.findall(r"line \d+", context) == [f"line {n}" for n in range(2, 13)]
    assert 'class="reported" data-testid="reported-line"' in context and "elsewhere" not in context
    assert f'href="/tables/{table.pk}/"' in page and "ann (" in page  # the reporter, for staff only
    assert 'value="mute_people"' in page and 'value="close_accounts"' in page
    assert client.get("/admin/talk/report/999999/review/").status_code == 404


def test_staff_mute_after_a_reason_and_the_mute_and_its_log_are_kept() -> None:
    ann, bob = person("ann"), person("bob")
    said = chat(table_of(ann, bob), (bob, "rude"), (bob, "ruder"))
    first, second = reported(ann, said[0]), reported(ann, said[1])
    mod, client = staff_client()
    # No reason, no mute: the form comes back with its error.
    page = client.post(
        QUEUE, {"action": "mute_people", "_selected_action": [first.pk], "apply": "1", "reason": ""}
    )
    assert page.status_code == 200 and "This field is required." in page.content.decode()
    assert not Mute.objects.exists() and not StaffAction.objects.exists()

    before = timezone.now()
    page = act(client, "mute_people", [first], reason="insults at table", seconds="86400")
    assert "1 person muted." in page
    until = muted_until(bob)
    assert until is not None and dt.timedelta(hours=23, minutes=59) < until - before <= dt.timedelta(
        days=1, seconds=5
    )
    assert muted_until(ann) is None
    step = StaffAction.objects.get()
    assert (step.staff, step.target, step.kind, step.reason) == (
        mod,
        bob,
        StaffAction.Kind.MUTE,
        "insults at table",
    )
    assert sorted(step.details["reports"]) == sorted([first.pk, second.pk])
    # Every open report about bob is settled with the mute.
    assert set(Report.objects.values_list("status", "handled_by")) == {(Report.Status.ACTIONED, mod.pk)}
    # A second sending of the same form finds nothing open: no second mute.
    act(client, "mute_people", [first], reason="again", seconds="3600")
    assert Mute.objects.count() == 1


def test_a_mute_ends_and_a_longer_one_wins() -> None:
    ann, bob = person("ann"), person("bob")
    mod, client = staff_client()
    moderation.mute(bob, staff=mod, reason="one", seconds=3600)
    long = moderation.mute(bob, staff=mod, reason="two", seconds=7 * 86400)
    assert muted_until(bob) == long.until
    assert muted_until(bob, now=long.until) is None
    page = client.post(
        "/admin/talk/mute/", {"action": "end_mutes", "_selected_action": [long.pk], "index": "0"}
    )
    assert 'name="reason"' in page.content.decode()
    client.post(
        "/admin/talk/mute/",
        {"action": "end_mutes", "_selected_action": [long.pk], "apply": "1", "reason": "appeal"},
    )
    assert muted_until(bob) is not None  # the hour's mute still runs
    assert StaffAction.objects.filter(kind=StaffAction.Kind.UNMUTE, target=bob, reason="appeal").count() == 1
    assert not moderation.unmute(long, staff=mod, reason="twice")
    assert muted_until(ann) is None


def test_dismiss_and_hide_each_settle_and_log() -> None:
    ann, bob, carol = person("ann"), person("bob"), person("carol")
    said = chat(table_of(ann, bob, carol), (bob, "fine"), (carol, "spam spam"))
    harmless = reported(ann, said[0])
    spam, again = reported(ann, said[1]), reported(bob, said[1])
    mod, client = staff_client()
    assert "1 report dismissed." in act(client, "dismiss_reports", [harmless], reason="banter")
    harmless.refresh_from_db()
    assert harmless.status == Report.Status.DISMISSED and harmless.handled_by == mod
    assert "1 message hidden." in act(client, "hide_messages", [spam], reason="advertising")
    said[1].refresh_from_db()
    assert said[1].hidden and not Message.objects.get(pk=said[0].pk).hidden
    again.refresh_from_db()
    assert again.status == Report.Status.ACTIONED  # the same message's other report with it
    kinds = list(StaffAction.objects.order_by("pk").values_list("kind", "target__username", "reason"))
    assert kinds == [("dismiss", "bob", "banter"), ("hide", "carol", "advertising")]
    assert muted_until(carol) is None


def test_staff_close_an_account_from_a_report() -> None:
    ann, bob = person("ann"), person("bob")
    report = reported(ann, chat(table_of(ann, bob), (bob, "threats"))[0])
    mod, client = staff_client()
    assert "1 account closed." in act(client, "close_accounts", [report], reason="threats")
    bob.refresh_from_db()
    assert bob.closed_at is not None and not bob.is_active
    step = StaffAction.objects.get()
    assert (step.staff, step.target, step.kind, step.reason) == (mod, bob, StaffAction.Kind.CLOSE, "threats")
    report.refresh_from_db()
    assert report.status == Report.Status.ACTIONED


def test_only_staff_with_the_permissions_act() -> None:
    ann, bob = person("ann"), person("bob")
    report = reported(ann, chat(table_of(ann, bob), (bob, "rude"))[0])
    review = f"/admin/talk/report/{report.pk}/review/"
    # A player: the admin's log-in page, never the queue.
    assert Client().get(QUEUE).status_code == 302
    _player, player = staff_client(person("player"))
    assert player.get(review).status_code == 302
    # Staff who may only read the queue see it, without the buttons; their actions are refused.
    reader = person("reader")
    reader.is_staff = True
    reader.save()
    reader.user_permissions.add(Permission.objects.get(codename="view_report"))
    _reader, client = staff_client(reader)
    page = client.get(review).content.decode()
    assert "report-review" in page and "act-mute_people" not in page
    client.post(
        QUEUE,
        {
            "action": "mute_people",
            "_selected_action": [report.pk],
            "apply": "1",
            "reason": "x",
            "seconds": "3600",
        },
    )
    assert not Mute.objects.exists()
    # Change on reports, but not on people: no closing of accounts.
    reader.user_permissions.add(Permission.objects.get(codename="change_report"))
    _reader, client = staff_client(User.objects.get(pk=reader.pk))
    page = client.get(review).content.decode()
    assert "act-mute_people" in page and "act-close_accounts" not in page
    client.post(
        QUEUE, {"action": "close_accounts", "_selected_action": [report.pk], "apply": "1", "reason": "x"}
    )
    bob.refresh_from_db()
    assert bob.is_active and not StaffAction.objects.exists()


def test_the_action_forms_need_their_csrf_token() -> None:
    ann, bob = person("ann"), person("bob")
    report = reported(ann, chat(table_of(ann, bob), (bob, "rude"))[0])
    mod = User.objects.create_superuser("mod", "mod@example.com", PASSWORD)
    client = Client(enforce_csrf_checks=True)
    client.force_login(mod)
    data = {
        "action": "mute_people",
        "_selected_action": [report.pk],
        "apply": "1",
        "reason": "x",
        "seconds": "3600",
    }
    assert client.post(QUEUE, data).status_code == 403
    assert not Mute.objects.exists()


def test_the_staff_log_is_read_only() -> None:
    ann, bob = person("ann"), person("bob")
    mod, client = staff_client()
    moderation.mute(bob, staff=mod, reason="why not", seconds=3600)
    step = StaffAction.objects.get()
    page = client.get("/admin/accounts/staffaction/").content.decode()
    assert "why not" in page and "Add staff action" not in page
    assert client.get(f"/admin/accounts/staffaction/{step.pk}/change/").status_code == 200
    client.post(f"/admin/accounts/staffaction/{step.pk}/change/", {"reason": "rewritten"})
    client.post(f"/admin/accounts/staffaction/{step.pk}/delete/", {"post": "yes"})
    step.refresh_from_db()
    assert step.reason == "why not"
    assert client.get("/admin/accounts/staffaction/add/").status_code == 403
    assert ann.pk  # ann is nobody here: a second person, so bob is not the only row


def test_staff_find_the_word_lists_hits_first_and_cannot_change_a_message_there() -> None:
    """A word-list hit is hidden from all but its author and flagged for staff: the admin's
    list of messages shows the flagged ones first and filters by them; it changes nothing."""
    ann, ben = person("ann"), person("ben")
    table = table_of(ann, ben)
    fine, flagged = chat(table, (ann, "good luck"), (ben, "flagged words"))
    Message.objects.filter(pk=flagged.pk).update(hidden=True)
    _, client = staff_client()
    page = client.get("/admin/talk/message/?hidden__exact=1").content.decode()
    assert "flagged words" in page and "good luck" not in page
    everything = client.get("/admin/talk/message/").content.decode()
    assert everything.index("flagged words") < everything.index("good luck")
    assert client.get(f"/admin/talk/message/{fine.pk}/delete/").status_code == 403
    assert client.post("/admin/talk/message/add/", {"text": "x"}).status_code == 403
