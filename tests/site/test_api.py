"""The public JSON API (docs/api.md): shapes, pagination, errors, rate limit, a constant
number of queries per page, and that it never shows what the site hides (LP-3, LP-6)."""

from __future__ import annotations

import datetime as dt
import uuid
from types import SimpleNamespace
from typing import Any

import pytest
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from django_ratelimit import core as ratelimit_core

from accounts.models import PROVISIONAL_GAMES, Rating, User
from accounts.ratings import rate_game
from games import kinds
from games.core import finishes
from games.core.players import Player
from games.models import DailyChallenge, GameRecord, Seat, Table
from games.stats.selectors import hidden_from
from web import api, api_urls

pytestmark = pytest.mark.django_db

SECRET_SEED = 987_654_321


@pytest.fixture(autouse=True)
def own_rate_counters(settings: Any) -> None:
    """Rate-limit counters of this test only (the test Redis outlives the test database)."""
    settings.RATELIMIT_CACHE_PREFIX = f"rl-test-{uuid.uuid4().hex}:"


def person(name: str) -> User:
    return User.objects.create_user(name, f"{name}@example.com", "pw-long-enough-1")


def today() -> dt.date:
    return timezone.now().date()


def solitaire(owner: User, *, seed: int = 7, finished: bool = True, **fields: Any) -> GameRecord:
    done = {
        "status": GameRecord.Status.FINISHED,
        "won": True,
        "score": 120,
        "outcome": {"won": True, "reason": "cleared", "score": 120, "cards_left": 0, "stock": ["AS"]},
        "finished_at": timezone.now(),
    }
    record = GameRecord.objects.create(
        game=fields.pop("game", "pyramid"),
        engine_version=1,
        config={},
        seed=seed,
        owner=owner,
        **(done if finished else {}),
        **fields,
    )
    finishes.sync(record)  # as the move that ends a game does
    return record


def table_game(people: list[User], *, game: str = "triad", rated: bool = True, winner: int = 0) -> GameRecord:
    places = [1 if seat == winner else 2 for seat in range(len(people))]
    record = GameRecord.objects.create(
        game=game,
        engine_version=1,
        config={},
        seed=4242,
        kind=GameRecord.Kind.TABLE,
        status=GameRecord.Status.FINISHED,
        finished_at=timezone.now(),
        outcome={"winner": winner, "places": places, "chips": [10, 0], "deck": ["secret"]},
    )
    table = Table.objects.create(
        game=game, created_by=people[0], record=record, rated=rated, status=Table.Status.FINISHED
    )
    for number, someone in enumerate(people):
        Seat.objects.create(table=table, number=number, user=someone)
    if rated:
        with transaction.atomic():
            rate_game(record.pk, game, people, places)
    finishes.sync(record)
    return record


def test_user_profile_shape_ratings_and_counts(client: Client) -> None:
    ann, ben = person("Ann"), person("ben")
    solitaire(ann)
    table_game([ann, ben])
    response = client.get("/api/users/ann")  # any case, like the profile
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response["Access-Control-Allow-Origin"] == "*"
    data = response.json()
    assert data["username"] == "Ann" and data["url"].endswith("/u/Ann/") and data["joined"]
    assert data["ratings"]["triad"]["games"] == 1 and data["ratings"]["triad"]["provisional"] is True
    assert data["ratings"]["triad"]["rating"] > 1500
    assert data["counts"] == {"all": 2, "rated": 1, "rated_wins": 1, "by_game": {"pyramid": 1, "triad": 1}}


def test_a_newcomer_has_every_table_games_starting_rating(client: Client) -> None:
    """RT-1, RT-3. Lichess lists every rating with ``prov: true``; docs/api.md promises each table game's
    ``rating``, ``games`` and ``provisional``, in the registry's order, played or not."""
    person("newbie")
    newcomer = {"rating": 1500, "games": 0, "provisional": True}
    data = client.get("/api/users/newbie").json()
    assert list(data["ratings"].items()) == [(spec.slug, newcomer) for spec in kinds.TABLE_GAMES]
    assert data["counts"] == {"all": 0, "rated": 0, "rated_wins": 0, "by_game": {}}
    ann, ben = person("ann"), person("ben")
    table_game([ann, ben], game="blocks")
    ratings = client.get("/api/users/ann").json()["ratings"]
    assert list(ratings) == [spec.slug for spec in kinds.TABLE_GAMES]
    assert ratings["blocks"]["games"] == 1 and ratings["blocks"]["rating"] > 1500
    assert ratings["triad"] == ratings["tauron"] == newcomer


