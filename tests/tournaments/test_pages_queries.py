"""A tournament's page, its htmx poll and its exports run as many queries for a big event as
for a small one: nothing is read match by match or entrant by entrant."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.tournaments.test_pages import logged_in, played_to_the_end
from tournaments.models import Match, Tournament

pytestmark = pytest.mark.django_db

FORMATS: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    # (people, options) of the small event, then of the bigger one.
    "single_elimination": ({"people": 2}, {"people": 5, "fill_with_bots": True, "third_place": True}),
    "double_elimination": ({"people": 2}, {"people": 5, "fill_with_bots": True}),
    "round_robin": ({"people": 3}, {"people": 1, "fill_with_bots": True, "max_entrants": 6}),
    "swiss": (
        {"people": 3, "rounds": 1},
        {"people": 1, "fill_with_bots": True, "max_entrants": 7, "rounds": 3},
    ),
}


def _queries(client: Client, url: str, *, htmx: bool = False) -> int:
    headers = {"HX-Request": "true"} if htmx else {}
    client.get(url, headers=headers)  # the first request of a client reads its session and the like
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url, headers=headers).status_code == 200
    return len(captured)


def _counts(tournament: Tournament) -> dict[str, int]:
    creator = logged_in(tournament.created_by)
    url = tournament.get_absolute_url()
    return {
        "page": _queries(Client(), url),
        "page, logged in": _queries(creator, url),
        "htmx poll": _queries(creator, f"{url}?since=0", htmx=True),
        **{
            name: _queries(Client(), reverse(name, args=[tournament.pk]))
            for name in ("tournament_results_json", "tournament_results_csv", "tournament_matches_csv")
        },
    }


@pytest.mark.parametrize("format", FORMATS)
def test_the_queries_do_not_grow_with_the_event(format: str) -> None:
    small, big = (
        played_to_the_end(options.pop("people"), prefix=prefix, format=format, **options)
        for prefix, options in zip(("small", "big"), (dict(spec) for spec in FORMATS[format]), strict=True)
    )
    assert Match.objects.filter(tournament=big).count() > 2 * Match.objects.filter(tournament=small).count()
    assert big.entries.count() > small.entries.count()
    counts = _counts(small)
    assert _counts(big) == counts
    assert max(counts.values()) <= 13, counts  # signed in: the chat panel reads whom the person blocked
