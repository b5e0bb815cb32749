"""A game continued from a replay's step (issue 41, point 1): it starts from a position, not a
fresh deal, so, as lichess never rates a game "from position", it counts in no statistic,
streak, rating, board, profile figure or API figure, while its player still plays it, finds it
among their games in progress and reads where it came from."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client

from games.engine.solver import solve
from games.models import GameRecord, Participation
from tests.games.test_imported_games import figures, lost_tripeaks, replay_byline
from tests.games.test_replays import finished_solitaire, person

pytestmark = pytest.mark.django_db


def continue_and_win(client: Client, source: GameRecord) -> GameRecord:
    """Continue ``source`` (a won game) at the step before its last, as its replay's button does,
    then play that last move: a won game for one move."""
    moves = list(source.actions.order_by("seq").values_list("text", flat=True))
    response = client.post(f"/games/{source.pk}/continue/", {"step": str(len(moves) - 1)})
    continued = GameRecord.objects.get(continued_from=source)
    assert response.status_code == 302 and response.url == f"/games/{continued.pk}/"
    page = client.get(response.url).content.decode()
    assert f"continued from step {len(moves) - 1} of" in _text(page)
    played = client.post(
        f"/games/{continued.pk}/act/", {"action": moves[-1], "version": str(continued.version)}
    )
    assert played.status_code == 302
    continued.refresh_from_db()
    assert continued.is_over and continued.won is True and continued.score
    return continued


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html))


def _says_where_it_came_from(client: Client, continued: GameRecord, source: GameRecord) -> None:
    step = continued.continued_from_step
    end_panel = re.search(
        r'data-testid="end-continued">(.*?)</p>', client.get(f"/games/{continued.pk}/").content.decode()
    )
    assert end_panel, "the end panel says nothing of it"
    assert _text(end_panel.group(1)) == (
        f"Continued from step {step} of game {source.pk}: it counts in no statistic, streak or board."
    )
    replay = client.get(f"/games/{continued.pk}/replay/").content.decode()
    assert f'href="/games/{source.pk}/replay/?step={step}" data-testid="continued-from"' in replay
    assert f"continued from step {step} of game {source.pk}" in replay_byline(
        client, f"/games/{continued.pk}/replay/"
    )


def test_a_won_game_continued_before_its_last_move_and_won_counts_for_nobody(client: Client) -> None:
    """Before: alice's profile and API counted the one-move win as hers (1 played, 1 won, a
    best score), and the game stood in her list of games."""
    alice, bob = person("alice"), person("bob")
    lost_tripeaks(alice, seed=6)
    bobs = finished_solitaire("pyramid", bob)
    assert bobs.won
    client.force_login(alice)
    before, bobs_before = figures(client, alice), figures(client, bob)

    continued = continue_and_win(client, bobs)

    assert continued.owner == alice and continued.kind == GameRecord.Kind.CASUAL
    assert figures(client, alice) == before
    assert figures(client, bob) == bobs_before
    assert not Participation.objects.filter(record=continued).exists()
    _says_where_it_came_from(client, continued, bobs)


def test_an_import_of_a_solvers_winning_line_continued_and_won_counts_for_nobody(client: Client) -> None:
    """The issue's import, one step on: the import itself counts for nobody (RT-5), and continuing
    it at the step before the last made a won game of alice's with one move."""
    alice, bob = person("alice"), person("bob")
    bobs = lost_tripeaks(bob)
    client.force_login(alice)
    before = figures(client, alice)
    line = solve("tripeaks", config=bobs.config, seed=bobs.seed).actions
    data = client.get(f"/games/{bobs.pk}/export.json").json()
    client.post("/games/import/", {"text": json.dumps({**data, "actions": list(line)})})
    imported = GameRecord.objects.get(kind=GameRecord.Kind.IMPORTED)

    continued = continue_and_win(client, imported)

    assert continued.owner == alice
    assert figures(client, alice) == before
    _says_where_it_came_from(client, continued, imported)


def test_a_continued_game_is_its_players_in_progress_and_after_an_undo(client: Client) -> None:
    alice = person("alice")
    source = finished_solitaire("pyramid", alice)
    assert source.won
    client.force_login(alice)
    before = figures(client, alice)
    client.post(f"/games/{source.pk}/continue/", {"step": "3"})
    continued = GameRecord.objects.get(continued_from=source)
    for page in ("/play/", "/play/pyramid/"):
        listed = client.get(page).content.decode()
        assert re.search(rf'href="/games/{continued.pk}/">.*?continued from a replay', listed), page
    moves = list(source.actions.order_by("seq").values_list("text", flat=True))
    for version, move in enumerate(moves[3:], start=3):
        client.post(f"/games/{continued.pk}/act/", {"action": move, "version": str(version)})
    continued.refresh_from_db()
    assert continued.is_over and continued.won == source.won
    assert figures(client, alice) == before
    # An undo reopens it and the same move ends it again: still nobody's statistic.
    client.post(f"/games/{continued.pk}/undo/", {"version": str(continued.version)})
    continued.refresh_from_db()
    assert not continued.is_over
    client.post(f"/games/{continued.pk}/act/", {"action": moves[-1], "version": str(continued.version)})
    continued.refresh_from_db()
    assert continued.is_over and figures(client, alice) == before


def test_a_game_continued_before_signing_in_counts_for_nobody_once_claimed(client: Client) -> None:
    """A browser's games go to whoever signs in there (claim_anonymous_games); a continued one
    goes too, as theirs to finish, and still counts in none of their figures."""
    bob, carol = person("bob"), person("carol")
    bobs = finished_solitaire("pyramid", bob)
    moves = list(bobs.actions.order_by("seq").values_list("text", flat=True))
    client.post(f"/games/{bobs.pk}/continue/", {"step": str(len(moves) - 1)})
    continued = GameRecord.objects.get(continued_from=bobs)
    client.post(f"/games/{continued.pk}/act/", {"action": moves[-1], "version": str(continued.version)})
    as_carol = Client()
    as_carol.force_login(carol)
    before: dict[str, Any] = figures(as_carol, carol)
    client.post("/accounts/login/", {"username": "carol", "password": "pw-long-enough-1"})
    continued.refresh_from_db()
    assert continued.owner == carol and continued.won is True
    assert figures(client, carol) == before


def test_a_continued_game_whose_source_is_gone_still_counts_for_nobody(client: Client) -> None:
    """Its step is kept with it (``continued_from_step``), so losing its source (a solo match's
    game goes with its match) does not make it count."""
    alice = person("alice")
    source = finished_solitaire("pyramid", alice)
    moves = list(source.actions.order_by("seq").values_list("text", flat=True))
    client.force_login(alice)
    client.post(f"/games/{source.pk}/continue/", {"step": str(len(moves) - 1)})
    continued = GameRecord.objects.get(continued_from=source)
    GameRecord.objects.filter(pk=source.pk).delete()
    before = figures(client, alice)
    client.post(f"/games/{continued.pk}/act/", {"action": moves[-1], "version": str(continued.version)})
    continued.refresh_from_db()
    assert continued.won is True and continued.continued_from is None
    assert figures(client, alice) == before
    page = _text(client.get(f"/games/{continued.pk}/").content.decode())
    assert f"continued from step {len(moves) - 1} of a game no longer kept" in page
    assert f"Continued from step {len(moves) - 1} of another game: it counts in no statistic" in page
