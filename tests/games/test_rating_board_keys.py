"""A rating board read by key (games/stats/rating_boards.py, issue 42): its links lead on from the
last player seen, each player appears once however the pages are walked, ties included, and
ranks are the profile's."""

from __future__ import annotations

import re
from urllib.parse import unquote

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from accounts.models import PROVISIONAL_GAMES, Rating
from accounts.selectors import profile_ratings
from games.stats.keysets import RatingKey
from games.stats.rating_boards import RatingPage, rating_page

pytestmark = pytest.mark.django_db
User = get_user_model()


def board(count: int, *, tie_every: int = 1) -> list[Rating]:
    """``count`` ranked Triad ratings, ``tie_every`` of them at each rating, and two
    provisional ones; the ranked ones in the board's order (best first, then the smaller id)."""
    people = User.objects.bulk_create(
        User(username=f"k{number:03}", email=f"k{number}@example.com") for number in range(count + 2)
    )
    Rating.objects.bulk_create(
        Rating(
            user=person,
            game="triad",
            mu=1000 + number // tie_every,
            sigma=100,
            games=PROVISIONAL_GAMES if number < count else PROVISIONAL_GAMES - 1,
        )
        for number, person in enumerate(people)
    )
    return sorted(Rating.objects.filter(games__gte=PROVISIONAL_GAMES), key=lambda r: (-r.mu, r.pk))


def listed(page: RatingPage) -> list[tuple[int, int]]:
    return [(row.rank, row.rating.pk) for row in page.rows]


def test_walking_down_up_or_by_number_lists_each_player_once_at_their_rank_ties_included() -> None:
    ordered = board(133, tie_every=7)  # ties across every page's edges
    expected = [(rank, rating.pk) for rank, rating in enumerate(ordered, start=1)]
    down, page = [], rating_page("triad", size=20)
    while True:
        down.append(page)
        if page.lower is None:
            break
        page = rating_page("triad", after=page.lower, size=20)
    assert [row for page in down for row in listed(page)] == expected
    assert [page.number for page in down] == list(range(1, 8)) and {page.pages for page in down} == {7}
    assert [listed(rating_page("triad", number=n, size=20)) for n in range(1, 8)] == [listed(p) for p in down]
    up, page = [], down[-1]
    while page.higher is not None:
        page = rating_page("triad", before=page.higher, size=20)
        up.append(page)
    assert [listed(page) for page in up] == [listed(page) for page in down[-2::-1]]
    assert rating_page("triad", number=8, size=20).rows == []  # past the end


def test_the_page_below_starts_after_the_last_player_seen_while_ratings_change(client: Client) -> None:
    ordered = board(55)
    first = client.get("/leaderboards/triad/").content.decode()
    lower = re.search(r'href="\?after=([^"]+)" rel="next"', first)
    assert lower is not None and "Page 1 of 2" in first
    # The 51st player wins their way to the top after the first page was read: the page below
    # still starts with the next player the reader has not seen, and its ranks are today's.
    climber = ordered[50]
    Rating.objects.filter(pk=climber.pk).update(mu=5000)
    below = rating_page("triad", after=RatingKey.parse(unquote(lower.group(1))))
    assert [row.rating.pk for row in below.rows] == [rating.pk for rating in ordered[51:]]
    assert [row.rank for row in below.rows] == [52, 53, 54, 55]
    body = client.get(f"/leaderboards/triad/?after={lower.group(1)}").content.decode()
    assert ordered[51].user.username in body and climber.user.username not in body
    assert "Page 2 of 2" in body and 'rel="next"' not in body


def test_a_deactivated_account_keeps_its_place_unlisted_and_ranks_agree_with_the_profile() -> None:
    ordered = board(5)
    gone = ordered[1].user
    gone.is_active = False
    gone.save()
    page = rating_page("triad")
    assert [(row.rank, row.rating.user.username) for row in page.rows] == [
        (1, ordered[0].user.username),
        (3, ordered[2].user.username),
        (4, ordered[3].user.username),
        (5, ordered[4].user.username),
    ]
    (third,) = profile_ratings(ordered[2].user)
    assert third.rank == 3


@pytest.mark.parametrize(
    "token",
    [
        "abc",
        "nan_1",
        "inf_5",
        "1e999_3",
        "1500_99999999999999999999",
        "1500",
        "1500_-3",
        "\u0661\u0665\u0660\u0660_3",
    ],
)
def test_a_place_no_link_of_the_site_holds_is_not_found(client: Client, token: str) -> None:
    board(3)
    for name in ("after", "before"):
        assert client.get("/leaderboards/triad/", {name: token}).status_code == 404
    assert client.get("/api/leaderboards/triad", {"after": token}).status_code == 400


def test_a_key_past_the_end_shows_the_last_page(client: Client) -> None:
    ordered = board(55)
    body = client.get("/leaderboards/triad/", {"after": RatingKey(ordered[-1].mu, ordered[-1].pk).token})
    assert "Page 2 of 2" in body.content.decode() and ordered[-1].user.username in body.content.decode()
