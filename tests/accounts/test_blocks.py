"""Blocking (LP-9): from the profile and back, once per pair, never oneself; what a block keeps
the blocked person from (following, inviting, a private table of the blocker's) and that
nothing they are shown says they are blocked."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts import blocks, follows
from accounts.models import Block, Follow, InvitePolicy, Notice, User
from games.core.errors import GameError
from games.live import invitations, table_access, tables
from games.models import Invitation, Table

pytestmark = pytest.mark.django_db
PASSWORD = "pw-long-enough-1"


def person(name: str) -> User:
    return User.objects.create_user(name, f"{name}@example.com", PASSWORD)


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def triad(creator: User, *, private: bool = False) -> Table:
    return tables.create_table(game="triad", creator=creator, config={"players": 3}, private=private)


def test_block_from_the_profile_then_unblock_from_the_list() -> None:
    ann, bob = person("ann"), person("bob")
    client = signed_in(ann)
    page = client.get("/u/bob/").content.decode()
    assert 'action="/u/bob/block/"' in page and 'href="/u/bob/report/"' in page
    response = client.post("/u/bob/block/")
    assert response.status_code == 302 and response.url == "/u/bob/"
    assert blocks.blocked_ids(ann) == {bob.pk} and blocks.is_blocked(by=ann, whom=bob)
    assert not blocks.is_blocked(by=bob, whom=ann)
    page = client.get("/u/bob/").content.decode()
    assert 'action="/u/bob/unblock/"' in page and "You blocked bob" in page

    listed = client.get("/accounts/blocked/").content.decode()
    assert 'href="/u/bob/"' in listed and 'action="/u/bob/unblock/"' in listed
    assert 'href="/accounts/blocked/"' in client.get("/u/ann/").content.decode()
    response = client.post("/u/bob/unblock/", {"next": "/accounts/blocked/"})
    assert response.status_code == 302 and response.url == "/accounts/blocked/"
    assert not Block.objects.exists()
    assert "You have not blocked anyone." in client.get("/accounts/blocked/").content.decode()


def test_twice_is_once_oneself_is_refused_and_a_visitor_blocks_nobody() -> None:
    ann, bob = person("ann"), person("bob")
    client = signed_in(ann)
    for _ in range(2):
        assert client.post("/u/bob/block/").status_code == 302
    assert Block.objects.count() == 1
    assert blocks.block(blocker=ann, blocked=bob) is False
    response = client.post("/u/ann/block/", follow=True)
    assert "You cannot block yourself." in response.content.decode()
    assert Block.objects.count() == 1
    assert "block-button" not in client.get("/u/ann/").content.decode()
    visitor = Client()
    assert visitor.post("/u/bob/block/").status_code == 302  # to the log-in page
    assert "block-button" not in visitor.get("/u/bob/").content.decode()
    assert Block.objects.count() == 1
    assert client.get("/u/bob/block/").status_code == 405
    assert client.post("/u/nobody/block/").status_code == 404


def test_the_forms_need_their_csrf_token() -> None:
    ann, _bob = person("ann"), person("bob")
    client = Client(enforce_csrf_checks=True)
    client.force_login(ann)
    assert client.post("/u/bob/block/").status_code == 403
    assert not Block.objects.exists()


def test_an_unsafe_next_goes_back_to_the_profile() -> None:
    ann, _bob = person("ann"), person("bob")
    response = signed_in(ann).post("/u/bob/block/", {"next": "https://evil.example/"})
    assert response.url == "/u/bob/"


def test_a_blocked_person_cannot_follow_the_blocker_and_their_follow_goes() -> None:
    ann, bob = person("ann"), person("bob")
    Follow.objects.create(follower=bob, followed=ann)
    Follow.objects.create(follower=ann, followed=bob)
    blocks.block(blocker=ann, blocked=bob)
    # bob's follow of ann is dropped (as lichess does); ann's of bob is hers to keep.
    assert list(Follow.objects.values_list("follower__username", "followed__username")) == [("ann", "bob")]
    response = signed_in(bob).post("/u/ann/follow/", headers={"HX-Request": "true"})
    # No refusal that would tell bob of the block: the follow is quietly not made.
    assert response.status_code == 200 and "follow-error" not in response.content.decode()
    assert not Follow.objects.filter(follower=bob).exists()
    assert follows.follow(follower=bob, followed=ann) is False
    blocks.unblock(blocker=ann, blocked=bob)
    assert follows.follow(follower=bob, followed=ann) is True


def test_a_blocked_persons_invitation_is_refused_as_the_policy_would() -> None:
    ann, bob = person("ann"), person("bob")
    table = triad(bob)
    blocks.block(blocker=ann, blocked=bob)
    with pytest.raises(GameError) as caught:
        invitations.invite(inviter=bob, table_id=table.pk, invitee=ann)
    # What ann's policy "nobody" would say; never the word "block".
    assert str(caught.value) == "ann does not take invitations."
    assert not Invitation.objects.exists() and not Notice.objects.filter(user=ann).exists()
    page = signed_in(bob).get(reverse("invite_person", args=["ann"])).content.decode()
    assert "ann does not take invitations." in page and "blocked" not in page.lower()
    # The blocker may still invite the person she blocked; others still invite her.
    carol = person("carol")
    assert invitations.invite(inviter=carol, table_id=triad(carol).pk, invitee=ann).to_user == ann
    assert ann.invite_policy == InvitePolicy.ANYONE
    blocks.unblock(blocker=ann, blocked=bob)
    assert invitations.invite(inviter=bob, table_id=table.pk, invitee=ann).to_user == ann


def test_a_waiting_invitation_from_the_blocked_person_lapses() -> None:
    ann, bob = person("ann"), person("bob")
    invitation = invitations.invite(inviter=bob, table_id=triad(bob).pk, invitee=ann)
    assert Notice.objects.get(user=ann).read_at is None
    blocks.block(blocker=ann, blocked=bob)
    invitation.refresh_from_db()
    assert invitation.status == Invitation.Status.EXPIRED
    assert Notice.objects.get(user=ann).read_at is not None
    assert list(invitations.waiting_for(ann)) == []


def test_a_blocked_person_cannot_enter_the_blockers_private_table() -> None:
    ann, bob, carol = person("ann"), person("bob"), person("carol")
    table = triad(ann, private=True)
    blocks.block(blocker=ann, blocked=bob)
    client = signed_in(bob)
    assert table.private_key is not None
    # The link, the page and the seats answer as a table that is not there.
    client.get(reverse("table_join", args=[table.private_key]))
    assert client.get(f"/tables/{table.pk}/").status_code == 404
    client.post(f"/tables/{table.pk}/sit/")
    assert not table.seats.filter(user=bob).exists()
    assert not table_access.may_enter(table, bob, None)
    # An invitation from someone else at the table cannot let him in either.
    tables.sit(table_id=table.pk, user=carol)
    with pytest.raises(GameError, match=r"bob cannot be invited to this table\."):
        invitations.invite(inviter=carol, table_id=table.pk, invitee=bob)
    # Others still come in by the link; the blocker's public tables stay open to bob.
    dan = signed_in(person("dan"))
    dan.get(reverse("table_join", args=[table.private_key]))
    assert dan.get(f"/tables/{table.pk}/").status_code == 200
    public = triad(ann)
    client.post(f"/tables/{public.pk}/sit/")
    assert public.seats.filter(user=bob).exists()


def test_a_block_unseats_nobody() -> None:
    ann, bob = person("ann"), person("bob")
    table = triad(ann, private=True)
    tables.sit(table_id=table.pk, user=bob)
    blocks.block(blocker=ann, blocked=bob)
    assert table_access.may_enter(table, bob, None)
    assert signed_in(bob).get(f"/tables/{table.pk}/").status_code == 200
