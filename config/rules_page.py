"""The rules page: docs/rules.md rendered once per process."""

from __future__ import annotations

from functools import cache

import markdown
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.safestring import SafeString, mark_safe
from django.views.decorators.http import require_safe


@cache
def rules_html() -> SafeString:
    text = (settings.BASE_DIR / "docs" / "rules.md").read_text(encoding="utf-8")
    # Our own file, not user input: safe to mark as HTML.
    return mark_safe(markdown.markdown(text, extensions=["tables", "toc", "sane_lists"]))


@require_safe
def rules(request: HttpRequest) -> HttpResponse:
    return render(request, "rules.html", {"rules_html": rules_html()})
