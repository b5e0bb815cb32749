"""Pages of the tournaments app: the list and schedule form, a tournament's page and its
results to download, entries."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST, require_safe

from tournaments import export, selectors, services, solitaire_events
from tournaments.event_view import Event
from tournaments.forms import SolitaireEventForm, TournamentForm
from tournaments.models import Series, Tournament
from tournaments.solitaire_events import Standing
from tournaments.solitaire_page import solitaire_page
from web.http import AuthenticatedHttpRequest, HtmxHttpRequest


def _index(
    request: HtmxHttpRequest,
    form: TournamentForm | None = None,
    solitaire_form: SolitaireEventForm | None = None,
    status: int = 200,
) -> HttpResponse:
    context = {
        "form": form or TournamentForm(),
        "solitaire_form": solitaire_form or SolitaireEventForm(),
        **selectors.tournament_lists(),
    }
    return render(request, "tournaments/index.html", context, status=status)


@require_safe
def index(request: HtmxHttpRequest) -> HttpResponse:
    if request.htmx:  # the lists' poll
        return render(request, "tournaments/partials/lists.html", selectors.tournament_lists())
    return _index(request)


@require_safe
def series(request: HtmxHttpRequest, series_id: int) -> HttpResponse:
    found = get_object_or_404(Series, pk=series_id)
    context = {"series": found, **selectors.series_page(found)}
    if request.htmx:
        return render(request, "tournaments/partials/series_lists.html", context)
    return render(request, "tournaments/series.html", context)


def _schedule(
    request: AuthenticatedHttpRequest, form: TournamentForm | SolitaireEventForm
) -> HttpResponse | None:
    """The new tournament's page, or None when the form (or the service) refused it."""
    if not form.is_valid():
        return None
    try:
        tournament = services.create_tournament(creator=request.user, **form.tournament_options())
    except services.TournamentError as exc:
        form.add_error(None, str(exc))
        return None
    return redirect(tournament)


@login_required
@require_POST
def create(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = TournamentForm(request.POST)
    return _schedule(request, form) or _index(request, form=form, status=400)


@login_required
@require_POST
def create_solitaire(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Schedule a solitaire event (TN-8)."""
    form = SolitaireEventForm(request.POST)
    return _schedule(request, form) or _index(request, solitaire_form=form, status=400)


def _context(request: HtmxHttpRequest, tournament: Tournament) -> dict[str, Any]:
    user = request.user if request.user.is_authenticated else None
    if tournament.is_solitaire:
        return solitaire_page(tournament, user)
    event = selectors.event(tournament)
    mine = event.entry_of(user)
    bot_count = sum(entry.user_id is None for entry in event.entrants)
    running = tournament.status == Tournament.Status.RUNNING
    ever_entered = user is not None and any(entry.user_id == user.pk for entry in event.entrants)
    return {
        "tournament": tournament,
        "event": event,
        "entrants": event.entrants,
        "people_count": len(event.entrants) - bot_count,
        "bot_count": bot_count,
        "entered": mine is not None,
        # TN-7: late entry into Swiss until round 2, withdrawal between rounds.
        "can_enter_late": running
        and not ever_entered
        and tournament.format == Tournament.Format.SWISS
        and tournament.current_round < services.LATE_ENTRY_UNTIL_ROUND
        and len(event.entrants) < tournament.max_entrants,
        "can_withdraw": running and tournament.by_rounds and mine is not None and not event.playing(mine),
        "rounds": event.rounds() if tournament.by_rounds else (),
        "cross_table": event.cross_table() if tournament.format == Tournament.Format.ROUND_ROBIN else (),
        "places": event.places(),
        "champions": event.champions(),
        "my_match": event.match_of(user),
    }


@require_safe
def detail(request: HtmxHttpRequest, tournament_id: int) -> HttpResponse:
    tournament = get_object_or_404(
        Tournament.objects.select_related("created_by", "series"), pk=tournament_id
    )
    token = _poll_token(tournament)
    if request.htmx and request.GET.get("since") == token:
        return HttpResponse(status=204)  # the page's poll: nothing changed, so htmx swaps nothing
    context = {**_context(request, tournament), "poll_token": token}
    template = "tournaments/partials/body.html" if request.htmx else "tournaments/detail.html"
    return render(request, template, context)


def _poll_token(tournament: Tournament) -> str:
    """What the page's poll compares: the tournament's version, which entries, starts and
    results bump; and for a running solitaire event the deals finished so far, which change
    its standings without touching the tournament row."""
    if tournament.is_solitaire and tournament.status == Tournament.Status.RUNNING:
        return f"{tournament.version}.{solitaire_events.finished_deals(tournament)}"
    return str(tournament.version)


def _event(tournament_id: int) -> Event:
    return selectors.event(get_object_or_404(Tournament, pk=tournament_id))


def _absolute(request: HtmxHttpRequest) -> export.Absolute:
    return request.build_absolute_uri


def _download(content: str, content_type: str, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _solitaire_rows(tournament_id: int) -> tuple[Tournament, list[Standing]] | None:
    """A solitaire event's standings for its exports; None for any other tournament."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    if not tournament.is_solitaire:
        return None
    return tournament, solitaire_events.standings(tournament) if tournament.started_at else []


@require_safe
def results_json(request: HtmxHttpRequest, tournament_id: int) -> HttpResponse:
    solitaire = _solitaire_rows(tournament_id)
    if solitaire is not None:
        data = export.solitaire_results(*solitaire, _absolute(request))
    else:
        data = export.results(_event(tournament_id), _absolute(request))
    response = JsonResponse(data, json_dumps_params={"indent": 1, "ensure_ascii": False})
    response["Content-Disposition"] = f'attachment; filename="tournament-{tournament_id}.json"'
    return response


@require_safe
def results_csv(request: HtmxHttpRequest, tournament_id: int) -> HttpResponse:
    solitaire = _solitaire_rows(tournament_id)
    if solitaire is not None:
        content = export.to_csv(export.SOLITAIRE_ENTRANT_COLUMNS, export.solitaire_entrants(solitaire[1]))
    else:
        content = export.to_csv(export.ENTRANT_COLUMNS, export.entrants(_event(tournament_id)))
    return _download(content, "text/csv; charset=utf-8", f"tournament-{tournament_id}-results.csv")


@require_safe
def matches_csv(request: HtmxHttpRequest, tournament_id: int) -> HttpResponse:
    solitaire = _solitaire_rows(tournament_id)
    if solitaire is not None:
        rows = export.solitaire_deal_rows(*solitaire, _absolute(request))
        content = export.to_csv(export.SOLITAIRE_DEAL_COLUMNS, rows)
    else:
        rows = export.seat_rows(_event(tournament_id), _absolute(request))
        content = export.to_csv(export.SEAT_COLUMNS, rows)
    return _download(content, "text/csv; charset=utf-8", f"tournament-{tournament_id}-matches.csv")


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
