"""Pages and forms of LP-9's invitations (``games.live.invitations``).

Every answer is a plain form (a POST with its CSRF token) that works without JavaScript; the
notice that brings an invitation carries the same forms. An invitation is there only for its
invitee and its inviter: to anyone else its page and its forms answer as one that does not
exist, so that no one learns of a private table through another's invitation.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from accounts.selectors import public_profile
from games.core.errors import GameError
from games.live import invitations, table_access
from games.models import Invitation
from web.http import AuthenticatedHttpRequest
from web.numbers import whole_number


@login_required
@require_safe
def invitation_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    return render(
        request,
        "games/invitations.html",
        {
            "waiting": list(invitations.waiting_for(request.user)[:50]),
            "sent": invitations.sent_by(request.user),
        },
    )


@login_required
@require_safe
def invitation_page(request: AuthenticatedHttpRequest, invitation_id: int) -> HttpResponse:
    invitation = (
        Invitation.objects.select_related("table", "from_user", "to_user").filter(pk=invitation_id).first()
    )
    me = request.user.pk
    if invitation is None or me not in (invitation.to_user_id, invitation.from_user_id):
        raise Http404("No such invitation.")
    return render(
        request,
        "games/invitation.html",
        {
            "invitation": invitation,
            "status": invitation.current_status(),
            "is_invitee": invitation.to_user_id == me,
            "table_open": invitation.table.status == invitation.table.Status.OPEN,
        },
    )


@login_required
@require_safe
def invite_person(request: AuthenticatedHttpRequest, username: str) -> HttpResponse:
    """The "Invite to a table" page, from a profile or the friends page: one of your open tables, or a
    new one opened for them."""
    person = public_profile(username=username)
    return render(
        request,
        "games/invite_person.html",
        {
            "person": person,
            "is_self": person.pk == request.user.pk,
            "allowed": invitations.may_invite(request.user, person),
            "refusal": invitations.policy_refusal(person),
            "tables": invitations.open_tables_of(request.user),
        },
    )


@login_required
@require_POST
def send(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Invite the people named in ``to`` (one, or several separated by commas) to ``table``."""
    table_id = whole_number(request.POST.get("table", ""))
    seat = whole_number(request.POST.get("seat", ""))
    try:
        if table_id is None:
            raise GameError(_(invitations.NO_SUCH_TABLE))
        names = invitations.parse_names(request.POST.get("to", ""))
        if not names:
            raise GameError(_("Say whom to invite: their username."))
        if seat is not None and len(names) == 1:
            invitee = invitations.person_named(names[0])
            made = [invitations.invite(inviter=request.user, table_id=table_id, invitee=invitee, seat=seat)]
            refused: list[str] = []
        else:
            made, refused = invitations.invite_names(inviter=request.user, table_id=table_id, names=names)
    except GameError as exc:
        made, refused = [], [str(exc)]
    for error in refused:
        messages.error(request, error)
    if made:
        messages.success(
            request,
            _("Invitation sent to %(names)s.") % {"names": ", ".join(i.to_user.username for i in made)},
        )
    return _to_table(request, table_id)


def _to_table(request: AuthenticatedHttpRequest, table_id: int | None) -> HttpResponse:
    """Back to the table's page if the person may enter it (its plain address, never its link),
    else to the invitations page."""
    if table_id is not None and table_access.may_enter_id(table_id, request.user, request.session):
        return redirect("table", table_id=table_id)
    return redirect("invitations")


@login_required
@require_POST
def accept(request: AuthenticatedHttpRequest, invitation_id: int) -> HttpResponse:
    try:
        table = invitations.accept(invitation_id=invitation_id, user=request.user)
    except GameError as exc:
        messages.error(request, str(exc))
        return _to_invitation(request, invitation_id)
    return redirect(table)


@login_required
@require_POST
def decline(request: AuthenticatedHttpRequest, invitation_id: int) -> HttpResponse:
    try:
        invitations.decline(invitation_id=invitation_id, user=request.user)
    except GameError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("You declined the invitation."))
    return _to_invitation(request, invitation_id)


@login_required
@require_POST
def cancel(request: AuthenticatedHttpRequest, invitation_id: int) -> HttpResponse:
    try:
        invitation = invitations.cancel(invitation_id=invitation_id, user=request.user)
    except GameError as exc:
        messages.error(request, str(exc))
        return _to_invitation(request, invitation_id)
    messages.success(request, _("Invitation withdrawn."))
    return _to_table(request, invitation.table_id)


def _to_invitation(request: AuthenticatedHttpRequest, invitation_id: int) -> HttpResponse:
    """The invitation's page if it is the person's (to read the error there), else their list."""
    mine = Q(to_user=request.user) | Q(from_user=request.user)
    if Invitation.objects.filter(mine, pk=invitation_id).exists():
        return redirect("invitation", invitation_id=invitation_id)
    return redirect("invitations")
