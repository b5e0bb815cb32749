"""Sign-up and profiles; log-in, log-out and passwords are Django's own views."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.utils import timezone, translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django.views.decorators.vary import vary_on_headers

from accounts import languages, notices
from accounts.block_views import block_context
from accounts.forms import ProfileForm, SignupForm
from accounts.friend_views import follow_context
from accounts.models import PROVISIONAL_GAMES
from accounts.selectors import profile_ratings, public_profile, tournaments_played
from accounts.services import register
from games import kinds
from games.models import Participation
from games.stats.game_lists import games_page
from games.stats.selectors import daily_streaks, player_games, player_stats
from web.http import AuthenticatedHttpRequest, HtmxHttpRequest

GAMES_PER_PAGE = 25


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("profile", username=request.user.get_username())
    next_url = request.POST.get("next") or request.GET.get("next") or ""
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = register(
            username=form.cleaned_data["username"],
            email=form.cleaned_data["email"],
            password=form.cleaned_data["password1"],
            site_url=request.build_absolute_uri("/"),
            language=translation.get_language(),
        )
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Welcome to Capstone, %(name)s!") % {"name": user.username})
        return _back_to(request, next_url)
    return render(request, "registration/signup.html", {"form": form, "next": next_url})


@require_safe
def profile(request: HttpRequest, username: str) -> HttpResponse:
    person = public_profile(username=username)
    if person.username != username:
        return redirect(person, permanent=True)
    context = {
        "person": person,
        "is_self": request.user == person,
        "stats": player_stats(person),
        "streaks": daily_streaks(person, timezone.now().date()),
        "games": games_page(
            person,
            player_games(
                person,
                game=request.GET.get("game", ""),
                result=request.GET.get("result", ""),
                public=request.user != person,
            ),
            request.GET.get("page"),
            GAMES_PER_PAGE,
            Participation.objects.select_related("record").only(
                "record", "won", "record__finished_at", "record__game", "record__kind", "record__score"
            ),
        ),
        "catalogue": kinds.GAMES,
        "game_filter": request.GET.get("game", ""),
        "result_filter": request.GET.get("result", ""),
        "tournaments": tournaments_played(person),
        "provisional_games": PROVISIONAL_GAMES,
        **follow_context(request, person),
        **block_context(request, person),
    }
    return render(request, "accounts/profile.html", context)


@require_safe
@vary_on_headers("HX-Request")
def ratings(request: HtmxHttpRequest, username: str) -> HttpResponse:
    """A person's ratings with their ranks, charts and histories: the profile asks for them
    once it is drawn (htmx), as lichess's profile asks for its rating chart, so its first
    response does not wait on them (the ranks alone count ~47,000 players a game at a million
    games: issue 42). Without JavaScript, the profile links here and this is a page."""
    person = public_profile(username=username)
    if person.username != username:
        return redirect("profile_ratings", username=person.username, permanent=True)
    is_self = request.user == person
    context = {
        "person": person,
        "is_self": is_self,
        "ratings": profile_ratings(person, public=not is_self),
        "provisional_games": PROVISIONAL_GAMES,
    }
    template = "accounts/partials/ratings.html" if request.htmx else "accounts/ratings.html"
    return render(request, template, context)


@login_required
@require_http_methods(["GET", "POST"])
def edit_profile(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = ProfileForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        languages.remember(request.session, user.language)  # from the next page on
        messages.success(request, _("Your profile is saved."))
        return redirect(request.user)
    return render(request, "accounts/edit_profile.html", {"form": form})


@login_required
@require_POST
def read_notices(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The header's "Mark all read", then back to the page (with JavaScript, a page sends
    the same over its notice socket and stays)."""
    notices.mark_read(user=request.user, ids="all")
    return _back_to(request, request.POST.get("next", ""))


def _back_to(request: HttpRequest, target: str) -> HttpResponse:
    """To ``target`` if it is an address on this site, else home. A plain redirect, never
    ``redirect(target)``: that reads a word without a slash ("0", "#") as a view's name."""
    if target and url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure()):
        return HttpResponseRedirect(target)
    return redirect("home")
