"""Notices as stored and shown: one per key, read one by one or all, the header's list and
the title's count on every page, the no-JavaScript "Mark all read", the e-mail setting."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts import notices
from accounts.models import Notice, User

pytestmark = pytest.mark.django_db


def person(name: str) -> User:
    return User.objects.create_user(name, f"{name}@example.com", "pw-long-enough-1")


def tell(user: User, key: str, text: str = "Your match in Cup is ready: go to your table") -> Notice | None:
    return notices.notify(user=user, kind=Notice.Kind.MATCH_READY, text=text, url="/tables/1/", key=key)


def test_a_notice_is_made_once_per_key_and_person() -> None:
    ann, ben = person("ann"), person("ben")
    first = tell(ann, "table:1")
    assert first is not None
    assert tell(ann, "table:1", text="again") is None
    assert tell(ben, "table:1") is not None  # the same key is another person's own
    assert list(Notice.objects.filter(user=ann).values_list("text", flat=True)) == [first.text]
    assert notices.unread_count(ann) == 1


def test_links_stay_on_the_site() -> None:
    with pytest.raises(ValueError, match="path on this site"):
        notices.notify(user=person("ann"), kind="bye", text="x", url="https://evil.example/", key="k")


def test_mark_read_by_id_or_all_touches_only_ones_own() -> None:
    ann, ben = person("ann"), person("ben")
    one, two, three = (tell(ann, f"k{n}") for n in range(3))
    bens = tell(ben, "k0")
    assert one and two and three and bens
    assert notices.mark_read(user=ann, ids=[one.pk, bens.pk]) == 1
    assert notices.unread_count(ann) == 2 and notices.unread_count(ben) == 1
    assert notices.mark_read(user=ann, ids=[one.pk]) == 0  # read already
    assert notices.mark_read(user=ann, ids="all") == 2
    assert notices.unread_count(ann) == 0 and notices.unread_count(ben) == 1


def test_the_page_list_is_the_newest_unread_with_the_count_of_all_in_one_query() -> None:
    ann = person("ann")
    made = [tell(ann, f"k{n}", text=f"notice {n}") for n in range(notices.SHOWN + 3)]
    with CaptureQueriesContext(connection) as queries:
        unread = notices.unread(ann)
    assert len(queries) == 1
    assert unread.count == notices.SHOWN + 3
    assert [n.text for n in unread.notices] == [f"notice {n}" for n in range(notices.SHOWN + 2, 2, -1)]
    assert made[0] is not None
    assert notices.unread(person("ben")) == notices.Unread([], 0)


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_every_page_shows_the_unread_count_in_its_title_and_the_list_in_its_header() -> None:
    ann = person("ann")
    tell(ann, "k1", text="Saturday cup starts in 5 minutes")
    tell(ann, "k2", text="Your match in <b>Cup</b> is ready: go to your table")
    page = signed_in(ann).get("/play/").content.decode()
    assert "<title>(2) " in page
    assert 'data-testid="notices-count">2<' in page
    assert "Saturday cup starts in 5 minutes" in page
    assert "Your match in &lt;b&gt;Cup&lt;/b&gt; is ready" in page  # text, never markup
    assert "js/notices.js" in page
    anonymous = Client().get("/play/").content.decode()
    assert "js/notices.js" not in anonymous and "data-notices" not in anonymous


def test_mark_all_read_without_javascript_returns_to_the_page() -> None:
    ann = person("ann")
    tell(ann, "k1")
    client = signed_in(ann)
    response = client.post("/accounts/notices/read/", {"next": "/play/"})
    assert response.status_code == 302 and response["Location"] == "/play/"
    assert notices.unread_count(ann) == 0
    assert "<title>(" not in client.get("/play/").content.decode()
    elsewhere = client.post("/accounts/notices/read/", {"next": "https://evil.example/"})
    assert elsewhere["Location"] == "/"
    assert client.get("/accounts/notices/read/").status_code == 405
    assert Client().post("/accounts/notices/read/")["Location"].startswith("/accounts/login/")


def test_reminder_emails_can_be_turned_off_on_the_profile_page() -> None:
    ann = person("ann")
    client = signed_in(ann)
    form = client.get("/accounts/profile/").content.decode()
    assert 'name="reminder_emails"' in form and "checked" in form
    response: Any = client.post("/accounts/profile/", {"bio": "hi"})  # an unticked box is not sent
    assert response.status_code == 302
    ann.refresh_from_db()
    assert ann.reminder_emails is False
    client.post("/accounts/profile/", {"bio": "hi", "reminder_emails": "on"})
    ann.refresh_from_db()
    assert ann.reminder_emails is True


def test_a_matter_settled_reads_its_notices_of_one_person_or_of_everyone(
    django_capture_on_commit_callbacks: Any,
) -> None:
    ann, ben = person("ann"), person("ben")

    def about(user: User, key: str, matter: str) -> Notice:
        notice = notices.notify(user=user, kind="match_ready", text="t", url="/", key=key, about=matter)
        assert notice is not None
        return notice

    anns = about(ann, "table:7", "table:7")
    timed_out = about(ann, "timed-out:7:3", "table:7")
    bens = about(ben, "table:7", "table:7")
    elsewhere = about(ann, "table:8", "table:8")
    unrelated = tell(ann, "k1")
    with django_capture_on_commit_callbacks() as pushes:
        assert notices.settle(about="table:7", user=ann) == 2
    assert len(pushes) == 1  # her pages hear of it, with the count as it then stands
    unread = set(Notice.objects.filter(read_at__isnull=True).values_list("pk", flat=True))
    assert unread == {bens.pk, elsewhere.pk, unrelated.pk if unrelated else 0}
    assert anns.pk not in unread and timed_out.pk not in unread
    assert notices.settle(about="table:7", user=ann) == 0
    with django_capture_on_commit_callbacks() as pushes:
        assert notices.settle(about="table:7") == 1  # the game is over: everyone's
    assert len(pushes) == 1
    assert notices.unread_count(ben) == 0 and notices.unread_count(ann) == 2
    with pytest.raises(ValueError, match="names a matter"):
        notices.settle(about="")
