"""The rows of a rating history's table on the profile (templates/accounts/partials/ratings.html).

Written here, not in the template: the busiest profile shows 30 such rows (ten a game), and
the template language spent about 4 ms a GET on their 300 values, a tenth of the page (issue
42, docs/benchmarks.md); here they cost a tenth of that. The words go through the same
translation calls as the template's ``blocktranslate`` did, and the date through the same
format, in the language and time zone of the request.

    {% load rating_history %}
    <tbody>{% rating_history_rows r.history %}</tbody>
"""

from __future__ import annotations

from collections.abc import Iterable

from django import template
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext

from accounts.selectors import RatingHistoryRow

register = template.Library()

ROW = (
    '<tr data-testid="rating-history-row"><td><time datetime="{}">{}</time></td>'
    '<td>{}</td><td class="num">{}</td><td class="num">{}</td><td class="num {}">{}</td></tr>'
)


def _game(row: RatingHistoryRow) -> SafeString:
    """The game's replay link; a private table's game, to someone who may not open it, unlinked."""
    if row.private:
        return format_html('<span class="muted">{}</span>', gettext("a private game"))
    return format_html(
        '<a href="{}" aria-label="{}">{}</a>',
        row.replay_url,
        gettext("Replay of game %(id)s") % {"id": row.record_id},
        gettext("game %(id)s") % {"id": row.record_id},
    )


@register.simple_tag
def rating_history_rows(rows: Iterable[RatingHistoryRow]) -> SafeString:
    """One ``<tr>`` a rated game: when, its replay, the place, the rating after it and the change."""
    return format_html_join(
        "\n",
        ROW,
        (
            (
                row.at_iso,
                date_format(timezone.localtime(row.at), "SHORT_DATE_FORMAT"),
                _game(row),
                row.place,
                row.after,
                row.trend,
                row.change,
            )
            for row in rows
        ),
    )