def test_unknown_user_inactive_user_and_unknown_route_are_json_404s(client: Client) -> None:
    gone = person("gone")
    gone.is_active = False
    gone.save()
    for url in (
        "/api/users/nobody",
        "/api/users/gone",
        "/api/users/nobody/games",
        "/api/nothing/here",
        "/api/",
        "/api/users/",
        "/api/users/ann/",
        "/api/leaderboards/",
    ):
        response = client.get(url)
        assert response.status_code == 404, url
        assert response["Content-Type"] == "application/json" and "error" in response.json()


def test_user_games_shape_players_and_public_outcome_only(client: Client) -> None:
    ann, ben = person("ann"), person("ben")
    mine = solitaire(ann)
    table = table_game([ann, ben], winner=1)
    data = client.get("/api/users/ann/games").json()
    assert (data["page"], data["pages"], data["next"]) == (1, 1, None)
    games = {game["id"]: game for game in data["games"]}
    assert [game["id"] for game in data["games"]] == [table.pk, mine.pk]  # newest first
    assert games[mine.pk]["result"] == {"won": True, "score": 120}
    assert games[mine.pk]["players"] == [{"username": "ann"}]
    assert "stock" not in games[mine.pk]["outcome"] and games[mine.pk]["outcome"]["reason"] == "cleared"
    assert games[mine.pk]["replay_url"].endswith(f"/games/{mine.pk}/replay/")
    assert games[mine.pk]["export_url"].endswith(f"/games/{mine.pk}/export.json")
    shown = games[table.pk]
    assert shown["kind"] == "table" and shown["rated"] is True and shown["result"] is None
    assert shown["outcome"] == {"winner": 1, "places": [2, 1], "chips": [10, 0]}  # no deck
    assert [(p["seat"], p["username"], p["place"]) for p in shown["players"]] == [
        (0, "ann", 2),
        (1, "ben", 1),
    ]
    for game in data["games"]:
        assert "seed" not in game
    assert [game["id"] for game in client.get("/api/users/ben/games").json()["games"]] == [table.pk]


def test_user_games_pages_of_fifty(client: Client) -> None:
    ann = person("ann")
    for _ in range(api.PAGE_SIZE + 3):
        solitaire(ann)
    first = client.get("/api/users/ann/games").json()
    assert (first["page"], first["pages"], len(first["games"])) == (1, 2, api.PAGE_SIZE)
    assert "/api/users/ann/games?after=" in first["next"] and first["previous"] is None
    second = client.get(first["next"]).json()
    assert (second["page"], second["next"], len(second["games"])) == (2, None, 3)
    assert client.get("/api/users/ann/games?page=2").json()["games"] == second["games"]
    assert client.get(second["previous"]).json()["games"] == first["games"]
    ids = [game["id"] for game in first["games"] + second["games"]]
    assert len(set(ids)) == api.PAGE_SIZE + 3
    assert client.get("/api/users/ann/games?page=3").status_code == 404
    assert client.get("/api/users/ann/games?page=zero").status_code == 400


def test_hidden_games_never_appear(client: Client) -> None:
    ann = person("ann")
    shown = solitaire(ann, seed=11)
    solitaire(ann, seed=12, finished=False)  # a running game (and its seed)
    daily = DailyChallenge.objects.create(game="pyramid", date=today(), seed=SECRET_SEED)
    solitaire(ann, seed=SECRET_SEED, finished=False, daily=daily, ranked=True, kind=GameRecord.Kind.DAILY)
    # A finished unranked game of today's deal, and a Tri-Peaks game of the same number:
    # both show the secret deal until the day is over (LP-6).
    solitaire(ann, seed=SECRET_SEED, daily=daily, kind=GameRecord.Kind.DAILY)
    solitaire(ann, seed=SECRET_SEED, game="tripeaks")
    past = DailyChallenge.objects.create(game="pyramid", date=today() - dt.timedelta(days=1), seed=555)
    yesterday = solitaire(ann, seed=555, daily=past, ranked=True, kind=GameRecord.Kind.DAILY)

    data = client.get("/api/users/ann/games").json()
    assert sorted(game["id"] for game in data["games"]) == sorted([shown.pk, yesterday.pk])
    profile = client.get("/api/users/ann").json()
    assert profile["counts"]["all"] == 2
    body = client.get("/api/users/ann/games").content.decode() + client.get("/api/users/ann").content.decode()
    assert str(SECRET_SEED) not in body and '"seed"' not in body
    # The API's filter agrees with the site's own rule for an anonymous visitor.
    visitor = Player(user=None, token="")
    everything = GameRecord.objects.filter(owner=ann, status=GameRecord.Status.FINISHED)
    assert {r.pk for r in everything if not hidden_from(r, visitor)} == {g["id"] for g in data["games"]}


