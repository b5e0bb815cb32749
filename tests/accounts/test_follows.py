"""Following people from their profile: with and without htmx, once per pair, never oneself
or a closed account, never forged or flooded; and the public lists of who follows whom."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts import follows
from accounts.models import Follow, User

pytestmark = pytest.mark.django_db


def person(name: str) -> User:
    return User.objects.create_user(name, f"{name}@example.com", "pw-long-enough-1")


@pytest.fixture
def ann() -> User:
    return person("ann")


@pytest.fixture
def bob() -> User:
    return person("bob")


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_follow_from_the_profile_without_javascript_then_unfollow(ann: User, bob: User) -> None:
    client = signed_in(ann)
    page = client.get("/u/bob/").content.decode()
    assert 'action="/u/bob/follow/"' in page and "Following 0" in page and "Followers 0" in page

    response = client.post("/u/bob/follow/")
    assert response.status_code == 302 and response.url == "/u/bob/"
    assert Follow.objects.filter(follower=ann, followed=bob).count() == 1
    page = client.get("/u/bob/").content.decode()
    assert 'action="/u/bob/unfollow/"' in page and "Followers 1" in page
    assert "Following 1" in client.get("/u/ann/").content.decode()

    response = client.post("/u/bob/unfollow/")
    assert response.status_code == 302
    assert not Follow.objects.exists()
    assert "Followers 0" in client.get("/u/bob/").content.decode()


def test_with_htmx_the_button_alone_comes_back(ann: User, bob: User) -> None:
    response = signed_in(ann).post("/u/BOB/follow/", headers={"HX-Request": "true"})
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<div class="profile-follow" id="follow"')
    assert "Unfollow" in html and "Followers 1" in html and "<html" not in html


def test_following_twice_keeps_one_follow_and_unfollowing_twice_is_harmless(ann: User, bob: User) -> None:
    client = signed_in(ann)
    for _ in range(2):
        assert client.post("/u/bob/follow/").status_code == 302
    assert Follow.objects.count() == 1
    assert follows.follow(follower=ann, followed=bob) is False
    for _ in range(2):
        assert client.post("/u/bob/unfollow/").status_code == 302
    assert Follow.objects.count() == 0
    assert follows.unfollow(follower=ann, followed=bob) is False


def test_nobody_follows_themselves(ann: User) -> None:
    client = signed_in(ann)
    page = client.get("/u/ann/").content.decode()
    assert "/u/ann/follow/" not in page  # no button on one's own profile
    response = client.post("/u/ann/follow/", headers={"HX-Request": "true"})
    assert response.status_code == 400 and "You cannot follow yourself." in response.content.decode()
    response = client.post("/u/ann/follow/", follow=True)
    assert "You cannot follow yourself." in response.content.decode()
    assert not Follow.objects.exists()
    with pytest.raises(follows.FollowError):
        follows.follow(follower=ann, followed=ann)


def test_a_closed_account_cannot_be_followed(ann: User, bob: User) -> None:
    bob.is_active = False
    bob.save()
    assert signed_in(ann).post("/u/bob/follow/").status_code == 404
    with pytest.raises(follows.FollowError):
        follows.follow(follower=ann, followed=bob)
    assert not Follow.objects.exists()


def test_anonymous_get_and_forged_posts_change_nothing(ann: User, bob: User) -> None:
    anonymous = Client()
    response = anonymous.post("/u/bob/follow/")
    assert response.status_code == 302 and response.url.startswith("/accounts/login/")
    assert signed_in(ann).get("/u/bob/follow/").status_code == 405
    assert signed_in(ann).get("/u/bob/unfollow/").status_code == 405
    assert signed_in(ann).post("/u/nobody-here/follow/").status_code == 404
    forged = Client(enforce_csrf_checks=True)
    forged.force_login(ann)
    assert forged.post("/u/bob/follow/").status_code == 403
    assert "/u/bob/follow/" not in anonymous.get("/u/bob/").content.decode()  # no button for visitors
    assert not Follow.objects.exists()


def test_a_flood_of_follows_is_refused_after_the_limit(ann: User) -> None:
    others = [person(f"p{n}") for n in range(3)]
    limit = int(follows.FOLLOW_RATE.split("/")[0])
    client = signed_in(ann)
    for n in range(limit):
        assert client.post(f"/u/{others[n % 3].username}/follow/").status_code == 302
    response = client.post("/u/p0/unfollow/", headers={"HX-Request": "true"})
    assert response.status_code == 429 and "Too many follows" in response.content.decode()
    assert Follow.objects.filter(follower=ann, followed=others[0]).exists()  # the refused unfollow


def test_the_lists_of_followers_and_following(ann: User, bob: User) -> None:
    cid = person("cid")
    follows.follow(follower=ann, followed=bob)
    follows.follow(follower=cid, followed=bob)
    follows.follow(follower=bob, followed=ann)
    client = Client()
    followers = client.get("/u/bob/followers/").content.decode()
    assert "Followers of bob" in followers and "/u/ann/" in followers and "/u/cid/" in followers
    following = client.get("/u/bob/following/").content.decode()
    assert "Followed by bob" in following and "/u/ann/" in following and "/u/cid/" not in following
    assert follows.counts(bob) == follows.Counts(following=1, followers=2)
    cid.is_active = False
    cid.save()
    assert follows.counts(bob) == follows.Counts(following=1, followers=1)
    assert "/u/cid/" not in client.get("/u/bob/followers/").content.decode()
    assert client.post("/u/bob/followers/").status_code == 405


def test_the_profile_reads_follows_in_one_query_signed_in_or_out(ann: User, bob: User) -> None:
    """The counts (active accounts only) and whether the viewer follows: one statement, not an
    ORM count each and an ``exists`` (1.6 ms of the busiest profile's GET, issue 42)."""
    cid = person("cid")
    follows.follow(follower=ann, followed=bob)
    follows.follow(follower=cid, followed=bob)
    follows.follow(follower=bob, followed=cid)
    cid.is_active = False
    cid.save()

    def follow_queries(client: Client, url: str) -> tuple[str, int]:
        with CaptureQueriesContext(connection) as context:
            page = client.get(url).content.decode()
        return page, sum("accounts_follow" in query["sql"] for query in context.captured_queries)

    page, queries = follow_queries(signed_in(ann), "/u/bob/")
    assert "Following 0" in page and "Followers 1" in page and 'action="/u/bob/unfollow/"' in page
    assert queries == 1
    page, queries = follow_queries(signed_in(person("dee")), "/u/bob/")
    assert 'action="/u/bob/follow/"' in page and queries == 1
    page, queries = follow_queries(Client(), "/u/bob/")
    assert "Followers 1" in page and "follow-button" not in page and queries == 1


@pytest.mark.parametrize(
    "url", [f"/u/a%00b/{tail}" for tail in ("", "follow/", "unfollow/", "followers/", "following/")]
)
def test_a_name_with_a_nul_in_the_address_is_nobody(ann: User, url: str) -> None:
    """PostgreSQL refuses a NUL in a query: a forged address is a 404, not a 500."""
    client = signed_in(ann)
    response = client.post(url) if url.endswith("follow/") else client.get(url)
    assert response.status_code == 404
    assert not Follow.objects.exists()
