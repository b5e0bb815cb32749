"""Pages of the games app."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from games.catalogue import CATALOGUE


@require_safe
def play(request: HttpRequest) -> HttpResponse:
    return render(request, "games/play.html", {"games": CATALOGUE})


def _not_open_yet(request: HttpRequest, title: str, blurb: str) -> HttpResponse:
    return render(request, "not_open_yet.html", {"title": title, "blurb": blurb})


@require_safe
def tables(request: HttpRequest) -> HttpResponse:
    return _not_open_yet(request, "Tables", "Live tables for Triad and Pyramid Poker, with people and bots.")


@require_safe
def daily(request: HttpRequest) -> HttpResponse:
    return _not_open_yet(
        request, "Daily challenge", "One winnable Pyramid and Tri-Peaks deal a day, the same for everyone."
    )


@require_safe
def leaderboards(request: HttpRequest) -> HttpResponse:
    return _not_open_yet(request, "Leaderboards", "The best daily-challenge runs and the strongest players.")
