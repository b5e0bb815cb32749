"""A person signs up through the real pages in Chromium, served by daphne."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_new_user_signs_up_and_sees_their_name(live_site: str, new_context: Any) -> None:
    page = new_context().new_page()
    page.goto(live_site + "/")
    page.get_by_role("link", name="Sign up").click()
    expect(page).to_have_url(live_site + "/accounts/signup/")

    page.get_by_label("Username").fill("dora")
    page.get_by_label("E-mail").fill("dora@example.com")
    page.get_by_label("Password", exact=True).fill("short")
    page.get_by_label("Password confirmation").fill("short")
    page.get_by_role("button", name="Sign up").click()
    expect(page.locator(".field-errors")).to_contain_text("This password is too short")
    expect(page.get_by_label("Username")).to_have_value("dora")  # what was typed is kept

    page.get_by_label("Password", exact=True).fill("pyramid-of-hexes-55")
    page.get_by_label("Password confirmation").fill("pyramid-of-hexes-55")
    page.get_by_role("button", name="Sign up").click()

    expect(page.get_by_test_id("signed-in-user")).to_have_text("dora")
    expect(page.locator(".message")).to_contain_text("Welcome to Capstone, dora!")
    page.get_by_test_id("signed-in-user").click()
    expect(page.locator("h1")).to_have_text("dora")


def test_phone_layout_shows_the_navigation(live_site: str, new_context: Any) -> None:
    page = new_context(viewport={"width": 375, "height": 740}, is_mobile=True).new_page()
    page.goto(live_site + "/")
    for name in ("Play", "Tables", "Tournaments", "Daily", "Leaderboards"):
        expect(page.get_by_role("navigation", name="Main").get_by_role("link", name=name)).to_be_visible()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375, f"the page scrolls sideways on a phone ({width}px wide)"


def test_websocket_ping_from_the_browser(live_site: str, new_context: Any) -> None:
    page = new_context().new_page()
    page.goto(live_site + "/")
    answer = page.evaluate(
        """() => new Promise((resolve, reject) => {
            const ws = new WebSocket(location.origin.replace('http', 'ws') + '/ws/ping/');
            ws.onopen = () => ws.send(JSON.stringify({type: 'ping', echo: 'hi'}));
            ws.onmessage = (event) => { resolve(JSON.parse(event.data)); ws.close(); };
            ws.onerror = () => reject('socket error');
            setTimeout(() => reject('timeout'), 5000);
        })"""
    )
    assert answer == {"type": "pong", "user": None, "echo": "hi"}


def test_htmx_is_served_locally_and_sends_the_csrf_token(live_site: str, new_context: Any) -> None:
    page = new_context().new_page()
    page.goto(live_site + "/")
    assert page.evaluate("typeof htmx") == "object"
    scripts = page.eval_on_selector_all("script[src]", "els => els.map(e => e.src)")
    # Every script from this site (no CDN): the static files, and the scripts' message
    # catalogue of the page's language (issue 47).
    ours = (live_site + "/static/", live_site + "/jsi18n/")
    assert scripts and all(src.startswith(ours) for src in scripts)
    headers = page.evaluate("JSON.parse(document.body.getAttribute('data-hx-headers'))")
    assert len(headers["X-CSRFToken"]) >= 32
