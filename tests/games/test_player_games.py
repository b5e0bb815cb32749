"""A person's finished games for the profile: a fixed number of queries however many table
games are listed, and each table game won exactly when the person's seat won."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.models import Count
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from games.models import Seat
from games.selectors import player_games
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
            played = player_games(User.objects.get(pk=user_id))
        queries.append(len(captured))
        for item in played:
            seat = item.record.table.seats.get(user_id=user_id).number
            assert item.won == (item.record.outcome["winner"] == seat)
    assert queries[0] == queries[1]
