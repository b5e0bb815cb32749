"""Names on pages: a long one is cut short by CSS (`.player-name` in static/css/site.css) and
keeps its whole self in a title, shown on hover.

A closed account's name never reaches here: ``Seat.name`` and ``Entry.name`` (and the pages
that read a user) say "a closed account" instead (issue 45; ``accounts.closed_names``).

New usernames have at most 20 characters (accounts.validators), but accounts made before that
limit may have up to 150, and a name without spaces never wraps: left alone it widens the page.

    {% load player_names %}
    <a href="...">{{ entry.name|player_name }}</a>   a span that cuts the name short
    <h1{{ person.username|name_title }}>...</h1>       only the title, for an element that cuts
                                                     its text itself (with its own CSS)
"""

from __future__ import annotations

import functools
from typing import Any

from django import template
from django.urls import get_script_prefix, reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString

from accounts import closed_names

register = template.Library()

TITLE_FROM = 13
"""Names of up to 12 characters fit every place a name is shown, so they need no title (and
the page's HTML stays as it was for them); from 13 on one may be cut, depending on its letters."""


@register.filter
def player_name(name: object) -> SafeString:
    text = str(name)
    # Kept by text: a live table draws its players' names in every frame of every move. A
    # safe string is left as it is, which a kept plain one of the same text would not be.
    return _name_span(text) if not isinstance(text, SafeString) else _name_span.__wrapped__(text)


@functools.lru_cache(maxsize=4096)
def _name_span(text: str) -> SafeString:
    if len(text) < TITLE_FROM:
        return format_html('<span class="player-name">{}</span>', text)
    return format_html('<span class="player-name" title="{}">{}</span>', text, text)


@register.filter
def person_name(user: Any) -> SafeString:
    """A person given as a user (``table.created_by``): "a closed account" once theirs is."""
    return player_name(closed_names.shown() if user.closed_at is not None else user.username)


@register.filter
def name_title(name: object) -> SafeString:
    """`` title="..."`` (with its leading space) for a long name, else nothing."""
    text = str(name)
    if len(text) < TITLE_FROM:
        return SafeString("")
    return format_html(' title="{}"', text)


@register.filter
def profile_url(username: object) -> str:
    """The address of a person's profile: ``{% url 'profile' name %}`` for a board's rows,
    each name reversed once a process (a leaderboards page links about 190 names)."""
    return _profile_url(get_script_prefix(), str(username))


@functools.lru_cache(maxsize=4096)
def _profile_url(prefix: str, username: str) -> str:
    # ``prefix`` only keys the cache: ``reverse`` writes the script prefix in force itself.
    return reverse("profile", kwargs={"username": username})
