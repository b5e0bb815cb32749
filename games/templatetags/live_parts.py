"""``{% live_part name %}``: a live table's Jinja2 template (games/live/live_templates.py) in a
Django page, drawn with the page's context: the table page's first frame, and a table
game's board in its replay, are the very templates the sockets draw."""

from __future__ import annotations

from typing import Any, cast

from django import template
from django.template import engines
from django.utils.safestring import SafeString, mark_safe

register = template.Library()


@register.simple_tag(takes_context=True)
def live_part(context: template.Context, name: str) -> SafeString:
    part = engines["jinja2"].get_template(name)
    # Jinja2 escapes what it draws: the part comes back as HTML.
    names = cast(dict[str, Any], context.flatten())  # a template's context is keyed by names
    return mark_safe(part.render(names, request=context.get("request")))
