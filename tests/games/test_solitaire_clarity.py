"""What the solitaire pages say (issue 20): deal numbers, hints as advice, what a move did,
why a game ended and whether its deal could have been won, and "1 move"."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client

from games import kinds
from games.core.players import SESSION_TOKEN, Player
from games.core.snapshots import state_of
from games.engine import get_engine
from games.engine.solver import solve
from games.kinds.solitaire_words import capital, card_words
from games.models import GameRecord
from games.solitaire import services, views

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
PYRAMID, TRIPEAKS = (spec.slug for spec in kinds.SOLITAIRE)
FORM = {"redeals": "2", "rows": "7", "scoring": "points"}


def start(client: Client, game: str, seed: int, **options: str) -> GameRecord:
    form = FORM if game == PYRAMID else {}
    response = client.post(f"/play/{game}/", {"deal": "number", "number": str(seed), **form, **options})
    assert response.status_code == 302, response.content.decode()[:2000]
    return GameRecord.objects.latest("pk")


def draw_first(game: str, config: dict[str, Any] | None, seed: int) -> list[str]:
    """The moves of a player who always draws, then takes any move but resigning: the
    game's actions up to (not including) the one that ends it."""
    engine = get_engine(game)
    state = engine.initial_state(config, seed)
    line: list[str] = []
    while True:
        legal = [str(a) for a in engine.legal_actions(state)]
        move = "draw" if "draw" in legal else next(m for m in legal if m != "resign")
        after = engine.apply(state, move)
        if engine.outcome(after) is not None:
            return [*line, move]
        line.append(move)
        state = after


def losing_deal(game: str, config: dict[str, Any] | None, winnable: bool) -> tuple[int, list[str]]:
    """A deal the draw-first player loses, whose verdict is ``winnable``, with its moves."""
    for seed in range(1, 500):
        if bool(solve(game, config=config, seed=seed).winnable) != winnable:
            continue
        line = draw_first(game, config, seed)
        state = get_engine(game).replay(get_engine(game).normalize_config(config), seed, line)[-1]
        if get_engine(game).outcome(state)["status"] == "lost":
            return seed, line
    raise AssertionError("no such deal among the first 500")


def play_to_the_end(client: Client, game: str, seed: int, line: list[str], **options: str) -> str:
    """Plays ``line`` in the client's browser (all but its last move through the services);
    returns the htmx answer to its last move."""
    record = start(client, game, seed, **options)
    player = Player(user=None, token=client.session[SESSION_TOKEN])
    for version, text in enumerate(line[:-1]):
        services.submit_action(game_id=record.pk, player=player, move=text, expected_version=version)
    response = client.post(f"/games/{record.pk}/act/", {"action": line[-1], "version": len(line) - 1}, **HTMX)
    assert response.status_code == 200
    return response.content.decode()


def end_panel(body: str) -> str:
    return body[body.index('data-testid="end-panel"') :]


# Deal numbers


def test_a_typed_deal_number_is_that_deal_whichever_radio_is_picked(client: Client) -> None:
    for picked in ("random", "winnable"):  # the radio buttons before a number was typed
        response = client.post(f"/play/{PYRAMID}/", {"deal": picked, "number": "42", **FORM})
        assert response.status_code == 302
        assert GameRecord.objects.latest("pk").seed == 42
    client.post(f"/play/{PYRAMID}/", {"deal": "random", "number": "", **FORM})
    assert GameRecord.objects.count() == 3  # an empty number is a random deal


@pytest.mark.parametrize("number", ["9223372036854775808", "-1", "99999999999999999999999"])
def test_a_bad_deal_number_says_what_a_deal_number_is(client: Client, number: str) -> None:
    body = client.post(f"/play/{PYRAMID}/", {"deal": "number", "number": number, **FORM}).content.decode()
    assert "Ensure this value" not in body
    assert "A deal number is a whole number from 0 to 9,223,372,036,854,775,807" in body
    assert 'aria-invalid="true"' in body and "id_number_error" in body
    assert re.search(r'<input[^>]*value="number"[^>]*checked', body)  # shown again as the deal it would be
    assert not GameRecord.objects.exists()


