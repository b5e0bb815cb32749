"""LP-8's "your turn" in the browser: Alice has a page of the site open when Bob's move hands her
the turn at a one-day table; the header's "Your turn" appears with its count and the notice
shows, without a reload. She follows the header to the page of waiting games and from there to
the table; when she has moved, the header's count is gone. Screenshots of the page at desktop
and phone sizes, and of its empty state."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from accounts.models import User
from games.models import Table, Turn
from tests import support
from tests.accounts.turn_support import game_waiting_for, person, play_one
from tests.e2e.test_replay_journey import logged_in_context
from tests.e2e.test_tournament_journey import in_thread

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def shoot(page: Page, name: str) -> None:
    support.shoot(page, f"your-turn-{name}")


def bob_hands_her_the_turn(alice: User, bob: User) -> Table:
    return game_waiting_for(alice, bob)


def a_private_game_of_carols(alice: User) -> Table:
    return game_waiting_for(alice, person("carol_has_a_rather_long_name"), private=True)


def test_the_header_shows_a_turn_as_it_reaches_her_and_the_page_takes_her_to_the_table(
    live_site: str, new_context: Any
) -> None:
    alice, bob = in_thread(person, "alice"), in_thread(person, "bob")
    her = logged_in_context(new_context, live_site, alice).new_page()
    her.goto(live_site + "/turns/")
    expect(her.get_by_test_id("your-turns-empty")).to_be_visible()
    link = her.get_by_test_id("your-turn-link")
    expect(link).to_be_hidden()
    shoot(her, "empty")
    her.goto(live_site + "/rules/")
    her.wait_for_function("document.querySelector('[data-notices]') !== null")
    expect(her.get_by_test_id("notices-count")).to_have_text("0")  # the socket has said so

    table = in_thread(bob_hands_her_the_turn, alice, bob)
    expect(link).to_be_visible()
    expect(link).to_have_text("Your turn (1)")
    toast = her.get_by_test_id("notice-toast")
    expect(toast).to_contain_text("Your move against bob in Triad")

    link.click()
    expect(her).to_have_url(live_site + "/turns/")
    game = her.get_by_test_id("your-turn")
    expect(game).to_have_count(1)
    expect(game).to_contain_text("against bob")
    # A day's turn just begun: "1 day left" once rounded to the minute (clock_words).
    expect(game.get_by_test_id("your-turn-left")).to_have_text(
        re.compile(r"1 day per move; (1 day|23 h 5\d min) left")
    )
    in_thread(a_private_game_of_carols, alice)
    her.reload()
    expect(her.get_by_test_id("your-turn")).to_have_count(2)
    shoot(her, "page")

    her.get_by_test_id("your-turn-play").first.click()
    expect(her).to_have_url(live_site + table.get_absolute_url())
    in_thread(play_one, table, alice)  # as her move from the table would
    assert in_thread(lambda: Turn.objects.get(table=table).user_id) == bob.pk
    expect(her.get_by_test_id("your-turn-link")).to_have_text("Your turn (1)")
