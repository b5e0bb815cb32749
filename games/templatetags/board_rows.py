"""The rows of the leaderboards' tables (templates/games/leaderboards.html and its partials).

Written here, not in the template, as the profile's rating history is
(``accounts.templatetags.rating_history``): the leaderboards page shows about 170 rows in 12
tables, and the template language spent about 17 of the page's 46 ms a GET on them at a
million games (issue 42, docs/benchmarks.md). The words go through the same translation
calls the templates made, the dates through the same formats, in the request's language.

    {% load board_rows %}
    <tbody>{% daily_board_rows leaderboard user show_replays %}</tbody>
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Iterable
from typing import Any

from django import template
from django.urls import reverse
from django.utils.dateformat import format as date_text
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import get_language, gettext, ngettext

from accounts.templatetags.player_names import player_name, profile_url
from games.models import DailyChallenge
from games.stats.selectors import LeaderboardRow, RatingRow, StreakRow
from games.templatetags.race_times import race_time

register = template.Library()

ME = ' class="is-me"'
"""The viewer's own row."""


def _me(user_id: int | None, viewer: Any) -> str:
    return ME if user_id is not None and user_id == getattr(viewer, "pk", None) else ""


def _player(username: str) -> SafeString:
    return format_html('<a href="{}">{}</a>', profile_url(username), player_name(username))


def _attempt(row: LeaderboardRow, viewer: Any) -> tuple[SafeString, SafeString, SafeString, DailyChallenge]:
    """What every board shows of an attempt: whether it is the viewer's, the player, the result
    and its deal. Only a person's ranked daily attempt is on a board (an import has no owner, a
    casual game no deal)."""
    record = row.record
    assert record.owner is not None and record.daily is not None, "a board lists ranked daily attempts"
    me = SafeString(_me(record.owner_id, viewer))
    return me, _player(record.owner.username), _result(bool(record.won)), record.daily


def _result(won: bool) -> SafeString:
    if won:
        return format_html('<span class="badge won">{}</span>', gettext("Won"))
    return format_html('<span class="badge">{}</span>', gettext("Lost"))


@register.simple_tag
def daily_board_rows(rows: Iterable[LeaderboardRow], viewer: Any, show_replays: bool = False) -> SafeString:
    """A day's board: rank, player, result, score, moves, time and (once the day is over) the replay."""
    watch = gettext("Watch")

    def row_parts(row: LeaderboardRow) -> tuple[object, ...]:
        me, player, result, _ = _attempt(row, viewer)
        shown = (
            format_html('<a href="{}">{}</a>', reverse("replay", args=[row.record.pk]), watch)
            if show_replays
            else ""
        )
        record = row.record
        return me, row.rank, player, result, record.score, record.action_count, race_time(row.seconds), shown

    return format_html_join(
        "\n",
        '<tr{}><td>{}</td><td>{}</td><td>{}</td><td class="num">{}</td>'
        '<td class="num narrow-hide">{}</td><td class="num">{}</td><td>{}</td></tr>',
        map(row_parts, rows),
    )


@register.simple_tag
def best_board_rows(rows: Iterable[LeaderboardRow], viewer: Any) -> SafeString:
    """A week's or all time's best attempts: as a day's, with the deal's day linked."""
    language = get_language()

    def row_parts(row: LeaderboardRow) -> tuple[object, ...]:
        me, player, result, daily = _attempt(row, viewer)
        address, day = _deal_day(language, daily.game, daily.date)
        record = row.record
        return (
            me,
            row.rank,
            player,
            address,
            day,
            result,
            record.score,
            record.action_count,
            race_time(row.seconds),
        )

    return format_html_join(
        "\n",
        '<tr{}><td>{}</td><td>{}</td><td><a href="{}">{}</a></td><td>{}</td><td class="num">{}</td>'
        '<td class="num narrow-hide">{}</td><td class="num">{}</td></tr>',
        map(row_parts, rows),
    )


@functools.lru_cache(maxsize=1024)
def _deal_day(language: str | None, game: str, day: dt.date) -> tuple[str, str]:
    """A daily deal's address and its day as the board shows it ("29 Nov"), in ``language``:
    the all-time boards repeat a few deals' days, each reversed and formatted once a process."""
    return reverse("daily_detail", args=[game, day.isoformat()]), date_text(day, "j M")


@register.simple_tag
def rating_board_rows(rows: Iterable[RatingRow], viewer: Any) -> SafeString:
    """A game's rating board: rank, player, rating (RT-3's "?" while provisional), games, wins."""
    return format_html_join(
        "\n",
        '<tr{}><td>{}</td><td>{}</td><td class="num">{}</td><td class="num">{}</td>'
        '<td class="num">{}</td></tr>',
        (
            (
                SafeString(_me(row.rating.user_id, viewer)),
                row.rank,
                _player(row.rating.user.username),
                row.rating.shown,
                row.rating.games,
                row.wins,
            )
            for row in rows
        ),
    )


PERSON_ROW = '<tr{}><td>{}</td><td>{}</td><td class="num">{}</td><td class="num">{}</td></tr>'
"""A place, a person and two figures: the champions', streaks' and tournament wins' tables."""


def _person_rows(viewer: Any, rows: Iterable[tuple[int, int, str, object, object]]) -> SafeString:
    """``PERSON_ROW`` a row of ``(person's id, place, name, figure, figure)``."""
    return format_html_join(
        "\n",
        PERSON_ROW,
        (
            (SafeString(_me(pk, viewer)), place, _player(name), first, second)
            for pk, place, name, first, second in rows
        ),
    )


@register.simple_tag
def champion_rows(rows: Iterable[Any], viewer: Any) -> SafeString:
    """The daily champions: place, player, daily wins, ranked attempts."""
    return _person_rows(
        viewer,
        ((row.user.pk, place, row.user.username, row.won, row.played) for place, row in enumerate(rows, 1)),
    )


def _days(n: int) -> str:
    return ngettext("%(n)s day", "%(n)s days", n) % {"n": n}


@register.simple_tag
def streak_rows(rows: Iterable[StreakRow], viewer: Any) -> SafeString:
    """The longest daily streaks: rank, player, best run, current run."""
    return _person_rows(
        viewer,
        ((row.user.pk, row.rank, row.user.username, _days(row.best), _days(row.current)) for row in rows),
    )


@register.simple_tag
def tournament_win_rows(people: Iterable[Any], viewer: Any) -> SafeString:
    """Tournament wins: place, player, tournaments won, tournaments played."""
    return _person_rows(
        viewer,
        (
            (person.pk, place, person.username, person.tournament_wins, person.tournaments_played)
            for place, person in enumerate(people, 1)
        ),
    )