def test_leaderboard_non_provisional_by_rating_and_pages(client: Client) -> None:
    ann, ben, cat = person("ann"), person("ben"), person("cat")
    for n in range(PROVISIONAL_GAMES):
        table_game([ann, ben], winner=0 if n < PROVISIONAL_GAMES - 1 else 1)
    table_game([ann, cat])  # cat has one game: provisional, left out (RT-3)
    response = client.get("/api/leaderboards/triad")
    assert response.status_code == 200 and response["Access-Control-Allow-Origin"] == "*"
    data = response.json()
    assert (data["game"], data["page"], data["pages"], data["next"]) == ("triad", 1, 1, None)
    assert [(row["rank"], row["username"]) for row in data["players"]] == [(1, "ann"), (2, "ben")]
    assert data["players"][0]["rating"] > data["players"][1]["rating"]
    assert data["players"][0]["games"] == PROVISIONAL_GAMES + 1
    assert client.get("/api/leaderboards/blocks").json()["players"] == []
    assert client.get("/api/leaderboards/triad?page=2").status_code == 404


def test_leaderboard_pages_of_fifty(client: Client) -> None:
    people = [person(f"p{n:02d}") for n in range(api.PAGE_SIZE + 2)]
    Rating.objects.bulk_create(
        Rating(user=someone, game="tauron", mu=1400.0 + n, sigma=100.0, games=PROVISIONAL_GAMES)
        for n, someone in enumerate(people)
    )
    first = client.get("/api/leaderboards/tauron").json()
    assert (first["pages"], len(first["players"]), first["players"][0]["username"]) == (2, 50, "p51")
    second = client.get(first["next"]).json()
    assert [(row["rank"], row["username"]) for row in second["players"]] == [(51, "p01"), (52, "p00")]


def test_next_links_show_each_game_once_while_new_games_arrive(client: Client) -> None:
    """Keyset paging (issue 42): ``next`` continues right after the last game shown, where the
    same page by number would show again the games that new ones pushed down."""
    ann = person("ann")
    for _ in range(api.PAGE_SIZE + 3):
        solitaire(ann)
    first = client.get("/api/users/ann/games").json()
    newest = [solitaire(ann).pk, solitaire(ann).pk]  # played while the client reads
    second = client.get(first["next"]).json()
    seen = [game["id"] for game in first["games"] + second["games"]]
    assert len(seen) == len(set(seen)) == api.PAGE_SIZE + 3 and second["next"] is None
    by_number = client.get("/api/users/ann/games?page=2").json()["games"]
    assert len(by_number) == 5 and {game["id"] for game in by_number} & set(seen[: api.PAGE_SIZE])
    back = client.get(second["previous"]).json()  # the 50 just above, as the client saw them
    assert back["games"] == first["games"] and back["previous"] is not None
    top = client.get(back["previous"]).json()  # then the newest, the page whole
    assert [game["id"] for game in top["games"]][:2] == newest[::-1] and top["previous"] is None


