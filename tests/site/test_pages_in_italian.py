"""Issue 47: the site's own pages and e-mails (home, errors, accounts, sign-up and log-in, the
profile with its ratings and statistics, chat) read in Italian show none of the catalogue's
English, in their text or in what a screen reader or a tooltip says (aria-label, title, the
SVG charts' <title> and <desc>).

"The catalogue's English" is every message the Italian catalogue translates to something else:
a page that still carries one verbatim has text outside a translation call, or a message the
catalogue lacks. The site's name and the people's names are no message, so they never count.
"""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.core import mail
from django.test import Client
from django.utils.translation import trans_real

from accounts.models import User
from tests.accounts.test_profile_ratings import play
from tests.accounts.turn_support import game_waiting_for, person
from tests.page_tour import _finished_solitaire, _lost_solitaire

ITALIAN: dict[str, Any] = {"HTTP_ACCEPT_LANGUAGE": "it-IT,it;q=0.9"}
SHORTEST = 12
"""Shorter messages ("Rating", "Replay") may well be the same words in both languages, or a part
of a longer Italian sentence; a longer English message found verbatim is a missed one."""

READABLE_ATTRIBUTES = re.compile(r'\b(?:aria-label|title|alt|placeholder|content)="([^"]*)"')


def english_messages() -> list[str]:
    """The catalogue's English messages that Italian says otherwise, longest first."""
    catalogue = dict(trans_real.translation("it")._catalog.items())  # type: ignore[attr-defined]
    italian = set(catalogue.values())
    found = set()
    for key, said in catalogue.items():
        msgid = (key[0] if isinstance(key, tuple) else key).rpartition("\x04")[2]  # without context
        if not msgid or msgid == said:
            continue
        # Only what a page shows whole: the words between placeholders and tags.
        for piece in re.split(r"%\(\w+\)[sd]|<[^>]+>", msgid):
            piece = piece.strip(" ,.:;·")
            if len(piece) >= SHORTEST and piece not in italian:
                found.add(piece)
    return sorted(found, key=len, reverse=True)


def readable(page: str) -> str:
    """What a person reads or hears on a page: its text and its readable attributes."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    attributes = " ".join(READABLE_ATTRIBUTES.findall(page))
    text = re.sub(r"<[^>]+>", " ", page)
    return html.unescape(re.sub(r"\s+", " ", f"{text} {attributes}"))


def english_left(page: str) -> list[str]:
    said = readable(page)
    return [message for message in english_messages() if message in said]


@pytest.fixture
def ada() -> User:
    """A person with something on every section of her profile: a rated game, solitaire games
    won and lost, a turn-based game waiting for her."""
    ada, bea = person("ada"), person("bea")
    play([ada, bea], [1, 2])
    _finished_solitaire("pyramid", ada)
    _lost_solitaire("pyramid", ada)
    game_waiting_for(ada, bea)
    return ada


VISITOR_PAGES = [
    "/",
    "/rules/",
    "/accounts/login/",
    "/accounts/signup/",
    "/accounts/password_reset/",
    "/accounts/password_reset/done/",
    "/accounts/reset/MQ/not-a-token/",
    "/accounts/reset/done/",
    "/no-such-page/",
    "/u/ada/",
]

PERSON_PAGES = [
    "/",
    "/u/ada/",
    "/u/ada/ratings/",
    "/u/bea/",
    "/u/bea/ratings/",
    "/accounts/profile/",
    "/accounts/password_change/",
    "/accounts/close/",
    "/friends/",
    "/turns/",
    "/accounts/blocked/",
    "/u/ada/followers/",
    "/accounts/logout/",
]


@pytest.mark.django_db
def test_a_visitors_pages_in_italian_leave_no_english(ada: User) -> None:
    for path in VISITOR_PAGES:
        page = Client().get(path, **ITALIAN)
        assert page.status_code in (200, 404), path
        assert english_left(page.content.decode()) == [], path


@pytest.mark.django_db
def test_a_signed_in_persons_pages_in_italian_leave_no_english(ada: User) -> None:
    client = Client()
    client.force_login(ada)
    for path in PERSON_PAGES:
        page = client.get(path, **ITALIAN)
        assert page.status_code in (200, 405), path
        content = page.content.decode()
        assert english_left(content) == [], path
    profile = client.get("/u/ada/", **ITALIAN).content.decode()
    assert "Statistiche" in profile and "Esci" in profile
    ratings = client.get("/u/ada/ratings/", **ITALIAN).content.decode()
    assert 'data-testid="rating-chart"' in ratings and "partite classificate" in ratings


@pytest.mark.django_db
def test_the_sign_up_and_password_mails_are_written_in_italian() -> None:
    fields = {"username": "carla", "email": "carla@example.com", "password1": "pw-long-enough-1"}
    fields["password2"] = fields["password1"]
    assert Client().post("/accounts/signup/", fields, **ITALIAN).status_code == 302
    Client().post("/accounts/signup/", {**fields, "username": "dario"}, **ITALIAN)
    Client().post("/accounts/password_reset/", {"email": "carla@example.com"}, **ITALIAN)
    welcome, address_in_use, reset = mail.outbox
    assert welcome.body.startswith("Ciao carla,") and "Il tuo account Capstone è pronto" in welcome.body
    assert address_in_use.body.startswith("Ciao carla,") and '"dario"' in address_in_use.body
    assert reset.body.startswith("Ciao carla,") and "reimpostare la password" in reset.body
    for message in (welcome, address_in_use, reset):
        assert english_left(str(message.body)) == [], message.subject
