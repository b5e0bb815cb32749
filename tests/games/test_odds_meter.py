"""The chance-to-win meter on the game's page (issue 46, LP-11): hidden until its player shows
it, then loaded after every move; its figure the one the player's view alone gives; never
where a hint is closed (LP-6); and bad input refused."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.test import Client

from games.core.players import Player
from games.core.snapshots import state_of
from games.engine import get_engine
from games.engine.solver import odds
from games.models import GameRecord
from games.solitaire import meter_views, services
from tests.games.test_daily_integrity import as_daily, deal, person, resign, signed_in, steady_day
from tests.games.test_solitaire_views import HTMX, act, legal, start

pytestmark = pytest.mark.django_db
__all__ = ["steady_day"]  # a fixture, used by name


def odds_url(record: GameRecord) -> str:
    return f"/games/{record.pk}/odds/"


def shown_figure(client: Client, record: GameRecord) -> str:
    response = client.get(odds_url(record), **HTMX)
    assert response.status_code == 200
    body = response.content.decode()
    found = re.search(r'data-testid="odds-figure">(\d+)%<', body)
    assert found is not None, body
    assert f'value="{found.group(1)}"' in body  # the bar says the same
    return found.group(1)


def test_hidden_until_shown_then_loaded_after_every_move_with_the_views_own_figure(client: Client) -> None:
    record = start(client)
    page = client.get(f"/games/{record.pk}/").content.decode()
    assert "Show the chance to win" in page and odds_url(record) not in page
    response = client.post("/games/odds/", {"show": "1", "next": f"/games/{record.pk}/"})
    assert response.status_code == 302 and response.url == f"/games/{record.pk}/"
    page = client.get(f"/games/{record.pk}/").content.decode()
    assert f'data-hx-get="{odds_url(record)}"' in page and "Hide the chance to win" in page

    board = act(client, record, legal(record)[0])  # the board htmx swaps in after a move
    assert f'data-hx-get="{odds_url(record)}"' in board and 'data-hx-trigger="load"' in board
    record.refresh_from_db()
    expected = odds.chance(record.game, get_engine(record.game).view(state_of(record), 0))
    assert shown_figure(client, record) == str(expected.percent)

    client.post("/games/odds/", {"show": "0", "next": f"/games/{record.pk}/"})
    assert odds_url(record) not in client.get(f"/games/{record.pk}/").content.decode()


def test_refused_wherever_a_hint_is(steady_day: dt.date) -> None:
    owner, other = person("olga"), person("otto")
    player = Player(user=owner, token="o")
    client = signed_in(owner)

    def refusal(record: GameRecord, who: Client = client) -> str:
        response = who.get(odds_url(record), **HTMX)
        body = response.content.decode()
        assert 'data-testid="odds-figure"' not in body
        found = re.search(r'data-testid="odds-refusal">([^<]+)<', body)
        assert found is not None, body
        return found.group(1)

    casual = services.start_solitaire(game="pyramid", player=player, seed=777)
    assert "player only" in refusal(casual, signed_in(other))
    assert "player only" in refusal(casual, Client())
    visitor = Client()
    visitor.get(odds_url(casual), **HTMX)
    assert "sessionid" not in visitor.cookies  # a GET writes no session row
    ranked = services.start_daily(daily=deal("pyramid", steady_day), player=player)
    assert ranked.ranked and "casual games only" in refusal(ranked)
    as_daily(casual, steady_day)  # its number is today's daily deal of the other game (LP-6)
    assert "closed for this deal" in refusal(casual)
    over = services.start_solitaire(game="pyramid", player=player, seed=778)
    resign(over, player)
    assert "over" in refusal(over)
    missing = client.get("/games/999999999/odds/", **HTMX)
    assert missing.status_code == 404 and 'data-testid="odds-figure"' not in missing.content.decode()


def test_the_address_answers_htmx_gets_only() -> None:
    owner = person("olga")
    record = services.start_solitaire(game="pyramid", player=Player(user=owner, token="o"), seed=5)
    client = signed_in(owner)
    plain = client.get(odds_url(record))
    assert plain.status_code == 302 and plain.url == f"/games/{record.pk}/"  # a part of that page
    assert client.post(odds_url(record), **HTMX).status_code == 405


def test_past_its_rate_the_meter_says_so_and_solves_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    owner = person("olga")
    record = services.start_solitaire(game="pyramid", player=Player(user=owner, token="o"), seed=5)
    client = signed_in(owner)
    monkeypatch.setattr(meter_views, "METER_RATE", "2/m")
    for _ in range(2):
        shown_figure(client, record)
    solved: list[str] = []
    monkeypatch.setattr(meter_views.meter, "figure", lambda game, view: solved.append(game))
    limited = client.get(odds_url(record), **HTMX)
    assert limited.status_code == 429 and limited["Retry-After"] == "60"
    assert "faster than the meter" in limited.content.decode() and solved == []


def test_the_switch_refuses_a_forged_form_and_leads_only_to_this_site() -> None:
    client = Client()
    assert client.post("/games/odds/", {"show": "yes"}).status_code == 400
    assert client.post("/games/odds/", {}).status_code == 400
    assert "odds_meter" not in client.session
    away = client.post("/games/odds/", {"show": "1", "next": "//evil.example/"})
    assert away.status_code == 302 and away.url == "/play/"
    for word in ("1", "[-1]", "game"):  # a relative address, not a view's name (make fuzz)
        bare = client.post("/games/odds/", {"show": "1", "next": word})
        assert bare.status_code == 302 and bare.url == word
    assert client.get("/games/odds/").status_code == 405
    guarded = Client(enforce_csrf_checks=True)
    assert guarded.post("/games/odds/", {"show": "1"}).status_code == 403
