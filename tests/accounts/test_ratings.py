"""Ratings (RULES.md section 7): openskill's Plackett-Luce model, written once when a rated
game of people ends (RT-1 .. RT-4)."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts.models import PROVISIONAL_GAMES, Rating, RatingChange, User
from accounts.ratings import MODEL, rate_game
from games.core import move_path
from games.core.snapshots import state_of
from games.engine import get_engine
from games.live import tables
from games.models import GameRecord, Table
from tests.games.table_moments import frames_for

pytestmark = pytest.mark.django_db


def person(name: str) -> User:
    return User.objects.create_user(name, f"{name}@example.com", "pw-long-enough-1")


def record_of(game: str = "triad") -> GameRecord:
    return GameRecord.objects.create(
        game=game, engine_version=1, config={}, seed=1, kind=GameRecord.Kind.TABLE
    )


@pytest.mark.parametrize(
    "places",
    [
        [1, 2],
        [2, 1],
        [1, 1],
        [1, 2, 3],
        [3, 1, 2, 4],
        [1, 2, 2, 4, 5],
        [1, 1, 3, 4, 5, 6],
        [2, 2, 1, 4, 4, 6],
    ],
)
def test_rt1_a_games_places_move_ratings_as_the_library_says(places: list[int]) -> None:
    people = [person(f"p{n}") for n in range(len(places))]
    with transaction.atomic():
        rate_game(record_of().pk, "triad", people, places)  # every rating starts fresh
    expected = MODEL.rate([[MODEL.rating()] for _ in places], ranks=[float(p) for p in places])
    for someone, (rating,) in zip(people, expected, strict=True):
        row = Rating.objects.get(user=someone, game="triad")
        assert (row.mu, row.sigma, row.games) == (pytest.approx(rating.mu), pytest.approx(rating.sigma), 1)
    if len(set(places)) == 1:
        assert len({Rating.objects.get(user=p).mu for p in people}) == 1  # a tie moves nobody apart


def test_rt4_a_game_is_rated_once_and_kept_as_history() -> None:
    ann, ben = person("ann"), person("ben")
    record = record_of()
    with transaction.atomic():
        first = rate_game(record.pk, "triad", [ann, ben], [1, 2])
    with transaction.atomic():
        again = rate_game(record.pk, "triad", [ann, ben], [2, 1])  # the end recorded twice
    assert len(first) == 2 and again == []
    winner = RatingChange.objects.get(record=record, user=ann)
    assert winner.place == 1 and winner.delta > 0 and winner.before == 1500
    assert Rating.objects.get(user=ann).games == 1


def test_rt3_a_rating_is_provisional_until_ten_games() -> None:
    ann, ben = person("ann"), person("ben")
    for n in range(PROVISIONAL_GAMES):
        row = Rating.objects.filter(user=ann).first()
        assert row is None or row.shown.endswith("?")
        with transaction.atomic():
            rate_game(record_of().pk, "triad", [ann, ben], [1 + n % 2, 2 - n % 2])
    assert not Rating.objects.get(user=ann).shown.endswith("?")


def play_out(table: Table) -> GameRecord:
    """Every seat's first legal move until the game ends (people by ``act``, bots by ``advance``)."""
    record = table.record
    assert record is not None
    engine = get_engine(table.game)
    for _ in range(3000):
        record.refresh_from_db()
        if record.is_over:
            return record
        seat = engine.current_player(state_of(record))
        occupant = table.seats.filter(number=seat).first()
        if occupant is not None and occupant.user is not None:
            move = engine.view(state_of(record), seat).legal[0]
            move_path.play_at_table(
                table_id=table.pk, user=occupant.user, move=move, expected_version=record.version
            )
        else:
            tables.advance(game_id=record.pk, version=record.version)
    raise AssertionError("the game did not end")


def heads_up(game: str, rated: bool, *, bot: bool = False, **config: Any) -> Table:
    ann = person("ann")
    table = tables.create_table(game=game, creator=ann, config=config, rated=rated)
    if bot:
        tables.add_bot(table_id=table.pk, user=ann)
    else:
        tables.sit(table_id=table.pk, user=person("ben"))
    tables.start(table_id=table.pk, user=ann)
    table.refresh_from_db()
    return table


@pytest.mark.parametrize(
    ("game", "config"), [("triad", {"hands": 1}), ("blocks", {}), ("tauron", {"hands": 1})]
)
def test_rt2_a_rated_game_of_people_changes_both_ratings_and_the_table_shows_them(
    client: Client, game: str, config: dict[str, Any]
) -> None:
    table = heads_up(game, rated=True, **config)
    record = play_out(table)
    changes = {change.user.username: change for change in record.rating_changes.select_related("user")}
    assert sorted(changes) == ["ann", "ben"]
    winner = record.outcome["winner"]
    seats = {seat.number: seat.user.username for seat in table.seats.select_related("user")}
    assert changes[seats[winner]].delta > 0 > changes[seats[1 - winner]].delta
    body = client.get(f"/tables/{table.pk}/").content.decode()
    assert 'data-testid="ratings"' in body and "Rated" in body
    assert f"+{changes[seats[winner]].delta}" in body


@pytest.mark.parametrize(("rated", "bot"), [(False, False), (True, True)])
def test_rt2_a_casual_game_or_a_game_with_a_bot_changes_nothing(rated: bool, bot: bool) -> None:
    record = play_out(heads_up("triad", rated=rated, bot=bot, hands=1))
    assert record.is_over
    assert not RatingChange.objects.exists() and not Rating.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_rt3_a_rated_tables_ratings_are_read_once_while_it_is_played_and_once_at_its_end() -> None:
    """Every seat and spectator shows the same ratings: one read for them all, not one per
    socket (issue 21), and none at a later version of the game in play, whose frames are then
    drawn without a read; the move that ends it reads them again, with their changes, once for
    the frames of every viewer."""
    table = heads_up("blocks", rated=True)
    viewers = [*(seat.user for seat in table.seats.select_related("user")), None]
    record = table.record
    assert record is not None

    def rating_reads(version: int) -> tuple[int, list[str]]:
        with CaptureQueriesContext(connection) as queries:
            frames = frames_for(table.pk, viewers)
        assert all('data-testid="ratings"' in frame for frame, _ in frames.values())
        reads = sum('"accounts_rating"' in query["sql"] for query in queries.captured_queries)
        return reads, [frame for frame, _ in frames.values()]

    assert rating_reads(record.version)[0] == 1
    engine, state = get_engine("blocks"), state_of(record)
    seat = engine.current_player(state)
    mover = table.seats.get(number=seat).user
    move_path.play_at_table(
        table_id=table.pk, user=mover, move=engine.view(state, seat).legal[0], expected_version=record.version
    )
    assert rating_reads(record.version + 1)[0] == 0
    with CaptureQueriesContext(connection) as played:
        record = play_out(table)
    shown = [q for q in played.captured_queries if q["sql"].startswith('SELECT "accounts_ratingchange".')]
    assert len(shown) == 1
    reads, frames = rating_reads(record.version)
    changes = [change.delta for change in record.rating_changes.all()]
    assert reads == 0 and len(changes) == 2
    said = [f"+{delta} rating" if delta >= 0 else f"\N{MINUS SIGN}{-delta} rating" for delta in changes]
    assert all(all(words in frame for words in said) for frame in frames)