def test_the_deal_number_field_says_typing_a_number_plays_that_deal(client: Client) -> None:
    body = client.get(f"/play/{PYRAMID}/").content.decode()
    assert "Type a number to play that deal" in body
    assert re.search(r'<input[^>]*name="number"[^>]*aria-describedby="id_number_helptext"', body)


# Hints say what to do


def describe(game: str, text: str) -> str:
    return kinds.get_solitaire(game).describe_action(text)


def test_hints_say_what_to_do_for_every_kind_of_move() -> None:
    assert describe(PYRAMID, "6d+7d") == "Pair the 6 of diamonds with the 7 of diamonds"
    assert describe(PYRAMID, "Ks") == "Remove the King of spades"
    assert describe(PYRAMID, "Ah+Qc") == "Pair the Ace of hearts with the Queen of clubs"
    assert describe(PYRAMID, "3c+Th") == "Pair the 3 of clubs with the 10 of hearts"
    assert describe(PYRAMID, "draw") == "Draw from the stock"
    assert describe(PYRAMID, "redeal").startswith("Turn the waste over")
    assert describe(TRIPEAKS, "8c") == "Move the 8 of clubs to the waste"
    assert describe(TRIPEAKS, "draw") == "Draw from the stock"
    for game in (PYRAMID, TRIPEAKS):
        for text in ("6d+7d", "Ks", "8c", "draw", "redeal"):
            try:
                words = describe(game, text)
            except (ValueError, KeyError):
                continue  # not a move of this game
            assert "removed" not in words and "played" not in words, words


def test_a_hint_on_the_page_is_advice(client: Client) -> None:
    record = start(client, PYRAMID, 42)
    body = client.post(f"/games/{record.pk}/hint/", {"version": 0}, **HTMX).content.decode()
    hinted = re.search(r'data-hint="([^"]+)"', body).group(1)
    assert f">{describe(PYRAMID, hinted)}</strong>" in body
    assert re.search(r"Hint: <strong[^>]*>(Pair|Remove|Draw|Turn) ", body)


# The message line says what a move did, outside the swapped board


def test_the_message_line_stays_outside_the_board_and_says_what_a_move_did(client: Client) -> None:
    record = start(client, PYRAMID, 42)
    page = client.get(f"/games/{record.pk}/").content.decode()
    game = page[page.index('<section id="game"') : page.index("</section>", page.index('<section id="game"'))]
    assert 'id="game-message"' not in game
    assert re.search(r'<div id="game-message"[^>]*role="status"', page)

    state = state_of(record)
    view = get_engine(PYRAMID).view(state, 0)
    pair = next(m for m in view.moves if m.kind == "remove" and len(m.cards) == 2)
    body = client.post(
        f"/games/{record.pk}/act/", {"card": pair.cards[0], "partner": pair.cards[1], "version": 0}, **HTMX
    ).content.decode()
    # Only the words inside the live region are swapped: the region itself stays.
    assert '<div id="game-message" data-hx-swap-oob="innerHTML">' in body
    said = f"Paired {card_words(pair.cards[0])} with {card_words(pair.cards[1])}."
    assert said in body
    body = client.post(f"/games/{record.pk}/act/", {"action": "draw", "version": 1}, **HTMX).content.decode()
    drawn = get_engine(PYRAMID).view(state_of(GameRecord.objects.get(pk=record.pk)), 0).waste_top
    assert f"Drew {card_words(drawn)}." in body
    body = client.post(f"/games/{record.pk}/undo/", {"version": 2}, **HTMX).content.decode()
    assert "Took back the last move." in body


def test_tripeaks_says_what_a_move_did(client: Client) -> None:
    record = start(client, TRIPEAKS, 7)
    view = get_engine(TRIPEAKS).view(state_of(record), 0)
    play = next((m for m in view.moves if m.kind == "play"), None)
    text = play.text if play else "draw"
    body = client.post(f"/games/{record.pk}/act/", {"action": text, "version": 0}, **HTMX).content.decode()
    if play:
        assert f"Moved {card_words(play.cards[0])} to the waste: a run of 1." in body
    else:
        assert "Drew the " in body


