"""Pages of the games app. Views parse the request, call one service or selector, render.

A solitaire page works with htmx: a move, undo or hint re-renders only the game
(``games/partials/solitaire_game.html``), with its status bar and its message line swapped
out of band (``solitaire_update.html``): the message line (``role=status``) stays in the page,
so a screen reader announces what each move did. Without JavaScript the same forms post and
redirect back to the page.

GET writes nothing: no game, daily deal or session row (``_viewer`` reads the visitor's
token without starting a session) and no solver run without a bound. Daily deals are
dealt ahead by the beat task; a page only reads them. LP-6 keeps a daily deal to the
daily pages until its UTC day is over (``selectors.hidden_from`` and ``replay_closed``).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.core.cache import cache
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_ratelimit.decorators import ratelimit

from games import kinds
from games.core.errors import GameError, StaleVersion
from games.core.players import SESSION_TOKEN, Player
from games.core.snapshots import state_of
from games.kinds.solitaire import waste_top
from games.kinds.solitaire_words import end_reason, said_after
from games.models import DailyChallenge, GameRecord
from games.solitaire import meter, services, solo_matches
from games.solitaire.forms import new_game_form
from games.stats import selectors
from web.http import HtmxHttpRequest
from web.numbers import whole_number

SOLUTION_TIME_LIMIT_S = 10.0
END_PANEL_SOLVE_S = 2.0
"""The solver's time on the move that loses a game, so its end panel can say whether the deal
could be won; nearly every deal is decided in milliseconds (docs/benchmarks.md). Left
undecided, the panel offers the solution page, which tries for longer."""
UNDECIDED_CACHE_S = 600
"""How long a deal the solver could not decide in its time is left alone before a retry."""
HINT_RATE = "10/m"
SOLUTION_RATE = "10/m"
"""Hints and winning lines run the solver: this many a minute per player (signed-in user,
or else the browser's session, or else its address)..."""
ADDRESS_RATE = "60/m"
"""...and this many a minute per address, whoever asks (a new session per request gets no
more; behind the proxy daphne's --proxy-headers gives the real address)."""


def _viewer(request: HtmxHttpRequest) -> Player:
    """Who is looking, for a page that only reads: ``Player.from_request`` without starting a
    session for a first-time visitor (GET writes no row). Such a visitor owns nothing."""
    user = request.user if request.user.is_authenticated else None
    return Player(user=user, token=request.session.get(SESSION_TOKEN, ""))


def player_key(group: str, request: HtmxHttpRequest) -> str:
    """The rate limits' key for a player: the user, or the browser's session, or its address."""
    if request.user.is_authenticated:
        return f"user:{request.user.pk}"
    token = request.session.get(SESSION_TOKEN)
    return f"session:{token}" if token else f"address:{request.META.get('REMOTE_ADDR', '')}"


def _closed(request: HtmxHttpRequest, message: str, *, status: int = 404, title: str = "") -> HttpResponse:
    """A refusal with its reason in plain words (the site's 404 page gives none)."""
    title = title or gettext("Not open")
    response = render(request, "games/closed.html", {"title": title, "message": message}, status=status)
    if status == 429:
        response["Retry-After"] = "60"
    return response


@require_safe
def play(request: HtmxHttpRequest) -> HttpResponse:
    player = _viewer(request)
    unfinished = selectors.unfinished_games(player)[:10]
    return render(request, "games/play.html", {"games": kinds.GAMES, "unfinished": unfinished})


@require_http_methods(["GET", "POST"])
def new_game(request: HtmxHttpRequest, game: str) -> HttpResponse:
    try:
        spec = kinds.get_solitaire(game)
    except kinds.UnknownGame:
        raise Http404("No such solitaire game.") from None
    form_class = new_game_form(spec)
    player = Player.from_request(request) if request.method == "POST" else _viewer(request)
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
            except GameError as exc:
                form.add_error(None, str(exc))
            else:
                return redirect(record)
    else:
        initial: dict[str, Any] = {}
        deal = whole_number(request.GET.get("deal", ""))
        if deal is not None:
            initial = {"deal": "number", "number": deal}
        form = form_class(initial=initial)
    return render(
        request,
        "games/new_game.html",
        {
            "info": spec,
            "form": form,
            "unfinished": selectors.unfinished_games(player, game)[:5],
        },
    )


def _game_context(record: GameRecord, player: Player, **extra: Any) -> dict[str, Any]:
    spec = kinds.get_solitaire(record.game)
    view = spec.engine.view(state_of(record), 0)
    # LP-6: a daily deal whose day is not over shows no number (it is the seed, which
    # decides every hidden card: LP-3), and offers no undo, hint or winning line.
    secret = selectors.deal_secret_kind(record.game, record.seed)
    deal_public = not secret
    verdict = known_verdict(record) if record.is_over and not record.won and deal_public else None
    return {
        "end_reason": end_reason(spec, view),
        # None: not known yet (the page offers to ask the solver); a GET never runs it.
        "winnable": None if verdict is None else verdict.winnable,
        "record": record,
        "info": spec,
        "view": view,
        "board": spec.board(view),
        "waste_top": waste_top(view),
        "extra_stats": spec.extra_stats(view),
        "mine": player.owns(record),
        "can_play": player.owns(record) and not record.is_over,
        "elapsed": record.elapsed_seconds,
        "today": _today(),
        "deal_public": deal_public,
        "secret": secret,
        "assists": record.kind == GameRecord.Kind.CASUAL and deal_public,
        **_match_context(record, player),
        **extra,
    }


def _match_context(record: GameRecord, player: Player) -> dict[str, Any]:
    """A finished deal of the player's match (a par match, or a solitaire event's run): the match
    as it stands, so that the end panel leads on to its next deal, or to its results after the last."""
    if record.solo_match_id is None or not record.is_over or not player.owns(record):
        return {}
    match = record.solo_match
    assert match is not None  # its id is set
    entry = getattr(match, "event_entry", None)
    return {"match": solo_matches.summary(match), "match_event": entry and entry.tournament}


def _solitaire_record(game_id: int) -> GameRecord:
    record = get_object_or_404(GameRecord.objects.select_related("daily", "solo_match"), pk=game_id)
    if record.game not in kinds.SOLITAIRE_SLUGS:
        raise Http404("Live-table games are shown at their table.")
    return record


@require_safe
def game_page(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """The game as its player or a spectator sees it; reading it starts no clock (the game's
    timing starts when it is dealt)."""
    record = _solitaire_record(game_id)
    viewer = _viewer(request)
    reason = selectors.hidden_from(record, viewer)
    if reason:
        return _closed(request, reason)
    context = _game_context(record, viewer, odds_shown=meter.shown(request.session))
    if request.htmx:
        return render(request, "games/partials/solitaire_update.html", context)
    return render(request, "games/solitaire.html", context)


def _expected_version(request: HtmxHttpRequest) -> int:
    try:
        return int(request.POST.get("version", ""))
    except ValueError:
        raise StaleVersion(
            gettext("This page is out of date: it has been reloaded as the game stands.")
        ) from None


def _after_change(
    request: HtmxHttpRequest, game_id: int, *, error: str = "", hint: str = "", said: str = ""
) -> HttpResponse:
    """The refreshed game for htmx, its message line saying ``said`` (what the move did), the
    hint or the error; a redirect back to the page for a plain form post."""
    if not request.htmx:
        if error:
            messages.error(request, error)
        if hint:
            advice = kinds.get_solitaire(_solitaire_record(game_id).game).describe_action(hint)
            messages.info(request, gettext("Hint: %(move)s") % {"move": advice})
        if said:
            messages.info(request, said)
        return redirect("game", game_id=game_id)
    record = _solitaire_record(game_id)
    player = Player.from_request(request)
    # A refused move by someone else still answers with the board: only one they may see.
    reason = selectors.hidden_from(record, player)
    if reason:
        return _closed(request, reason)
    spec = kinds.get_solitaire(record.game)
    words, cards = (spec.describe_action(hint), spec.action_cards(hint)) if hint else ("", ())
    context = _game_context(
        record,
        player,
        error=error,
        hint=hint,
        hint_words=words,
        hint_cards=cards,
        said=said,
        odds_shown=meter.shown(request.session),
    )
    return render(request, "games/partials/solitaire_update.html", context)


def _change(
    request: HtmxHttpRequest, game_id: int, service: Callable[..., Any], **kwargs: Any
) -> HttpResponse:
    """Run one of the game's write services and answer with the game as it now stands."""
    try:
        result = service(
            game_id=game_id,
            player=Player.from_request(request),
            expected_version=_expected_version(request),
            **kwargs,
        )
    except GameError as exc:
        return _after_change(request, game_id, error=str(exc))
    if isinstance(result, str):
        return _after_change(request, game_id, hint=result)
    return _after_change(request, game_id, said=_said(service, result))


def _said(service: Callable[..., Any], result: services.MoveResult) -> str:
    """What a move or an undo did, for the message line; a lost game's verdict is settled
    here (on the POST) so that its end panel, read by GETs, can say whether it could be won."""
    record = result.record
    public = record.deck is None and not selectors.deal_is_secret(record.game, record.seed)
    if record.is_over and not record.won and public:
        winning_line(record.game, record.config, record.seed, time_limit=END_PANEL_SOLVE_S)
    if service is services.undo:
        return "Took back the last move."
    spec = kinds.get_solitaire(record.game)
    last = record.actions.order_by("-seq").values_list("text", flat=True).first()
    return said_after(spec, last, spec.engine.view(result.state, 0)) if last else ""


@require_POST
def act(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    if "card" in request.POST:  # a card (or a pair) picked on the board
        picked = {key: request.POST.get(key, "") for key in ("card", "partner")}
        return _change(request, game_id, services.submit_action, move=picked)
    return _change(request, game_id, services.submit_action, move=request.POST.get("action", ""))


@require_POST
def undo(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    return _change(request, game_id, services.undo)


@require_POST
@ratelimit(group="games.hint", key=player_key, rate=HINT_RATE, block=False)
@ratelimit(group="games.hint.address", key="ip", rate=ADDRESS_RATE, block=False)
def hint(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    if getattr(request, "limited", False):
        return _too_many(
            request,
            game_id,
            gettext("Too many hints in a minute: at most %(rate)s. Wait a moment and try again.")
            % {"rate": HINT_RATE.replace("/m", "")},
        )
    return _change(request, game_id, services.take_hint)


def _too_many(request: HtmxHttpRequest, game_id: int, message: str) -> HttpResponse:
    """429 with a page saying so; for htmx, the board with the message, which htmx shows
    where its ``responseHandling`` config lets a 429 swap (htmx swaps only 2xx by default)."""
    if request.htmx:
        response = _after_change(request, game_id, error=message)
        if response.status_code == 200:
            response.status_code = 429
            response["Retry-After"] = "60"
            return response
    return _closed(request, message, status=429, title=gettext("Too many requests"))


@dataclass(frozen=True)
class WinningLine:
    winnable: bool | None
    """None when the solver could not decide the deal within its time."""
    line: list[str]


def _solution_key(game: str, config: dict[str, Any], seed: int) -> str:
    digest = hashlib.sha256(json.dumps(config, sort_keys=True).encode()).hexdigest()[:16]
    return f"solution:{game}:{seed}:{digest}"


def known_verdict(record: GameRecord) -> WinningLine | None:
    """The solver's cached verdict on a game's deal, or None if it has none yet (no solver
    run: a page only reads). A game dealt from its own deck has no deal number to judge."""
    if record.deck is not None:
        return None
    cached = cache.get(_solution_key(record.game, record.config, record.seed))
    return WinningLine(bool(cached), cached) if isinstance(cached, list) else None


def winning_line(
    game: str, config: dict[str, Any], seed: int, time_limit: float = SOLUTION_TIME_LIMIT_S
) -> WinningLine:
    """The solver's verdict and winning line for a deal, cached: a verdict for good, an
    undecided deal for ``UNDECIDED_CACHE_S`` (each try may take ``SOLUTION_TIME_LIMIT_S``;
    a shorter try that runs out is not remembered, so the full one still runs)."""
    from games.engine.solver import solve

    key = _solution_key(game, config, seed)
    cached = cache.get(key)
    if isinstance(cached, list):  # a verdict: the line, empty for a deal that cannot be won
        return WinningLine(bool(cached), cached)
    if cached == "undecided":
        return WinningLine(None, [])
    solution = solve(game, config=config, seed=seed, time_limit=time_limit)
    if solution.winnable is None:
        if time_limit >= SOLUTION_TIME_LIMIT_S:
            cache.set(key, "undecided", timeout=UNDECIDED_CACHE_S)
        return WinningLine(None, [])
    line = list(solution.actions) if solution.winnable else []
    cache.set(key, line, timeout=None)
    return WinningLine(solution.winnable, line)


@require_safe
@ratelimit(group="games.solution", key=player_key, rate=SOLUTION_RATE, block=False)
@ratelimit(group="games.solution.address", key="ip", rate=ADDRESS_RATE, block=False)
def solution(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """The solver's winning line for a finished game's deal: never for a game still running,
    nor for a daily deal whose day is not over (LP-6)."""
    if getattr(request, "limited", False):
        message = gettext(
            "Too many winning lines in a minute: at most %(rate)s. Wait a moment and try again."
        ) % {"rate": SOLUTION_RATE.replace("/m", "")}
        return _closed(request, message, status=429, title=gettext("Too many requests"))
    record = _solitaire_record(game_id)
    if not record.is_over:
        return _closed(request, gettext("The winning line is shown once the game is over."))
    viewer = _viewer(request)
    reason = selectors.replay_closed(record, viewer)
    if reason:
        return _closed(request, reason)
    verdict = winning_line(record.game, record.config, record.seed)
    steps = kinds.get_solitaire(record.game).describe_line(verdict.line)
    return render(
        request,
        "games/solution.html",
        {
            "record": record,
            "info": kinds.get(record.game),
            "steps": steps,
            "undecided": verdict.winnable is None,
            "time_limit": SOLUTION_TIME_LIMIT_S,
            "mine": viewer.owns(record),
        },
    )


# Daily challenge: deals are made by the beat task (games.tasks.create_daily_challenges)
# ahead of their day; these pages only read them.


def _today() -> dt.date:
    return selectors.utc_today()


@require_safe
def daily(request: HtmxHttpRequest) -> HttpResponse:
    today = _today()
    deals = selectors.daily_deals(today)
    if len(deals) < len(kinds.SOLITAIRE_SLUGS):
        services.request_daily_deals()
    player = _viewer(request)
    boards = [
        {
            "game": game,
            "daily": deals.get(game),
            "info": kinds.get(game),
            "leaderboard": selectors.daily_leaderboard(deals[game], limit=10) if game in deals else [],
            "mine": selectors.daily_attempt(deals[game], player) if game in deals else None,
        }
        for game in kinds.SOLITAIRE_SLUGS
    ]
    streaks = selectors.daily_streaks(player.user, today) if player.user else None
    return render(request, "games/daily.html", {"boards": boards, "today": today, "streaks": streaks})


def _daily_or_404(game: str, date: str) -> DailyChallenge:
    """The deal of a daily page: only one that exists, from the first ever made to tomorrow's."""
    try:
        day = dt.date.fromisoformat(date)
    except ValueError:
        raise Http404("Dates are written YYYY-MM-DD.") from None
    deal = selectors.daily_deal_page(game, day)
    if deal is None:
        raise Http404("There is no such daily deal.")
    return deal


@require_POST
def play_daily(request: HtmxHttpRequest, game: str, date: str) -> HttpResponse:
    deal = _daily_or_404(game, date)
    try:
        record = services.start_daily(daily=deal, player=Player.from_request(request))
    except GameError as exc:
        messages.error(request, str(exc))
        return redirect("daily_detail", game=deal.game, date=deal.date.isoformat())
    return redirect(record)


@require_safe
def daily_detail(request: HtmxHttpRequest, game: str, date: str) -> HttpResponse:
    deal = _daily_or_404(game, date)
    today = _today()
    over = deal.date < today
    steps = kinds.get_solitaire(deal.game).describe_line(deal.solution) if over else []
    return render(
        request,
        "games/daily_detail.html",
        {
            "daily": deal,
            "info": kinds.get(deal.game),
            "leaderboard": selectors.daily_leaderboard(deal),
            "over": over,
            "upcoming": deal.date > today,
            "steps": steps,
        },
    )


@require_safe
def daily_archive(request: HtmxHttpRequest) -> HttpResponse:
    days = DailyChallenge.objects.filter(date__lt=_today()).order_by("-date", "game")[:120]
    return render(request, "games/daily_archive.html", {"days": days})
