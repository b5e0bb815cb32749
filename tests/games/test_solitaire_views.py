"""The solitaire pages through Django's test client: start, play, errors, stale tabs, resume."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games.core.snapshots import state_of
from games.engine import get_engine
from games.kinds.words import card_name
from games.models import Action, GameRecord

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def start(client: Client, game: str = "pyramid", **data: str) -> GameRecord:
    response = client.post(
        f"/play/{game}/",
        {"deal": "number", "number": "42", "redeals": "2", "rows": "7", "scoring": "points", **data},
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    record = GameRecord.objects.latest("pk")
    assert response.url == f"/games/{record.pk}/"
    return record


def act(
    client: Client, record: GameRecord, action: str, version: int | None = None, htmx: bool = True
) -> str:
    version = record.version if version is None else version
    response = client.post(
        f"/games/{record.pk}/act/", {"action": action, "version": version}, **(HTMX if htmx else {})
    )
    assert response.status_code == 200 if htmx else 302
    return response.content.decode()


def legal(record: GameRecord) -> list[str]:
    record.refresh_from_db()
    engine = get_engine(record.game)
    texts = list(record.actions.order_by("seq").values_list("text", flat=True))
    return [str(a) for a in engine.legal_actions(engine.replay(record.config, record.seed, texts)[-1])]


@pytest.mark.parametrize("redeals", ["none", "3"])
def test_par_scoring_with_more_than_three_passes_is_refused_in_words_of_the_form(
    client: Client, redeals: str
) -> None:
    response = client.post(
        "/play/pyramid/",
        {"deal": "random", "redeals": redeals, "rows": "7", "scoring": "par"},
    )
    body = response.content.decode()
    assert "Par scoring counts three passes at most: choose 1, 2 or 3 passes." in body
    assert "PY-8" not in body and "pyramid config" not in body and "&#x27;redeals&#x27;" not in body
    assert not GameRecord.objects.exists()


def test_play_page_lists_the_games(client: Client) -> None:
    body = client.get("/play/").content.decode()
    assert 'href="/play/pyramid/"' in body and 'href="/play/tripeaks/"' in body


def test_new_game_form_offers_the_variants_in_plain_words(client: Client) -> None:
    body = client.get("/play/pyramid/").content.decode()
    for words in ("A random deal that can be won", "1 pass (One Deal)", "Unlimited", "Reserve", "Par"):
        assert words in body
    assert "All cards face up" in client.get("/play/tripeaks/").content.decode()
    assert client.get("/play/triad/").status_code == 404


def test_a_shared_deal_link_prefills_the_number(client: Client) -> None:
    body = client.get("/play/pyramid/?deal=12345").content.decode()
    assert 'value="12345"' in body
    assert re.search(r'<input[^>]*value="number"[^>]*checked', body)


def test_start_with_variants_stores_the_config(client: Client) -> None:
    record = start(client, redeals="none", reserve="on", rows="6")
    assert record.seed == 42
    assert record.config["redeals"] is None and record.config["reserve"] and record.config["rows"] == 6


def test_start_form_errors(client: Client) -> None:
    response = client.post(
        "/play/pyramid/", {"deal": "number", "number": "", "redeals": "2", "rows": "7", "scoring": "points"}
    )
    assert "Type the number of the deal" in response.content.decode()
    response = client.post(
        "/play/pyramid/", {"deal": "random", "redeals": "9", "rows": "7", "scoring": "points"}
    )
    assert "Select a valid choice" in response.content.decode()
    assert not GameRecord.objects.exists()


def test_the_game_page_draws_the_layout_and_hides_the_stock(client: Client) -> None:
    record = start(client)
    body = client.get(f"/games/{record.pk}/").content.decode()
    state = get_engine("pyramid").initial_state(None, 42)
    for card in state.tableau:
        assert f'data-card="{card}"' in body
    assert f'data-card="{state.stock[0]}"' in body  # the stock's top is face up (PY-2)
    for hidden in state.stock[1:]:  # LP-3: the stock below its top stays on the server
        for trace in (f'data-card="{hidden}"', f"/{hidden}.svg", card_name(hidden), f'data-hint="{hidden}'):
            assert trace not in body, trace
    assert "Pyramid" in body and "#42" in body


def test_a_legal_move_through_htmx_returns_the_new_board(client: Client) -> None:
    record = start(client)
    move = next(text for text in legal(record) if "+" in text or text.startswith("K"))
    body = act(client, record, move)
    record.refresh_from_db()
    assert record.version == 1 and Action.objects.get(game=record).text == move
    assert 'data-version="1"' in body and 'id="game"' in body and "<html" not in body


def test_an_illegal_move_is_explained_and_changes_nothing(client: Client) -> None:
    record = start(client)
    body = act(client, record, "Qs+Qh")
    assert "is-error" in body and ("covered" in body or "make 24" in body or "under" in body)
    record.refresh_from_db()
    assert record.version == 0 and not Action.objects.exists()


@pytest.mark.parametrize(
    "forged", [{"action": "draw"}, {"action": "draw", "version": "abc"}, {"version": "0"}]
)
def test_forged_forms_change_nothing(client: Client, forged: dict[str, str]) -> None:
    record = start(client)
    body = client.post(f"/games/{record.pk}/act/", forged, **HTMX).content.decode()
    assert "is-error" in body
    assert not Action.objects.exists()


def test_a_stale_tab_is_told_and_shown_the_game_as_it_stands(client: Client) -> None:
    record = start(client)
    act(client, record, "draw")
    body = act(client, record, "draw", version=0)
    assert "changed in another tab" in body and 'data-version="1"' in body
    assert Action.objects.count() == 1


def test_without_javascript_a_move_redirects_back_with_a_message(client: Client) -> None:
    record = start(client)
    act(client, record, "draw", htmx=False)
    act(client, record, "zz", version=1, htmx=False)
    page = client.get(f"/games/{record.pk}/").content.decode()
    assert "is not a card" in page
    assert Action.objects.count() == 1


def test_another_browser_can_watch_but_not_play(client: Client) -> None:
    record = start(client)
    stranger = Client()
    body = stranger.get(f"/games/{record.pk}/").content.decode()
    assert 'data-can-play="0"' in body and "Type a move" not in body
    assert "not your game" in act(stranger, record, "draw")
    assert not Action.objects.exists()


def test_undo_and_hint_are_counted_and_shown(client: Client) -> None:
    record = start(client)
    act(client, record, "draw")
    record.refresh_from_db()
    body = client.post(f"/games/{record.pk}/undo/", {"version": record.version}, **HTMX).content.decode()
    assert 'data-testid="undos">1<' in body
    record.refresh_from_db()
    body = client.post(f"/games/{record.pk}/hint/", {"version": record.version}, **HTMX).content.decode()
    assert 'data-testid="hints">1<' in body and "Hint:" in body
    hinted = re.search(r'data-hint="([^"]+)"', body).group(1)
    assert hinted in legal(record)


def test_reload_resumes_exactly_and_a_signed_in_players_game_is_theirs(client: Client) -> None:
    user = get_user_model().objects.create_user("alice", "a@example.com", "pw-long-enough-1")
    client.force_login(user)
    record = start(client, game="tripeaks")
    assert record.owner == user
    act(client, record, "draw")
    again = Client()
    again.force_login(user)  # another browser, days later
    body = again.get(f"/games/{record.pk}/").content.decode()
    assert 'data-version="1"' in body and 'data-can-play="1"' in body
    assert f'href="/games/{record.pk}/"' in again.get("/play/").content.decode()


def test_the_end_of_a_game_offers_what_to_do_next(client: Client) -> None:
    record = start(client)
    body = act(client, record, "resign")
    assert 'data-testid="end-panel"' in body and "Game over" in body
    assert "Play this deal again" in body and "New deal" in body
    # "Replay" means watching a game everywhere on the site: the end panel's words for
    # playing the deal again differ, and the finished game's replay and download are linked.
    assert "Replay this deal" not in body
    assert re.search(rf'<a href="/games/{record.pk}/replay/"[^>]*>Watch the replay</a>', body)
    assert re.search(rf'<a href="/games/{record.pk}/export.json" download[^>]*>Download this game', body)
    assert client.get(f"/games/{record.pk}/replay/").status_code == 200
    # Deal 42 cannot be won: the panel says so and offers no winning line (issue 20).
    assert "No line wins this deal." in body and "Watch the winning line" not in body
    solution = client.get(f"/games/{record.pk}/solution/")
    assert solution.status_code == 200
    assert "winning line" in solution.content.decode() or "cannot be won" in solution.content.decode()


def test_a_solution_page_leads_back_to_whose_game_it_is(client: Client) -> None:
    alice = get_user_model().objects.create_user("alice", "a@example.com", "pw-long-enough-1")
    client.force_login(alice)
    record = start(client)
    act(client, record, "resign")
    back = f'<a class="button secondary" href="/games/{record.pk}/">'
    own = client.get(f"/games/{record.pk}/solution/").content.decode()
    assert back + "Back to your game</a>" in own and "Play this deal again" in own
    other = Client().get(f"/games/{record.pk}/solution/").content.decode()
    assert "your game" not in other and "Play this deal again" not in other
    assert back + """Back to <span class="player-name">alice</span>'s game</a>""" in other
    anonymous = Client()
    nobodys = start(anonymous)
    act(anonymous, nobodys, "resign")
    page = client.get(f"/games/{nobodys.pk}/solution/").content.decode()
    assert f'<a class="button secondary" href="/games/{nobodys.pk}/">Back to the game</a>' in page


def test_the_winning_line_is_not_shown_while_the_game_runs(client: Client) -> None:
    record = start(client)
    assert client.get(f"/games/{record.pk}/solution/").status_code == 404


def test_picked_cards_are_posted_as_cards_and_the_engine_makes_the_move(client: Client) -> None:
    """The board posts the cards a click picked (``card``, ``partner``); nothing in the
    page builds a move's text. A pair that is no move is refused, and nothing changes."""
    record = start(client)
    view = get_engine("pyramid").view(state_of(record), 0)
    pair = next(move for move in view.moves if move.kind == "remove" and len(move.cards) == 2)
    first, second = reversed(pair.cards)
    bad = client.post(f"/games/{record.pk}/act/", {"card": first, "partner": first, "version": 0}, **HTMX)
    assert "two different cards" in bad.content.decode() and record.actions.count() == 0
    body = client.post(f"/games/{record.pk}/act/", {"card": first, "partner": second, "version": 0}, **HTMX)
    assert body.status_code == 200
    assert list(record.actions.values_list("text", flat=True)) == [pair.text]
