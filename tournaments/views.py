"""Pages of the tournaments app."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe


@require_safe
def index(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "not_open_yet.html",
        {"title": "Tournaments", "blurb": "Scheduled tournaments with brackets, rounds and standings."},
    )
