"""Pages of the games app. Views parse the request, call one service or selector, render.

A solitaire page works with htmx: a move, undo or hint re-renders only the game
(``games/partials/solitaire_game.html``); without JavaScript the same forms post and
redirect back to the page.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from games import presenters, selectors, services
from games.catalogue import CATALOGUE, GAMES_BY_SLUG, SOLITAIRE_GAMES
from games.engine import get_engine
from games.forms import NEW_GAME_FORMS
from games.models import DailyChallenge, GameRecord
from games.players import Player
from games.state_cache import current_state

SOLUTION_TIME_LIMIT_S = 10.0


@require_safe
def play(request: HttpRequest) -> HttpResponse:
    player = Player.from_request(request)
    unfinished = selectors.unfinished_games(player)[:10]
    return render(request, "games/play.html", {"games": CATALOGUE, "unfinished": unfinished})


@require_http_methods(["GET", "POST"])
def new_game(request: HttpRequest, game: str) -> HttpResponse:
    if game not in NEW_GAME_FORMS:
        raise Http404("No such solitaire game.")
    form_class = NEW_GAME_FORMS[game]
    player = Player.from_request(request)
    if request.method == "POST":
        form = form_class(request.POST)
        if form.is_valid():
            try:
                record = services.start_solitaire(
                    game=game,
                    player=player,
                    config=form.config(),
                    seed=form.seed(),
                    winnable_only=form.winnable_only(),
                )
            except services.GameError as exc:
                form.add_error(None, str(exc))
            else:
                return redirect(record)
    else:
        initial: dict[str, Any] = {}
        deal = request.GET.get("deal", "")
        if deal.isdigit():
            initial = {"deal": "number", "number": int(deal)}
        form = form_class(initial=initial)
    return render(
        request,
        "games/new_game.html",
        {
            "info": GAMES_BY_SLUG[game],
            "form": form,
            "unfinished": selectors.unfinished_games(player, game)[:5],
        },
    )


def _game_context(record: GameRecord, player: Player, **extra: Any) -> dict[str, Any]:
    engine = get_engine(record.game)
    view = engine.view(current_state(record), 0)
    return {
        "record": record,
        "info": GAMES_BY_SLUG[record.game],
        "view": view,
        "board": presenters.board(record.game, view),
        "waste_top": presenters.waste_top(view),
        "can_play": player.owns(record) and not record.is_over,
        "elapsed": record.elapsed_seconds,
        "today": _today(),
        **extra,
    }


def _solitaire_record(game_id: int) -> GameRecord:
    record = get_object_or_404(GameRecord, pk=game_id)
    if record.game not in SOLITAIRE_GAMES:
        raise Http404("Live-table games are shown at their table.")
    return record


@require_safe
def game_page(request: HttpRequest, game_id: int) -> HttpResponse:
    record = _solitaire_record(game_id)
    player = Player.from_request(request)
    if player.owns(record) and not record.is_over:
        services.mark_viewed(record)
    context = _game_context(record, player)
    if request.htmx:
        return render(request, "games/partials/solitaire_game.html", context)
    return render(request, "games/solitaire.html", context)


def _expected_version(request: HttpRequest) -> int:
    try:
        return int(request.POST.get("version", ""))
    except ValueError:
        raise services.StaleVersion(
            "This page is out of date: it has been reloaded as the game stands."
        ) from None


def _after_change(request: HttpRequest, game_id: int, *, error: str = "", hint: str = "") -> HttpResponse:
    """The refreshed game for htmx; a redirect back to the page for a plain form post."""
    if not request.htmx:
        if error:
            messages.error(request, error)
        if hint:
            messages.info(request, f"Hint: {hint}")
        return redirect("game", game_id=game_id)
    record = _solitaire_record(game_id)
    hint_words = presenters.describe_action(record.game, hint) if hint else ""
    context = _game_context(
        record, Player.from_request(request), error=error, hint=hint, hint_words=hint_words
    )
    return render(request, "games/partials/solitaire_game.html", context)


def _change(request: HttpRequest, game_id: int, service: Callable[..., Any], **kwargs: Any) -> HttpResponse:
    """Run one of the game's write services and answer with the game as it now stands."""
    try:
        result = service(
            game_id=game_id,
            player=Player.from_request(request),
            expected_version=_expected_version(request),
            **kwargs,
        )
    except services.GameError as exc:
        return _after_change(request, game_id, error=str(exc))
    return _after_change(request, game_id, hint=result if isinstance(result, str) else "")


