"""The site's own page for a form that Django's CSRF check refuses (``CSRF_FAILURE_VIEW``).

The usual cause is no attack: a page left open in one tab while its person logged in again
in another (logging in gives the browser a new CSRF token, so the old page's forms carry a
stale one). Django's own page says "CSRF verification failed" and asks for DEBUG, and its
inline <style> breaks the site's Content-Security-Policy. This one is a page of the site: it
says what happened and that nothing was done, and links back to the page the form came
from, which loads afresh with a good token, no script needed. The status stays 403.

It answers every refused request alike, whatever the address: an address that wants
another answer (the JSON API) must not reach the CSRF check.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import REASON_NO_CSRF_COOKIE
from django.shortcuts import render
from django.utils.http import url_has_allowed_host_and_scheme


def stale_form_page(request: HttpRequest, reason: str = "") -> HttpResponse:
    context = {"back_url": _came_from(request), "no_cookie": reason == REASON_NO_CSRF_COOKIE}
    page = render(request, "403_csrf.html", context, status=403)
    if request.headers.get("HX-Request") == "true":
        # htmx swaps in no 4xx answer (base.html's htmx-config), so the click would seem to do
        # nothing: the page reloads instead, with a good token, showing things as they now are.
        page["HX-Refresh"] = "true"
    return page


def _came_from(request: HttpRequest) -> str:
    """The page the form was on, when it is on this site (a Referer from elsewhere is a
    forgery's, or nothing to go back to), else ""."""
    referer = request.headers.get("Referer", "")
    if referer and url_has_allowed_host_and_scheme(referer, {request.get_host()}, request.is_secure()):
        return referer
    return ""
