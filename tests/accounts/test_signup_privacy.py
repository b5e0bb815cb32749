"""Sign-up and password reset do not tell a stranger which e-mail addresses have accounts.

Sign-up with an address in use looks exactly like sign-up with a new one (an account,
logged in, the same pages); the difference goes only to the address's mailbox.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.urls import reverse
from pytest_django.fixtures import Settings

from accounts.services import register

User = get_user_model()
pytestmark = pytest.mark.django_db

PASSWORD = "tall-pyramid-of-cards-42"


def sign_up(client: Client, username: str, email: str) -> object:
    return client.post(
        reverse("signup"),
        {"username": username, "email": email, "password1": PASSWORD, "password2": PASSWORD},
    )


def page_as_seen(client: Client, url: str, username: str) -> str:
    """The page with what differs between two people blanked: their name and the CSRF tokens."""
    body = client.get(url).content.decode()
    return re.sub(r"[A-Za-z0-9]{64}", "TOKEN", body).replace(username, "NAME")


@pytest.fixture
def alice() -> object:
    return User.objects.create_user(username="alice", email="alice@example.com", password=PASSWORD)


def test_an_address_in_use_gets_the_same_answer_as_a_new_one(alice: object) -> None:
    fresh, reused = Client(), Client()
    fresh_response = sign_up(fresh, "bob", "bob@example.com")
    reused_response = sign_up(reused, "carol", "ALICE@example.com")

    assert fresh_response.status_code == reused_response.status_code == 302
    assert fresh_response.url == reused_response.url == reverse("home")
    assert sorted(fresh_response.cookies) == sorted(reused_response.cookies)
    # The page each lands on (welcome message, signed-in header) differs only by the name.
    fresh_page, reused_page = page_as_seen(fresh, "/", "bob"), page_as_seen(reused, "/", "carol")
    assert "Welcome to Capstone, NAME!" in fresh_page and 'data-testid="signed-in-user">NAME<' in fresh_page
    assert fresh_page == reused_page


def test_an_address_in_use_stays_with_its_account_and_its_owner_is_told(alice: object) -> None:
    sign_up(Client(), "carol", "ALICE@example.com")

    carol = User.objects.get(username="carol")
    assert carol.email == "" and carol.check_password(PASSWORD)
    alice.refresh_from_db()
    assert alice.email == "alice@example.com"
    assert len(mail.outbox) == 1
    notice = mail.outbox[0]
    assert notice.to == ["alice@example.com"]
    assert "Someone signed up" in notice.subject
    assert '"carol"' in notice.body and '"alice"' in notice.body
    assert "http://testserver/accounts/password_reset/" in notice.body

    # A password reset for the address still reaches one account: the owner's.
    mail.outbox.clear()
    Client().post("/accounts/password_reset/", {"email": "alice@example.com"})
    assert len(mail.outbox) == 1 and "Hello alice," in mail.outbox[0].body


def test_a_new_address_gets_a_welcome_and_becomes_the_accounts(client: Client) -> None:
    sign_up(client, "bob", "bob@example.com")
    assert User.objects.get(username="bob").email == "bob@example.com"
    assert [m.to for m in mail.outbox] == [["bob@example.com"]]
    assert "Welcome to Capstone" in mail.outbox[0].subject and "Hello bob," in mail.outbox[0].body


def test_two_accounts_without_an_address_can_coexist(alice: object) -> None:
    # The one-account-per-address rule holds for addresses given, not for the missing ones.
    for name in ("carol", "dave"):
        register(username=name, email="alice@example.com", password=PASSWORD, site_url="http://testserver/")
    assert list(User.objects.filter(email="").values_list("username", flat=True).order_by("username")) == [
        "carol",
        "dave",
    ]


def test_a_mail_server_that_fails_does_not_fail_the_sign_up(alice: object, settings: Settings) -> None:
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", 9  # nothing listens on discard
    response = sign_up(Client(), "carol", "alice@example.com")
    assert response.status_code == 302 and User.objects.filter(username="carol").exists()


class TestPasswordReset:
    def test_known_and_unknown_addresses_get_the_same_pages(self, alice: object) -> None:
        known, unknown = Client(), Client()
        known_response = known.post("/accounts/password_reset/", {"email": "alice@example.com"})
        unknown_response = unknown.post("/accounts/password_reset/", {"email": "nobody@example.com"})
        assert known_response.status_code == unknown_response.status_code == 302
        assert known_response.url == unknown_response.url == "/accounts/password_reset/done/"
        assert page_as_seen(known, known_response.url, "-") == page_as_seen(
            unknown, unknown_response.url, "-"
        )
        # Only the owner's mailbox learns anything.
        assert [m.to for m in mail.outbox] == [["alice@example.com"]]

    def test_an_inactive_account_gets_nothing_and_the_same_page(self, alice: object, client: Client) -> None:
        alice.is_active = False
        alice.save()
        response = client.post("/accounts/password_reset/", {"email": "alice@example.com"})
        assert response.url == "/accounts/password_reset/done/" and mail.outbox == []
