"""A solitaire event (TN-8) as its players live it: one schedules it on /tournaments/, another
enters from a phone; at the start the worker deals and seals the deals and both are told, on
whatever page is open, that their deals are open; they play them (no deal number shown), the
standings follow live, and when the window closes the final standings name the winner and
every deal opens: its number and each entrant's replay."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from games.models import GameRecord, SealedDeal, SoloMatch
from tests.e2e.test_replay_journey import logged_in_context
from tests.e2e.test_tournament_journey import in_thread
from tests.support import artifacts_dir
from tests.tournaments.support import person
from tournaments.models import Tournament
from tournaments.tasks import run_tournaments

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def shoot(page: Page, name: str) -> None:
    page.screenshot(path=str(artifacts_dir() / f"solitaire-event-{name}.png"), full_page=True)


def play_a_deal(page: Page, draws: int) -> None:
    """Draws ``draws`` times, then resigns, typing the moves as a keyboard player may."""
    for made in range(1, draws + 1):
        page.locator("#move-input").fill("draw")
        page.locator("#move-input").press("Enter")
        expect(page.get_by_test_id("moves")).to_have_text(str(made))
    page.locator("#move-input").fill("resign")
    page.locator("#move-input").press("Enter")
    expect(page.get_by_test_id("end-panel")).to_be_visible()


def window_ends(event_id: int) -> None:
    past = timezone.now() - dt.timedelta(seconds=1)
    event = Tournament.objects.get(pk=event_id)
    Tournament.objects.filter(pk=event_id).update(closes_at=past)
    SealedDeal.objects.filter(seed__in=event.deals).update(sealed_until=past)
    SoloMatch.objects.filter(event_entry__tournament=event).update(closes_at=past)


def test_two_players_enter_play_the_same_deals_and_see_the_final_standings(
    live_site: str, new_context: Any
) -> None:
    ada, ben = in_thread(person, "ada"), in_thread(person, "ben")
    desk = logged_in_context(new_context, live_site, ada).new_page()
    phone = logged_in_context(new_context, live_site, ben).new_page()
    phone.set_viewport_size({"width": 390, "height": 844})

    desk.goto(live_site + "/tournaments/")
    form = desk.get_by_test_id("solitaire-event-form")
    form.get_by_label("Event name").fill("Night deals")
    form.get_by_label("Solitaire game").select_option(label="Tri-Peaks")
    form.get_by_label("Deals", exact=True).fill("2")
    form.get_by_label("Time to play the deals").select_option(label="15 minutes")
    form.get_by_label("Event starts").select_option(label="in 2 minutes")
    form.get_by_role("button", name="Schedule the event").click()
    expect(desk.get_by_role("heading", name="Night deals")).to_be_visible()
    expect(desk.get_by_test_id("tournament-format")).to_contain_text("2 deals · 15 minutes to play them")
    event = Tournament.objects.get(name="Night deals")

    phone.goto(live_site + event.get_absolute_url())
    phone.get_by_test_id("enter-event").click()
    expect(phone.get_by_test_id("entrant")).to_have_count(2)
    shoot(phone, "open-phone")

    # The start comes: the worker's beat task opens the window and tells both of them.
    Tournament.objects.filter(pk=event.pk).update(starts_at=timezone.now())
    desk.goto(live_site + "/play/")
    run_tournaments.delay()
    opened = "Night deals is open: play your deals"
    expect(desk.get_by_test_id("notice-toast").filter(has_text=opened)).to_be_visible(timeout=30_000)
    expect(phone.get_by_test_id("my-deals")).to_be_visible(timeout=30_000)  # its poll
    event.refresh_from_db()
    assert len(event.deals) == 2

    desk.get_by_test_id("notice-toast").get_by_role("link", name=opened).click()
    expect(desk.get_by_test_id("match-window")).to_contain_text("closes in")
    for number in (1, 2):
        desk.get_by_test_id("play-deal").click()
        content = desk.content()
        assert str(event.deals[number - 1]) not in content  # LP-6: no deal number while open
        play_a_deal(desk, draws=2)
        desk.get_by_test_id("back-to-match").click()
    expect(desk.get_by_test_id("match-total")).to_contain_text("Final total")
    shoot(desk, "deals-desktop")

    phone.get_by_test_id("my-deals").click()
    phone.get_by_test_id("play-deal").click()
    play_a_deal(phone, draws=0)
    phone.goto(live_site + event.get_absolute_url())
    rows = phone.get_by_test_id("event-row")
    expect(rows).to_have_count(2)
    expect(phone.get_by_test_id("event-standings")).to_be_visible()
    shoot(phone, "standings-open-phone")

    # The window closes: the beat closes the event, and the open pages show the result.
    window_ends(event.pk)
    run_tournaments.delay()
    desk.goto(live_site + event.get_absolute_url())
    expect(phone.get_by_role("heading", name="Final standings")).to_be_visible(timeout=30_000)
    expect(phone.get_by_test_id("tournament-winner")).to_contain_text(re.compile("ada|ben"))
    desk.reload()
    for seed in event.deals:
        expect(desk.get_by_text(f"#{seed}")).to_be_visible()
    shoot(desk, "final-desktop")
    shoot(phone, "final-phone")
    won_by = GameRecord.objects.filter(solo_match__event_entry__tournament=event, owner=ben).get()
    rows.filter(has_text="ben").get_by_title("Replay deal 1").click()
    expect(phone).to_have_url(f"{live_site}/games/{won_by.pk}/replay/")
