"""Each tournament format in the browser (TN-1): two people schedule and enter it, bots fill
the places, and it runs to a champion by itself (the worker deals every game and draws every
round as results arrive; the people's moves are played for them through the services), while
the page follows it without a reload."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from tests.e2e.test_replay_journey import logged_in_context
from tests.e2e.test_tournament_journey import in_thread
from tests.support import artifacts_dir
from tests.tournaments.support import play_out
from tournaments.models import MatchGame, Tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def two_people(prefix: str) -> list[Any]:
    User = get_user_model()
    return [
        User.objects.create_user(f"{prefix}{n}", f"{prefix}{n}@example.com", "pw-long-enough-1")
        for n in (1, 2)
    ]


def play_until_finished(tournament_id: int, limit: float = 120) -> int:
    """Play the people's moves in every game the worker deals (it plays the bots' games
    itself) until the tournament is over; how many games it had."""
    deadline = time.monotonic() + limit
    while Tournament.objects.get(pk=tournament_id).status != Tournament.Status.FINISHED:
        assert time.monotonic() < deadline, "the tournament did not finish"
        game = (
            MatchGame.objects.filter(match__tournament_id=tournament_id, table__status="playing")
            .select_related("table")
            .order_by("pk")
            .first()
        )
        if game is None:
            time.sleep(0.1)  # the worker is recording a result and dealing what follows
            continue
        play_out(game.table)
    return MatchGame.objects.filter(match__tournament_id=tournament_id).count()


def schedule(page: Page, live_site: str, name: str, format_label: str, options: dict[str, str]) -> None:
    page.goto(live_site + "/tournaments/")
    page.get_by_label("Name", exact=True).fill(name)
    page.get_by_label("Size", exact=True).select_option(label="up to 4 players")
    page.get_by_label("Hands in the match (Triad)").fill("1")
    page.get_by_label("Bots fill the empty places at the start").check()
    page.get_by_label("Format", exact=True).select_option(label=format_label)
    for label, value in options.items():
        field = page.get_by_label(label)
        if value == "check":
            field.check()
        else:
            field.select_option(label=value) if field.evaluate("e => e.tagName") == "SELECT" else field.fill(
                value
            )
    page.get_by_role("button", name="Schedule it").click()
    expect(page.get_by_role("heading", name=name)).to_be_visible()


FORMATS = [
    ("single", "Single elimination", {"A match for third place": "check"}, "match", 4),
    ("double", "Double elimination", {}, "match", 6),
    ("round-robin", "Round robin", {}, "cross-table", 1),
    ("swiss", "Swiss", {"Rounds": "2"}, "standings-round", 2),
]


@pytest.mark.parametrize(("slug", "format_label", "options", "shows", "at_least"), FORMATS)
def test_a_format_runs_to_a_champion_and_the_page_follows(
    live_site: str,
    new_context: Any,
    slug: str,
    format_label: str,
    options: dict[str, str],
    shows: str,
    at_least: int,
) -> None:
    host_user, guest_user = in_thread(two_people, slug.replace("-", ""))
    host = logged_in_context(new_context, live_site, host_user).new_page()
    name = f"{format_label} night"
    schedule(host, live_site, name, format_label, options)
    expect(host.get_by_test_id("tournament-format")).to_contain_text(format_label)
    tournament = Tournament.objects.get(name=name)

    guest = logged_in_context(new_context, live_site, guest_user).new_page()
    guest.goto(f"{live_site}/tournaments/{tournament.pk}/")
    guest.get_by_role("button", name="Enter the tournament").click()
    expect(host.get_by_test_id("entrant")).to_have_count(2)  # the host's page polls: no reload
    host.get_by_role("button", name="Start now").click()
    expect(host.get_by_test_id("tournament-status")).to_contain_text("Playing")
    expect(guest.get_by_test_id("my-match")).to_be_visible(timeout=15_000)

    assert in_thread(play_until_finished, tournament.pk) >= at_least
    expect(host.get_by_test_id("tournament-winner")).to_be_visible(timeout=30_000)
    expect(host.get_by_test_id(shows).first).to_be_visible()
    expect(host.get_by_test_id("match-replay").first).to_be_visible()
    host.screenshot(path=str(artifacts_dir() / f"tournament-{slug}-finished.png"), full_page=True)
    phone = new_context(viewport={"width": 390, "height": 844}).new_page()
    phone.goto(f"{live_site}/tournaments/{tournament.pk}/")
    expect(phone.get_by_test_id("tournament-winner")).to_be_visible()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390  # wide parts scroll inside
    phone.screenshot(path=str(artifacts_dir() / f"tournament-{slug}-phone.png"), full_page=True)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert sorted(tournament.entries.values_list("place", flat=True))[0] == 1
