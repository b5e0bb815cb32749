"""Issue 41: the demo series' editions that only bots played do not fill /tournaments/'s
Finished list. They are counted under it with a link to their series, whose page lists
every edition; a tournament people played stays on the list."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.tournaments.test_pages import play_one, played_to_the_end, texts
from tests.tournaments.test_series import a_series
from tournaments import series as series_service
from tournaments import services
from tournaments.models import Series, Tournament

pytestmark = pytest.mark.django_db


def played_by_bots_alone() -> tuple[Series, Tournament]:
    """A series' edition nobody entered, started at its time and played to its end by bots."""
    series = a_series(name="Triad every 10")
    edition = Tournament.objects.get(pk=min(series_service.schedule_editions(timezone.now())))
    assert edition.series_id == series.pk
    services.start_due(edition.starts_at)
    while play_one(edition) is not None:
        pass
    edition.refresh_from_db()
    assert edition.status == Tournament.Status.FINISHED
    assert not edition.entries.filter(user__isnull=False).exists()
    return series, edition


def test_editions_only_bots_played_leave_the_finished_list_for_their_series_page() -> None:
    series, demo = played_by_bots_alone()
    cup = played_to_the_end(2, name="Sunday cup", fill_with_bots=True, max_entrants=4)
    for html in (
        Client().get(reverse("tournaments")).content.decode(),
        Client().get(reverse("tournaments"), HTTP_HX_REQUEST="true").content.decode(),  # the poll
    ):
        finished = finished_list(html)
        assert f'href="{cup.get_absolute_url()}"' in finished
        assert f'href="{demo.get_absolute_url()}"' not in finished
        assert texts(html, "bots-only") == [
            "1 finished edition that only bots played is not listed here; see Triad every 10 (1)."
        ]
        assert f'href="{series.get_absolute_url()}">Triad every 10</a>' in finished
    series_page = Client().get(series.get_absolute_url()).content.decode()
    assert f'href="{demo.get_absolute_url()}"' in finished_list(series_page)


def finished_list(html: str) -> str:
    """The Finished list's HTML."""
    return html.split('data-testid="finished"', 1)[1].split("</section>", 1)[0]
