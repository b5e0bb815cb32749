"""Issue 47, the machinery: who reads in which language, and that nothing drawn for one
language reaches a reader of another.

The strings checked here are translated in locale/it (``CATALOGUE`` below quotes them); the
catalogue's own test is tests/site/test_translations.py.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.core import mail
from django.test import Client
from django.utils import translation
from django.utils.translation import gettext

from accounts import notices
from accounts.event_notices import remind_entrants
from accounts.models import Notice, User
from config.asgi import application
from tests.accounts.test_data_export import downloaded
from tests.accounts.test_event_notices import entered
from tests.accounts.turn_support import game_waiting_for, person
from tests.games.table_moments import dealt_heads_up_triad
from tests.games.test_table_servers import session_cookie
from web.languages import per_language

ITALIAN = {"HTTP_ACCEPT_LANGUAGE": "it-IT,it;q=0.9,en;q=0.5"}
ENGLISH = {"HTTP_ACCEPT_LANGUAGE": "en-GB,en;q=0.9"}
PASSWORD = "pw-long-enough-1"
ORIGIN = (b"origin", b"http://127.0.0.1:8000")


def html_lang(page: Any) -> str:
    found = re.search(r'<html lang="([^"]*)"', page.content.decode())
    assert found, "no <html lang>"
    return found.group(1)


@pytest.mark.django_db
def test_a_first_visit_reads_in_the_browsers_language_and_says_so(client: Client) -> None:
    page = client.get("/rules/", **ITALIAN)
    assert html_lang(page) == "it"
    assert page.headers["Content-Language"] == "it"
    assert '<label for="language-choice">Lingua</label>' in page.content.decode()
    # One address serves both languages: a cache must key a page by what chose its language.
    vary = {word.strip() for word in page.headers["Vary"].split(",")}
    assert {"Accept-Language", "Cookie"} <= vary
    # No hreflang: it names the page's other addresses in other languages, and it has none.
    assert "hreflang" not in page.content.decode()
    assert html_lang(Client().get("/rules/", **ENGLISH)) == "en"
    assert html_lang(Client().get("/rules/", HTTP_ACCEPT_LANGUAGE="de-DE")) == "en"  # none of the site's


@pytest.mark.django_db
def test_the_footers_picker_sets_the_language_and_goes_back_to_the_page(client: Client) -> None:
    page = client.get("/rules/", **ENGLISH)
    assert 'action="/i18n/setlang/"' in page.content.decode()
    assert '<input type="hidden" name="next" value="/rules/">' in page.content.decode()
    answer = client.post("/i18n/setlang/", {"language": "it", "next": "/rules/"}, **ENGLISH)
    assert answer.status_code == 302 and answer["Location"] == "/rules/"
    assert html_lang(client.get("/rules/", **ENGLISH)) == "it"  # the cookie outweighs the header
    answer = client.post("/i18n/setlang/", {"language": "en", "next": "https://evil.example/"}, **ENGLISH)
    assert answer["Location"] == "/"  # Django's own check of next
    assert html_lang(client.get("/rules/", **ITALIAN)) == "en"


@pytest.mark.django_db
def test_an_unknown_language_is_refused_and_changes_nothing(client: Client) -> None:
    ann = person("ann")
    client.force_login(ann)
    for bad in ("xx", "", "it-IT", "../it", "en\x00"):
        answer = client.post("/i18n/setlang/", {"language": bad, "next": "/rules/"})
        assert answer.status_code == 400
        assert "no such language" in answer.content.decode()
        assert "django_language" not in answer.cookies
    assert client.get("/i18n/setlang/").status_code == 405
    ann.refresh_from_db()
    assert ann.language == ""


@pytest.mark.django_db
def test_a_signed_in_choice_is_kept_on_the_profile_and_wins_at_the_next_sign_in(client: Client) -> None:
    ann = person("ann")
    client.force_login(ann)
    client.post("/i18n/setlang/", {"language": "it", "next": "/"}, **ENGLISH)
    ann.refresh_from_db()
    assert ann.language == "it"
    elsewhere = Client()  # another browser, which asks for English and has no cookie
    assert html_lang(elsewhere.get("/rules/", **ENGLISH)) == "en"
    signed_in = elsewhere.post("/accounts/login/", {"username": "ann", "password": PASSWORD}, **ENGLISH)
    assert signed_in.status_code == 302
    assert html_lang(elsewhere.get("/rules/", **ENGLISH)) == "it"
    elsewhere.post("/accounts/logout/")
    assert html_lang(elsewhere.get("/rules/", **ENGLISH)) == "en"  # signed out: the browser's again


@pytest.mark.django_db
def test_the_profiles_edit_page_changes_the_language(client: Client) -> None:
    ann = person("ann")
    client.force_login(ann)
    form = client.get("/accounts/profile/", **ENGLISH).content.decode()
    assert '<option value="it">Italiano</option>' in form
    assert '<option value="en" selected>English</option>' in form
    fields = {"bio": "", "language": "it", "reminder_emails": "on", "invite_policy": "anyone"}
    assert client.post("/accounts/profile/", fields, **ENGLISH).status_code == 302
    ann.refresh_from_db()
    assert ann.language == "it"
    assert html_lang(client.get("/rules/", **ENGLISH)) == "it"
    refused = client.post("/accounts/profile/", {**fields, "language": "xx"}, **ENGLISH)
    assert refused.status_code == 200 and 'class="field has-error"' in refused.content.decode()
    ann.refresh_from_db()
    assert ann.language == "it"


@pytest.mark.django_db
def test_sign_up_keeps_the_language_the_form_was_filled_in_and_welcomes_in_it(client: Client) -> None:
    fields = {"username": "carla", "email": "carla@example.com", "password1": PASSWORD, "password2": PASSWORD}
    assert client.post("/accounts/signup/", fields, **ITALIAN).status_code == 302
    assert User.objects.get(username="carla").language == "it"
    assert [message.subject for message in mail.outbox] == ["Ti diamo il benvenuto su Capstone"]


@pytest.mark.django_db
def test_a_password_reset_is_written_in_the_accounts_language_not_the_askers(client: Client) -> None:
    ann = person("ann")
    ann.language = "it"
    ann.save()
    client.post("/accounts/password_reset/", {"email": "ann@example.com"}, **ENGLISH)
    assert [message.subject for message in mail.outbox] == ["Reimposta la tua password di Capstone"]


@pytest.mark.django_db
def test_the_scripts_messages_come_from_the_pages_own_language(client: Client) -> None:
    page = client.get("/rules/", **ITALIAN).content.decode()
    assert '<script src="/jsi18n/it/" defer></script>' in page
    italian, english = client.get("/jsi18n/it/"), client.get("/jsi18n/en/", **ITALIAN)
    assert italian.status_code == 200 and '"just now": "proprio ora"' in italian.content.decode()
    assert "proprio ora" not in english.content.decode()  # the address decides, not the browser
    assert "public" in italian["Cache-Control"]
    assert client.get("/jsi18n/xx/").status_code == 404


def italian_reader_and_english_mover() -> tuple[User, User, str]:
    ann, ben = person("ann"), person("ben")
    ann.language = "it"
    ann.save()
    return ann, ben, session_cookie(ann)


def bens_moves_reach_anns_turn(ann: User, ben: User) -> None:
    with translation.override("en"):  # ben's requests are in English
        game_waiting_for(ann, ben)


@pytest.mark.django_db(transaction=True)
async def test_a_notice_reads_in_its_readers_language_whoever_caused_it() -> None:
    ann, ben, cookie = await sync_to_async(italian_reader_and_english_mover)()
    headers = [ORIGIN, (b"cookie", cookie.encode()), (b"accept-language", b"en")]
    page = WebsocketCommunicator(application, "/ws/notices/", headers=headers)
    assert (await page.connect())[0]
    assert (await page.receive_json_from(timeout=5))["type"] == "sync"
    await sync_to_async(bens_moves_reach_anns_turn)(ann, ben)
    frame = await page.receive_json_from(timeout=5)
    while frame["type"] != "notice":
        frame = await page.receive_json_from(timeout=5)
    assert frame["notice"]["text"] == "Tocca a te contro ben a Triad"
    await page.disconnect()
    notice = await Notice.objects.aget(user=ann, kind=Notice.Kind.YOUR_TURN)
    assert notice.text == "Your move against ben in Triad"  # kept in the site's language
    with translation.override("en"):
        assert notice.words == "Your move against ben in Triad"  # worded when read


@pytest.mark.django_db
def test_a_notices_page_words_it_in_the_readers_language(client: Client) -> None:
    ann = person("ann")
    ann.language = "it"
    ann.save()
    notices.notify(
        user=ann,
        kind=Notice.Kind.YOUR_TURN,
        params={"others": "ben", "game": "triad"},
        url="/tables/1/",
        key="your-turn:1",
    )
    client.force_login(ann)
    assert "Tocca a te contro ben a Triad" in client.get("/rules/", **ENGLISH).content.decode()
    _download, exported = downloaded(client)
    assert [row["text"] for row in exported["notices"]] == ["Tocca a te contro ben a Triad"]


@pytest.mark.django_db
def test_a_tournaments_reminder_is_mailed_in_each_entrants_language(
    django_capture_on_commit_callbacks: Any,
) -> None:
    _soon, (_ann, ben) = entered(2, minutes=4)
    ben.language = "it"
    ben.save()
    with translation.override("en"), django_capture_on_commit_callbacks(execute=True):
        assert remind_entrants() == 2
    by_address = {message.to[0]: message for message in mail.outbox}
    assert by_address["p0@example.com"].subject == "Saturday cup starts in 4 minutes"
    italian = by_address["p1@example.com"]
    assert italian.subject == "Saturday cup inizia tra 4 minuti"
    assert italian.body.startswith("Ciao p1,")


def test_what_is_kept_drawn_is_kept_per_language() -> None:
    calls: list[str] = []

    @per_language(maxsize=4)
    def label(n: int) -> str:
        calls.append(translation.get_language())
        return f"{gettext('Language')} {n}"

    with translation.override("it"):
        assert label(1) == "Lingua 1"
    with translation.override("en"):
        assert label(1) == "Language 1"
        assert label(1) == "Language 1"
    assert calls == ["it", "en"]


async def spectator(table_id: int, accept_language: bytes) -> WebsocketCommunicator:
    headers = [ORIGIN, (b"accept-language", accept_language)]
    communicator = WebsocketCommunicator(application, f"/ws/tables/{table_id}/", headers=headers)
    connected, _ = await communicator.connect()
    assert connected
    return communicator


@pytest.mark.django_db(transaction=True)
async def test_two_people_watching_one_table_each_read_its_frames_in_their_own_language() -> None:
    table, _alice, _bob = await sync_to_async(dealt_heads_up_triad)()
    italian = await spectator(table.pk, b"it-IT,it;q=0.9")
    english = await spectator(table.pk, b"en-GB,en;q=0.9")
    frames = [await communicator.receive_from(timeout=5) for communicator in (italian, english)]
    assert "Stai guardando: vedi solo le carte che vedono tutti i giocatori." in frames[0]
    assert "You are watching: you see only the cards every player sees." in frames[1]
    again = await spectator(table.pk, b"it")  # the version's kept frame, in its own language
    assert "Stai guardando" in await again.receive_from(timeout=5)
    for communicator in (italian, english, again):
        await communicator.disconnect()
