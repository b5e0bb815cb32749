"""Replay pages: any finished game step by step, downloads and imports.

A finished game's replay opens at the deal (step 0) unless ``?step=N`` (or ``#step-N``, which
replay.js reads) names a moment, and ``?step=N`` keeps the moment in the address (shareable);
``?view=all`` or ``?view=<seat>`` picks the perspective of a finished multiplayer game. htmx
asks for the step partial only.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.html import format_html_join
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from accounts.templatetags.player_names import player_name
from games import kinds
from games.core import analyses, narration
from games.core.errors import GameError
from games.core.players import SESSION_TOKEN, Player
from games.kinds.solitaire import waste_top
from games.kinds.spec import SolitaireSpec, TableSpec
from games.live import table_access
from games.live.table_presenter import game_area
from games.models import DailyChallenge, GameRecord, Table
from games.replays import replays, table_odds
from games.solitaire import analysis, services
from games.stats import selectors
from web.http import HtmxHttpRequest
from web.numbers import whole_number

MAX_IMPORT_BYTES = 2_000_000
IMPORTS_LISTED = 20
"""The import page lists this many of the person's newest imports: theirs to find again,
since an import is on no profile (it is nobody's game)."""


def _step(request: HtmxHttpRequest, source: replays.ReplaySource) -> int:
    """The step the address names, else the deal: opening at the end would show the result
    before the viewer has watched a move. A game still being played opens at its latest step,
    as its spectators see it (it has no result to give away)."""
    value = request.GET.get("step", "")
    step = whole_number(value, signed=True)
    if step is None:
        step = 0 if source.finished else source.steps
    return max(0, min(step, source.steps))


def _perspective(request: HtmxHttpRequest, source: replays.ReplaySource) -> str:
    value = request.GET.get("view", replays.EVERYTHING)
    allowed = {key for key, _ in replays.perspectives(source)}
    return value if value in allowed else replays.EVERYTHING


def replay_context(source: replays.ReplaySource, step: int, perspective: str) -> dict[str, Any]:
    all_states = replays.states(source)
    state = all_states[step]
    view = replays.step_view(source, state, perspective)
    spec = kinds.get(source.game)
    words = ""
    if step > 0:
        words = narration.narrate(
            source.game,
            all_states[step - 1],
            source.actions[step - 1],
            state,
            source.names,
            reveal=source.finished,
        )
    context: dict[str, Any] = {
        "source": source,
        "info": spec,
        "step": step,
        "steps": source.steps,
        "view": view,
        "words": words,
        "standing": narration.standing(source.game, state, source.names),
        "perspective": perspective,
        "perspectives": replays.perspectives(source),
        "can_play": False,
        "replay": True,
        "played_by": format_html_join(", ", "{}", ((player_name(name),) for name in source.players)),
    }
    if isinstance(spec, TableSpec):
        seats = source.seats or [_NamedSeat(n, name) for n, name in enumerate(source.names)]
        me = int(perspective) if perspective.isdigit() else None
        context.update(game_area(spec, view, seats, me, spec.engine.current_player(state), live=False))
        context["seats"] = seats
        context["odds"] = _table_odds(source, step)
    elif isinstance(spec, SolitaireSpec):
        context["board"] = spec.board(view)
        context["waste_top"] = waste_top(view)
    return context


def _table_odds(source: replays.ReplaySource, step: int) -> dict[str, Any] | None:
    """Each seat's chance to win the hand at ``step``, and the hand's chart, once worked out;
    only for a finished game played here (issue 46)."""
    record = source.record
    if record is None or not source.finished or not table_odds.wanted(record):
        return None
    analysed = analyses.kept(record)
    if analysed is None:
        table_odds.ask(record)  # its task at the game's end was lost, or is still at work
        return {"pending": True}
    names = list(source.names)
    return {
        "bars": table_odds.at_step(analysed, step, names),
        "chart": table_odds.hand_chart(analysed, step, names),
    }


class _NamedSeat:
    """Seat-like names for an imported multiplayer game (it has no table)."""

    def __init__(self, number: int, name: str) -> None:
        self.number, self.name = number, name


def _render_replay(
    request: HtmxHttpRequest, source: replays.ReplaySource, base_url: str, **extra: Any
) -> HttpResponse:
    context = replay_context(source, _step(request, source), _perspective(request, source))
    context["base_url"] = base_url
    context.update(extra)
    template = "games/partials/replay_step.html" if request.htmx else "games/replay.html"
    return render(request, template, context)


def _closed_reason(request: HtmxHttpRequest, record: GameRecord) -> str:
    """Why this replay, download or continuation is closed, or "" (LP-6): every game of a
    daily deal whose day is not over (a replay shows every card, so its own player waits
    too), and someone else's running ranked attempt."""
    user = request.user if request.user.is_authenticated else None
    # Reads the visitor's token without starting a session: a GET writes nothing.
    viewer = Player(user=user, token=request.session.get(SESSION_TOKEN, ""))
    return selectors.replay_closed(record, viewer)


def _enter_or_404(request: HtmxHttpRequest, record: GameRecord) -> None:
    """A private table's game (LP-9) is not there for whoever may not enter its table."""
    table = Table.objects.filter(record=record, private_key__isnull=False).first()
    user = request.user if request.user.is_authenticated else None
    if table is not None and not table_access.may_enter(table, user, request.session):
        raise Http404("No such game.")


def _closed(request: HtmxHttpRequest, message: str) -> HttpResponse:
    return render(
        request, "games/closed.html", {"title": gettext("Not open"), "message": message}, status=404
    )


@require_safe
def replay(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    record = get_object_or_404(GameRecord.objects.select_related("owner", "imported_by", "daily"), pk=game_id)
    _enter_or_404(request, record)
    reason = _closed_reason(request, record)
    if reason:
        return _closed(request, reason)
    panel = None
    if not request.htmx and analysis.wanted(record):
        panel = where_lost_context(record)
        if panel["analysed"] is None:
            analysis.ask(record)  # for the panel, which asks until it is there
    return _render_replay(
        request, replays.from_record(record), record.get_absolute_url() + "replay/", where_lost=panel
    )


@require_safe
def where_lost(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """``/games/<id>/analysis/``: the replay's panel of a finished solitaire game, once the
    task has worked it out (htmx asks every few seconds until then); closed as its replay is."""
    record = get_object_or_404(GameRecord.objects.select_related("imported_by"), pk=game_id)
    _enter_or_404(request, record)
    reason = _closed_reason(request, record)
    if reason or not analysis.wanted(record):
        return _closed(
            request, reason or gettext("This game has no analysis: only a finished solitaire game has one.")
        )
    return render(request, "games/partials/where_lost.html", where_lost_context(record))


def where_lost_context(record: GameRecord) -> dict[str, Any]:
    """What the panel shows: the chart and the turning point, or that it is being worked out."""
    analysed = analyses.kept(record)
    if analysed is None:
        return {"record": record, "analysed": None}
    drawn = analysis.steps(analysed)
    point = analysed.turning_point
    spec = kinds.get_solitaire(record.game)
    context: dict[str, Any] = {
        "record": record,
        "analysed": analysed,
        "steps": drawn,
        "lines": analysis.polylines(drawn),
        "chart": {
            "width": analysis.WIDTH,
            "height": analysis.HEIGHT,
            "left": analysis.LEFT,
            "right": analysis.WIDTH - analysis.RIGHT,
            "top": analysis.TOP,
            "bottom": analysis.HEIGHT - analysis.BOTTOM,
            "y50": analysis.y_of(50),
            "first": 0,
            "last": len(drawn) - 1,
        },
        "outcome": analysed.outcome,
    }
    if point is not None:
        context["point"] = {
            "move": point["step"] + 1,
            "step": point["step"],
            "x": drawn[point["step"]].x,
            "played": spec.describe_action(point["played"]),
            "resigned": point["played"] == "resign",
            "instead": spec.describe_action(point["instead"]),
        }
    return context


def _finished_daily(game: str, date: str) -> DailyChallenge:
    daily = get_object_or_404(DailyChallenge, game=game, date=date)
    if daily.date >= timezone.now().date():
        raise Http404("Today's winning line is shown once the day is over.")
    return daily


@require_safe
def solution_replay(request: HtmxHttpRequest, game: str, date: str) -> HttpResponse:
    daily = _finished_daily(game, date)
    return _render_replay(request, replays.from_daily_solution(daily), request.path)


@require_safe
def export(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    record = get_object_or_404(GameRecord, pk=game_id)
    _enter_or_404(request, record)
    reason = _closed_reason(request, record)
    if reason:
        return JsonResponse({"error": reason}, status=404)
    try:
        data = replays.export(replays.from_record(record))
    except ValueError as exc:
        return JsonResponse({"error": str(exc)}, status=403)
    response = JsonResponse(data, json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'attachment; filename="capstone-{record.game}-{record.pk}.json"'
    return response


@require_http_methods(["GET", "POST"])
def import_game(request: HtmxHttpRequest) -> HttpResponse:
    error = ""
    if request.method == "POST":
        upload = request.FILES.get("file")
        text = request.POST.get("text", "")
        if upload is not None:
            if (upload.size or 0) > MAX_IMPORT_BYTES:
                error = gettext("That file is too large to be a game.")
            else:
                text = upload.read().decode("utf-8", errors="replace")
        if not error:
            try:
                data = replays.parse_import(text)
            except replays.ImportError_ as exc:
                error = str(exc)
            else:
                record = services.import_game(data=data, player=Player.from_request(request))
                return redirect("replay", game_id=record.pk)
    imports = selectors.imports_by(request.user, IMPORTS_LISTED) if request.user.is_authenticated else []
    return render(
        request, "games/import.html", {"error": error, "imports": imports}, status=400 if error else 200
    )


@require_POST
def continue_game(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    record = get_object_or_404(GameRecord, pk=game_id)
    _enter_or_404(request, record)
    reason = _closed_reason(request, record)
    if reason:
        return _closed(request, reason)
    step = request.POST.get("step", "")
    try:
        new = services.continue_from(
            record=record, step=whole_number(step) or 0, player=Player.from_request(request)
        )
    except GameError as exc:
        messages.error(request, str(exc))
        return redirect("replay", game_id=game_id)
    return redirect(new)
