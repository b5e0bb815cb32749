"""HTTP pages of live tables: the lobby, a table, and its seating forms.

Seating changes post here; every open page then hears of them over its WebSocket.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from accounts.models import User
from games.core.errors import GameError
from games.live import invitations, table_access, tables
from games.live.table_forms import LobbyTableForm
from games.live.table_frames import lobby_tables
from games.live.table_presenter import table_context
from games.models import Table
from web.http import AuthenticatedHttpRequest, HtmxHttpRequest
from web.numbers import whole_number


@require_safe
def lobby(request: HtmxHttpRequest) -> HttpResponse:
    # "Open a new table for them" (``invite_person``) comes with the name to invite.
    form = LobbyTableForm(initial={"invite": request.GET.get("invite", "")[:200]})
    return render(request, "games/lobby.html", {"form": form, **lobby_tables()})


@login_required
@require_http_methods(["POST"])
def create(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = LobbyTableForm(request.POST)
    if form.is_valid():
        try:
            table = tables.create_table(
                game=form.cleaned_data["game"],
                creator=request.user,
                config=form.config(),
                clock_seconds=form.cleaned_data["clock_seconds"],
                rated=form.cleaned_data["rated"],
                private=form.cleaned_data["private"],
            )
        except GameError as exc:
            form.add_error(None, str(exc))
        else:
            if form.cleaned_data["chat_off"]:  # its creator's choice (LP-10), before anyone is there
                Table.objects.filter(pk=table.pk).update(chat_enabled=False)
            _invite(request, table, form.cleaned_data["invite"])
            return redirect(table)
    return render(request, "games/lobby.html", {"form": form, **lobby_tables()}, status=400)


def _invite(request: AuthenticatedHttpRequest, table: Table, names: list[str]) -> None:
    """The people the table form named are invited; each refusal is said on the table's page."""
    made, refused = invitations.invite_names(inviter=request.user, table_id=table.pk, names=names)
    for error in refused:
        messages.error(request, error)
    if made:
        sent_to = ", ".join(invitation.to_user.username for invitation in made)
        messages.success(request, _("Invitation sent to %(names)s.") % {"names": sent_to})


def _person(request: HttpRequest) -> User | None:
    return request.user if request.user.is_authenticated else None


@require_safe
def table_page(request: HtmxHttpRequest, table_id: int) -> HttpResponse:
    table = Table.objects.select_related("record", "created_by").filter(pk=table_id).first()
    user = _person(request)
    if table is None or not table_access.may_enter(table, user, request.session):
        raise Http404("No such table.")  # a private table is not there for whoever lacks its link
    context = table_context(table, user)
    if table.private_key is not None and (
        context["me"] is not None
        or (table.status == Table.Status.OPEN and table.created_by_id == getattr(user, "pk", None))
    ):
        context["private_link"] = request.build_absolute_uri(reverse("table_join", args=[table.private_key]))
    return render(request, "games/table.html", context)


@require_safe
def join(request: HtmxHttpRequest, key: str) -> HttpResponse:
    """A private table's link: the session remembers the table, and goes to its plain
    address (the key leaves the address bar; see ``table_access``)."""
    table = table_access.table_by_key(key)
    if table is None:
        raise Http404("No such table.")
    table_access.remember(request.session, table)
    return redirect(table)


def _no_such_table_unless_entered(request: HtmxHttpRequest, table_id: int) -> None:
    """A private table's seats answer whoever lacks its link as a table that is not there."""
    if not table_access.may_enter_id(table_id, _person(request), request.session):
        raise GameError(_("There is no such table."))


def _seating(
    request: HtmxHttpRequest, table_id: int, change: Callable[..., Any], **kwargs: Any
) -> HttpResponse:
    try:
        _no_such_table_unless_entered(request, table_id)
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
        messages.error(request, _("Say which seat's bot to remove."))
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
        _no_such_table_unless_entered(request, table_id)
        table = tables.rematch(table_id=table_id, user=request.user)
    except GameError as exc:
        messages.error(request, str(exc))
        back = table_id if table_access.may_enter_id(table_id, _person(request), request.session) else None
        url = reverse("table", args=[back]) if back is not None else reverse("tables")
    else:
        url = table.get_absolute_url()
    if request.htmx:
        # The live part the form sits in came over the socket, with no page to replace:
        # the browser goes to the rematch (or back, to read the error) as a whole page.
        return HttpResponse(status=204, headers={"HX-Redirect": url})
    return redirect(url)
