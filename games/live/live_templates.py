"""The Jinja2 environment of the live table's templates (``templates/jinja2/``).

A live table is drawn again for every seat and spectator at every move, and these templates
were most of that work under Django's engine (docs/benchmarks.md, "Live tables"): Jinja2 compiles
them to Python and draws the same HTML about three times faster. Every other page stays with
Django's engine; a Django page shows a live part with ``{% live_part name %}``
(games/templatetags/live_parts.py), with its own context.

The environment keeps the leniency the templates were written for under Django: a missing
name, or an attribute of one, is empty (``ChainableUndefined``) rather than an error.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import MutableMapping
from typing import Any

import jinja2
from django.template import engines
from django.urls import reverse
from django.utils.text import capfirst
from django.utils.translation import gettext, ngettext

from accounts.templatetags.player_names import player_name


@functools.lru_cache(maxsize=1024)
def iso_time(value: dt.datetime) -> str:
    """The moment in ISO 8601, in UTC: a live part is drawn once for all who see it, so not in
    one person's zone (none is ever activated; the pages read the offset). Not Django's
    ``localtime``, whose look-up of the current zone was a twentieth of a frame's drawing; and
    kept, as each of a version's frames shows its turn's deadline."""
    return value.astimezone(dt.UTC).isoformat()


def live_template(name: str) -> jinja2.Template:
    """One of the live templates, as Jinja's environment keeps it: Django's ``get_template``
    wraps it anew at each call, for a request that a frame drawn for a socket has not."""
    return engines["jinja2"].env.get_template(name)  # type: ignore[attr-defined,no-any-return]


def url(name: str, *args: Any) -> str:
    return reverse(name, args=args)


class LiveEnvironment(jinja2.Environment):
    """Reads a dict's key before its attributes. The context's rows are dicts read by dot
    (``cell.where``), for which Jinja tries the attribute first and fails: an AttributeError
    raised and caught per read, 12% of a frame's drawing. No live template calls a dict's
    method; one that did would find it still, unless the dict had a key of that name."""

    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)

    def make_globals(self, d: MutableMapping[str, Any] | None) -> MutableMapping[str, Any]:
        """A template's globals as one plain dict, not Jinja's ``ChainMap`` over the
        environment's: each context a frame makes (its own, and one per ``include``) copies
        them, and a ``ChainMap`` is copied key by key in Python, a twentieth of a frame's
        drawing. The environment's globals are all set before any template is loaded."""
        return {**self.globals, **(d or {})}


def environment(**options: Any) -> jinja2.Environment:
    options["undefined"] = jinja2.ChainableUndefined
    # The live templates are a handful, each looked up for every frame (and every include in
    # it): kept in a plain dict, never dropped, rather than Jinja's locked LRU of 400.
    options["cache_size"] = -1
    # Words a person reads go through Django's translations, as in the Django templates:
    # ``{{ _("...") }}``, and with values ``{{ _("Seat %(number)s") % {"number": n} }}``. Old-style
    # callables on purpose: makemessages finds ``_("...")`` only when its string is all the call
    # holds, so values go after it (a plural or a context is worded in Python, for the same reason).
    options["extensions"] = [*options.get("extensions", ()), "jinja2.ext.i18n"]
    env = LiveEnvironment(keep_trailing_newline=True, **options)
    env.install_gettext_callables(gettext, ngettext, newstyle=False)  # type: ignore[attr-defined]
    env.filters.update(player_name=player_name, capfirst=capfirst, iso_time=iso_time)
    env.globals["url"] = url
    return env
