"""The leaderboards' rows and the profile's charts drawn in Python (issue 42): what the
templates drew, the viewer's own row marked, the words in the reader's language and the SVG's
numbers in SVG's own notation whatever the language."""

from __future__ import annotations

import datetime as dt
from types import SimpleNamespace

from django.utils import translation

from accounts.rating_chart import rating_chart
from accounts.templatetags.profile_charts import rating_chart_svg, results_chart
from games.stats.selectors import LeaderboardRow, StreakRow
from games.templatetags.board_rows import (
    best_board_rows,
    champion_rows,
    daily_board_rows,
    streak_rows,
    tournament_win_rows,
)

ALICE = SimpleNamespace(pk=1, username="alice")
BOB = SimpleNamespace(pk=2, username="bob<script>")


def attempt(owner: SimpleNamespace, pk: int, *, won: bool) -> LeaderboardRow:
    record = SimpleNamespace(
        pk=pk,
        owner=owner,
        owner_id=owner.pk,
        won=won,
        score=120,
        action_count=33,
        elapsed_seconds=245.0,
        daily=SimpleNamespace(game="pyramid", date=dt.date(2026, 11, 29)),
    )
    return LeaderboardRow(rank=pk, record=record)  # type: ignore[arg-type]


def test_a_days_board_marks_the_viewers_row_escapes_names_and_links_replays_when_asked() -> None:
    rows = [attempt(ALICE, 1, won=True), attempt(BOB, 2, won=False)]
    html = daily_board_rows(rows, ALICE, True)
    mine, theirs = html.split("\n")
    assert mine.startswith('<tr class="is-me"><td>1</td><td><a href="/u/alice/">')
    assert theirs.startswith("<tr><td>2</td>") and "bob&lt;script&gt;" in theirs and "<script>" not in theirs
    assert '<span class="badge won">Won</span>' in mine and '<span class="badge">Lost</span>' in theirs
    assert '<td class="num">4:05</td>' in mine and '<a href="/games/1/replay/">Watch</a>' in mine
    assert "Watch" not in daily_board_rows(rows, SimpleNamespace(pk=None), False)


def test_best_boards_link_the_deals_day_in_the_readers_language() -> None:
    with translation.override("it"):
        html = best_board_rows([attempt(ALICE, 1, won=True)], SimpleNamespace(pk=None))
    assert '<a href="/daily/pyramid/2026-11-29/">29 Nov</a>' in html and ">Vinta<" in html


def test_streaks_count_days_with_the_languages_plural() -> None:
    rows = [StreakRow(rank=1, user=ALICE, best=1, current=4)]  # type: ignore[arg-type]
    assert "1 day</td>" in streak_rows(rows, ALICE) and "4 days</td>" in streak_rows(rows, ALICE)
    with translation.override("it"):
        html = streak_rows(rows, ALICE)
    assert "1 giorno</td>" in html and "4 giorni</td>" in html


def test_the_results_strip_says_each_result_and_draws_a_bar_for_it() -> None:
    html = results_chart([True, False])
    assert 'width="14"' in html and 'aria-label="Recent results, oldest first: won, lost"' in html
    assert (
        '<rect x="0" y="2" width="5" height="22"' in html
        and '<rect x="7" y="16" width="5" height="8"' in html
    )


def test_the_rating_charts_numbers_stay_svgs_in_italian() -> None:
    chart = rating_chart([1500, 1512.4, 1490, 1533])
    assert chart.last is not None
    r = SimpleNamespace(
        chart=chart, spec=SimpleNamespace(slug="triad", name="Triad"), rating=SimpleNamespace(shown="1533")
    )
    with translation.override("it"):
        html = rating_chart_svg(r)
    assert f'points="{chart.polyline}"' in html and "," in chart.polyline and "." in chart.polyline
    assert f'cx="{chart.last.x:g}"' in html and "partite classificate" in html
    assert "Massimo: 1533 dopo 3 partite" in html and "Minimo: 1490 dopo 2 partite" in html


def test_champions_and_tournament_winners_are_placed_in_order_with_the_viewer_marked() -> None:
    standings = [SimpleNamespace(user=BOB, won=9, played=12), SimpleNamespace(user=ALICE, won=4, played=30)]
    first, second = champion_rows(standings, ALICE).split("\n")
    assert first.startswith("<tr><td>1</td>") and '<td class="num">9</td><td class="num">12</td>' in first
    assert second.startswith('<tr class="is-me"><td>2</td><td><a href="/u/alice/">')
    winners = [SimpleNamespace(pk=2, username="bob<script>", tournament_wins=3, tournaments_played=5)]
    row = tournament_win_rows(winners, ALICE)
    assert row.startswith("<tr><td>1</td>") and "bob&lt;script&gt;" in row and '<td class="num">3</td>' in row
