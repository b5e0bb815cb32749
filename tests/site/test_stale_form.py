"""A form sent from a page opened before its person logged in again (issue 41): the CSRF check
refuses it, and the site's own page, in its layout and under its policy, says what happened,
that nothing changed, and leads back to the page, reloaded. The status stays 403.

A browser sends the form with the cookie it holds now and the token the old page held, as a
test client that keeps its cookies and posts the token it read before logging in again does.
The real-browser check (no CSP violation in the console) is in tests/e2e/test_csp_browser.py.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client

from accounts.models import User
from tests.site.test_security_headers import blocked_by_the_policy, policy

pytestmark = pytest.mark.django_db
PASSWORD = "tall-pyramid-of-cards-42"
PROFILE = "/accounts/profile/"


def token_on(client: Client, path: str) -> str:
    match = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', client.get(path).content.decode())
    assert match is not None, path
    return match.group(1)


def log_in(client: Client, username: str) -> None:
    token = token_on(client, "/accounts/login/")
    answer = client.post(
        "/accounts/login/", {"username": username, "password": PASSWORD, "csrfmiddlewaretoken": token}
    )
    assert answer.status_code == 302, answer.content.decode()[:500]


@pytest.fixture
def browser() -> Client:
    """A browser with CSRF checks on (Django's test client turns them off by default)."""
    return Client(enforce_csrf_checks=True)


def test_a_form_from_before_logging_in_again_gets_the_sites_page_and_changes_nothing(browser: Client) -> None:
    ann = User.objects.create_user("ann", "ann@example.com", PASSWORD)
    log_in(browser, "ann")
    stale = token_on(browser, PROFILE)  # the profile form, open in one tab ...
    browser.post("/accounts/logout/", {"csrfmiddlewaretoken": stale})
    log_in(browser, "ann")  # ... while she logs out and in again in another

    answer = browser.post(
        PROFILE,
        {"bio": "Sent from the old tab", "csrfmiddlewaretoken": stale},
        HTTP_REFERER=f"http://testserver{PROFILE}",
    )
    body = answer.content.decode()
    assert answer.status_code == 403
    assert 'data-testid="stale-form"' in body and "That page was out of date" in body
    assert "before you last logged in" in body and "nothing was changed" in body
    assert "CSRF verification failed" not in body and "DEBUG" not in body  # Django's words
    # In the site's layout: its header, her name in it, its footer.
    assert 'class="site-header"' in body and 'data-testid="signed-in-user"' in body and ">ann<" in body
    assert 'class="site-footer"' in body
    # Back to the page the form was on: a plain link, which loads it with a good token.
    assert f'href="http://testserver{PROFILE}" data-testid="reload-page"' in body
    # Under the site's policy, and nothing on the page that the policy would block.
    assert policy(answer["Content-Security-Policy"])["style-src-elem"] == ["'self'"]
    assert blocked_by_the_policy(body) == {}
    ann.refresh_from_db()
    assert ann.bio == ""

    # Reloaded, the page's form goes through.
    fresh = token_on(browser, PROFILE)
    saved = browser.post(PROFILE, {"bio": "Sent again", "csrfmiddlewaretoken": fresh})
    assert saved.status_code == 302
    ann.refresh_from_db()
    assert ann.bio == "Sent again"


def test_a_form_sent_without_the_sites_cookie_says_forms_need_cookies(browser: Client) -> None:
    answer = browser.post("/accounts/login/", {"username": "ann", "password": PASSWORD})
    body = answer.content.decode()
    assert answer.status_code == 403 and 'data-testid="stale-form"' in body
    assert "without this site's cookie" in body and "Forms here need cookies" in body
    # No page to go back to (no Referer): the home page, and a cookie to send the next time.
    assert 'href="/" data-testid="reload-page"' in body
    assert "csrftoken" in answer.cookies


def test_a_form_from_another_site_is_not_linked_back_to(browser: Client) -> None:
    browser.get("/accounts/login/")
    answer = browser.post(
        "/accounts/login/",
        {"username": "ann", "password": PASSWORD, "csrfmiddlewaretoken": "x" * 64},
        HTTP_REFERER="https://evil.example/form",
    )
    body = answer.content.decode()
    assert answer.status_code == 403 and 'data-testid="stale-form"' in body
    assert "evil.example" not in body
    assert 'href="/" data-testid="reload-page"' in body


def test_an_htmx_post_from_a_stale_page_reloads_it(browser: Client) -> None:
    """htmx swaps in no 4xx answer: the page would seem to ignore the click."""
    User.objects.create_user("ann", "ann@example.com", PASSWORD)
    log_in(browser, "ann")
    stale = token_on(browser, "/play/pyramid/")
    browser.post("/accounts/logout/", {"csrfmiddlewaretoken": stale})
    log_in(browser, "ann")
    headers = {"HX-Request": "true", "X-CSRFToken": stale}  # base.html's hx-headers, as the old page has them
    answer = browser.post("/play/pyramid/", {"deal": "random"}, headers=headers)
    assert answer.status_code == 403 and answer["HX-Refresh"] == "true"
