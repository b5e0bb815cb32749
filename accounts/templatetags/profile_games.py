"""The rows of the profile's list of games (templates/accounts/profile.html).

Written here, not in the template, as the rating history's rows are
(``accounts.templatetags.rating_history``): the template language spent about 2 ms a GET
on a page of 25 games, a twentieth of the busiest profile (issue 42); here a third of that.
The words go through translation calls, the time through the ``date`` filter's format in the
request's time zone.

    {% load profile_games %}
    <tbody>{% profile_game_rows games %}</tbody>
"""

from __future__ import annotations

from collections.abc import Iterable

from django import template
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.text import capfirst
from django.utils.translation import gettext

from games.models import GameRecord, Participation

register = template.Library()

ROW = (
    '<tr data-testid="profile-game"><td>{}</td><td>{}{}</td><td>{}</td><td class="num">{}</td>'
    '<td><a href="{}">{}</a></td></tr>'
)


def _kind(kind: str) -> str:
    """How a game came to be, after its name: a table's, a tournament's, a daily deal's."""
    if kind == GameRecord.Kind.TABLE:
        return " " + gettext("(table)")
    if kind == GameRecord.Kind.TOURNAMENT:
        return " " + gettext("(tournament)")
    if kind == GameRecord.Kind.DAILY:
        return " " + gettext("(daily)")
    return ""


def _result(won: bool | None) -> SafeString:
    if won:
        return format_html('<span class="badge won">{}</span>', gettext("Won"))
    if won is False:
        return format_html('<span class="badge">{}</span>', gettext("Lost"))
    return SafeString("\u2013")  # an en dash: no result


@register.simple_tag
def profile_game_rows(games: Iterable[Participation]) -> SafeString:
    """One ``<tr>`` a game: when it finished, which game, the person's result, the score, a replay."""
    watch = gettext("Watch")
    return format_html_join(
        "\n",
        ROW,
        (
            (
                date_format(timezone.localtime(item.record.finished_at), "SHORT_DATETIME_FORMAT")
                if item.record.finished_at
                else "",
                capfirst(item.record.get_game_display()),
                _kind(item.record.kind),
                _result(item.won),
                "" if item.record.score is None else item.record.score,
                reverse("replay", args=[item.record.pk]),
                watch,
            )
            for item in games
        ),
    )
