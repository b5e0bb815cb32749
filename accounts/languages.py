"""The language a person reads the site in, and the one the site writes to them in.

A visitor's browser decides (Django's ``LocaleMiddleware``: the language cookie that the footer's
picker sets, else ``Accept-Language``). A signed-in person's profile decides for them: it is
kept in their session when they sign in (``remember_on_sign_in``) and whenever they choose
(the footer's picker, ``choose_language``; the profile's edit page), and ``session_language``
activates it after ``LocaleMiddleware`` has chosen. So the profile wins on sign-in on any
browser, at the cost of a session read that the page's own sign-in check makes anyway (no
extra query for the user); a choice made on one browser reaches another one at its next sign-in.

Notices and e-mails are written in their recipient's language (``of``), never in that of the
person whose request or task caused them.
"""

from __future__ import annotations

from collections.abc import Callable
from inspect import iscoroutinefunction
from typing import Any

from django.conf import settings
from django.contrib.sessions.backends.base import SessionBase
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest, HttpResponseBase
from django.utils import translation
from django.utils.decorators import sync_and_async_middleware
from django.utils.translation import gettext
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_POST, require_safe
from django.views.i18n import JavaScriptCatalog, set_language

from accounts.models import User

SESSION_KEY = "capstone_language"
"""The signed-in person's language, copied from their profile (the session ends with sign-out)."""

Handler = Callable[[HttpRequest], Any]


def supported(code: object) -> bool:
    return isinstance(code, str) and code in dict(settings.LANGUAGES)


def of(user: User | None) -> str:
    """The language to write to ``user`` in when someone else's request or a task does (a
    notice, an e-mail): their profile's, else the site's own."""
    language = getattr(user, "language", "")
    return language if supported(language) else settings.LANGUAGE_CODE


def _activate(language: object, request: HttpRequest) -> None:
    if supported(language) and language != translation.get_language():
        translation.activate(str(language))
        request.LANGUAGE_CODE = str(language)


@sync_and_async_middleware
def session_language(get_response: Handler) -> Handler:
    """After ``LocaleMiddleware``: the signed-in person's own language, if their session has it."""
    if iscoroutinefunction(get_response):

        async def middleware_async(request: HttpRequest) -> HttpResponse:
            _activate(await request.session.aget(SESSION_KEY), request)  # type: ignore[attr-defined]
            return await get_response(request)  # type: ignore[no-any-return]

        return middleware_async

    def middleware(request: HttpRequest) -> HttpResponse:
        _activate(request.session.get(SESSION_KEY), request)
        return get_response(request)  # type: ignore[no-any-return]

    return middleware


def remember(session: SessionBase, language: str) -> None:
    """The session follows the profile's language from now on (blank: the browser's)."""
    if supported(language):
        session[SESSION_KEY] = language
    else:
        session.pop(SESSION_KEY, None)


def remember_on_sign_in(sender: Any, request: HttpRequest, user: User, **kwargs: Any) -> None:
    """``user_logged_in``: the profile's language wins over the browser's from the next page on."""
    remember(request.session, user.language)


@require_POST
def choose_language(request: HttpRequest) -> HttpResponse:
    """The footer's picker: Django's ``set_language`` (the cookie, then back to ``next``), and
    for a signed-in person their profile and session too. Django's view ignores a language it
    does not know; here it is refused, and nothing changes."""
    language = request.POST.get("language", "")
    if not supported(language):
        return HttpResponseBadRequest(gettext("There is no such language on this site."))
    if request.user.is_authenticated:
        User.objects.filter(pk=request.user.pk).update(language=language)
        remember(request.session, language)
    return set_language(request)


_catalog = JavaScriptCatalog.as_view()


@require_safe
@cache_control(max_age=60, public=True)
def script_messages(request: HttpRequest, language: str) -> HttpResponseBase:
    """Django's JavaScript catalogue (``gettext`` and friends for the scripts) of ``language``:
    a page names its own language in the address, so one address is one language and may be
    kept by any cache; a minute, as WhiteNoise keeps the scripts themselves."""
    if not supported(language):
        raise Http404("no such language")
    with translation.override(language):
        return _catalog(request)