@require_POST
def act(request: HttpRequest, game_id: int) -> HttpResponse:
    return _change(request, game_id, services.submit_action, text=request.POST.get("action", ""))


@require_POST
def undo(request: HttpRequest, game_id: int) -> HttpResponse:
    return _change(request, game_id, services.undo)


@require_POST
def hint(request: HttpRequest, game_id: int) -> HttpResponse:
    return _change(request, game_id, services.take_hint)


def winning_line(game: str, config: dict[str, Any], seed: int) -> list[str] | None:
    """The solver's winning line for a deal, cached; ``None`` if the deal cannot be won."""
    from games.engine.solver import solve

    digest = hashlib.sha256(json.dumps(config, sort_keys=True).encode()).hexdigest()[:16]
    key = f"solution:{game}:{seed}:{digest}"
    line = cache.get(key)
    if line is None:
        solution = solve(game, config=config, seed=seed, time_limit=SOLUTION_TIME_LIMIT_S)
        if solution.winnable is None:
            return None
        line = list(solution.actions) if solution.winnable else []
        cache.set(key, line, timeout=None)
    return line or None


@require_safe
def solution(request: HttpRequest, game_id: int) -> HttpResponse:
    """The solver's winning line for a finished game's deal (never for a game still running)."""
    record = _solitaire_record(game_id)
    if not record.is_over:
        raise Http404("The winning line is shown once the game is over.")
    if record.daily is not None and record.daily.date >= timezone.now().date():
        raise Http404("Today's daily deal keeps its winning line until the day is over.")
    line = winning_line(record.game, record.config, record.seed)
    steps = presenters.describe_line(record.game, line or [])
    return render(
        request, "games/solution.html", {"record": record, "info": GAMES_BY_SLUG[record.game], "steps": steps}
    )


# Daily challenge


def _today() -> dt.date:
    return timezone.now().date()


@require_safe
def daily(request: HttpRequest) -> HttpResponse:
    today = _today()
    deals = [services.ensure_daily(game=game, date=today) for game in SOLITAIRE_GAMES]
    player = Player.from_request(request)
    boards = [
        {
            "daily": deal,
            "info": GAMES_BY_SLUG[deal.game],
            "leaderboard": selectors.daily_leaderboard(deal, limit=10),
            "mine": GameRecord.objects.filter(daily=deal, **player.ownership())
            .order_by("-ranked", "-created_at")
            .first(),
        }
        for deal in deals
    ]
    streaks = selectors.daily_streaks(player.user, today) if player.user else None
    return render(request, "games/daily.html", {"boards": boards, "today": today, "streaks": streaks})


def _daily_or_404(game: str, date: str) -> DailyChallenge:
    try:
        day = dt.date.fromisoformat(date)
    except ValueError:
        raise Http404("Dates are written YYYY-MM-DD.") from None
    if game not in SOLITAIRE_GAMES or day > _today():
        raise Http404("There is no such daily deal.")
    return services.ensure_daily(game=game, date=day)


@require_POST
def play_daily(request: HttpRequest, game: str, date: str) -> HttpResponse:
    deal = _daily_or_404(game, date)
    record = services.start_daily(daily=deal, player=Player.from_request(request))
    return redirect(record)


@require_safe
def daily_detail(request: HttpRequest, game: str, date: str) -> HttpResponse:
    deal = _daily_or_404(game, date)
    over = deal.date < _today()
    steps = presenters.describe_line(deal.game, deal.solution) if over else []
    return render(
        request,
        "games/daily_detail.html",
        {
            "daily": deal,
            "info": GAMES_BY_SLUG[deal.game],
            "leaderboard": selectors.daily_leaderboard(deal),
            "over": over,
            "steps": steps,
        },
    )


@require_safe
def daily_archive(request: HttpRequest) -> HttpResponse:
    days = DailyChallenge.objects.filter(date__lt=_today()).order_by("-date", "game")[:120]
    return render(request, "games/daily_archive.html", {"days": days})


@require_safe
def leaderboards(request: HttpRequest) -> HttpResponse:
    today = _today()
    boards = [
        {
            "daily": deal,
            "info": GAMES_BY_SLUG[deal.game],
            "leaderboard": selectors.daily_leaderboard(deal, limit=25),
        }
        for deal in (services.ensure_daily(game=game, date=today) for game in SOLITAIRE_GAMES)
    ]
    return render(
        request,
        "games/leaderboards.html",
        {"boards": boards, "champions": selectors.daily_champions(limit=20), "today": today},
    )
