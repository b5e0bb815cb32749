"""The chat's forms: a table's message (the page's form without JavaScript; with it, the
same form goes over the table's socket), the creator's switch, each person's "Hide chat",
and a tournament's chat (its form, and the log the page polls)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from accounts.models import User
from games.core.announcements import send_to_group
from games.live import table_access
from games.models import Table
from talk import lines, panels, rooms, say
from talk.models import Message
from tournaments.models import Tournament
from web.http import AuthenticatedHttpRequest, HtmxHttpRequest


def _back_to_table(request: HtmxHttpRequest, table_id: int) -> HttpResponse:
    if request.htmx:
        return HttpResponse(status=204, headers={"HX-Refresh": "true"})
    if table_access.may_enter_id(table_id, request.user, request.session):  # type: ignore[arg-type]
        return redirect(reverse("table", args=[table_id]) + "#table-chat")
    return redirect("tables")


def _announce(message: Message) -> None:
    """A message said through the form reaches the room's open pages as the socket's would."""
    if not message.hidden and message.table_id is not None:
        user: User = message.user
        send_to_group(rooms.group(message.table_id, message.room), lines.payload(message, user.username))


@login_required
@require_POST
def table_say(request: AuthenticatedHttpRequest, table_id: int) -> HttpResponse:
    try:
        message = say.at_table(
            table_id=table_id,
            user=request.user,
            session=request.session,
            room=request.POST.get("room"),
            said=request.POST.get("chat", ""),
            preset=request.POST.get("preset", ""),
        )
    except say.ChatError as exc:
        messages.error(request, str(exc))
    else:
        _announce(message)
    return _back_to_table(request, table_id)  # type: ignore[arg-type]


@login_required
@require_POST
def table_chat_switch(request: AuthenticatedHttpRequest, table_id: int) -> HttpResponse:
    """The table's creator turns its chat on or off (``enabled``: "1" or "0")."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None or not table_access.may_enter(table, request.user, request.session):
        messages.error(request, _("There is no such table."))
    elif table.created_by_id != request.user.pk:
        messages.error(request, _("Only the table's creator can turn its chat on or off."))
    elif request.POST.get("enabled") not in ("0", "1"):
        messages.error(request, _("Say whether chat should be on or off."))
    else:
        enabled = request.POST["enabled"] == "1"
        Table.objects.filter(pk=table_id).update(chat_enabled=enabled)
        for room in rooms.TABLE_ROOMS:
            send_to_group(rooms.group(table_id, room), {"type": "chat.switched"})
        if enabled:
            messages.success(request, _("Chat is on at this table."))
        else:
            messages.success(request, _("Chat is off at this table."))
    return _back_to_table(request, table_id)  # type: ignore[arg-type]


@login_required
@require_POST
def chat_visibility(request: AuthenticatedHttpRequest) -> HttpResponse:
    """A person hides chat everywhere (``hide``: "1"), or shows it again ("0"); back to ``next``."""
    hide = request.POST.get("hide")
    if hide not in ("0", "1"):
        messages.error(request, _("Say whether to hide chat or show it."))
    else:
        User.objects.filter(pk=request.user.pk).update(hide_chat=hide == "1")
    target = request.POST.get("next", "")
    safe = url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()})
    if not safe or not target.startswith("/"):
        target = reverse("edit_profile")
    if request.htmx:
        return HttpResponse(status=204, headers={"HX-Refresh": "true"})
    return redirect(target)


def _person(request: HttpRequest) -> User | None:
    return request.user if request.user.is_authenticated else None  # type: ignore[return-value]


@login_required
@require_POST
def tournament_say(request: AuthenticatedHttpRequest, tournament_id: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    notice = ""
    try:
        say.in_tournament(
            tournament_id=tournament.pk,
            user=request.user,
            said=request.POST.get("chat", ""),
            preset=request.POST.get("preset", ""),
        )
    except say.ChatError as exc:
        notice = str(exc)
    if request.htmx:
        context = {"chat": panels.tournament_panel(tournament, request.user, notice)}
        return render(request, "talk/tournament_chat.html", context, status=200)
    if notice:
        messages.error(request, notice)
    return redirect(tournament.get_absolute_url() + "#tournament-chat")


@require_safe
def tournament_chat_log(request: HtmxHttpRequest, tournament_id: int) -> HttpResponse:
    """The tournament chat's log, as the page polls it: nothing (204) while no message came."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    if request.GET.get("since") == str(panels.newest_id(tournament.pk)):
        return HttpResponse(status=204)
    context = {"chat": panels.tournament_panel(tournament, _person(request))}
    return render(request, "talk/tournament_chat_log.html", context)