def test_leaderboard_pages_by_key_up_and_down_with_their_ranks(client: Client) -> None:
    people = [person(f"p{n:03d}") for n in range(2 * api.PAGE_SIZE + 7)]
    Rating.objects.bulk_create(
        Rating(user=someone, game="triad", mu=1400.0 + n // 3, sigma=100.0, games=PROVISIONAL_GAMES)
        for n, someone in enumerate(people)
    )
    pages = [client.get("/api/leaderboards/triad").json()]
    while pages[-1]["next"]:
        pages.append(client.get(pages[-1]["next"]).json())
    ranks = [row["rank"] for page in pages for row in page["players"]]
    assert ranks == list(range(1, len(people) + 1)) and [page["page"] for page in pages] == [1, 2, 3]
    assert client.get(pages[2]["previous"]).json()["players"] == pages[1]["players"]
    assert client.get("/api/leaderboards/triad?page=3").json()["players"] == pages[2]["players"]


@pytest.mark.parametrize(
    "query",
    ["after=x", "before=1_2_3", "after=nan_4", "page=2&after=1_1", "before=1_1&after=1_1", "page=\u00b2"],
)
def test_paging_that_no_link_holds_is_a_400(client: Client, query: str) -> None:
    person("ann")
    for url in ("/api/users/ann/games", "/api/leaderboards/triad"):
        response = client.get(f"{url}?{query}")
        assert response.status_code == 400 and response.json()["error"], (url, query)


@pytest.mark.parametrize("game", ["pyramid", "tripeaks", "chess"])
def test_no_leaderboard_for_solitaire_or_unknown_games(client: Client, game: str) -> None:
    response = client.get(f"/api/leaderboards/{game}")
    assert response.status_code == 404 and "error" in response.json()


@pytest.mark.parametrize("method", ["post", "put", "patch", "delete"])
def test_get_only(method: str) -> None:
    """Every address under /api/, known or not, as a stranger's script or a signed-in browser
    sends it: with CSRF checks on (Django's test client turns them off by default), and no
    token, since the API takes none. Never the HTML CSRF page."""
    person("ann")
    signed_in = Client(enforce_csrf_checks=True)
    signed_in.force_login(person("ben"))
    for client in (Client(enforce_csrf_checks=True), signed_in):
        for url in (
            "/api/users/ann",
            "/api/users/ann/games",
            "/api/leaderboards/triad",
            "/api/nothing/here",
            "/api/",
        ):
            response = getattr(client, method)(url, data="{}", content_type="application/json")
            assert response.status_code == 405, url
            assert response["Content-Type"] == "application/json" and "error" in response.json()
            assert response["Allow"] == "GET"
            assert response["Access-Control-Allow-Origin"] == "*"


def test_every_api_route_is_an_api_view() -> None:
    """A route added later answers as these do (JSON errors, 405 with ``Allow: GET``, no CSRF
    refusal) only if ``api_view`` wraps it."""
    for pattern in api_urls.urlpatterns:
        assert getattr(pattern.callback, "csrf_exempt", False), pattern


def test_rate_limited_per_address(monkeypatch: pytest.MonkeyPatch) -> None:
    # The limit counts in fixed windows of a minute, in the shared Redis cache: the clock is
    # held inside one (a run that crossed a window's end started the count again, and failed
    # in CI), and the addresses are this run's own (a run in the same window would find the
    # count of the one before).
    monkeypatch.setattr(ratelimit_core, "time", SimpleNamespace(time=lambda: 1_800_000_000.0))
    mine, another = (".".join(map(str, [10, *uuid.uuid4().bytes[:3]])) for _ in range(2))
    client = Client(REMOTE_ADDR=mine)
    person("ann")
    limit = int(api.API_RATE.split("/")[0])
    statuses = [client.get("/api/users/ann").status_code for _ in range(limit)]
    assert set(statuses) == {200}
    response = client.get("/api/leaderboards/triad")  # one budget for the whole API
    assert response.status_code == 429
    assert "Too many" in response.json()["error"] and response["Retry-After"] == "60"
    other = client.get("/api/users/ann", REMOTE_ADDR=another)
    assert other.status_code == 200  # another address has its own


def _queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


@pytest.mark.parametrize("count", [3, 30])
def test_query_count_does_not_grow_with_games(client: Client, count: int) -> None:
    ann, ben = person("ann"), person("ben")
    others = [person(f"o{n}") for n in range(count)]
    for n in range(count):
        solitaire(ann)
        table_game([ann, ben], rated=n % 2 == 0)
        table_game([others[n], ben])
    Rating.objects.filter(game="triad").update(games=PROVISIONAL_GAMES)  # all on the leaderboard
    # The games: the person, the games hidden from visitors (games.stats.selectors.HIDDEN_SQL),
    # the count, the page's keys, their rows, their seats.
    expected = {"/api/users/ann": 5, "/api/users/ann/games": 6, "/api/leaderboards/triad": 2}
    for url, queries in expected.items():
        assert _queries(client, url) == queries, url
