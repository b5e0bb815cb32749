"""Issue 20's site-wide points in Chromium, served by daphne: nothing scrolls sideways (a
150-character name from before the 20-character limit, the rules at 320 px, wide tables), the
home page's cards are links, a button's address opened as a link gets the site's page, and the
focus ring and key hints can be seen."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.sessions.backends.db import SessionStore
from playwright.sync_api import Page, expect

from games import kinds
from games.live import tables
from tests.e2e.test_tournament_formats import play_until_finished
from tests.e2e.test_tournament_journey import in_thread
from tests.support import artifacts_dir
from tests.tournaments.test_services import schedule
from tournaments import services
from tournaments.models import Tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

OLD_LONG_NAME = "L" + "o" * 143 + "ngname"  # 150 characters: allowed before the limit
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}

CONTRAST = """([fg, bg]) => {
  const rgb = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = (c) => {
    const [r, g, b] = rgb(c).map((v) => {
      v /= 255;
      return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [hi, lo] = [lum(fg), lum(bg)].sort((a, b) => b - a);
  return (hi + 0.05) / (lo + 0.05);
}"""


def signed_in(new_context: Any, base: str, user: Any, viewport: dict[str, int]) -> Page:
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    context = new_context(viewport=viewport)
    context.add_cookies([{"name": "sessionid", "value": session.session_key, "url": base}])
    return context.new_page()


def assert_no_sideways_scroll(page: Page, what: str) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    viewport = page.viewport_size
    assert viewport is not None
    assert width <= viewport["width"], f"{what} scrolls sideways at {viewport['width']} px ({width} px wide)"


def make_old_long_named_user() -> Any:
    return get_user_model().objects.create_user(OLD_LONG_NAME, "long@example.com", "pw-long-enough-1")


def test_an_old_150_character_name_widens_no_page(live_site: str, new_context: Any) -> None:
    person = in_thread(make_old_long_named_user)
    for viewport in (PHONE, DESKTOP):
        page = signed_in(new_context, live_site, person, viewport)
        for path in ("/", "/leaderboards/", "/tournaments/", f"/u/{OLD_LONG_NAME}/"):
            page.goto(live_site + path)
            assert_no_sideways_scroll(page, path)
        name = page.get_by_test_id("signed-in-user")
        expect(name).to_have_attribute("title", OLD_LONG_NAME)
        expect(page.locator("h1")).to_have_attribute("title", OLD_LONG_NAME)
        log_out = page.get_by_role("button", name="Log out")
        box = log_out.bounding_box()
        assert box is not None and box["x"] + box["width"] <= viewport["width"], "Log out is off-screen"
        page.screenshot(
            path=str(artifacts_dir() / f"long-name-profile-{viewport['width']}.png"), full_page=True
        )


def finished_cup_with_the_long_name() -> int:
    person = make_old_long_named_user()
    other = get_user_model().objects.create_user("shortname", "short@example.com", "pw-long-enough-1")
    tournament = schedule(other, name="Long names cup", max_entrants=4, fill_with_bots=True, third_place=True)
    services.join(tournament_id=tournament.pk, user=person)
    services.start_now(tournament_id=tournament.pk, user=other)
    return tournament.pk


def test_a_finished_tournament_with_a_long_name_fits_a_phone(live_site: str, new_context: Any) -> None:
    tournament_id = in_thread(finished_cup_with_the_long_name)
    in_thread(play_until_finished, tournament_id)
    assert Tournament.objects.get(pk=tournament_id).status == Tournament.Status.FINISHED
    page = new_context(viewport=PHONE).new_page()
    page.goto(f"{live_site}/tournaments/{tournament_id}/")
    expect(page.get_by_test_id("tournament-winner")).to_be_visible()
    expect(page.get_by_test_id("place").first).to_be_visible()
    # The status area has a heading, for those who move by headings.
    expect(page.get_by_role("heading", name="Status")).to_have_count(1)
    expect(page.locator(f'[title="{OLD_LONG_NAME}"]').first).to_be_attached()
    assert_no_sideways_scroll(page, "the tournament page")
    page.screenshot(path=str(artifacts_dir() / "long-name-tournament-390.png"), full_page=True)


def test_the_rules_fit_a_320_px_phone_and_show_no_developer_notes(live_site: str, new_context: Any) -> None:
    page = new_context(viewport={"width": 320, "height": 700}).new_page()
    page.goto(live_site + "/rules/#TR-12")
    assert_no_sideways_scroll(page, "/rules/")
    expect(page.get_by_role("heading", name="Hand ranking, best first")).to_be_in_viewport()
    expect(page.get_by_text("For developers")).to_have_count(0)
    expect(page.get_by_text("(TR-12)")).to_have_count(0)


def test_sign_up_refuses_a_two_character_name_saying_why(live_site: str, new_context: Any) -> None:
    page = new_context(viewport=PHONE).new_page()
    page.goto(live_site + "/accounts/signup/")
    expect(page.get_by_text("3 to 20 characters: letters, digits and @ . + - _ only.")).to_be_visible()
    page.get_by_label("Username").fill("ab")
    page.get_by_label("E-mail").fill("ab@example.com")
    page.get_by_label("Password", exact=True).fill("pyramid-of-hexes-55")
    page.get_by_label("Password confirmation").fill("pyramid-of-hexes-55")
    page.get_by_role("button", name="Sign up").click()
    expect(page.locator(".field-errors")).to_have_text("A username has 3 to 20 characters; this one has 2.")
    page.get_by_label("Username").fill("abc")
    page.get_by_label("Password", exact=True).fill("pyramid-of-hexes-55")
    page.get_by_label("Password confirmation").fill("pyramid-of-hexes-55")
    page.get_by_role("button", name="Sign up").click()
    expect(page.get_by_test_id("signed-in-user")).to_have_text("abc")


def test_a_game_card_is_a_link_anywhere_on_it(live_site: str, new_context: Any) -> None:
    page = new_context(viewport=DESKTOP).new_page()
    first = kinds.GAMES[0]
    page.goto(live_site + "/")
    # A click on the card's text, not its name: the name's link covers the card.
    box = page.locator(".game-card").first.get_by_text(str(first.pitch)).bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    expect(page).to_have_url(live_site + (f"/play/{first.slug}/" if first.solitaire else "/tables/"))


def test_a_buttons_address_opened_as_a_link_gets_a_page_with_a_way_back(
    live_site: str, new_context: Any
) -> None:
    page = new_context(viewport=PHONE).new_page()
    response = page.goto(live_site + "/accounts/logout/", referer=live_site + "/tables/")
    assert response is not None and response.status == 405
    assert response.headers["allow"] == "POST, OPTIONS"
    expect(page.get_by_role("heading", name="This address is not a page")).to_be_visible()
    page.get_by_role("link", name="Back to the page you were on").click()
    expect(page).to_have_url(live_site + "/tables/")


def test_the_focus_ring_and_the_key_hints_stand_out(live_site: str, new_context: Any) -> None:
    page = new_context(viewport=DESKTOP).new_page()
    page.goto(live_site + "/")
    page.get_by_role("link", name="Play now").focus()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")  # focus by keyboard: :focus-visible
    ring = page.evaluate("getComputedStyle(document.activeElement).outlineColor")
    paper = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert page.evaluate(CONTRAST, [ring, paper]) >= 3
    # In the header (dark green) the ring is the gold, which shows there.
    page.get_by_role("link", name="Tables").focus()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")
    ring = page.evaluate("getComputedStyle(document.activeElement).outlineColor")
    header = page.evaluate("getComputedStyle(document.querySelector('.site-header')).backgroundColor")
    assert page.evaluate(CONTRAST, [ring, header]) >= 3

    solitaire = next(spec for spec in kinds.GAMES if spec.solitaire)
    page.goto(f"{live_site}/play/{solitaire.slug}/?deal=7")
    page.get_by_role("button", name="Deal").click()
    hint = page.locator(".keys kbd").first
    expect(hint).to_be_visible()
    assert hint.evaluate("e => getComputedStyle(e).opacity") == "1"
    color = hint.evaluate("e => getComputedStyle(e).color")
    assert page.evaluate(CONTRAST, [color, paper]) >= 4.5


def long_named_players_at_a_table() -> int:
    """An open Triad table opened by the old long-named account, and a started one where it
    sits with a bot: the lobby lists both."""
    person = make_old_long_named_user()
    other = get_user_model().objects.create_user("shortname", "short@example.com", "pw-long-enough-1")
    tables.create_table(game="triad", creator=person)
    playing = tables.create_table(game="triad", creator=other)
    tables.sit(table_id=playing.pk, user=person)
    tables.start(table_id=playing.pk, user=other)
    return playing.pk


def test_a_long_name_widens_neither_the_lobby_nor_a_table(live_site: str, new_context: Any) -> None:
    table_id = in_thread(long_named_players_at_a_table)
    page = new_context(viewport=PHONE).new_page()
    for path in ("/tables/", f"/tables/{table_id}/"):
        page.goto(live_site + path)
        expect(page.locator(f'[title="{OLD_LONG_NAME}"]').first).to_be_attached()
        assert_no_sideways_scroll(page, path)
    page.screenshot(path=str(artifacts_dir() / "long-name-table-390.png"), full_page=True)
