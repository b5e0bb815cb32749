"""The profile's two small SVG charts, drawn here rather than in the template language.

The busiest profile draws three rating charts and a results strip per game, and the template
language spent about 4 of the page's 41 ms a GET on their tags (issue 42, docs/benchmarks.md):
here they cost a tenth of that. The words go through the same translation calls, in the
request's language; the geometry is written in SVG's own numbers, never a language's ("44,5"
is no coordinate).

    {% load profile_charts %}
    {% results_chart s.recent %}     a bar per recent result, oldest left
    {% rating_chart_svg r %}         one game's rating history (``r``: a GameRating)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext, ngettext

register = template.Library()

BAR = 7
"""Each result's width in the strip, its 5-pixel bar and the gap after it."""


@register.simple_tag
def results_chart(results: Sequence[bool]) -> SafeString:
    """The last results, oldest left: a tall green bar for a win, a short grey one for a loss."""
    width = len(results) * BAR
    label = " ".join(
        [
            gettext("Recent results, oldest first:"),
            ", ".join(gettext("won") if won else gettext("lost") for won in results),
        ]
    )
    bars = format_html_join(
        "",
        '<rect x="{}" y="{}" width="5" height="{}" rx="1" fill="{}"/>',
        (
            (n * BAR, 2, 22, "#1f6f4a") if won else (n * BAR, 16, 8, "#b9b3a4")
            for n, won in enumerate(results)
        ),
    )
    return format_html(
        '<svg class="results-chart" width="{}" height="24" viewBox="0 0 {} 24" role="img" aria-label="{}">\n'
        "  {}\n</svg>",
        width,
        width,
        label,
        bars,
    )


def _n(value: float) -> str:
    """A coordinate as SVG reads it: 44.5, never a language's 44,5."""
    return f"{value:g}"


@register.simple_tag
def rating_chart_svg(r: Any) -> SafeString:
    """One game's rating history as a line (``accounts.rating_chart`` gives the geometry)."""
    c = r.chart
    slug = r.spec.slug
    title = ngettext(
        "%(game)s rating over %(n)s rated game", "%(game)s rating over %(n)s rated games", c.games
    ) % {"game": r.spec.name, "n": c.games}
    desc = gettext("Started at %(start)s, lowest %(lowest)s, highest %(highest)s, now %(now)s.") % {
        "start": c.points[0].value,
        "lowest": c.lowest.value,
        "highest": c.highest.value,
        "now": r.rating.shown,
    }
    grid = format_html_join(
        "",
        '\n    <line x1="{}" x2="{}" y1="{}" y2="{}"/>',
        ((_n(c.left), _n(c.right), _n(t.position), _n(t.position)) for t in c.y_ticks),
    )
    y_labels = format_html_join(
        "",
        '\n    <text x="{}" y="{}" text-anchor="end" dominant-baseline="middle">{}</text>',
        ((_n(c.left - 6), _n(t.position), t.label) for t in c.y_ticks),
    )
    x_labels = format_html_join(
        "",
        '\n    <text x="{}" y="{}" text-anchor="middle">{}</text>',
        ((_n(t.position), _n(c.bottom + 14), t.label) for t in c.x_ticks),
    )
    extremes = SafeString("")
    if c.highest.value != c.lowest.value:
        extremes = format_html(
            '<circle class="rc-high" cx="{}" cy="{}" r="3"><title>{}</title></circle>\n'
            '  <circle class="rc-low" cx="{}" cy="{}" r="3"><title>{}</title></circle>',
            _n(c.highest.x),
            _n(c.highest.y),
            ngettext(
                "Highest: %(value)s after %(n)s game", "Highest: %(value)s after %(n)s games", c.highest.game
            )
            % {"value": c.highest.value, "n": c.highest.game},
            _n(c.lowest.x),
            _n(c.lowest.y),
            ngettext(
                "Lowest: %(value)s after %(n)s game", "Lowest: %(value)s after %(n)s games", c.lowest.game
            )
            % {"value": c.lowest.value, "n": c.lowest.game},
        )
    return format_html(
        '<svg class="rating-chart" viewBox="0 0 {width} {height}" preserveAspectRatio="xMidYMid meet"'
        ' role="img" aria-labelledby="rc-title-{slug} rc-desc-{slug}" data-testid="rating-chart">\n'
        '  <title id="rc-title-{slug}">{title}</title>\n'
        '  <desc id="rc-desc-{slug}">{desc}</desc>\n'
        '  <g class="rc-grid">{grid}\n  </g>\n'
        '  <g class="rc-axis-labels">{y_labels}{x_labels}\n'
        '    <text x="{middle}" y="{axis_title_y}" text-anchor="middle" class="rc-axis-title">'
        "{axis_title}</text>\n"
        "  </g>\n"
        '  <line class="rc-axis" x1="{left}" x2="{right}" y1="{bottom}" y2="{bottom}"/>\n'
        '  <polyline class="rc-line" points="{polyline}"/>\n'
        "  {extremes}\n"
        '  <circle class="rc-last" cx="{last_x}" cy="{last_y}" r="4"/>\n'
        '  <text class="rc-last-label" x="{label_x}" y="{last_y}" dominant-baseline="middle">{shown}</text>\n'
        "</svg>",
        width=c.width,
        height=c.height,
        slug=slug,
        title=title,
        desc=desc,
        grid=grid,
        y_labels=y_labels,
        x_labels=x_labels,
        middle=_n(c.middle_x),
        axis_title_y=c.height - 3,
        axis_title=gettext("rated games"),
        left=_n(c.left),
        right=_n(c.right),
        bottom=_n(c.bottom),
        polyline=c.polyline,
        extremes=extremes,
        last_x=_n(c.last.x),
        last_y=_n(c.last.y),
        label_x=_n(c.last.x + 6),
        shown=r.rating.shown,
    )
