"""Presence from the notice socket (through the real ASGI stack, session auth and the Redis
channel layer): a row while a page is open, at the table its address names, refreshed by
the heartbeat at most once a minute, gone when the page closes or, for a socket whose
process died, once stale and cleaned up."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.utils import timezone

from accounts import presence
from accounts.models import Presence, User
from accounts.tasks import forget_stale_presence
from config.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)
ORIGIN = (b"origin", b"http://127.0.0.1:8000")


def person(name: str) -> User:
    return User.objects.create_user(name, f"{name}@example.com", "pw-long-enough-1")


async def notice_socket(user: User, query: str = "") -> WebsocketCommunicator:
    client = Client()
    await sync_to_async(client.force_login)(user)
    cookie = (b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode())
    communicator = WebsocketCommunicator(application, f"/ws/notices/{query}", headers=[ORIGIN, cookie])
    connected, _ = await communicator.connect()
    assert connected
    assert json.loads(await communicator.receive_from())["type"] == "sync"  # after the row is written
    return communicator


@sync_to_async
def rows(user: User) -> list[tuple[int | None, dt.datetime]]:
    return list(Presence.objects.filter(user=user).values_list("table_id", "seen_at"))


async def test_a_row_per_open_page_at_the_table_it_names_and_none_once_closed() -> None:
    ann = await sync_to_async(person)("ann")
    at_table = await notice_socket(ann, "?table=12")
    elsewhere = await notice_socket(ann)
    assert {table for table, _seen in await rows(ann)} == {12, None}
    assert await sync_to_async(presence.is_online)(ann)

    await at_table.disconnect()
    assert [table for table, _seen in await rows(ann)] == [None]
    await elsewhere.disconnect()
    assert await rows(ann) == []
    assert not await sync_to_async(presence.is_online)(ann)
    await sync_to_async(ann.refresh_from_db)()
    assert ann.last_seen is not None and timezone.now() - ann.last_seen < dt.timedelta(seconds=30)


@pytest.mark.parametrize(
    "query",
    [
        "?table=abc",
        "?table=-3",
        "?table=0",
        "?table=" + "9" * 40,
        "?table=1&table=2",
        "?table=%ff",
        "?table=١٢",
    ],
)
async def test_a_forged_table_in_the_address_means_no_table_and_no_error(query: str) -> None:
    ann = await sync_to_async(person)("ann")
    sock = await notice_socket(ann, query)
    assert [table for table, _seen in await rows(ann)] == [None]
    await sock.disconnect()


async def test_the_heartbeat_writes_at_most_once_a_minute(monkeypatch: pytest.MonkeyPatch) -> None:
    ann = await sync_to_async(person)("ann")
    sock = await notice_socket(ann)
    long_ago = timezone.now() - dt.timedelta(minutes=10)
    await sync_to_async(Presence.objects.filter(user=ann).update)(seen_at=long_ago)
    # Within the minute since the row was written, a heartbeat is taken and writes nothing.
    await sock.send_to(text_data='{"type": "here"}')
    assert await sock.receive_nothing(timeout=0.5)
    assert [seen for _table, seen in await rows(ann)] == [long_ago]
    # Once the interval has passed (made zero here, rather than waiting a minute), it writes.
    monkeypatch.setattr(presence, "HEARTBEAT", dt.timedelta(0))
    await sock.send_to(text_data='{"type": "here"}')
    assert await sock.receive_nothing(timeout=0.5)
    [(_table, seen)] = await rows(ann)
    assert timezone.now() - seen < dt.timedelta(seconds=30)
    # A heartbeat with anything more is a bad frame: answered, nothing written.
    await sync_to_async(Presence.objects.filter(user=ann).update)(seen_at=long_ago)
    await sock.send_to(text_data='{"type": "here", "table": 5}')
    answer = json.loads(await sock.receive_from())
    assert answer["type"] == "error" and '{"type": "here"}' in answer["error"]
    assert [seen for _table, seen in await rows(ann)] == [long_ago]
    await sock.disconnect()


def test_a_stale_row_is_not_online_and_the_cleanup_deletes_only_stale_rows() -> None:
    ann, bob = person("ann"), person("bob")
    now = timezone.now()
    died = now - presence.STALE - dt.timedelta(seconds=1)
    Presence.objects.create(channel_name="dead.1", user=ann, table_id=4, seen_at=died)
    Presence.objects.create(channel_name="live.1", user=bob, seen_at=now - dt.timedelta(seconds=70))
    assert not presence.is_online(ann) and presence.is_online(bob)

    assert forget_stale_presence() == 1  # what beat runs every minute
    assert list(Presence.objects.values_list("channel_name", flat=True)) == ["live.1"]
    ann.refresh_from_db()
    assert ann.last_seen == died  # the friends page still says when she was last seen
    assert forget_stale_presence() == 0


def test_beat_runs_the_cleanup_more_often_than_a_row_goes_stale(settings: Any) -> None:
    entry = settings.CELERY_BEAT_SCHEDULE["forget-stale-presence"]
    assert entry["task"] == forget_stale_presence.name
    assert entry["schedule"] <= presence.STALE


def test_a_socket_of_an_account_deleted_meanwhile_leaves_no_row_and_no_error() -> None:
    """The person's row went while their socket opened (staff deleted it; a test's data
    flushed): the socket is simply nobody's presence, not a server error."""
    gone = person("gone")
    User.objects.filter(pk=gone.pk).delete()
    presence.connected(channel_name="specific.gone!1", user=gone, table_id=None)
    assert not Presence.objects.exists()


def test_a_notice_for_an_account_deleted_meanwhile_is_nobodys_not_an_error() -> None:
    """A clock's task tells a person their turn ran out just as their row goes."""
    from accounts import notices

    gone = person("gone")
    User.objects.filter(pk=gone.pk).delete()
    assert notices.notify(user=gone, kind="timed_out", text="t", url="/", key="k") is None
