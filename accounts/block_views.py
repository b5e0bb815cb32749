"""Block and Unblock from a person's profile, and the list of the people you blocked (issue 45).

Plain forms (a POST with its CSRF token, then back), working without JavaScript. Nothing here
tells the blocked person anything: their pages look as before.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe
from django_ratelimit.decorators import ratelimit

from accounts import blocks
from accounts.models import User
from accounts.selectors import public_profile
from web.http import AuthenticatedHttpRequest

PEOPLE_PER_PAGE = 50


def _user_key(group: str, request: HttpRequest) -> str:
    return str(request.user.pk)


@login_required
@require_POST
@ratelimit(group="accounts.block", key=_user_key, rate=blocks.BLOCK_RATE, block=False)
def block(request: AuthenticatedHttpRequest, username: str) -> HttpResponse:
    person = public_profile(username=username)
    if getattr(request, "limited", False):
        messages.error(request, _("Too many blocks at once: wait a minute and try again."))
    else:
        try:
            blocks.block(blocker=request.user, blocked=person)
        except blocks.BlockError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(
                request,
                _(
                    "You blocked %(name)s: you no longer see their chat, and they cannot follow you, "
                    "invite you or sit at your private tables. They are not told."
                )
                % {"name": person.username},
            )
    return _back(request, person)


@login_required
@require_POST
@ratelimit(group="accounts.block", key=_user_key, rate=blocks.BLOCK_RATE, block=False)
def unblock(request: AuthenticatedHttpRequest, username: str) -> HttpResponse:
    person = public_profile(username=username)
    if getattr(request, "limited", False):
        messages.error(request, _("Too many blocks at once: wait a minute and try again."))
    elif blocks.unblock(blocker=request.user, blocked=person):
        messages.success(request, _("You unblocked %(name)s.") % {"name": person.username})
    return _back(request, person)


@login_required
@require_safe
def blocked_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    people = blocks.blocked_people(request.user).only("username")
    page = Paginator(people, PEOPLE_PER_PAGE).get_page(request.GET.get("page"))
    return render(request, "accounts/blocked.html", {"page": page})


def block_context(request: HttpRequest, person: User) -> dict[str, object]:
    """Whether the viewer blocked ``person``: the profile's Block or Unblock."""
    return {"blocking": blocks.is_blocked(by=request.user, whom=person)}


def _back(request: HttpRequest, person: User) -> HttpResponse:
    """To the page the form was on (``next``, an address on this site), else the profile."""
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure()):
        return HttpResponseRedirect(target)
    return redirect(person)
