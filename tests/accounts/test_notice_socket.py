"""The notice socket against the real daphne and Redis: a notice made anywhere reaches its
person's open pages (and nobody else's), anonymous sockets are refused, a "read" frame
marks read on every page of that person, and any other frame is answered and changes
nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import ClientConnection, connect

from accounts import notices
from accounts.consumers import MAX_ID, NOTICES
from accounts.models import Notice, User
from tests.games.test_socket_limits import flood_until_closed
from tests.games.test_table_servers import session_cookie
from web.consumers import FLOODING

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.services]


def person(name: str) -> User:
    return User.objects.create_user(name, f"{name}@example.com", "pw-long-enough-1")


def open_socket(live_site: str, cookie: str | None = None) -> ClientConnection:
    headers = {"Cookie": cookie} if cookie else {}
    return connect(
        live_site.replace("http://", "ws://") + "/ws/notices/", origin=live_site, additional_headers=headers
    )


def receive(sock: ClientConnection) -> dict[str, Any]:
    return json.loads(sock.recv(timeout=10))


def tell(user: User, key: str) -> Notice:
    notice = notices.notify(
        user=user,
        kind=Notice.Kind.MATCH_READY,
        text="Your match in Cup is ready: go to your table",
        url="/tables/7/",
        key=key,
    )
    assert notice is not None
    return notice


def test_a_notice_reaches_its_persons_open_pages_once_and_nobody_elses(live_site: str) -> None:
    ann, ben = person("ann"), person("ben")
    earlier = tell(ann, "before the page opened")
    with (
        open_socket(live_site, session_cookie(ann)) as first,
        open_socket(live_site, session_cookie(ann)) as second,
        open_socket(live_site, session_cookie(ben)) as other,
    ):
        for sock in (first, second):
            sync = receive(sock)
            assert sync["type"] == "sync" and sync["unread"] == 1
            assert [n["id"] for n in sync["notices"]] == [earlier.pk]
        assert receive(other) == {"type": "sync", "notices": [], "unread": 0, "turns": 0}

        notice = tell(ann, "table:7")
        assert notices.notify(user=ann, kind="match_ready", text="again", url="/", key="table:7") is None
        for sock in (first, second):
            assert receive(sock) == {
                "type": "notice",
                "notice": {
                    "id": notice.pk,
                    "kind": "match_ready",
                    "text": "Your match in Cup is ready: go to your table",
                    "url": "/tables/7/",
                    "created_at": notice.created_at.isoformat(),
                },
                "unread": 2,
            }
        # Reading it on one page tells every page of hers: the same count everywhere.
        first.send(json.dumps({"type": "read", "ids": [notice.pk]}))
        for sock in (first, second):
            assert receive(sock) == {"type": "read", "ids": [notice.pk], "unread": 1}
        first.send(json.dumps({"type": "read", "ids": "all"}))
        assert receive(second) == {"type": "read", "ids": "all", "unread": 0}
        with pytest.raises(TimeoutError):
            other.recv(timeout=1)  # the second repeat of the notice, and hers, never reached ben
    assert notices.unread_count(ann) == 0


def test_an_anonymous_socket_is_refused(live_site: str) -> None:
    with pytest.raises(InvalidStatus) as refused:
        open_socket(live_site)
    assert refused.value.response.status_code == 403


@pytest.mark.parametrize(
    ("frame", "error"),
    [
        ("not json", "frames must be JSON objects"),
        ("[1, 2]", "expected {"),
        ('{"type": "read"}', "expected {"),
        ('{"type": "delete", "ids": "all"}', "expected {"),
        ('{"type": "read", "ids": "all", "user": 1}', "expected {"),
        ('{"type": "read", "ids": []}', "ids are 1 to 50 notice numbers"),
        ('{"type": "read", "ids": ["1"]}', "ids are 1 to 50 notice numbers"),
        ('{"type": "read", "ids": [true]}', "ids are 1 to 50 notice numbers"),
        ('{"type": "read", "ids": [-1]}', "ids are 1 to 50 notice numbers"),
        ('{"type": "read", "ids": [0]}', "ids are 1 to 50 notice numbers"),
        ('{"type": "read", "ids": [1.0]}', "ids are 1 to 50 notice numbers"),
        # One past the largest id a notice can have: on SQLite mark_read raised OverflowError (1011).
        ('{"type": "read", "ids": [9223372036854775808]}', "ids are 1 to 50 notice numbers"),
        ('{"type": "read", "ids": [1, 100000000000000000000000000000]}', "ids are 1 to 50 notice numbers"),
        (json.dumps({"type": "read", "ids": list(range(1, 52))}), "ids are 1 to 50 notice numbers"),
        ('{"type": "read", "ids": ' + "[" * 20 + "]" * 20 + "}", "nest"),
        (json.dumps({"type": "read", "ids": "all", "pad": "x" * 2000}), "at most 1 KB"),
    ],
)
def test_a_malformed_frame_is_answered_and_changes_nothing(live_site: str, frame: str, error: str) -> None:
    ann = person("ann")
    notice = tell(ann, "table:7")
    with open_socket(live_site, session_cookie(ann)) as sock:
        assert receive(sock)["unread"] == 1
        sock.send(frame)
        answer = receive(sock)
        assert answer["type"] == "error" and error in answer["error"], answer
        assert answer["error"].endswith("nothing was marked read")
        sock.send(json.dumps({"type": "read", "ids": [notice.pk + 1000]}))  # not hers: nothing to say
        with pytest.raises(TimeoutError):
            sock.recv(timeout=0.5)
    assert notices.unread_count(ann) == 1


def test_someone_elses_notice_cannot_be_marked_read(live_site: str) -> None:
    ann, ben = person("ann"), person("ben")
    hers = tell(ann, "table:7")
    with open_socket(live_site, session_cookie(ben)) as sock:
        receive(sock)
        sock.send(json.dumps({"type": "read", "ids": [hers.pk]}))
        sock.send(json.dumps({"type": "read", "ids": "all"}))
        sock.send(json.dumps({"type": "read", "ids": [MAX_ID]}))  # the largest there can be: nobody's
        with pytest.raises(TimeoutError):
            sock.recv(timeout=0.5)
    assert notices.unread_count(ann) == 1


def test_a_socket_that_keeps_flooding_is_closed_with_4429_and_marks_nothing(live_site: str) -> None:
    ann = person("ann")
    tell(ann, "table:7")
    with open_socket(live_site, session_cookie(ann)) as sock:
        receive(sock)
        closing = flood_until_closed(sock, '{"type": "read", "ids": [999999]}', 3000)
    assert closing.code == FLOODING
    refused = [reply for reply in closing.replies if "too many" in reply]
    assert 1 <= len(refused) <= NOTICES.patience + closing.seconds * NOTICES.patience / NOTICES.per_s
    assert notices.unread_count(ann) == 1
