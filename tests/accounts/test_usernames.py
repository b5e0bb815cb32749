"""Usernames: new ones have 3 to 20 characters (as lichess), and the longer ones of accounts made
before that limit are cut short on every page, whole in a title."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.template import Context, Template
from django.test import Client
from django.urls import reverse
from django.utils.safestring import mark_safe

from accounts.validators import USERNAME_MAX, USERNAME_MIN

User = get_user_model()
pytestmark = pytest.mark.django_db

PASSWORD = "tall-pyramid-of-cards-42"
OLD_LONG_NAME = "L" + "o" * 143 + "ngname"  # 150 characters: the column's limit, allowed before


def sign_up(client: Client, username: str) -> Any:
    return client.post(
        reverse("signup"),
        {"username": username, "email": "new@example.com", "password1": PASSWORD, "password2": PASSWORD},
    )


@pytest.mark.parametrize(
    ("username", "message"),
    [
        ("ab", "A username has 3 to 20 characters; this one has 2."),
        ("a" * 21, "A username has 3 to 20 characters; this one has 21."),
        (OLD_LONG_NAME, "A username has 3 to 20 characters; this one has 150."),
    ],
)
def test_a_name_too_short_or_too_long_is_refused_saying_why(username: str, message: str) -> None:
    client = Client()
    response = sign_up(client, username)
    assert response.status_code == 200
    body = response.content.decode()
    assert message in body
    assert f'value="{username}"' in body  # what was typed stays, to be shortened
    assert not User.objects.exists()


@pytest.mark.parametrize("username", ["abc", "a" * 20, "Ann_Lee-2.0+x@y"])
def test_names_of_3_to_20_allowed_characters_are_accepted(username: str) -> None:
    assert len(username) in range(USERNAME_MIN, USERNAME_MAX + 1)
    response = sign_up(Client(), username)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert User.objects.get().username == username


def test_the_other_characters_are_still_refused() -> None:
    response = sign_up(Client(), "ann lee")
    assert "Enter a valid username" in response.content.decode()
    assert not User.objects.exists()


def test_the_form_says_the_rule_before_anyone_breaks_it() -> None:
    body = Client().get(reverse("signup")).content.decode()
    assert "3 to 20 characters: letters, digits and @ . + - _ only." in body
    assert 'maxlength="20"' in body and 'minlength="3"' in body
    assert "150 characters" not in body


def test_an_old_long_name_still_logs_in_and_is_cut_short_with_its_title() -> None:
    person = User.objects.create_user(OLD_LONG_NAME, "long@example.com", PASSWORD)
    client = Client()
    assert client.post(reverse("login"), {"username": OLD_LONG_NAME, "password": PASSWORD}).status_code == 302
    body = client.get(person.get_absolute_url()).content.decode()
    assert f'data-testid="signed-in-user" title="{OLD_LONG_NAME}">{OLD_LONG_NAME}</a>' in body
    assert f'<h1 title="{OLD_LONG_NAME}">{OLD_LONG_NAME}</h1>' in body


def test_a_short_name_gets_no_title() -> None:
    person = User.objects.create_user("alice", "alice@example.com", PASSWORD)
    client = Client()
    client.force_login(person)
    body = client.get(person.get_absolute_url()).content.decode()
    assert 'data-testid="signed-in-user">alice</a>' in body and "<h1>alice</h1>" in body


def render(source: str, **context: object) -> str:
    return Template("{% load player_names %}" + source).render(Context(context))


def test_the_filters_escape_and_title_only_long_names() -> None:
    assert render("{{ n|player_name }}", n="bob") == '<span class="player-name">bob</span>'
    assert render("<b{{ n|name_title }}>", n="bob") == "<b>"
    long = 'Bot "<Thirteen>" & co'
    escaped = "Bot &quot;&lt;Thirteen&gt;&quot; &amp; co"
    assert render("{{ n|player_name }}", n=long) == (
        f'<span class="player-name" title="{escaped}">{escaped}</span>'
    )
    assert render("<b{{ n|name_title }}>", n=long) == f'<b title="{escaped}">'


def test_a_kept_name_is_kept_apart_from_a_safe_string_of_the_same_text() -> None:
    """The names' spans are kept by text: a plain name is escaped however often it is drawn,
    and a safe string with the same text is left as it is, before and after."""
    text, escaped = "<i>Ann</i>", "&lt;i&gt;Ann&lt;/i&gt;"
    for _ in range(2):
        assert render("{{ n|player_name }}", n=text) == f'<span class="player-name">{escaped}</span>'
        assert render("{{ n|player_name }}", n=mark_safe(text)) == f'<span class="player-name">{text}</span>'
