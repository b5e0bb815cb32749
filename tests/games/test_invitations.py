"""LP-9 invitations: who may invite whom to which seat, each refusal (which changes nothing and
never shows a private table's link), the answers, expiry, and the forms that carry them."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import Follow, InvitePolicy, Notice, User
from games.core.errors import GameError
from games.live import invitations, table_access, tables
from games.models import Invitation, Table

pytestmark = pytest.mark.django_db
PASSWORD = "pw-long-enough-1"


def person(name: str, policy: str = InvitePolicy.ANYONE) -> User:
    user = User.objects.create_user(name, f"{name}@example.com", PASSWORD)
    user.invite_policy = policy
    user.save(update_fields=["invite_policy"])
    return user


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def triad(creator: User, *, players: int = 3, private: bool = False, clock: int = 30) -> Table:
    return tables.create_table(
        game="triad", creator=creator, config={"players": players}, clock_seconds=clock, private=private
    )


def refused(expected: str, **kwargs: object) -> None:
    """``invite`` refuses with ``expected`` and leaves no invitation behind."""
    before = Invitation.objects.count()
    with pytest.raises(GameError) as caught:
        invitations.invite(**kwargs)  # type: ignore[arg-type]
    assert str(caught.value) == expected
    assert Invitation.objects.count() == before


def test_an_invitation_offers_a_free_seat_and_tells_the_invitee() -> None:
    alice, bob = person("alice"), person("bob")
    table = triad(alice)
    invitation = invitations.invite(inviter=alice, table_id=table.pk, invitee=bob)
    assert (invitation.seat, invitation.status) == (1, Invitation.Status.PENDING)
    assert invitation.expires_at - invitation.created_at == dt.timedelta(minutes=10)
    notice = Notice.objects.get(user=bob)
    assert notice.kind == Notice.Kind.INVITATION
    assert notice.url == f"/invitations/{invitation.pk}/"
    assert notice.text == f"alice invites you to Triad table {table.pk}"
    # A second invitation to the same table offers the next free seat, not the one offered.
    carol = person("carol")
    assert invitations.invite(inviter=alice, table_id=table.pk, invitee=carol).seat == 2


def test_an_invitation_to_a_turn_based_table_lasts_a_day() -> None:
    alice, bob = person("alice"), person("bob")
    table = triad(alice, clock=86400)
    invitation = invitations.invite(inviter=alice, table_id=table.pk, invitee=bob)
    assert invitation.expires_at - invitation.created_at == dt.timedelta(days=1)


def test_each_refusal_says_why_and_changes_nothing() -> None:
    alice, bob, carol = person("alice"), person("bob"), person("carol")
    table = triad(alice)
    refused("You cannot invite yourself.", inviter=alice, table_id=table.pk, invitee=alice)
    refused("There is no such table.", inviter=alice, table_id=999_999, invitee=bob)
    refused("Only someone sitting at the table can invite.", inviter=carol, table_id=table.pk, invitee=bob)
    refused("That seat is not free.", inviter=alice, table_id=table.pk, invitee=bob, seat=0)
    refused("That seat is not free.", inviter=alice, table_id=table.pk, invitee=bob, seat=7)
    tables.sit(table_id=table.pk, user=carol)
    refused("carol is already sitting at this table.", inviter=alice, table_id=table.pk, invitee=carol)
    invitations.invite(inviter=alice, table_id=table.pk, invitee=bob)
    refused("bob is already invited to this table.", inviter=alice, table_id=table.pk, invitee=bob)
    refused("bob is already invited to this table.", inviter=carol, table_id=table.pk, invitee=bob)
    dan = person("dan")
    tables.add_bot(table_id=table.pk, user=alice)
    refused("Every seat is taken.", inviter=alice, table_id=table.pk, invitee=dan)
    tables.start(table_id=table.pk, user=alice)
    refused(
        "This table has started: seats can no longer change.", inviter=alice, table_id=table.pk, invitee=dan
    )


def test_the_invitees_choice_decides_who_may_invite_them() -> None:
    alice = person("alice")
    shy, picky = person("shy", InvitePolicy.NOBODY), person("picky", InvitePolicy.FOLLOWED)
    table = triad(alice)
    refused("shy does not take invitations.", inviter=alice, table_id=table.pk, invitee=shy)
    refused(
        "picky takes invitations only from people they follow.",
        inviter=alice,
        table_id=table.pk,
        invitee=picky,
    )
    Follow.objects.create(follower=alice, followed=picky)  # alice following picky is not enough
    refused(
        "picky takes invitations only from people they follow.",
        inviter=alice,
        table_id=table.pk,
        invitee=picky,
    )
    Follow.objects.create(follower=picky, followed=alice)
    assert invitations.invite(inviter=alice, table_id=table.pk, invitee=picky).to_user == picky


def test_at_most_five_invitations_a_minute_from_one_person() -> None:
    alice = person("alice")
    guests = [person(f"guest{n}") for n in range(6)]
    first, second = triad(alice, players=6), triad(alice, players=2)
    for guest in guests[:4]:
        invitations.invite(inviter=alice, table_id=first.pk, invitee=guest)
    invitations.invite(inviter=alice, table_id=second.pk, invitee=guests[4])  # any table counts
    refused(
        "Too many invitations at once: wait a minute and try again.",
        inviter=alice,
        table_id=first.pk,
        invitee=guests[5],
    )
    # A minute later the earlier ones no longer count.
    Invitation.objects.update(created_at=timezone.now() - dt.timedelta(seconds=61))
    invitations.invite(inviter=alice, table_id=first.pk, invitee=guests[5])


def test_accepting_sits_the_invitee_in_the_seat_offered_or_another_free_one() -> None:
    alice, bob, carol, dan = person("alice"), person("bob"), person("carol"), person("dan")
    table = triad(alice)
    to_bob = invitations.invite(inviter=alice, table_id=table.pk, invitee=bob)
    to_carol = invitations.invite(inviter=alice, table_id=table.pk, invitee=carol)
    assert invitations.accept(invitation_id=to_carol.pk, user=carol) == table
    assert table.seats.get(number=to_carol.seat).user == carol
    tables.sit(table_id=table.pk, user=dan, number=to_bob.seat)  # the seat was offered, not held
    with pytest.raises(GameError, match=re.escape("Every seat is taken.")):
        invitations.accept(invitation_id=to_bob.pk, user=bob)
    to_bob.refresh_from_db()
    assert to_bob.status == Invitation.Status.PENDING  # it waits on for a seat to free
    tables.leave(table_id=table.pk, user=carol)
    invitations.accept(invitation_id=to_bob.pk, user=bob)
    assert table.seats.get(number=to_carol.seat).user == bob
    to_bob.refresh_from_db()
    assert to_bob.status == Invitation.Status.ACCEPTED and to_bob.answered_at is not None
    answer = Notice.objects.get(
        user=alice, kind=Notice.Kind.INVITATION_ANSWER, key=f"invitation-answer:{to_bob.pk}"
    )
    assert answer.text == f"bob accepted your invitation to Triad table {table.pk}"
    assert answer.url == table.get_absolute_url() and answer.about == ""  # not read by the table page
    # The invitee's notice is done with once answered.
    assert Notice.objects.get(user=bob, kind=Notice.Kind.INVITATION).read_at is not None


def test_declining_tells_the_inviter_and_only_the_invitee_answers() -> None:
    alice, bob, carol = person("alice"), person("bob"), person("carol")
    table = triad(alice)
    invitation = invitations.invite(inviter=alice, table_id=table.pk, invitee=bob)
    for stranger in (carol, alice):
        with pytest.raises(GameError, match=re.escape("There is no such invitation.")):
            invitations.accept(invitation_id=invitation.pk, user=stranger)
        with pytest.raises(GameError, match=re.escape("There is no such invitation.")):
            invitations.decline(invitation_id=invitation.pk, user=stranger)
    invitations.decline(invitation_id=invitation.pk, user=bob)
    invitation.refresh_from_db()
    assert invitation.status == Invitation.Status.DECLINED
    assert Notice.objects.get(user=alice).text == f"bob declined your invitation to Triad table {table.pk}"
    with pytest.raises(GameError, match=re.escape("This invitation was declined.")):
        invitations.accept(invitation_id=invitation.pk, user=bob)
    assert not table.seats.filter(user=bob).exists()


def test_an_invitation_past_its_time_answers_expired() -> None:
    alice, bob = person("alice"), person("bob")
    table = triad(alice, private=True)
    invitation = invitations.invite(inviter=alice, table_id=table.pk, invitee=bob)
    assert table_access.may_enter(table, bob, None)
    Invitation.objects.filter(pk=invitation.pk).update(expires_at=timezone.now() - dt.timedelta(seconds=1))
    assert not table_access.may_enter(table, bob, None)
    with pytest.raises(GameError, match=re.escape("This invitation has expired.")):
        invitations.accept(invitation_id=invitation.pk, user=bob)
    invitation.refresh_from_db()
    assert invitation.status == Invitation.Status.EXPIRED  # the row now says so
    assert not table.seats.filter(user=bob).exists()
    assert Notice.objects.get(user=bob).read_at is not None
    # Invited again: the expired one is no obstacle.
    assert invitations.invite(inviter=alice, table_id=table.pk, invitee=bob).pk != invitation.pk


def test_a_withdrawn_invitation_cannot_be_accepted() -> None:
    alice, bob = person("alice"), person("bob")
    table = triad(alice)
    invitation = invitations.invite(inviter=alice, table_id=table.pk, invitee=bob)
    with pytest.raises(GameError, match=re.escape("There is no such invitation.")):
        invitations.cancel(invitation_id=invitation.pk, user=bob)
    invitations.cancel(invitation_id=invitation.pk, user=alice)
    with pytest.raises(GameError, match=re.escape("This invitation was withdrawn.")):
        invitations.accept(invitation_id=invitation.pk, user=bob)


def test_an_invitation_lets_its_invitee_into_a_private_table_and_no_one_else() -> None:
    alice, bob, carol = person("alice"), person("bob"), person("carol")
    table = triad(alice, private=True)
    assert table.private_key is not None
    assert not table_access.may_enter(table, bob, None)
    invitation = invitations.invite(inviter=alice, table_id=table.pk, invitee=bob)
    assert table_access.may_enter(table, bob, None)
    assert not table_access.may_enter(table, carol, None)
    notice = Notice.objects.get(user=bob)
    assert notice.text == "alice invites you to a private Triad table"
    assert table.private_key not in notice.url
    bob_client, carol_client = signed_in(bob), signed_in(carol)
    page = bob_client.get(invitation.get_absolute_url())
    assert page.status_code == 200 and table.private_key not in page.content.decode()
    assert bob_client.get(table.get_absolute_url()).status_code == 200
    # carol can neither read it, nor answer it, nor learn the table through it.
    assert carol_client.get(invitation.get_absolute_url()).status_code == 404
    answer = carol_client.post(reverse("invitation_accept", args=[invitation.pk]), follow=True)
    assert answer.redirect_chain[0][0] == reverse("invitations")
    assert table.private_key not in answer.content.decode()
    assert not table.seats.filter(user=carol).exists()
    assert carol_client.get(table.get_absolute_url()).status_code == 404
    # Nor invite herself in by naming it: the table is "not there" for her.
    sent = carol_client.post(reverse("invitation_send"), {"table": table.pk, "to": "bob"}, follow=True)
    assert "There is no such table." in sent.content.decode()
    assert table.private_key not in sent.content.decode()
    assert sent.redirect_chain[0][0] == reverse("invitations")
    # bob accepts: seated, he may enter as any player does.
    accepted = bob_client.post(reverse("invitation_accept", args=[invitation.pk]))
    assert accepted.status_code == 302 and accepted["Location"] == table.get_absolute_url()
    assert table.seats.filter(user=bob).exists()


def test_the_table_page_invites_by_username_and_shows_the_answers() -> None:
    alice, carol = person("alice"), person("carol")
    person("bob")
    table = triad(alice)
    client = signed_in(alice)
    page = client.get(table.get_absolute_url()).content.decode()
    assert 'data-testid="invite-form"' in page
    sent = client.post(
        reverse("invitation_send"), {"table": table.pk, "to": "Bob, carol, nobody_here"}, follow=True
    )
    assert sent.redirect_chain[0][0] == table.get_absolute_url()
    text = sent.content.decode()
    assert "Invitation sent to bob, carol." in text
    assert "There is no one called “nobody_here”." in text
    assert set(Invitation.objects.values_list("to_user__username", flat=True)) == {"bob", "carol"}
    to_carol = Invitation.objects.get(to_user=carol)
    invitations.decline(invitation_id=to_carol.pk, user=carol)
    statuses = re.findall(
        r'data-testid="invitation-status">([^<]+)<', client.get(table.get_absolute_url()).content.decode()
    )
    assert sorted(statuses) == ["declined", "waiting for an answer"]
    # A spectator sees neither the form nor who was invited.
    watcher = signed_in(person("dan")).get(table.get_absolute_url()).content.decode()
    assert 'data-testid="table-invitations"' not in watcher


def test_the_invitee_answers_from_the_notice_without_javascript() -> None:
    alice, bob = person("alice"), person("bob")
    table = triad(alice)
    invitation = invitations.invite(inviter=alice, table_id=table.pk, invitee=bob)
    client = Client(enforce_csrf_checks=True)
    client.force_login(bob)
    page = client.get(reverse("home")).content.decode()
    action = f'action="/invitations/{invitation.pk}/accept/"'
    assert action in page and f'action="/invitations/{invitation.pk}/decline/"' in page
    forged = client.post(reverse("invitation_accept", args=[invitation.pk]))
    assert forged.status_code == 403  # no CSRF token: refused before the view
    token = client.cookies["csrftoken"].value
    accepted = client.post(reverse("invitation_accept", args=[invitation.pk]), {"csrfmiddlewaretoken": token})
    assert accepted.status_code == 302 and accepted["Location"] == table.get_absolute_url()
    assert table.seats.filter(user=bob).exists()


def test_the_table_form_invites_the_people_it_names() -> None:
    alice, bob = person("alice"), person("bob")
    person("carol", InvitePolicy.NOBODY)
    client = signed_in(alice)
    fields = {"game": "triad", "clock_seconds": 30, "triad_players": 3}
    unknown = client.post(reverse("table_create"), {**fields, "invite": "bob, nobody_here"})
    assert unknown.status_code == 400 and "There is no one called “nobody_here”." in unknown.content.decode()
    assert not Table.objects.exists() and not Invitation.objects.exists()
    made = client.post(reverse("table_create"), {**fields, "invite": "bob, carol"}, follow=True)
    table = Table.objects.get()
    assert made.redirect_chain[0][0] == table.get_absolute_url()
    assert "carol does not take invitations." in made.content.decode()
    assert list(Invitation.objects.values_list("to_user", flat=True)) == [bob.pk]
    # "Open a new table for them" arrives with the name filled in.
    lobby = client.get(reverse("tables") + "?invite=bob").content.decode()
    assert re.search(r'name="invite"[^>]*value="bob"', lobby)


def test_the_profile_form_saves_who_may_invite_me() -> None:
    bob = person("bob")
    client = signed_in(bob)
    form = client.get(reverse("edit_profile")).content.decode()
    assert 'name="invite_policy"' in form and "People I follow" in form
    client.post(reverse("edit_profile"), {"bio": "", "reminder_emails": "on", "invite_policy": "followed"})
    bob.refresh_from_db()
    assert bob.invite_policy == InvitePolicy.FOLLOWED
    bad = client.post(reverse("edit_profile"), {"bio": "changed", "invite_policy": "everyone"})
    assert bad.status_code == 200 and "Select a valid choice." in bad.content.decode()
    # A form from before the choice existed keeps the person's own.
    assert client.post(reverse("edit_profile"), {"bio": "changed"}).status_code == 302
    bob.refresh_from_db()
    assert (bob.bio, bob.invite_policy) == ("changed", InvitePolicy.FOLLOWED)


def test_invite_to_a_table_from_a_profile() -> None:
    alice, bob = person("alice"), person("bob")
    client = signed_in(alice)
    assert reverse("invite_person", args=["bob"]) in client.get(bob.get_absolute_url()).content.decode()
    page = client.get(reverse("invite_person", args=["bob"])).content.decode()
    assert "You have no open table with a free seat." in page and "/tables/?invite=bob" in page
    table = triad(alice, private=True)
    page = client.get(reverse("invite_person", args=["bob"])).content.decode()
    assert f'name="table" value="{table.pk}"' in page
    client.post(reverse("invitation_send"), {"table": table.pk, "to": "bob"})
    assert Invitation.objects.get().to_user == bob
    User.objects.filter(pk=bob.pk).update(invite_policy=InvitePolicy.NOBODY)
    assert (
        "bob does not take invitations."
        in client.get(reverse("invite_person", args=["bob"])).content.decode()
    )


def test_a_name_no_account_can_have_is_refused_as_nobody() -> None:
    """Found by `make fuzz`: a NUL in a name reached PostgreSQL, which refuses it (a 500)."""
    alice = person("alice")
    table = triad(alice)
    client = signed_in(alice)
    for name in ("bo\x00b", "x" * 151):
        sent = client.post(reverse("invitation_send"), {"table": table.pk, "to": name}, follow=True)
        assert sent.status_code == 200 and "There is no one called" in sent.content.decode()
    assert not Invitation.objects.exists()
