"""HTTP pages of solo matches (``games.solitaire.solo_matches``): a game's match page, where one is
started and one's matches are listed, and a match's own page, deal by deal."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from games import kinds
from games.core.errors import GameError, NotYourGame
from games.core.players import Player
from games.kinds.spec import SoloMatchRule
from games.models import SoloMatch
from games.solitaire import solo_matches
from games.solitaire.views import _viewer
from web.http import HtmxHttpRequest

MATCHES_LISTED = 20


def _rule(game: str) -> SoloMatchRule:
    try:
        return solo_matches.rule_of(game)
    except GameError:
        raise Http404("This game has no match of deals.") from None


@require_http_methods(["GET", "POST"])
def matches(request: HtmxHttpRequest, game: str) -> HttpResponse:
    """``/play/<game>/match/``: what the match is, a button to start one, one's matches."""
    rule = _rule(game)
    if request.method == "POST":
        match = solo_matches.start(game=game, player=Player.from_request(request))
        return redirect(match)
    player = _viewer(request)
    mine = SoloMatch.objects.none()
    if player.user is not None or player.token:
        mine = SoloMatch.objects.filter(game=game, **player.ownership()).prefetch_related("games")
    listed = [solo_matches.summary(match) for match in mine[:MATCHES_LISTED]]
    return render(
        request, "games/solo_matches.html", {"info": kinds.get(game), "rule": rule, "matches": listed}
    )


@require_safe
def match_page(request: HtmxHttpRequest, match_id: int) -> HttpResponse:
    try:
        match = solo_matches.owned(match_id, _viewer(request))
    except NotYourGame:
        raise Http404("There is no such match of yours.") from None
    summary = solo_matches.summary(match)
    entry = getattr(match, "event_entry", None)  # a solitaire event's match (TN-8)
    context = {"info": kinds.get(match.game), "summary": summary, "event": entry and entry.tournament}
    return render(request, "games/solo_match.html", context)


@require_POST
def play_deal(request: HtmxHttpRequest, match_id: int, deal: int) -> HttpResponse:
    """Deal (or resume) the match's ``deal``-th game and go to it."""
    try:
        record = solo_matches.play(match_id=match_id, deal=deal, player=Player.from_request(request))
    except NotYourGame:
        raise Http404("There is no such match of yours.") from None
    except GameError as exc:
        messages.error(request, str(exc))
        return redirect("solo_match", match_id=match_id)
    return redirect(record)
