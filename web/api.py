"""A public, read-only JSON API in the style of lichess's (docs/api.md).

Everything here is what any anonymous visitor of the site may see, no more: finished games
only, and only those ``games.stats.selectors.hidden_from`` shows a visitor who owns nothing (LP-6:
no game of a daily deal whose UTC day is not over, no running ranked attempt). No seed is
ever given (LP-3), and an outcome is reduced to its public fields. Each view runs a fixed
number of queries whatever the page holds. Responses carry ``Access-Control-Allow-Origin: *``
(public data, no cookies read) and are rate-limited per address.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import wraps
from typing import Any
from urllib.parse import urlencode

from django.db.models import Count, Prefetch, Q
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.csrf import csrf_exempt
from django_ratelimit.decorators import ratelimit

from accounts import closed_names
from accounts.models import Rating, RatingChange, User
from accounts.ratings import starting_rating
from accounts.selectors import public_profile
from games import kinds
from games.core.players import Player
from games.models import GameRecord, Participation, Seat
from games.stats.game_lists import games_by_key
from games.stats.keysets import GameKey, RatingKey
from games.stats.rating_boards import rating_page
from games.stats.selectors import player_games
from web.numbers import whole_number

PAGE_SIZE = 50
API_RATE = "60/m"
"""Requests a minute per address, across every endpoint of the API."""

ANONYMOUS = Player(user=None, token="")
"""The visitor whose view the API gives: signed in to nothing, owning no game."""

TABLE_OUTCOME_FIELDS = ("winner", "places", "ranking", "chips", "scores", "scoring", "target")
SOLITAIRE_OUTCOME_FIELDS = ("won", "reason", "scoring", "score", "cards_left", "moves")
"""The outcome fields the API shows; anything else an engine records (cards, hands) is left out."""

View = Callable[..., HttpResponse]


def _json(data: dict[str, Any], status: int = 200) -> JsonResponse:
    response = JsonResponse(data, status=status, json_dumps_params={"ensure_ascii": False})
    response["Access-Control-Allow-Origin"] = "*"
    return response


def error(message: str, status: int) -> JsonResponse:
    response = _json({"error": message}, status=status)
    if status == 405:
        response["Allow"] = "GET"
    if status == 429:
        response["Retry-After"] = "60"
    return response


def api_view(view: View) -> View:
    """GET only (405 otherwise), rate-limited per address (429), errors as JSON. Exempt from
    CSRF checks: nothing here changes anything or reads a cookie, and the middleware's refusal
    of a POST would be its HTML page, where the API promises JSON and a 405."""

    @csrf_exempt
    @ratelimit(group="api.address", key="ip", rate=API_RATE, block=False)
    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.method != "GET":
            return error(
                gettext("Method %(method)s is not allowed: the API is read-only (GET).")
                % {"method": request.method},
                405,
            )
        if getattr(request, "limited", False):
            return error(
                gettext("Too many requests: at most %(count)s a minute per address.")
                % {"count": API_RATE.replace("/m", "")},
                429,
            )
        try:
            return view(request, *args, **kwargs)
        except Http404:
            return error(gettext("Not found."), 404)

    return wrapped


Place = tuple[int, Any, Any]
"""Where a list is read from: a page number, or the key it starts after or ends before."""


def _place(request: HttpRequest, parse: Callable[[str], Any]) -> Place | JsonResponse:
    """``?page=N`` (from 1, 1 by default), ``?after=<token>`` or ``?before=<token>`` (from a
    response's ``next`` and ``previous``), at most one of them; else a JSON error."""
    given = [name for name in ("page", "after", "before") if name in request.GET]
    if len(given) > 1:
        return error(gettext("Give one of page, after and before, not several."), 400)
    if given and given[0] != "page":
        key = parse(request.GET[given[0]])
        if key is None:
            return error(
                gettext("%(name)s must be a token from a next or previous link.") % {"name": given[0]}, 400
            )
        return (1, key, None) if given[0] == "after" else (1, None, key)
    number = whole_number(request.GET.get("page", "1"))
    if number is None or number < 1:
        return error(gettext("page must be a whole number from 1."), 400)
    return number, None, None


def _paging(request: HttpRequest, number: int, pages: int, newer: Any, older: Any) -> dict[str, Any]:
    """The page's number and the links next to it: keys (``games.stats.keysets``), so that a client
    that follows them sees each item once even while the list changes."""

    def link(name: str, key: Any) -> str | None:
        return (
            None
            if key is None
            else request.build_absolute_uri(f"{request.path}?{urlencode({name: key.token})}")
        )

    return {"page": number, "pages": pages, "next": link("after", older), "previous": link("before", newer)}


def _past_the_end(place: Place, pages: int) -> JsonResponse | None:
    number, after, before = place
    if after is None and before is None and number > pages:
        return error(
            gettext("No page %(number)d: there are %(pages)d.") % {"number": number, "pages": pages}, 404
        )
    return None


def _user_or_404(username: str) -> User | JsonResponse:
    try:
        return public_profile(username=username)
    except Http404:
        return error(gettext("No player named %(name)s.") % {"name": repr(username)}, 404)


def _public_outcome(record: GameRecord) -> dict[str, Any]:
    fields = TABLE_OUTCOME_FIELDS if record.at_table else SOLITAIRE_OUTCOME_FIELDS
    outcome = record.outcome or {}
    return {name: outcome[name] for name in fields if name in outcome}


def _players(record: GameRecord, seats: Iterable[Seat], places: list[int] | None) -> list[dict[str, Any]]:
    if not record.at_table:
        return [{"username": closed_names.username(record.owner)}]
    return [
        {
            "seat": seat.number,
            "name": seat.name,
            # A closed account's name is retired (issue 45): its seat is named, not linked.
            "username": closed_names.username(seat.user),
            "bot": seat.is_bot,
            "place": places[seat.number] if places and seat.number < len(places) else None,
        }
        for seat in seats
    ]


def game_json(request: HttpRequest, record: GameRecord) -> dict[str, Any]:
    outcome = _public_outcome(record)
    seats: list[Seat] = list(record.table.seats.all()) if record.at_table and hasattr(record, "table") else []
    places = outcome.get("places")
    return {
        "id": record.pk,
        "game": record.game,
        "kind": record.kind,
        "rated": bool(record.at_table and hasattr(record, "table") and record.table.rated),
        "finished_at": record.finished_at.isoformat() if record.finished_at else None,
        "result": {"won": record.won, "score": record.score} if not record.at_table else None,
        "outcome": outcome,
        "players": _players(record, seats, places if isinstance(places, list) else None),
        "replay_url": request.build_absolute_uri(f"/games/{record.pk}/replay/"),
        "export_url": request.build_absolute_uri(f"/games/{record.pk}/export.json"),
    }


def _rating_json(rating: Rating) -> dict[str, Any]:
    return {"rating": rating.value, "games": rating.games, "provisional": rating.provisional}


@api_view
def user(request: HttpRequest, username: str) -> HttpResponse:
    """``GET /api/users/<name>``: the public profile, ratings and game counts. Every table
    game has a rating, as lichess lists every one: a game not played yet shows the start."""
    person = _user_or_404(username)
    if isinstance(person, JsonResponse):
        return person
    table_slugs = [spec.slug for spec in kinds.TABLE_GAMES]
    held = {
        row.game: row for row in Rating.objects.filter(user=person, game__in=table_slugs).defer("history")
    }
    ratings = {slug: _rating_json(held.get(slug) or starting_rating(person, slug)) for slug in table_slugs}
    by_game = dict(
        player_games(person)
        .order_by("game")
        .values_list("game")
        .annotate(n=Count("*"))  # not the key: counted from the index alone, no row read
        .values_list("game", "n")
    )
    rated = RatingChange.objects.filter(user=person).aggregate(
        rated=Count("pk"), rated_wins=Count("pk", filter=Q(place=1))
    )
    return _json(
        {
            "username": person.username,
            "joined": person.date_joined.isoformat(),
            "url": request.build_absolute_uri(person.get_absolute_url()),
            "ratings": ratings,
            "counts": {
                "all": sum(by_game.values()),
                "rated": rated["rated"],
                "rated_wins": rated["rated_wins"],
                "by_game": by_game,
            },
        }
    )


@api_view
def user_games(request: HttpRequest, username: str) -> HttpResponse:
    """``GET /api/users/<name>/games?page=N``: finished games any visitor may see, newest first."""
    person = _user_or_404(username)
    if isinstance(person, JsonResponse):
        return person
    place = _place(request, GameKey.parse)
    if isinstance(place, JsonResponse):
        return place
    number, after, before = place
    rows = Participation.objects.select_related("record__owner", "record__table").prefetch_related(
        Prefetch("record__table__seats", queryset=Seat.objects.select_related("user").order_by("number"))
    )
    page = games_by_key(
        person, player_games(person), rows, size=PAGE_SIZE, number=number, after=after, before=before
    )
    missing = _past_the_end(place, page.pages)
    if missing is not None:
        return missing
    return _json(
        {
            "username": person.username,
            **_paging(request, page.number, page.pages, page.newer, page.older),
            "games": [game_json(request, row.record) for row in page.rows],
        }
    )


@api_view
def leaderboard(request: HttpRequest, game: str) -> HttpResponse:
    """``GET /api/leaderboards/<game>?page=N``: a multiplayer game's non-provisional players
    by rating (RT-3)."""
    spec = kinds.BY_SLUG.get(game)
    if spec is None or spec not in kinds.TABLE_GAMES:
        names = ", ".join(spec.slug for spec in kinds.TABLE_GAMES)
        return error(
            gettext("No rating leaderboard for %(game)s: there is one for %(games)s.")
            % {"game": repr(game), "games": names},
            404,
        )
    place = _place(request, RatingKey.parse)
    if isinstance(place, JsonResponse):
        return place
    number, after, before = place
    board = rating_page(game, number=number, after=after, before=before, size=PAGE_SIZE, wins=False)
    missing = _past_the_end(place, board.pages)
    if missing is not None:
        return missing
    return _json(
        {
            "game": spec.slug,
            "name": spec.name,
            **_paging(request, board.number, board.pages, board.higher, board.lower),
            "players": [
                {
                    "rank": row.rank,
                    "username": row.rating.user.username,
                    "url": request.build_absolute_uri(
                        reverse("profile", kwargs={"username": row.rating.user.username})
                    ),
                    **_rating_json(row.rating),
                }
                for row in board.rows
            ],
        }
    )


@api_view
def not_found(request: HttpRequest, rest: str = "") -> HttpResponse:
    """Any other address under ``/api/``."""
    return error(gettext("No such API endpoint: see docs/api.md."), 404)
