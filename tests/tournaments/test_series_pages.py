"""TN-9 pages: the list shows upcoming editions with a countdown, running ones and finished
ones with their champions, each linking its series; a series page lists its editions and
all-time winners; staff define series in the admin."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from tests.tournaments.support import person
from tests.tournaments.test_pages import logged_in, play_one, texts
from tests.tournaments.test_series import a_series, on_the_hour
from tournaments import selectors, services
from tournaments import series as series_service
from tournaments.models import Entry, Series, Tournament

pytestmark = pytest.mark.django_db


def editions(series: Series, count: int) -> list[Tournament]:
    pks = series_service.schedule_editions(on_the_hour())
    return list(Tournament.objects.filter(pk__in=pks).order_by("starts_at"))[:count]


def played(edition: Tournament, player: User) -> Tournament:
    services.join(tournament_id=edition.pk, user=player)
    services.start_now(tournament_id=edition.pk, user=edition.created_by)
    while play_one(edition) is not None:
        pass
    edition.refresh_from_db()
    assert edition.status == Tournament.Status.FINISHED
    return edition


def with_winner(edition: Tournament, user: User | None, when: dt.datetime) -> None:
    """A finished edition won by ``user`` (a bot if None), written as its end leaves it."""
    Entry.objects.create(tournament=edition, user=user, seed=0, place=1)
    Tournament.objects.filter(pk=edition.pk).update(status=Tournament.Status.FINISHED, finished_at=when)


def test_the_list_shows_countdowns_series_links_and_champions() -> None:
    series = a_series(opens_minutes=16)
    done, running, _ = editions(series, 3)
    done = played(done, person("alice"))
    services.join(tournament_id=running.pk, user=person("bob"))
    services.start_now(tournament_id=running.pk, user=series.owner)
    html = Client().get(reverse("tournaments")).content.decode()
    (countdown,) = texts(html, "countdown")
    upcoming = Tournament.objects.get(series=series, status=Tournament.Status.OPEN)
    left = int((upcoming.starts_at - timezone.now()).total_seconds())
    assert countdown in {selectors.starts_in(left), selectors.starts_in(left + 1)}  # read a moment later
    (champion,) = texts(html, "champion")
    (winner,) = done.entries.filter(place=1)
    assert champion == f"Champion: {winner.name}"
    assert texts(html, "series-link") == ["Quick Triad series"] * 3
    assert html.count(f'href="{series.get_absolute_url()}"') == 3
    assert "js/countdown.js" in html
    poll = Client().get(reverse("tournaments"), headers={"HX-Request": "true"}).content.decode()
    assert "<h1>" not in poll and len(texts(poll, "countdown")) == 1


@pytest.mark.parametrize(
    ("seconds", "text"),
    [
        (0, "starting now"),
        (42, "starts in 42 s"),
        (4 * 60 + 5, "starts in 4 min 5 s"),
        (2 * 3600 + 5 * 60 + 9, "starts in 2 h 5 min"),
        (86400 + 3 * 3600, "starts in 1 day 3 h"),
        (3 * 86400, "starts in 3 days 0 h"),
    ],
)
def test_countdown_words(seconds: int, text: str) -> None:
    assert selectors.starts_in(seconds) == text


def test_the_series_page_lists_its_editions_and_its_winners_most_titles_first() -> None:
    series = a_series(opens_minutes=30)
    alice, bob = person("alice"), person("bob")
    rows = editions(series, 6)
    now = timezone.now()
    with_winner(rows[0], bob, now - dt.timedelta(days=3))
    with_winner(rows[1], alice, now - dt.timedelta(days=2))
    with_winner(rows[2], alice, now - dt.timedelta(days=1))
    with_winner(rows[3], None, now)
    other = a_series(name="Other", owner=series.owner)
    with_winner(editions(other, 1)[0], bob, now)  # another series' title does not count here
    html = Client().get(series.get_absolute_url()).content.decode()
    (board,) = texts(html, "all-time-winners")
    # Most titles first; equal counts, the latest title first.
    assert board.index("alice 2 titles") < board.index("Bots 1 title") < board.index("bob 1 title")
    assert len(texts(html, "tournament-row")) == len(rows)  # two upcoming; four finished
    assert texts(html, "series-schedule") == [
        "Every 5 minutes, from :00 ; each edition opens for entry 30 min before it starts."
    ]
    assert texts(html, "series-link") == []  # its own page does not link itself on every row
    assert len(texts(html, "champion")) == 4


def _queries(url: str) -> int:
    client = Client()
    client.get(url)
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


def test_the_pages_queries_do_not_grow_with_the_editions() -> None:
    series = a_series(opens_minutes=60 * 5)
    rows = editions(series, 40)
    now = timezone.now()
    with_winner(rows[0], person("alice"), now)
    before = {url: _queries(url) for url in (reverse("tournaments"), series.get_absolute_url())}
    for n, row in enumerate(rows[1:30]):
        with_winner(row, person(f"p{n}") if n % 3 else None, now)
    after = {url: _queries(url) for url in before}
    assert after == before


SERIES_FORM: dict[str, Any] = {
    "name": "Sunday Swiss",
    "active": "on",
    "game": "triad",
    "config": '{"hands": 3}',
    "format": "swiss",
    "best_of": "1",
    "table_size": "4",
    "rounds": "3",
    "max_entrants": "16",
    "fill_with_bots": "on",
    "clock_seconds": "30",
    "repeat": "weekly",
    "every_minutes": "",
    "weekday": "6",
    "hour": "18",
    "minute": "30",
    "opens_minutes": "1440",
}


def staff() -> Client:
    return logged_in(User.objects.create_superuser("boss", "boss@example.com", "pw-long-enough-1"))


def test_staff_define_a_series_in_the_admin() -> None:
    client = staff()
    owner = User.objects.get(username="boss")
    response = client.post(reverse("admin:tournaments_series_add"), {**SERIES_FORM, "owner": owner.pk})
    assert response.status_code == 302, response.content.decode()[:3000]
    series = Series.objects.get()
    assert (series.format, series.table_size, series.rounds, series.config) == ("swiss", 4, 3, {"hands": 3})
    assert series.schedule_text == "Weekly on Sundays at 18:30 UTC" and series.opens_text == "1 day"
    assert client.get(reverse("admin:tournaments_series_changelist")).status_code == 200


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": "single_elimination"}, "Only round robin and Swiss rounds are played at tables"),
        ({"rounds": ""}, "A Swiss event has between"),
        ({"config": '{"hands": 0}'}, "hands"),
        ({"game": "pyramid"}, "is not a tournament game"),
        ({"game": "tripeaks", "format": "par_match", "window_minutes": "30"}, "Tri-Peaks has no par match"),
        ({"game": "pyramid", "format": "solitaire", "window_minutes": "30"}, "1 to 10 deals"),
        ({"game": "nope"}, "Select a valid choice"),
        ({"weekday": ""}, "a weekly series needs its weekday"),
        ({"repeat": "minutes"}, "every few minutes needs its number of minutes"),
        ({"minute": "60"}, "60 is not between 0 and 59"),
        ({"opens_minutes": str(61 * 24 * 60)}, "At most 86400 minutes"),
    ],
)
def test_the_admin_refuses_options_a_tournament_would_refuse(change: dict[str, str], message: str) -> None:
    client = staff()
    owner = User.objects.get(username="boss")
    response = client.post(
        reverse("admin:tournaments_series_add"), {**SERIES_FORM, "owner": owner.pk, **change}
    )
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Series.objects.exists()
