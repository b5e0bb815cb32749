"""Password change and reset, public profiles, and log-in throttling."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.utils import timezone

from accounts.throttle import humane_duration

User = get_user_model()
pytestmark = pytest.mark.django_db

PASSWORD = "tall-pyramid-of-cards-42"
NEW_PASSWORD = "capstone-pyramid-glory-77"


@pytest.fixture
def alice() -> object:
    return User.objects.create_user(username="alice", email="alice@example.com", password=PASSWORD)


class TestPasswordChange:
    def test_needs_login(self, client: Client) -> None:
        response = client.get("/accounts/password_change/")
        assert response.status_code == 302 and response.url.startswith("/accounts/login/")

    def test_changes_the_password_and_keeps_the_session(self, client: Client, alice: object) -> None:
        client.force_login(alice)
        response = client.post(
            "/accounts/password_change/",
            {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
        )
        assert response.status_code == 302 and response.url == "/accounts/password_change/done/"
        assert client.get(response.url).status_code == 200
        alice.refresh_from_db()
        assert alice.check_password(NEW_PASSWORD)
        assert client.get("/").context["user"].is_authenticated

    @pytest.mark.parametrize(
        ("data", "message"),
        [
            (
                {"old_password": "wrong", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
                "Your old password was entered incorrectly",
            ),
            (
                {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": "different-9x"},
                "The two password fields",
            ),
            ({"old_password": PASSWORD, "new_password1": "abc", "new_password2": "abc"}, "too short"),
        ],
    )
    def test_errors(self, client: Client, alice: object, data: dict[str, str], message: str) -> None:
        client.force_login(alice)
        response = client.post("/accounts/password_change/", data)
        assert response.status_code == 200 and message in response.content.decode()
        alice.refresh_from_db()
        assert alice.check_password(PASSWORD)


class TestPasswordReset:
    def test_full_reset_by_email_link(self, client: Client, alice: object) -> None:
        response = client.post("/accounts/password_reset/", {"email": "ALICE@example.com"})
        assert response.status_code == 302 and response.url == "/accounts/password_reset/done/"
        assert len(mail.outbox) == 1
        message = mail.outbox[0]
        assert message.to == ["alice@example.com"] and "Reset your" in message.subject
        link = re.search(r"https?://[^/]+(/accounts/reset/\S+/)", message.body).group(1)

        form_page = client.get(link, follow=True)
        assert "Choose a new password" in form_page.content.decode()
        set_url = form_page.redirect_chain[-1][0]
        done = client.post(set_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
        assert done.status_code == 302 and done.url == "/accounts/reset/done/"
        alice.refresh_from_db()
        assert alice.check_password(NEW_PASSWORD)

        again = client.get(link, follow=True)  # a link works once
        assert "This link no longer works" in again.content.decode()

    def test_unknown_email_reveals_nothing_and_sends_nothing(self, client: Client) -> None:
        response = client.post("/accounts/password_reset/", {"email": "nobody@example.com"})
        assert response.status_code == 302 and response.url == "/accounts/password_reset/done/"
        assert mail.outbox == []

    def test_invalid_email_is_an_error(self, client: Client) -> None:
        response = client.post("/accounts/password_reset/", {"email": "nope"})
        assert "Enter a valid email address." in response.content.decode()

    def test_weak_new_password_is_refused(self, client: Client, alice: object) -> None:
        client.post("/accounts/password_reset/", {"email": "alice@example.com"})
        link = re.search(r"https?://[^/]+(/accounts/reset/\S+/)", mail.outbox[0].body).group(1)
        set_url = client.get(link, follow=True).redirect_chain[-1][0]
        response = client.post(set_url, {"new_password1": "123", "new_password2": "123"})
        assert response.status_code == 200 and "too short" in response.content.decode()
        alice.refresh_from_db()
        assert alice.check_password(PASSWORD)

    def test_forged_token_is_refused(self, client: Client, alice: object) -> None:
        response = client.get("/accounts/reset/MQ/forged-token/", follow=True)
        assert "This link no longer works" in response.content.decode()


class TestProfile:
    def test_public_profile(self, client: Client, alice: object) -> None:
        alice.bio = "Pairs to thirteen, all day."
        alice.save()
        response = client.get("/u/alice/")
        body = response.content.decode()
        assert response.status_code == 200
        assert "<h1>alice</h1>" in body and "Pairs to thirteen, all day." in body
        assert "<title>alice · Capstone</title>" in body
        assert "alice@example.com" not in body  # e-mails are private
        assert "Edit profile" not in body

    def test_owner_sees_account_links(self, client: Client, alice: object) -> None:
        client.force_login(alice)
        body = client.get("/u/alice/").content.decode()
        assert "Edit profile" in body and "Change password" in body

    def test_other_case_redirects_to_the_canonical_address(self, client: Client, alice: object) -> None:
        response = client.get("/u/ALICE/")
        assert response.status_code == 301 and response.url == "/u/alice/"

    def test_unknown_and_inactive_users_are_404(self, client: Client, alice: object) -> None:
        assert client.get("/u/nobody/").status_code == 404
        alice.is_active = False
        alice.save()
        assert client.get("/u/alice/").status_code == 404

    def test_edit_bio(self, client: Client, alice: object) -> None:
        client.force_login(alice)
        response = client.post("/accounts/profile/", {"bio": "Hello"})
        assert response.status_code == 302 and response.url == "/u/alice/"
        alice.refresh_from_db()
        assert alice.bio == "Hello"

    def test_edit_bio_too_long_is_an_error(self, client: Client, alice: object) -> None:
        client.force_login(alice)
        response = client.post("/accounts/profile/", {"bio": "x" * 281})
        assert "Ensure this value has at most 280 characters" in response.content.decode()


class TestThrottle:
    def fail(self, client: Client, username: str = "alice", ip: str = "10.0.0.1") -> object:
        return client.post("/accounts/login/", {"username": username, "password": "wrong"}, REMOTE_ADDR=ip)

    def test_five_failures_lock_the_account_from_that_address(self, client: Client, alice: object) -> None:
        for _ in range(4):
            assert self.fail(client).status_code == 200
        locked = self.fail(client)
        assert locked.status_code == 429
        body = locked.content.decode()
        assert "Too many failed log-ins" in body
        assert "for this account from your connection is paused after 5 wrong passwords" in body
        assert "Try again in 15 minutes." in body and "PT15M" not in body
        # Even the right password is refused while locked out.
        right = client.post(
            "/accounts/login/", {"username": "alice", "password": PASSWORD}, REMOTE_ADDR="10.0.0.1"
        )
        assert right.status_code == 429
        assert not client.get("/").context["user"].is_authenticated

    def test_lockout_ignores_username_case(self, client: Client, alice: object) -> None:
        for name in ("alice", "ALICE", "Alice", "aLiCe"):
            self.fail(client, username=name)
        assert self.fail(client, username="ALICE").status_code == 429

    def test_the_owner_can_still_log_in_from_elsewhere(self, client: Client, alice: object) -> None:
        for _ in range(5):
            self.fail(client)
        other = Client()
        response = other.post(
            "/accounts/login/", {"username": "alice", "password": PASSWORD}, REMOTE_ADDR="10.0.0.2"
        )
        assert response.status_code == 302

    def test_success_resets_the_count(self, client: Client, alice: object) -> None:
        for _ in range(4):
            self.fail(client)
        ok = client.post(
            "/accounts/login/", {"username": "alice", "password": PASSWORD}, REMOTE_ADDR="10.0.0.1"
        )
        assert ok.status_code == 302
        client.post("/accounts/logout/")
        for _ in range(4):
            assert self.fail(client).status_code == 200

    def test_ten_failures_from_one_address_lock_it_for_every_username(
        self, client: Client, alice: object
    ) -> None:
        # One guess each against many accounts (password spraying): no username reaches five.
        names = [f"user{i}" for i in range(12)]
        codes = [self.fail(client, username=name, ip="10.0.0.9").status_code for name in names]
        assert codes == [200] * 9 + [429] * 3
        body = self.fail(client, username="someone-else", ip="10.0.0.9").content.decode()
        assert "from your connection is paused after 10 wrong passwords, whatever the username" in body
        assert "Try again in 15 minutes." in body
        right = Client().post(
            "/accounts/login/", {"username": "alice", "password": PASSWORD}, REMOTE_ADDR="10.0.0.9"
        )
        assert right.status_code == 429
        # Another address is not affected, and the per-username limit is still five there.
        elsewhere = Client().post(
            "/accounts/login/", {"username": "alice", "password": PASSWORD}, REMOTE_ADDR="10.0.0.10"
        )
        assert elsewhere.status_code == 302

    def test_the_address_lock_lifts_after_the_cool_off(self, client: Client, alice: object) -> None:
        for i in range(10):
            self.fail(client, username=f"user{i}", ip="10.0.0.9")
        assert self.fail(client, username="alice", ip="10.0.0.9").status_code == 429
        AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=16))
        right = client.post(
            "/accounts/login/", {"username": "alice", "password": PASSWORD}, REMOTE_ADDR="10.0.0.9"
        )
        assert right.status_code == 302

    def test_forwarded_for_headers_are_not_the_address(self, client: Client, alice: object) -> None:
        # Only REMOTE_ADDR counts (daphne sets it from the proxy's header); a header a
        # client sends itself does not make a new address.
        for i in range(5):
            response = client.post(
                "/accounts/login/",
                {"username": "alice", "password": "wrong"},
                REMOTE_ADDR="10.0.0.1",
                HTTP_X_FORWARDED_FOR=f"192.0.2.{i}",
                HTTP_X_REAL_IP=f"192.0.2.{i}",
            )
        assert response.status_code == 429
        assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {"10.0.0.1"}


@pytest.mark.parametrize(
    ("delta", "words"),
    [
        (timedelta(minutes=15), "15 minutes"),
        (timedelta(minutes=1), "1 minute"),
        (timedelta(seconds=20), "1 minute"),
        (timedelta(minutes=60), "1 hour"),
        (timedelta(minutes=90), "1 hour 30 minutes"),
        (timedelta(hours=2, seconds=1), "2 hours 1 minute"),
    ],
)
def test_humane_duration(delta: timedelta, words: str) -> None:
    assert humane_duration(delta) == words


@pytest.mark.django_db
def test_a_username_longer_than_any_account_can_have_is_a_wrong_password_not_an_error(client: Client) -> None:
    """Found by `make fuzz`: axes stored the username tried in 255 characters, and a longer
    one ended in a database error (500)."""
    response = client.post("/accounts/login/", {"username": "x" * 5000, "password": "wrong"})
    assert (
        response.status_code == 200
        and "Please enter a correct username and password" in response.content.decode()
    )
