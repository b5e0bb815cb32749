"""Sign-up, log-in and log-out through Django's test client, error paths included."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

User = get_user_model()
pytestmark = pytest.mark.django_db

GOOD_PASSWORD = "tall-pyramid-of-cards-42"


def signup(client: Client, **overrides: str) -> object:
    data = {
        "username": "alice",
        "email": "alice@example.com",
        "password1": GOOD_PASSWORD,
        "password2": GOOD_PASSWORD,
        **overrides,
    }
    return client.post(reverse("signup"), data)


def make_user(username: str = "alice", email: str = "alice@example.com") -> object:
    return User.objects.create_user(username=username, email=email, password=GOOD_PASSWORD)


class TestSignup:
    def test_page_renders_the_form(self, client: Client) -> None:
        response = client.get("/accounts/signup/")
        assert response.status_code == 200
        for name in ("username", "email", "password1", "password2"):
            assert f'name="{name}"' in response.content.decode()

    def test_creates_the_account_logs_in_and_greets(self, client: Client) -> None:
        response = signup(client)
        assert response.status_code == 302 and response.url == reverse("home")
        user = User.objects.get(username="alice")
        assert user.email == "alice@example.com" and user.check_password(GOOD_PASSWORD)
        home = client.get(response.url)
        assert home.context["user"] == user
        body = home.content.decode()
        assert "Welcome to Capstone, alice!" in body
        assert 'data-testid="signed-in-user">alice<' in body

    def test_next_is_followed_only_when_it_is_on_this_site(self, client: Client) -> None:
        assert signup(client, next="/play/").url == "/play/"
        other = Client()
        response = signup(other, username="bob", email="bob@example.com", next="https://evil.example/")
        assert response.url == reverse("home")
        # A word with no slash is an address here too, never the name of a view to look up.
        response = signup(Client(), username="cat", email="cat@example.com", next="0")
        assert response.status_code == 302 and response.url == "0"

    @pytest.mark.parametrize("taken", ["alice", "ALICE", "Alice"])
    def test_username_is_unique_ignoring_case(self, client: Client, taken: str) -> None:
        make_user()
        response = signup(client, username=taken, email="other@example.com")
        assert response.status_code == 200
        assert "That username is taken" in response.content.decode()
        assert User.objects.count() == 1

    def test_an_email_in_use_is_not_an_error_and_stays_with_its_account(self, client: Client) -> None:
        # An error would tell anyone which addresses have accounts (test_signup_privacy.py).
        make_user()
        response = signup(client, username="alice2", email="ALICE@example.com")
        assert response.status_code == 302
        assert User.objects.get(username="alice2").email == ""
        assert User.objects.get(username="alice").email == "alice@example.com"

    @pytest.mark.parametrize(
        ("password", "message"),
        [
            ("short1", "This password is too short"),
            ("password123", "This password is too common"),
            ("83729461027", "This password is entirely numeric"),
            ("alice@example", "The password is too similar to the"),
        ],
    )
    def test_passwords_go_through_djangos_validators(
        self, client: Client, password: str, message: str
    ) -> None:
        response = signup(client, password1=password, password2=password)
        assert response.status_code == 200
        assert message in response.content.decode()
        assert not User.objects.exists()

    def test_mismatched_passwords_are_refused(self, client: Client) -> None:
        response = signup(client, password2=GOOD_PASSWORD + "x")
        assert "The two password fields" in response.content.decode()
        assert not User.objects.exists()

    @pytest.mark.parametrize(
        ("field", "value", "message"),
        [
            ("username", "", "This field is required."),
            ("username", "no spaces allowed", "Enter a valid username"),
            ("email", "not-an-email", "Enter a valid email address."),
            ("email", "", "This field is required."),
        ],
    )
    def test_bad_fields_show_errors_and_keep_what_was_typed(
        self, client: Client, field: str, value: str, message: str
    ) -> None:
        typed = {"username": "keepme", field: value}
        response = signup(client, **typed)
        body = response.content.decode()
        assert response.status_code == 200
        assert message in body
        if field != "username":
            assert 'value="keepme"' in body  # what was typed is still there
        assert 'value="' + GOOD_PASSWORD not in body  # passwords are never echoed back
        assert not User.objects.exists()

    def test_forged_form_without_csrf_is_refused(self) -> None:
        strict = Client(enforce_csrf_checks=True)
        response = signup(strict)
        assert response.status_code == 403
        assert not User.objects.exists()

    def test_signed_in_user_is_sent_to_their_profile(self, client: Client) -> None:
        client.force_login(make_user())
        response = client.get("/accounts/signup/")
        assert response.status_code == 302 and response.url == "/u/alice/"


class TestLoginLogout:
    def test_login_with_any_case_of_the_username(self, client: Client) -> None:
        make_user()
        response = client.post("/accounts/login/", {"username": "ALICE", "password": GOOD_PASSWORD})
        assert response.status_code == 302 and response.url == reverse("home")
        assert client.get("/").context["user"].username == "alice"

    def test_wrong_password_shows_an_error_and_keeps_the_username(self, client: Client) -> None:
        make_user()
        response = client.post("/accounts/login/", {"username": "alice", "password": "nope"})
        body = response.content.decode()
        assert response.status_code == 200
        assert "Please enter a correct username and password" in body
        # Usernames ignore case (the test above): the message says only the password does not.
        assert "both fields may be case-sensitive" not in body
        assert "The password is case-sensitive; the username is not." in body
        assert 'value="alice"' in body
        assert not response.context["user"].is_authenticated

    def test_unknown_user_gets_the_same_error(self, client: Client) -> None:
        response = client.post("/accounts/login/", {"username": "ghost", "password": "nope"})
        assert "Please enter a correct username and password" in response.content.decode()

    def test_empty_form_shows_required_errors(self, client: Client) -> None:
        response = client.post("/accounts/login/", {})
        assert response.content.decode().count("This field is required.") == 2

    def test_login_follows_a_safe_next(self, client: Client) -> None:
        make_user()
        response = client.post(
            "/accounts/login/?next=/u/alice/", {"username": "alice", "password": GOOD_PASSWORD}
        )
        assert response.url == "/u/alice/"

    def test_logout_is_post_only_and_ends_the_session(self, client: Client) -> None:
        client.force_login(make_user())
        assert client.get("/accounts/logout/").status_code == 405
        assert client.get("/").context["user"].is_authenticated
        response = client.post("/accounts/logout/")
        assert response.status_code == 302 and response.url == reverse("home")
        assert not client.get("/").context["user"].is_authenticated

    def test_header_shows_login_links_to_visitors(self, client: Client) -> None:
        body = client.get("/").content.decode()
        assert 'href="/accounts/login/"' in body and 'href="/accounts/signup/"' in body
        assert "signed-in-user" not in body
