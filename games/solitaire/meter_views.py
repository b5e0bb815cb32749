"""The chance-to-win meter's addresses (issue 46): its figure, which htmx loads into a casual
game after every move, and the switch that shows or hides it.

The figure's view is asynchronous: the solver's searches (up to about a tenth of a second)
run in a thread of their own, where a synchronous view would hold the one thread that serves
every synchronous request of the process (asgiref's thread-sensitive mode), and each move's
board would wait behind another player's meter.
"""

from __future__ import annotations

import asyncio
from typing import Any

from asgiref.sync import sync_to_async
from django.http import HttpResponse, HttpResponseBadRequest, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django_ratelimit.core import is_ratelimited

from games import kinds
from games.models import GameRecord
from games.solitaire import meter
from games.solitaire.views import _viewer, player_key
from web.http import HtmxHttpRequest

METER_RATE = "120/m"
"""A figure a move: a quick player makes about a move a second, a script far more."""
ADDRESS_RATE = "240/m"
"""...and this many a minute per address, whoever asks."""
PARTIAL = "games/partials/odds_meter.html"


def _prepare(request: HtmxHttpRequest, game_id: int) -> HttpResponse | tuple[GameRecord, Any]:
    """The record and the player's view, or the answer that refuses them (database work, in
    the thread of synchronous work)."""
    if not request.htmx:
        return redirect("game", game_id=game_id)  # the figure is a part of the game's page
    record = GameRecord.objects.filter(pk=game_id, game__in=kinds.SOLITAIRE_SLUGS).first()
    if record is None:
        return render(request, PARTIAL, {"refusal": _("There is no such game.")}, status=404)
    refusal = meter.refusal(record, _viewer(request))  # a GET starts no session
    if refusal:
        return render(request, PARTIAL, {"refusal": refusal})
    limited = any(
        is_ratelimited(request, group=group, key=key, rate=rate, increment=True)
        for group, key, rate in (
            ("games.odds", player_key, METER_RATE),
            ("games.odds.address", "ip", ADDRESS_RATE),
        )
    )
    if limited:
        words = _("Moves are coming faster than the meter: it catches up at the next.")
        response = render(request, PARTIAL, {"refusal": words}, status=429)
        response["Retry-After"] = "60"
        return response
    return record, meter.player_view(record)


async def odds_meter(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """``/games/<id>/odds/``: the meter as the game stands, for htmx to swap into the page."""
    if request.method not in ("GET", "HEAD"):
        return HttpResponse(status=405, headers={"Allow": "GET, HEAD"})
    prepared = await sync_to_async(_prepare)(request, game_id)
    if isinstance(prepared, HttpResponse):
        return prepared
    record, view = prepared
    figure = await asyncio.to_thread(meter.figure, record.game, view)
    return await sync_to_async(render)(request, PARTIAL, {"figure": figure, "record": record})


@require_POST
def odds_switch(request: HtmxHttpRequest) -> HttpResponse:
    """Shows (``show=1``) or hides (``show=0``) the meter in the person's games, then back to
    ``next`` (an address on this site)."""
    choice = request.POST.get("show")
    if choice not in ("0", "1"):
        return HttpResponseBadRequest(_("Say show=1 to show the chance to win, or show=0 to hide it."))
    meter.show(request.session, choice == "1")
    target = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure()):
        target = "/play/"
    # Not ``redirect``: it would read a bare word ("1", found by make fuzz) as a view's name.
    return HttpResponseRedirect(target)
