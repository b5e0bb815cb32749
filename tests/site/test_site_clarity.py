"""What players tripped over (issue 20): the site names itself in its e-mails, the home page's
game cards are links, a button's address opened as a link gets a page with a way back, and the
rules page shows players the rules (no developers' notes, no rule ids in the text)."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import AsyncClient, Client
from django.urls import reverse

from games import kinds
from web.rules_page import rules_html

User = get_user_model()
pytestmark = pytest.mark.django_db
PASSWORD = "tall-pyramid-of-cards-42"


# E-mails


def test_the_password_reset_mail_names_the_site_not_the_host() -> None:
    User.objects.create_user("alice", "alice@example.com", PASSWORD)
    response = Client().post(reverse("password_reset"), {"email": "alice@example.com"})
    assert response.status_code == 302
    (message,) = mail.outbox
    assert message.subject == "Reset your Capstone password"
    assert "your Capstone account" in message.body
    # The link still goes to the address the request came to.
    assert re.search(r"http://testserver/accounts/reset/\S+/\S+/", str(message.body))


@pytest.mark.parametrize(
    ("taken", "subject"),
    [(False, "Welcome to Capstone"), (True, "Someone signed up at Capstone with your address")],
)
def test_the_sign_up_mails_name_the_site(taken: bool, subject: str) -> None:
    if taken:
        User.objects.create_user("owner", "dora@example.com", PASSWORD)
    data = {"username": "dora", "email": "dora@example.com", "password1": PASSWORD, "password2": PASSWORD}
    assert Client().post(reverse("signup"), data).status_code == 302
    (message,) = mail.outbox
    assert message.subject == subject
    assert "testserver" not in message.subject and "Capstone" in message.body


# The home page's cards


class Links(HTMLParser):
    """Each <a>'s href and text, and whether any interactive element sits inside another."""

    INTERACTIVE = {"a", "button", "input", "select", "textarea", "details", "label"}

    def __init__(self) -> None:
        super().__init__()
        self.open: list[str] = []
        self.nested: list[str] = []
        self.links: list[tuple[str, str]] = []
        self._href: str | None = None
        self._text = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.INTERACTIVE:
            if self.open:
                self.nested.append(f"<{tag}> in <{self.open[-1]}>")
            if tag not in {"input"}:
                self.open.append(tag)
        if tag == "a":
            self._href, self._text = dict(attrs).get("href") or "", ""

    def handle_endtag(self, tag: str) -> None:
        if self.open and self.open[-1] == tag:
            self.open.pop()
        if tag == "a" and self._href is not None:
            self.links.append((self._href, self._text.strip()))
            self._href = None

    def handle_data(self, data: str) -> None:
        if self._href is not None:
            self._text += data


def test_each_game_card_on_the_home_page_is_one_link_to_its_game() -> None:
    body = Client().get("/").content.decode()
    grid = body[body.index('class="game-grid"') : body.index('class="features"')]
    parser = Links()
    parser.feed(grid)
    assert parser.nested == []
    expected = [
        (reverse("new_game", args=[spec.slug]) if spec.solitaire else reverse("tables"), spec.name)
        for spec in kinds.GAMES
    ]
    assert parser.links == expected
    for href, _ in parser.links:
        assert Client().get(href).status_code == 200


# A button's address opened as a link


def test_get_on_a_post_only_address_shows_the_sites_page_with_a_way_home() -> None:
    response = Client().get("/accounts/logout/")
    assert response.status_code == 405
    assert response["Allow"] == "POST, OPTIONS"  # the log-out view's own, kept
    assert "script-src 'self'" in response["Content-Security-Policy"]
    body = response.content.decode()
    assert "<title>Not a page · Capstone</title>" in body
    assert 'class="site-header"' in body and 'class="site-footer"' in body  # base.html's page
    assert "This address is not a page" in body
    assert 'href="/" data-testid="go-back">Go to the home page</a>' in body


