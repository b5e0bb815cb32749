"""Every kind of page sends the security headers, and no page needs what the policy forbids.

The policy itself (config/settings/base.py) is checked directive by directive; then each
page's HTML is checked for what the policy would block: inline scripts, ``on...=``
handlers, ``<style>`` elements, scripts or styles from other sites, htmx attributes that
need eval. The real-browser check is tests/e2e/test_csp_browser.py.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from games.live import tables
from games.solitaire import services
from tests.games.test_replays import finished_solitaire, table_game
from tests.tournaments.test_services import schedule

User = get_user_model()
pytestmark = pytest.mark.django_db
PASSWORD = "tall-pyramid-of-cards-42"


def policy(header: str) -> dict[str, list[str]]:
    directives = [part.split() for part in header.split(";") if part.strip()]
    return {name: sources for name, *sources in directives}


def site_pages(client: Client) -> dict[str, str]:
    """One address of each kind of page, with what it shows made first."""
    alice = User.objects.create_user("alice", "alice@example.com", PASSWORD)
    client.force_login(alice)
    game = client.post(
        "/play/pyramid/", {"deal": "number", "number": "42", "redeals": "2", "rows": "7", "scoring": "points"}
    )
    assert game.status_code == 302, game.content.decode()[:1000]
    table = tables.create_table(game="triad", creator=alice, config={})
    replay = finished_solitaire("pyramid", alice)
    services.ensure_daily(game="pyramid", date=timezone.now().date())
    tournament = schedule(alice)
    return {
        "home": "/",
        "play": "/play/",
        "new solitaire game": "/play/pyramid/",
        "solitaire game": game.url,
        "table": f"/tables/{table.pk}/",
        "lobby": "/tables/",
        "replay": f"/games/{replay.pk}/replay/",
        "daily": "/daily/",
        "leaderboards": "/leaderboards/",
        "rating board": "/leaderboards/triad/",
        "tournaments": "/tournaments/",
        "tournament": tournament.get_absolute_url(),
        "profile": "/u/alice/",
        "rules": "/rules/",
        "404": "/no-such-page/",
    }


ANONYMOUS_PAGES = {
    "login": "/accounts/login/",
    "signup": "/accounts/signup/",
    "password reset": "/accounts/password_reset/",
}


def all_pages(client: Client) -> dict[str, tuple[Client, str]]:
    pages = {name: (client, url) for name, url in site_pages(client).items()}
    pages.update({name: (Client(), url) for name, url in ANONYMOUS_PAGES.items()})
    return pages


def test_every_kind_of_page_sends_the_security_headers(client: Client) -> None:
    for name, (who, url) in all_pages(client).items():
        response = who.get(url)
        assert response.status_code == (404 if name == "404" else 200), (name, url, response.status_code)
        assert response["X-Frame-Options"] == "DENY", name
        assert response["Referrer-Policy"] == "same-origin", name
        assert response["X-Content-Type-Options"] == "nosniff", name
        csp = policy(response["Content-Security-Policy"])
        assert csp["default-src"] == ["'self'"], name
        assert csp["script-src"] == ["'self'"], name  # no 'unsafe-inline', no 'unsafe-eval'
        assert csp["style-src-elem"] == ["'self'"], name  # no <style> elements
        assert csp["style-src-attr"] == ["'unsafe-inline'"], name  # style="..." (the boards)
        assert csp["connect-src"][0] == "'self'", name
        assert csp["img-src"] == ["'self'"] and csp["object-src"] == ["'none'"], name
        assert csp["frame-ancestors"] == ["'none'"] and csp["form-action"] == ["'self'"], name
        assert csp["base-uri"] == ["'self'"], name


def test_the_lockout_page_and_htmx_partials_send_them_too(client: Client) -> None:
    User.objects.create_user("alice", "alice@example.com", PASSWORD)
    for _ in range(5):
        locked = client.post("/accounts/login/", {"username": "alice", "password": "wrong"})
    assert locked.status_code == 429 and "script-src 'self'" in locked["Content-Security-Policy"]
    replay = finished_solitaire("pyramid", User.objects.get())
    partial = client.get(f"/games/{replay.pk}/replay/?step=1", HTTP_HX_REQUEST="true")
    assert partial.status_code == 200 and "<html" not in partial.content.decode()
    assert partial["X-Frame-Options"] == "DENY" and "script-src 'self'" in partial["Content-Security-Policy"]


def test_a_static_file_is_served_without_a_policy_but_not_sniffed(client: Client) -> None:
    # A stylesheet is not a document: the policy is for pages. nosniff still applies.
    response = client.get("/static/css/site.css")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/css")
    assert "Content-Security-Policy" not in response
    assert response["X-Content-Type-Options"] == "nosniff"


INLINE_SCRIPT = re.compile(r"<script(?![^>]*\ssrc=)[^>]*>", re.I)
HANDLER = re.compile(r"<[^>]*\son[a-z]+\s*=", re.I)
STYLE_ELEMENT = re.compile(r"<style[\s>]", re.I)
FOREIGN = re.compile(r"<(?:script|link|img)\b[^>]*\s(?:src|href)=[\"'](?:https?:)?//", re.I)
NEEDS_EVAL = re.compile(r"\s(?:data-)?hx-(?:on\b|on:|on-|vars=)|hx-vals=[\"']\s*(?:js|javascript):", re.I)


def blocked_by_the_policy(body: str) -> dict[str, list[str]]:
    found = {
        "inline <script>": INLINE_SCRIPT.findall(body),
        "on...= handler": HANDLER.findall(body),
        "<style> element": STYLE_ELEMENT.findall(body),
        "script, style or image from elsewhere": FOREIGN.findall(body),
        "htmx attribute that needs eval": NEEDS_EVAL.findall(body),
    }
    return {kind: hits for kind, hits in found.items() if hits}


def test_no_page_needs_what_the_policy_forbids(client: Client) -> None:
    for name, (who, url) in all_pages(client).items():
        body = who.get(url).content.decode()
        assert not blocked_by_the_policy(body), (name, url, blocked_by_the_policy(body))


def test_no_page_shows_template_syntax(client: Client) -> None:
    """A template comment or tag that Django did not take (a ``{# ... #}`` spanning lines is
    printed as text) shows on the page; in base.html it shows on every page."""
    leaked = re.compile(r"\{#|#\}|\{%|%\}|\{\{|\}\}")
    for name, (who, url) in all_pages(client).items():
        body = who.get(url).content.decode()
        assert not leaked.findall(body), (name, url, leaked.findall(body))


def test_the_checks_above_catch_what_they_look_for() -> None:
    page = (
        '<script>alert(1)</script><button onclick="x()">'
        '<style>p{}</style><script src="https://cdn.example/x.js"></script><div hx-on:click="x()">'
    )
    assert set(blocked_by_the_policy(page)) == {
        "inline <script>",
        "on...= handler",
        "<style> element",
        "script, style or image from elsewhere",
        "htmx attribute that needs eval",
    }
    assert not blocked_by_the_policy('<script src="/static/x.js" defer></script><p class="on">online=1</p>')


def test_a_finished_table_games_replay_needs_nothing_the_policy_forbids(client: Client) -> None:
    record = table_game(
        "triad", User.objects.create_user("alice", "a@example.com", PASSWORD), players=2, hands=2
    )
    body = client.get(f"/games/{record.record.pk}/replay/").content.decode()
    assert "data-perspective" in body
    assert not blocked_by_the_policy(body)
