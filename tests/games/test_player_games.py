"""A person's finished games for the profile and the API: a fixed number of queries however
many games there are, each table game won exactly when the person's seat won, and the
filters by game and result."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.models import Count
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from games.models import Seat
from games.stats.selectors import player_games
from tests.games.test_generate_rated_games import generate

pytestmark = pytest.mark.django_db


def test_the_listed_games_cost_the_same_queries_and_say_who_won() -> None:
    generate()
    per_user = Seat.objects.values("user").annotate(games=Count("pk"))
    counts = per_user.order_by("-games").values_list("user", "games")
    (busy, many), (quiet, few) = counts.first(), counts.last()
    assert many > few
    queries = []
    for user_id in (quiet, busy):
        with CaptureQueriesContext(connection) as captured:
            played = list(player_games(User.objects.get(pk=user_id))[:200])
        queries.append(len(captured))
        assert len(played) == Seat.objects.filter(user_id=user_id).count()
        assert played == sorted(played, key=lambda item: (item.finished_at, item.record_id), reverse=True)
        for item in played:
            seat = item.record.table.seats.get(user_id=user_id).number
            assert item.seat == seat and item.won == (item.record.outcome["winner"] == seat)
    assert queries[0] == queries[1] == 3  # the games hidden from visitors, then the page (0c1a048)


def test_filters_by_game_and_by_result() -> None:
    generate()
    busy = Seat.objects.values("user").annotate(games=Count("pk")).order_by("-games")[0]["user"]
    user = User.objects.get(pk=busy)
    everything = list(player_games(user))
    for game in {item.game for item in everything}:
        assert list(player_games(user, game=game)) == [item for item in everything if item.game == game]
    won = list(player_games(user, result="won"))
    lost = list(player_games(user, result="lost"))
    assert won and lost and all(item.won for item in won) and not any(item.won for item in lost)
    assert sorted(won + lost, key=everything.index) == everything