# A card that cannot be played says why


def test_covered_cards_carry_the_reason_they_cannot_be_played(client: Client) -> None:
    record = start(client, PYRAMID, 42)
    body = client.get(f"/games/{record.pk}/").content.decode()
    state = get_engine(PYRAMID).initial_state(None, 42)
    apex, left, right = state.tableau[0], state.tableau[1], state.tableau[2]
    why = f"{capital(card_words(apex))} is not free: {card_words(left)} and {card_words(right)} lie on it."
    assert f'data-why="{why}"' in body
    buttons = re.findall(r"<button[^>]*data-card=[^>]*>", body)
    assert buttons and all('tabindex="-1"' in b for b in buttons)  # solitaire.js hands out the one Tab stop


# The end of a game: why, and whether the deal could be won


def test_a_lost_game_says_why_and_offers_the_winning_line_of_a_winnable_deal(client: Client) -> None:
    seed, line = losing_deal(TRIPEAKS, None, winnable=True)
    panel = end_panel(play_to_the_end(client, TRIPEAKS, seed, line))
    assert "No moves left: the stock is spent and no free card is one rank above or below the" in panel
    assert "This deal could be won." in panel and "Watch the winning line" in panel


def test_a_lost_unwinnable_deal_offers_no_winning_line(client: Client) -> None:
    config = {"redeals": 0}
    seed, line = losing_deal(PYRAMID, config, winnable=False)
    panel = end_panel(play_to_the_end(client, PYRAMID, seed, line, redeals="0"))
    assert "No moves left: the stock is spent" in panel and "no free cards make 13" in panel
    assert "No line wins this deal." in panel
    assert "Watch the winning line" not in panel and "/solution/" not in panel


def test_a_resigned_game_says_so(client: Client) -> None:
    record = start(client, PYRAMID, 42)
    panel = end_panel(
        client.post(f"/games/{record.pk}/act/", {"action": "resign", "version": 0}, **HTMX).content.decode()
    )
    assert "You resigned." in panel
    assert "No line wins this deal." in panel  # deal 42 with three passes cannot be won


def test_reading_a_lost_game_never_runs_the_solver(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    seed, line = losing_deal(PYRAMID, {"redeals": 0}, winnable=False)
    player = Player(user=None, token="someone")
    record = services.start_solitaire(game=PYRAMID, player=player, config={"redeals": 0}, seed=seed)
    for version, text in enumerate(line):
        services.submit_action(game_id=record.pk, player=player, move=text, expected_version=version)
    record.refresh_from_db()
    cache.delete(views._solution_key(record.game, record.config, record.seed))

    def no_solver(*args: object, **kwargs: object) -> None:
        raise AssertionError("a GET ran the solver")

    monkeypatch.setattr("games.engine.solver.solve", no_solver)
    panel = end_panel(client.get(f"/games/{record.pk}/").content.decode())
    assert "Ask the solver whether this deal could be won" in panel
    assert "Watch the winning line" not in panel


# "1 move", not "1 moves"


def test_one_move_is_singular(client: Client) -> None:
    record = start(client, PYRAMID, 42)
    client.post(f"/games/{record.pk}/act/", {"action": "draw", "version": 0}, **HTMX)
    for url in ("/play/", f"/play/{PYRAMID}/"):
        body = client.get(url).content.decode()
        assert "1 move" in body and "1 moves" not in body, url
    panel = end_panel(
        client.post(f"/games/{record.pk}/act/", {"action": "resign", "version": 1}, **HTMX).content.decode()
    )
    assert "· 2 moves" in panel


def test_a_tripeaks_card_out_of_rank_says_so(client: Client) -> None:
    record = start(client, TRIPEAKS, 7)
    view = get_engine(TRIPEAKS).view(state_of(record), 0)
    stuck = next(s for row in view.layout for s in row if s.card and s.free and not s.playable)
    body = client.get(f"/games/{record.pk}/").content.decode()
    top = card_words(view.waste_top)
    why = f"{capital(card_words(stuck.card))} is not one rank above or below {top} on the waste."
    assert f'data-why="{why}"' in body
