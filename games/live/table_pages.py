"""HTTP pages of live tables: the lobby, a table, and its seating forms.

Seating changes post here; every open page then hears of them over its WebSocket.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from games.core.errors import GameError
from games.live import tables
from games.live.table_forms import TableForm
from games.live.table_frames import lobby_tables
from games.live.table_presenter import table_context
from games.models import Table
from web.http import AuthenticatedHttpRequest, HtmxHttpRequest
from web.numbers import whole_number


@require_safe
def lobby(request: HtmxHttpRequest) -> HttpResponse:
    return render(request, "games/lobby.html", {"form": TableForm(), **lobby_tables()})


@login_required
@require_http_methods(["POST"])
def create(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = TableForm(request.POST)
    if form.is_valid():
        try:
            table = tables.create_table(
                game=form.cleaned_data["game"],
                creator=request.user,
                config=form.config(),
                clock_seconds=form.cleaned_data["clock_seconds"],
                rated=form.cleaned_data["rated"],
            )
        except GameError as exc:
            form.add_error(None, str(exc))
        else:
            return redirect(table)
    return render(request, "games/lobby.html", {"form": form, **lobby_tables()}, status=400)


@require_safe
def table_page(request: HtmxHttpRequest, table_id: int) -> HttpResponse:
    table = get_object_or_404(Table.objects.select_related("record"), pk=table_id)
    user = request.user if request.user.is_authenticated else None
    return render(request, "games/table.html", table_context(table, user))


def _seating(
    request: HtmxHttpRequest, table_id: int, change: Callable[..., Any], **kwargs: Any
) -> HttpResponse:
    try:
        change(table_id=table_id, user=request.user, **kwargs)
    except GameError as exc:
        messages.error(request, str(exc))
    if request.htmx:
        return HttpResponse(status=204)  # the table's socket brings the change to every page
    return redirect("table", table_id=table_id)


def _seat_number(request: HtmxHttpRequest) -> int | None:
    return whole_number(request.POST.get("seat", ""))


@login_required
@require_POST
def sit(request: HtmxHttpRequest, table_id: int) -> HttpResponse:
    return _seating(request, table_id, tables.sit, number=_seat_number(request))


@login_required
@require_POST
def leave(request: HtmxHttpRequest, table_id: int) -> HttpResponse:
    return _seating(request, table_id, tables.leave)


@login_required
@require_POST
def add_bot(request: HtmxHttpRequest, table_id: int) -> HttpResponse:
    return _seating(request, table_id, tables.add_bot, number=_seat_number(request))


@login_required
@require_POST
def remove_bot(request: HtmxHttpRequest, table_id: int) -> HttpResponse:
    number = _seat_number(request)
    if number is None:
        messages.error(request, "Say which seat's bot to remove.")
        return redirect("table", table_id=table_id)
    return _seating(request, table_id, tables.remove_bot, number=number)


@login_required
@require_POST
def start(request: HtmxHttpRequest, table_id: int) -> HttpResponse:
    return _seating(request, table_id, tables.start)


@login_required
@require_POST
def rematch(request: AuthenticatedHttpRequest, table_id: int) -> HttpResponse:
    """A finished table's rematch (made once, however many ask): the asker goes to it."""
    try:
        table = tables.rematch(table_id=table_id, user=request.user)
    except GameError as exc:
        messages.error(request, str(exc))
        back = table_id if Table.objects.filter(pk=table_id).exists() else None
        url = reverse("table", args=[back]) if back is not None else reverse("tables")
    else:
        url = table.get_absolute_url()
    if request.htmx:
        # The live part the form sits in came over the socket, with no page to replace:
        # the browser goes to the rematch (or back, to read the error) as a whole page.
        return HttpResponse(status=204, headers={"HX-Redirect": url})
    return redirect(url)
