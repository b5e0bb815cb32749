"""Tauron Hold-Em (RULES.md section 6) on the site: the table form, a whole game at a live
table against the bot, its steps in words, and a tournament of it. The engine's own rules,
properties and leaks are tested in tests/engine/test_tauron_*.py."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import User
from games import kinds
from games.core import narration
from games.engine import get_engine
from games.engine.tauron import TauronView
from games.models import Table
from games.replays import replays
from tests.games.test_replays import person, table_game
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db
ENGINE = get_engine("tauron")


def test_tauron_is_a_table_game_of_the_registry() -> None:
    spec = kinds.get("tauron")
    assert spec in kinds.TABLE_GAMES and spec.engine is ENGINE and not spec.solitaire
    assert spec.seat_count({"players": 4}) == 4


def test_the_table_form_opens_a_tauron_table_with_the_engines_bounds(client: Client) -> None:
    alice = person("alice")
    client.force_login(alice)
    form = {"game": "tauron", "clock_seconds": "30", "tauron_players": "3", "tauron_stack": "50"}
    form |= {"tauron_ante": "2", "tauron_hands": "4", "triad_players": "2", "triad_stack": "100"}
    form |= {"triad_ante": "1", "triad_hands": "12", "triad_cards": "6", "blocks_scoring": "basic"}
    form |= {"blocks_target": "7"}
    response = client.post("/tables/new/", form)
    assert response.status_code == 302
    table = Table.objects.get()
    assert table.game == "tauron" and table.seat_count == 3
    assert table.config == ENGINE.normalize_config({"players": 3, "stack": 50, "ante": 2, "hands": 4})
    refused = client.post("/tables/new/", form | {"tauron_ante": "51"})
    assert "The ante cannot be more than the chips each player brings." in refused.content.decode()
    assert Table.objects.count() == 1
    lobby = client.get("/tables/").content.decode()
    assert "Tauron Hold-Em" in lobby and "Seats (Tauron)" in lobby


def test_a_whole_game_against_the_bot_reads_step_by_step(client: Client) -> None:
    table = table_game("tauron", person("alice"), players=3, hands=3)
    record = table.record
    assert record.is_over and record.outcome["ranking"]
    source = replays.from_record(record)
    states = replays.states(source)
    assert ENGINE.outcome(states[-1]) == record.outcome
    said = [
        narration.narrate("tauron", before, text, after, source.names, reveal=reveal)
        for before, text, after in zip(states, source.actions, states[1:], strict=False)
        for reveal in (False, True)
    ]
    assert all(said) and any("the first three shared cards turned up" in words for words in said)
    assert "match over" in said[-1]
    standing = narration.standing("tauron", states[-1], source.names)
    assert standing[-1] == {"label": "Phase", "value": "Match over"}
    page = client.get(f"/games/{record.pk}/replay/?step={source.steps}").content.decode()
    assert 'data-testid="board"' in page and "Tauron Hold-Em" in page
    table_page = client.get(f"/tables/{table.pk}/").content.decode()
    assert "Game over" in table_page


def test_a_spectator_sees_the_board_and_no_hole_card() -> None:
    table = table_game("tauron", person("alice"), finish=False, players=2)
    record = table.record
    source = replays.from_record(record)
    view = replays.step_view(source, replays.states(source)[-1], replays.EVERYTHING)
    assert isinstance(view, TauronView) and view.seat is None
    assert all(entry.hole is None for entry in view.seats if not entry.shown)


def test_a_tauron_tournament_plays_heads_up() -> None:
    host: User = person("host")
    tournament = tournament_services.create_tournament(
        name="Tauron cup",
        game="tauron",
        config={"players": 5, "hands": 1},
        clock_seconds=30,
        max_entrants=4,
        fill_with_bots=True,
        starts_at=timezone.now() + dt.timedelta(minutes=5),
        creator=host,
    )
    assert tournament.config["players"] == 2 and tournament.get_game_display() == "Tauron Hold-Em"
