"""Following people, the friends page, and who follows whom.

Follow and Unfollow are forms that work without JavaScript (a POST, then back to the
profile); with htmx the button alone is swapped for its new state."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe
from django_ratelimit.decorators import ratelimit

from accounts import follows, presence
from accounts.models import User
from accounts.selectors import public_profile
from web.http import AuthenticatedHttpRequest

PEOPLE_PER_PAGE = 50


def _user_key(group: str, request: HttpRequest) -> str:
    return str(request.user.pk)


@login_required
@require_POST
@ratelimit(group="accounts.follow", key=_user_key, rate=follows.FOLLOW_RATE, block=False)
def follow(request: AuthenticatedHttpRequest, username: str) -> HttpResponse:
    return _change(request, username, follows.follow)


@login_required
@require_POST
@ratelimit(group="accounts.follow", key=_user_key, rate=follows.FOLLOW_RATE, block=False)
def unfollow(request: AuthenticatedHttpRequest, username: str) -> HttpResponse:
    return _change(request, username, follows.unfollow)


def _change(request: AuthenticatedHttpRequest, username: str, change: follows.Change) -> HttpResponse:
    person = public_profile(username=username)
    error, status = "", 200
    if getattr(request, "limited", False):
        error, status = _("Too many follows at once: wait a minute and try again."), 429
    else:
        try:
            change(follower=request.user, followed=person)
        except follows.FollowError as exc:
            error, status = str(exc), 400
    if request.htmx:
        return render(
            request, "accounts/partials/follow.html", follow_context(request, person, error), status=status
        )
    if error:
        messages.error(request, error)
    return redirect(person)


def follow_context(request: HttpRequest, person: User, error: str = "") -> dict[str, object]:
    counts, following = follows.standing(person, request.user)
    return {
        "person": person,
        "is_self": request.user == person,
        "following": following,
        "follow_counts": counts,
        "follow_error": error,
    }


@login_required
@require_safe
def friends(request: AuthenticatedHttpRequest) -> HttpResponse:
    found = presence.friends(request.user, request.GET.get("page"))
    return render(
        request, "accounts/friends.html", {"friends": found.friends, "page": found.page, "total": found.total}
    )


@require_safe
def followers(request: HttpRequest, username: str) -> HttpResponse:
    person = public_profile(username=username)
    return _people(request, person, follows.followers_of(person), _("Followers of %(name)s"))


@require_safe
def following(request: HttpRequest, username: str) -> HttpResponse:
    person = public_profile(username=username)
    return _people(request, person, follows.followed_by(person), _("Followed by %(name)s"))


def _people(request: HttpRequest, person: User, people: QuerySet[User], title: str) -> HttpResponse:
    page = Paginator(people.only("username"), PEOPLE_PER_PAGE).get_page(request.GET.get("page"))
    return render(
        request,
        "accounts/people.html",
        {"person": person, "page": page, "title": title % {"name": person.username}},
    )
