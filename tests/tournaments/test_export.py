"""A tournament's results as JSON and CSV: the documented shape, public facts only, GET only."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.models import GameRecord
from tests.tournaments.support import person
from tests.tournaments.test_pages import page, played_to_the_end, record_ids, schedule
from tournaments import export, services
from tournaments.models import Match, MatchGame, Tournament

pytestmark = pytest.mark.django_db

TOURNAMENT_KEYS = {
    "id",
    "name",
    "game",
    "format",
    "best_of",
    "table_size",
    "third_place",
    "rounds",
    "rated",
    "status",
    "started_at",
    "finished_at",
    "url",
}
MATCH_KEYS = {"round", "round_name", "side", "slot", "bye", "decided", "winner", "score", "entrants", "games"}


def _json(tournament: Tournament) -> dict[str, Any]:
    response = Client().get(reverse("tournament_results_json", args=[tournament.pk]))
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    assert f'filename="tournament-{tournament.pk}.json"' in response["Content-Disposition"]
    return json.loads(response.content)


def _csv(name: str, tournament: Tournament) -> list[dict[str, str]]:
    response = Client().get(reverse(name, args=[tournament.pk]))
    assert response.status_code == 200 and response["Content-Type"] == "text/csv; charset=utf-8"
    assert "attachment" in response["Content-Disposition"]
    return list(csv.DictReader(io.StringIO(response.content.decode())))


def test_a_double_elimination_best_of_three_exports_every_match_and_game() -> None:
    tournament = played_to_the_end(4, format="double_elimination", best_of=3)
    data = _json(tournament)
    assert set(data) == {"tournament", "entrants", "matches"}
    assert set(data["tournament"]) == TOURNAMENT_KEYS
    assert data["tournament"]["format"] == "double_elimination" and data["tournament"]["best_of"] == 3
    assert data["tournament"]["url"] == f"http://testserver{tournament.get_absolute_url()}"

    entrants = data["entrants"]
    assert [e["place"] for e in entrants] == [1, 2, 3, 4]
    assert {e["seed"] for e in entrants} == {1, 2, 3, 4}
    assert all(e["username"] == e["name"] and e["points"] is None for e in entrants)
    assert set(entrants[0]) == set(export.ENTRANT_COLUMNS)

    matches = data["matches"]
    assert all(set(match) == MATCH_KEYS for match in matches)
    sides = [match["side"] for match in matches]
    assert sides == sorted(sides, key=["winners", "losers", "grand_final", "grand_final_reset"].index)
    assert len(matches) == Match.objects.filter(tournament=tournament).count()
    replays = set()
    for match in matches:
        if match["bye"] or not match["entrants"]:
            continue
        first, second = match["entrants"]
        assert match["score"] == f"{first['games_won']}-{second['games_won']}"
        assert max(first["games_won"], second["games_won"]) == 2
        assert match["winner"] == next(e["seed"] for e in match["entrants"] if e["place"] == 1)
        for game in match["games"]:
            assert set(game) == {"number", "status", "winner", "table_url", "replay_url"}
            assert game["status"] == "finished" and game["table_url"] is None
            replays.add(int(game["replay_url"].removeprefix("http://testserver/games/").split("/")[0]))
    assert replays == record_ids(tournament)

    rows = _csv("tournament_results_csv", tournament)
    assert [row["place"] for row in rows] == ["1", "2", "3", "4"]
    assert list(rows[0]) == list(export.ENTRANT_COLUMNS) and rows[0]["withdrawn"] == "no"
    seats = _csv("tournament_matches_csv", tournament)
    assert list(seats[0]) == list(export.SEAT_COLUMNS)
    played = [match for match in matches if match["entrants"]]
    assert len(seats) == sum(len(match["entrants"]) for match in played)
    assert {url for row in seats for url in row["replays"].split()} == {
        game["replay_url"] for match in played for game in match["games"]
    }


def test_a_swiss_exports_points_and_tie_breaks_as_the_page_shows_them() -> None:
    tournament = played_to_the_end(1, format="swiss", rounds=2, fill_with_bots=True, max_entrants=5)
    data = _json(tournament)
    entrants = data["entrants"]
    assert [e["place"] for e in entrants] == sorted(e["place"] for e in entrants)
    assert sum(e["points"] for e in entrants) == 2 * 3  # two games and a bye a round
    assert all(isinstance(e[key], float) for e in entrants for key in ("buchholz", "sonneborn_berger"))
    bots = [e for e in entrants if e["username"] is None]
    assert len(bots) == 4 and all(e["name"] == f"Bot {e['seed']}" for e in bots)
    byes = [match for match in data["matches"] if match["bye"]]
    assert len(byes) == 2 and all(not match["games"] and len(match["entrants"]) == 1 for match in byes)
    assert all(match["side"] == "" and match["round_name"].startswith("Round ") for match in data["matches"])
    rows = _csv("tournament_results_csv", tournament)
    assert [float(row["points"]) for row in rows] == [e["points"] for e in entrants]
    html = page(tournament)
    assert f'href="{reverse("tournament_results_json", args=[tournament.pk])}"' in html
    assert f'href="{reverse("tournament_results_csv", args=[tournament.pk])}"' in html


def test_the_export_tells_nothing_a_spectator_may_not_see_and_is_read_only() -> None:
    tournament = schedule(person("@risky"), max_entrants=2, fill_with_bots=True)
    services.start_now(tournament_id=tournament.pk, user=tournament.created_by)
    game = MatchGame.objects.select_related("table__record").get(match__tournament=tournament)
    record = game.table.record
    assert isinstance(record, GameRecord)
    body = Client().get(reverse("tournament_results_json", args=[tournament.pk])).content.decode()
    assert str(record.seed) not in body and "cards" not in body
    (match,) = json.loads(body)["matches"]
    (live,) = match["games"]
    assert live == {
        "number": 1,
        "status": "playing",
        "winner": None,
        "table_url": f"http://testserver{game.table.get_absolute_url()}",
        "replay_url": None,  # no replay while the game is on
    }
    rows = _csv("tournament_results_csv", tournament)
    assert rows[0]["name"] == rows[0]["username"] == "'@risky"  # not run as a spreadsheet formula
    for name in ("tournament_results_json", "tournament_results_csv", "tournament_matches_csv"):
        url = reverse(name, args=[tournament.pk])
        assert Client().post(url).status_code == 405
        assert Client().get(reverse(name, args=[10**6])).status_code == 404
