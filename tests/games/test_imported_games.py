"""RT-5: an imported game is an archive to watch, nobody's game (issue 41): its replay says
who imported it and, where its file says so, who played it; and it counts in no statistic,
streak, rating, board, profile figure or API figure, of the importer or of its players."""

from __future__ import annotations

import json
import re
from dataclasses import asdict
from typing import Any

import pytest
from django.test import Client

from games.core.players import Player
from games.engine.solver import solve
from games.models import GameRecord, Participation
from games.solitaire import services
from games.stats import selectors
from tests.games.test_replays import finished_solitaire, person, table_game

pytestmark = pytest.mark.django_db

LOST_DEAL = 5
"""A Tri-Peaks deal the solver wins (its line is what the solution page shows)."""


def lost_tripeaks(owner: Any, seed: int = LOST_DEAL) -> GameRecord:
    player = Player(user=owner, token=owner.username)
    record = services.start_solitaire(game="tripeaks", player=player, seed=seed)
    services.submit_action(game_id=record.pk, player=player, move="resign", expected_version=0)
    record.refresh_from_db()
    assert record.is_over and record.won is False
    return record


def _section(body: str, start: str) -> str:
    found = re.search(re.escape(start) + r".*?</section>", body, re.S)
    assert found, start
    return found.group(0)


def figures(client: Client, user: Any) -> dict[str, Any]:
    """Everything the site counts for a person: profile (statistics, streaks, games), API,
    daily streaks and the rows behind the lists."""
    name = user.username
    profile = client.get(f"/u/{name}/").content.decode()
    return {
        "api": client.get(f"/api/users/{name}").json(),
        "api_games": client.get(f"/api/users/{name}/games").json(),
        "stats": [asdict(entry) for entry in selectors.player_stats(user)],
        "streaks": selectors.daily_streaks(user, selectors.utc_today()),
        "participations": Participation.objects.filter(user=user).count(),
        "profile_stats": _section(profile, "<h2>Statistics</h2>"),
        "profile_streaks": _section(profile, "<h2>Daily challenge</h2>"),
        "profile_games": _section(profile, 'id="games"'),
    }


def replay_byline(client: Client, url: str) -> str:
    body = client.get(url).content.decode()
    found = re.search(r'<p class="muted variant"[^>]*>(.*?)</p>', body, re.S)
    assert found, body
    return re.sub(r"<[^>]+>", "", found.group(0))


def test_another_persons_winning_line_imported_counts_for_nobody(client: Client) -> None:
    """The issue's scenario: alice lost a Tri-Peaks deal of her own; bob's lost game of another
    deal has a winning line on its solution page, which alice copies into its downloaded file
    and imports. Before, her profile and API said 2 played, 1 won, 50%, a best score and a
    streak of 1, and the replay "Played by alice"."""
    alice, bob = person("alice"), person("bob")
    lost_tripeaks(alice, seed=LOST_DEAL + 1)
    bobs = lost_tripeaks(bob)
    client.force_login(alice)
    before, bobs_before = figures(client, alice), figures(client, bob)
    assert before["api"]["counts"]["all"] == 1 and before["stats"][0]["played"] == 1

    assert client.get(f"/games/{bobs.pk}/solution/").status_code == 200
    line = solve("tripeaks", config=bobs.config, seed=bobs.seed).actions
    data = client.get(f"/games/{bobs.pk}/export.json").json()
    response = client.post("/games/import/", {"text": json.dumps({**data, "actions": list(line)})})
    assert response.status_code == 302
    imported = GameRecord.objects.get(kind=GameRecord.Kind.IMPORTED)
    assert imported.won is True and imported.score

    assert figures(client, alice) == before
    assert figures(client, bob) == bobs_before
    byline = replay_byline(client, response.url)
    assert "Imported by alice" in byline and "played by bob, as its file says" in byline
    assert "Played by" not in byline


def test_an_exported_game_imported_counts_for_neither_importer_nor_player(client: Client) -> None:
    alice, bob = person("alice"), person("bob")
    won = finished_solitaire("pyramid", bob)
    assert won.won
    client.force_login(alice)
    before, bobs_before = figures(client, alice), figures(client, bob)
    data = client.get(f"/games/{won.pk}/export.json").json()
    assert data["players"] == ["bob"]
    response = client.post("/games/import/", {"text": json.dumps(data)})
    assert figures(client, alice) == before and figures(client, bob) == bobs_before
    byline = replay_byline(client, response.url)
    assert "Imported by alice" in byline and "played by bob, as its file says" in byline
    # A file that names nobody says only who imported it.
    del data["players"]
    response = client.post("/games/import/", {"text": json.dumps(data)})
    byline = replay_byline(client, response.url)
    assert "Imported by alice" in byline and "played by" not in byline.lower()
    # The importer finds their imports on the import page, the newest first.
    page = client.get("/games/import/").content.decode()
    imports = re.findall(r'href="/games/(\d+)/replay/"', _section(page, 'id="your-imports"'))
    newest_first = GameRecord.objects.filter(kind="imported").order_by("-pk").values_list("pk", flat=True)
    assert imports == [str(pk) for pk in newest_first]


def test_an_import_made_before_signing_in_stays_nobodys(client: Client) -> None:
    """A browser's games go to whoever signs in there; an import is not one of them."""
    bob = person("bob")
    data = client.get(f"/games/{lost_tripeaks(bob).pk}/export.json").json()
    response = client.post("/games/import/", {"text": json.dumps(data)})
    assert "Imported by a visitor" in replay_byline(client, response.url)
    carol = person("carol")
    as_carol = Client()
    as_carol.force_login(carol)
    before = figures(as_carol, carol)
    client.post("/accounts/login/", {"username": "carol", "password": "pw-long-enough-1"})
    imported = GameRecord.objects.get(kind=GameRecord.Kind.IMPORTED)
    assert imported.owner is None and imported.imported_by is None
    assert figures(client, carol) == before


def test_an_imported_table_game_counts_for_nobody_and_names_its_seats(client: Client) -> None:
    alice, carol = person("alice"), person("carol")
    source = table_game("triad", alice, players=3)
    client.force_login(carol)
    before, alices_before = figures(client, carol), figures(client, alice)
    data = client.get(f"/games/{source.record.pk}/export.json").json()
    assert data["players"] == ["alice", "Bot 2", "Bot 3"]
    response = client.post("/games/import/", {"text": json.dumps(data)})
    assert figures(client, carol) == before and figures(client, alice) == alices_before
    byline = replay_byline(client, response.url)
    assert "Imported by carol" in byline and "played by alice, Bot 2, Bot 3, as its file says" in byline
