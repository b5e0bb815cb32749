"""``manage.py generate_rated_games``: players and finished rated table games, rated as
``accounts.ratings.MODEL`` rates them one game at a time, that the pages can show."""

from __future__ import annotations

from collections import Counter
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db.models import Count
from django.test import Client

from accounts.models import PROVISIONAL_GAMES, Rating, RatingChange, User
from accounts.ratings import MODEL
from games import kinds
from games.engine import get_engine
from games.models import GameRecord, Seat, Table

pytestmark = pytest.mark.django_db

PLAYERS, GAMES = 40, 120


def generate(*extra: str) -> str:
    out = StringIO()
    call_command(
        "generate_rated_games",
        "--players",
        str(PLAYERS),
        "--games",
        str(GAMES),
        "--batch",
        "50",
        *extra,
        stdout=out,
    )
    return out.getvalue()


def test_fills_players_games_seats_and_ratings() -> None:
    output = generate("--seed", "7")
    assert f"done: {PLAYERS} players, {GAMES} games in" in output
    assert User.objects.count() == PLAYERS
    assert not any(user.has_usable_password() for user in User.objects.all())
    records = list(GameRecord.objects.order_by("finished_at", "pk"))
    assert len(records) == GAMES
    slugs = {spec.slug for spec in kinds.TABLE_GAMES}
    assert {record.game for record in records} <= slugs
    assert all(r.kind == "table" and r.status == "finished" and r.finished_at and r.outcome for r in records)
    tables = {table.record_id: table for table in Table.objects.all()}
    assert len(tables) == GAMES and all(t.rated and t.status == "finished" for t in tables.values())
    seats: dict[int, list[Seat]] = {}
    for seat in Seat.objects.select_related("table").order_by("table_id", "number"):
        seats.setdefault(seat.table.record_id, []).append(seat)
    changes = Counter(RatingChange.objects.values_list("record_id", flat=True))

    # Replay every game through the library in the order they finished: the stored ratings
    # and every change are what rate_game would have written one game at a time.
    start = MODEL.rating()
    expected: dict[tuple[int, str], tuple[float, float, int]] = {}
    stored = {(c.record_id, c.user_id): c for c in RatingChange.objects.all()}
    for record in records:
        people = [seat.user_id for seat in seats[record.pk]]
        assert all(person is not None for person in people) and len(set(people)) == len(people) >= 2
        assert changes[record.pk] == len(people)
        places = get_engine(record.game).places(record.outcome or {})
        assert sorted(places)[0] == 1 and len(places) == len(people)
        before = [expected.get((p, record.game), (start.mu, start.sigma, 0)) for p in people]  # type: ignore[misc]
        after = MODEL.rate([[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma, _ in before], ranks=places)
        for person, (mu, sigma, n), place, (new,) in zip(people, before, places, after, strict=True):
            change = stored[record.pk, person]  # type: ignore[index]
            assert (change.place, change.mu_before, change.sigma_before) == (place, mu, sigma)
            assert (change.mu_after, change.sigma_after, change.games_after) == (new.mu, new.sigma, n + 1)
            assert change.created_at == record.finished_at
            expected[person, record.game] = (new.mu, new.sigma, n + 1)  # type: ignore[index]
    ratings = {(r.user_id, r.game): (r.mu, r.sigma, r.games) for r in Rating.objects.all()}
    assert ratings == expected
    busiest = RatingChange.objects.values("user").annotate(n=Count("pk")).order_by("-n").first()
    assert busiest is not None
    mine = {game: values for (user, game), values in expected.items() if user == busiest["user"]}
    assert mine and mine == {
        r.game: (r.mu, r.sigma, r.games) for r in Rating.objects.filter(user=busiest["user"])
    }


def test_same_seed_same_games_and_refuses_a_database_with_users() -> None:
    generate("--seed", "3")
    first = list(
        RatingChange.objects.order_by("pk").values_list("user__username", "game", "place", "mu_after")
    )
    with pytest.raises(CommandError, match="--yes"):
        generate("--seed", "3")
    assert GameRecord.objects.count() == GAMES
    RatingChange.objects.all().delete()
    Seat.objects.all().delete()
    Table.objects.all().delete()
    GameRecord.objects.all().delete()
    Rating.objects.all().delete()
    User.objects.all().delete()
    generate("--seed", "3")
    again = list(
        RatingChange.objects.order_by("pk").values_list("user__username", "game", "place", "mu_after")
    )
    assert again == first


def test_pages_show_the_generated_games(client: Client) -> None:
    generate("--seed", "5", "--yes")
    top = Rating.objects.filter(game="triad", games__gte=PROVISIONAL_GAMES).order_by("-mu").first()
    assert top is not None
    board = client.get("/leaderboards/")
    assert board.status_code == 200 and top.user.username in board.content.decode()
    assert client.get(f"/u/{top.user.username}/").status_code == 200
    ratings = client.get(f"/u/{top.user.username}/ratings/")  # asked for by the profile's htmx
    assert ratings.status_code == 200 and str(round(top.mu)) in ratings.content.decode()
    games = client.get(f"/api/users/{top.user.username}/games")
    assert games.status_code == 200
    listed = games.json()["games"]
    assert listed and all(len(game["players"]) >= 2 and game["rated"] for game in listed)
    assert any(player["username"] == top.user.username for player in listed[0]["players"])
    # A later run with --yes adds to what is there, with new ids and names.
    generate("--seed", "6", "--yes")
    assert User.objects.count() == 2 * PLAYERS and GameRecord.objects.count() == 2 * GAMES
