"""Pages of the tournaments app: the list and schedule form, a tournament's page, entries."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST, require_safe

from config.http import AuthenticatedHttpRequest, HtmxHttpRequest
from tournaments import selectors, services
from tournaments.forms import TournamentForm
from tournaments.models import Tournament


@require_safe
def index(request: HtmxHttpRequest) -> HttpResponse:
    return render(
        request, "tournaments/index.html", {"form": TournamentForm(), **selectors.tournament_lists()}
    )


@login_required
@require_POST
def create(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = TournamentForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            tournament = services.create_tournament(
                creator=request.user,
                name=data["name"],
                game=data["game"],
                config=form.config(),
                clock_seconds=data["clock_seconds"],
                max_entrants=data["max_entrants"],
                starts_at=form.starts_at(),
                fill_with_bots=data["fill_with_bots"],
                rated=data["rated"],
            )
        except services.TournamentError as exc:
            form.add_error(None, str(exc))
        else:
            return redirect(tournament)
    context = {"form": form, **selectors.tournament_lists()}
    return render(request, "tournaments/index.html", context, status=400)


def _context(request: HtmxHttpRequest, tournament: Tournament) -> dict[str, Any]:
    user = request.user if request.user.is_authenticated else None
    rounds = selectors.bracket(tournament)
    entrants = selectors.entrants(tournament)
    bot_count = sum(entry.user_id is None for entry in entrants)
    return {
        "tournament": tournament,
        "entrants": entrants,
        "people_count": len(entrants) - bot_count,
        "bot_count": bot_count,
        "entered": user is not None and any(entry.user_id == user.pk for entry in entrants),
        "rounds": rounds,
        "replays": selectors.played_matches(rounds),
        "standings": selectors.standings(tournament, entrants),
        "my_match": selectors.current_match(tournament, user),
    }


@require_safe
def detail(request: HtmxHttpRequest, tournament_id: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament.objects.select_related("created_by"), pk=tournament_id)
    if not request.htmx:
        return render(request, "tournaments/detail.html", _context(request, tournament))
    if request.GET.get("since") == str(tournament.version):
        return HttpResponse(status=204)  # the page's poll: nothing changed, so htmx swaps nothing
    return render(request, "tournaments/partials/body.html", _context(request, tournament))


def _change(request: HtmxHttpRequest, tournament_id: int, change: Callable[..., Any]) -> HttpResponse:
    try:
        change(tournament_id=tournament_id, user=request.user)
    except services.TournamentError as exc:
        messages.error(request, str(exc))
    return redirect("tournament", tournament_id=tournament_id)


@login_required
@require_POST
def join(request: HtmxHttpRequest, tournament_id: int) -> HttpResponse:
    return _change(request, tournament_id, services.join)


@login_required
@require_POST
def withdraw(request: HtmxHttpRequest, tournament_id: int) -> HttpResponse:
    return _change(request, tournament_id, services.withdraw)


@login_required
@require_POST
def start(request: HtmxHttpRequest, tournament_id: int) -> HttpResponse:
    return _change(request, tournament_id, services.start_now)
