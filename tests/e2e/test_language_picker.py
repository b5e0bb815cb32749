"""Issue 47: the footer's language picker in Chromium, with and without JavaScript; and a
page's scripts speak its language (Django's JavaScript catalogue)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.support import shoot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_picker_works_without_javascript_and_comes_back_to_the_page(
    live_site: str, new_context: Any
) -> None:
    page = new_context(java_script_enabled=False, locale="en-GB").new_page()
    page.goto(live_site + "/accounts/login/")
    footer = page.get_by_role("contentinfo")
    expect(footer.get_by_label("Language")).to_have_value("en")
    shoot(page, "language-picker-en")
    footer.get_by_label("Language").select_option("it")
    footer.get_by_role("button", name="Change").click()
    expect(page).to_have_url(live_site + "/accounts/login/")
    expect(page.locator("html")).to_have_attribute("lang", "it")
    expect(footer.get_by_label("Lingua")).to_have_value("it")
    shoot(page, "language-picker-it")
    footer.get_by_label("Lingua").select_option("en")
    footer.get_by_role("button", name="Cambia").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")


def test_an_italian_browsers_scripts_speak_italian(live_site: str, new_context: Any) -> None:
    page = new_context(locale="it-IT").new_page()
    page.goto(live_site + "/accounts/login/")
    expect(page.locator("html")).to_have_attribute("lang", "it")
    picked = "Picked %(card)s: now pick a card to make 13 with it."
    said = page.evaluate(
        "picked => [gettext('just now'), interpolate(gettext(picked), {card: 'K♠'}, true)]", picked
    )
    assert said == ["proprio ora", "Hai scelto K♠: ora scegli una carta che faccia 13 con questa."]
