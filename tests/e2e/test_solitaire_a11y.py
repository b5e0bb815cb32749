"""The solitaire pages in Chromium (issue 20): the whole board above the fold at 1366x900, one
Tab stop for the board with the arrow keys inside it, a card that cannot be played says why
instead of being picked, and the message line stays in the page and says what each move did."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from games import kinds

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
PYRAMID, TRIPEAKS = (spec.slug for spec in kinds.SOLITAIRE)
DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
BOARD_CARD = "#game .felt button[data-card]"


def deal(page: Any, base: str, game: str, number: int) -> None:
    page.goto(f"{base}/play/{game}/?deal={number}")
    page.get_by_role("button", name="Deal").click()
    expect(page.locator("#game")).to_be_visible()
    page.wait_for_load_state("load")


def above_the_fold(page: Any, selector: str) -> None:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    height = page.viewport_size["height"]
    assert box["y"] >= 0 and box["y"] + box["height"] <= height, (selector, box)


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1366x900", "390x844"])
def test_the_whole_pyramid_board_fits_above_the_fold(
    live_site: str, new_context: Any, viewport: dict[str, int]
) -> None:
    page = new_context(viewport=viewport).new_page()
    deal(page, live_site, PYRAMID, 42)
    assert page.evaluate("window.scrollY") == 0
    board = (".tableau", ".tableau .cell >> nth=-1", ".pile >> nth=0", "[data-action=draw]", ".pile >> nth=1")
    for selector in board:
        above_the_fold(page, selector)
    page.get_by_role("button", name="Draw").click()
    expect(page.get_by_test_id("moves")).to_have_text("1")
    above_the_fold(page, "[aria-label$='top of the waste']")


def test_the_tripeaks_board_fits_above_the_fold(live_site: str, new_context: Any) -> None:
    page = new_context(viewport=DESKTOP).new_page()
    deal(page, live_site, TRIPEAKS, 7)
    for selector in (".tableau", "[data-action=draw]", "[data-testid=waste-top]"):
        above_the_fold(page, selector)


def tab_stops(page: Any) -> list[str]:
    """What each Tab press lands on, once round the page: a board card as "card"."""
    page.locator("body").focus()
    stops: list[str] = []
    for _ in range(80):
        page.keyboard.press("Tab")
        stop = page.evaluate(
            "(() => { const e = document.activeElement;"
            " return e.matches('#game .felt button[data-card]') ? 'card' : e.outerHTML.slice(0, 60); })()"
        )
        if stops and stop == stops[0]:
            break
        stops.append(stop)
    return stops


@pytest.mark.parametrize(("game", "number"), [(PYRAMID, 42), (TRIPEAKS, 7)])
def test_the_board_is_one_tab_stop_with_the_arrows_inside(
    live_site: str, new_context: Any, game: str, number: int
) -> None:
    page = new_context(viewport=DESKTOP).new_page()
    deal(page, live_site, game, number)
    expect(page.locator(f"{BOARD_CARD}[tabindex='0']")).to_have_count(1)
    stops = tab_stops(page)
    assert stops.count("card") == 1, stops

    page.locator(f"{BOARD_CARD}[tabindex='0']").focus()
    first = page.evaluate("document.activeElement.dataset.card")
    page.keyboard.press("ArrowRight")
    second = page.evaluate("document.activeElement.dataset.card")
    assert second and second != first
    expect(page.locator(f"{BOARD_CARD}[tabindex='0']")).to_have_attribute("data-card", second)
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("document.activeElement.dataset.card") == first


def test_a_card_that_cannot_be_played_says_why_and_is_not_picked(live_site: str, new_context: Any) -> None:
    page = new_context(viewport=DESKTOP).new_page()
    deal(page, live_site, PYRAMID, 42)
    page.locator(f"{BOARD_CARD}[tabindex='0']").focus()
    page.keyboard.press("ArrowUp")  # from the bottom row to the row it covers
    covered = page.locator(":focus")
    expect(covered).to_have_attribute("aria-label", "Ten of diamonds, not free")
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("message")).to_have_text(
        "The 10 of diamonds is not free: the 5 of diamonds and the Jack of spades lie on it."
    )
    expect(page.locator("button.is-selected")).to_have_count(0)
    page.locator(f"{BOARD_CARD}[data-card='As']").focus()  # half hidden under two cards: no click reaches it
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("message")).to_contain_text("The Ace of spades is not free")
    expect(page.locator("button.is-selected")).to_have_count(0)
    page.locator(f"{BOARD_CARD}[data-card='5d']").click()  # a free card is picked, and it is said
    expect(page.locator("button.is-selected")).to_have_attribute("data-card", "5d")
    expect(page.get_by_test_id("message")).to_contain_text("Picked Five of diamonds")


def test_the_message_line_stays_in_the_page_and_says_what_each_move_did(
    live_site: str, new_context: Any
) -> None:
    page = new_context(viewport=DESKTOP).new_page()
    deal(page, live_site, PYRAMID, 42)
    line = page.locator("#game-message")
    expect(line).to_have_attribute("role", "status")
    assert page.locator("#game #game-message").count() == 0
    line.evaluate("e => { e.dataset.mark = 'kept' }")

    page.keyboard.press("d")
    expect(page.get_by_test_id("moves")).to_have_text("1")
    expect(page.get_by_test_id("message")).to_have_text("Drew the 5 of clubs.")
    page.locator(f"{BOARD_CARD}[data-card='5d']").click()
    page.locator(f"{BOARD_CARD}[data-card='8s']").click()
    expect(page.get_by_test_id("moves")).to_have_text("2")
    expect(page.get_by_test_id("message")).to_have_text("Paired the 5 of diamonds with the 8 of spades.")
    page.keyboard.press("h")
    expect(page.get_by_test_id("message")).to_contain_text("Hint: ")
    # The same live region all along (a new one would announce nothing), and one of it.
    expect(page.locator("#game-message")).to_have_count(1)
    expect(page.locator("#game-message")).to_have_attribute("data-mark", "kept")
    expect(page.locator("#game-bar")).to_have_count(1)
    # Focus does not fall to <body> after a move made from the board.
    page.locator(f"{BOARD_CARD}[tabindex='0']").focus()
    page.keyboard.press("d")
    expect(page.get_by_test_id("moves")).to_have_text("3")
    expect(page.locator(":focus")).to_have_count(1)
    assert page.evaluate("document.activeElement !== document.body")


def test_a_typed_deal_number_plays_that_deal(live_site: str, new_context: Any) -> None:
    page = new_context(viewport=DESKTOP).new_page()
    page.goto(f"{live_site}/play/{PYRAMID}/")
    expect(page.get_by_role("radio", name="A random deal", exact=True)).to_be_checked()
    page.get_by_label("Deal number").fill("42")
    page.get_by_role("button", name="Deal").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("#42")