def test_the_way_back_is_the_page_it_came_from_when_that_is_on_this_site() -> None:
    person = User.objects.create_user("alice", "alice@example.com", PASSWORD)
    client = Client()
    client.force_login(person)
    here = client.get("/accounts/notices/read/", HTTP_REFERER="http://testserver/tables/")
    assert here.status_code == 405 and here["Allow"] == "POST"  # require_POST's
    assert 'href="http://testserver/tables/" data-testid="go-back"' in here.content.decode()
    assert 'data-testid="signed-in-user">alice<' in here.content.decode()  # a page like the others
    elsewhere = client.get("/accounts/notices/read/", HTTP_REFERER="https://evil.example/x")
    assert "evil.example" not in elsewhere.content.decode()
    assert 'href="/" data-testid="go-back"' in elsewhere.content.decode()


def test_a_405_with_a_body_is_left_as_it_was() -> None:
    response = Client().post("/api/users/nobody/")
    assert response.status_code == 405
    assert response["Content-Type"].startswith("application/json")


async def test_the_page_is_served_on_the_async_path_too() -> None:
    # Daphne runs the middleware chain asynchronously: the page still renders (its header
    # reads the database, which the async path must not do in the event loop).
    response = await AsyncClient().get("/accounts/logout/")
    assert response.status_code == 405 and response["Allow"] == "POST, OPTIONS"
    assert "This address is not a page" in response.content.decode()


# The rules page


def test_the_rules_page_has_no_developer_sections_or_rule_ids_in_its_text() -> None:
    response = Client().get("/rules/")
    assert response.status_code == 200
    html = response.content.decode()
    text = re.sub(r"<[^>]+>", " ", html)
    assert "For developers" not in text and "derive_seed" not in text
    assert "RULES.md" not in text and "rule ids" not in text
    assert re.findall(r"\b[A-Z]{2}-\d+\b", text) == []
    # The headings read as they should, and their ids are link targets.
    heading = '<span class="rule-anchor" id="TR-12"></span>Hand ranking, best first</h3>'
    assert f'<h3 id="hand-ranking-best-first">{heading}' in html
    assert '<span class="rule-anchor" id="TR-13"></span><strong>Kickers.</strong>' in html
    for rule_id in ("TR-1", "TR-3", "TR-8", "TR-15", "BL-7", "TH-6", "TN-1", "TN-7"):
        assert html.count(f'id="{rule_id}"') == 1, rule_id


def test_the_rules_page_lists_every_game_of_the_registry_and_counts_none() -> None:
    """Issue 41: it said "the rules of the four games" and listed four of five."""
    html = Client().get("/rules/").content.decode()
    text = re.sub(r"<[^>]+>", " ", html)
    assert not re.search(r"\b(two|three|four|five|six) games\b", text)
    intro = html[html.index("<h1") : html.index("<h2")]
    for spec in kinds.GAMES:
        assert f'<a href="#{spec.rules_anchor}">{spec.name}</a>' in intro, spec.slug
    assert html.count("<h1") == 1


def test_every_game_link_into_the_rules_still_has_its_target() -> None:
    html = rules_html()
    for spec in kinds.GAMES:
        assert f'id="{spec.rules_anchor}"' in html, spec.slug
    ids = re.findall(r'\bid="([^"]+)"', html)
    assert len(ids) == len(set(ids))  # no id twice (valid HTML)


def test_the_rules_tables_scroll_in_their_own_box() -> None:
    html = rules_html()
    boxes = re.findall(
        r'<div aria-label="([^"]+)" class="table-scroll" role="region" tabindex="0">\n<table>', html
    )
    assert html.count("<table>") == len(boxes) > 0
    # Each a keyboard stop (it may scroll) with a name of its own: the game, then the heading above.
    assert len(set(boxes)) == len(boxes)
    assert any(name.startswith("Triad") and name.endswith(": Hand ranking, best first") for name in boxes)
