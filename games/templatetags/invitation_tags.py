"""LP-9's invitations in pages: an invitation's status in words, and a table page's panel (invite
someone; the invitations sent and their answers; an invitation of the person looking, to answer)."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.live import invitations
from games.models import Invitation, Table

register = template.Library()

_WORDS = {
    Invitation.Status.PENDING: _("waiting for an answer"),
    Invitation.Status.ACCEPTED: _("accepted"),
    Invitation.Status.DECLINED: _("declined"),
    Invitation.Status.EXPIRED: _("expired"),
    Invitation.Status.CANCELLED: _("withdrawn"),
}


@register.filter
def invitation_status(invitation: Invitation) -> str:
    """What became of ``invitation`` as of now, in words."""
    return str(_WORDS[Invitation.Status(invitation.current_status())])


@register.filter
def is_waiting(invitation: Invitation) -> bool:
    return invitation.current_status() == Invitation.Status.PENDING


def lasts(table: Table) -> str:
    """How long an invitation to ``table`` lasts, in words ("10 minutes", "1 day")."""
    seconds = int(invitations.lifetime(table).total_seconds())
    if seconds % 86400 == 0:
        days = seconds // 86400
        return ngettext("%(n)d day", "%(n)d days", days) % {"n": days}
    minutes = max(1, seconds // 60)
    return ngettext("%(n)d minute", "%(n)d minutes", minutes) % {"n": minutes}


@register.inclusion_tag("games/partials/table_invitations.html", takes_context=True)
def table_invitations(context: template.Context, table: Table) -> dict[str, Any]:
    """The table page's invitations: only for a person signed in; the form and the list for
    whoever may invite (seated there, or its opener), the answer forms for an invitee."""
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"shown": False}
    is_open = table.status == Table.Status.OPEN
    inviter = context.get("me") is not None or table.created_by_id == user.pk
    mine = None
    if is_open and context.get("me") is None:
        mine = (
            Invitation.objects.filter(
                table=table, to_user=user, status=Invitation.Status.PENDING, expires_at__gt=timezone.now()
            )
            .select_related("from_user")
            .first()
        )
    sent = invitations.sent_from(table) if inviter else []
    return {
        "shown": (inviter and (is_open or bool(sent))) or mine is not None,
        "table": table,
        "user": user,
        "can_invite": inviter and is_open,
        "lasts": lasts(table),
        "sent": sent,
        "mine": mine,
        "csrf_token": context.get("csrf_token"),
    }
