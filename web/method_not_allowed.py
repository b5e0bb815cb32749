"""The site's own page for a 405: a link to a button's address (``require_POST``, a log-out)
opened in the browser gets Django's ``HttpResponseNotAllowed``, whose body is empty, and the
browser shows its bare error page. This puts the site's page in its place, with a way back;
the status and the Allow header stay, and a 405 that has a body (the JSON API's) is left as it is.
"""

from __future__ import annotations

from collections.abc import Callable
from inspect import iscoroutinefunction
from typing import Any

from asgiref.sync import sync_to_async
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import render
from django.utils.decorators import sync_and_async_middleware
from django.utils.http import url_has_allowed_host_and_scheme

# The next handler is a function or a coroutine function, as Django's chain is sync or async.
Handler = Callable[[HttpRequest], Any]


def _bare_405(response: HttpResponseBase) -> bool:
    return (
        response.status_code == 405
        and isinstance(response, HttpResponse)  # a streaming response has no .content
        and not response.content
    )


def _back(request: HttpRequest) -> str:
    """The page the person came from when it is on this site (its form has the button), else ""."""
    referer = request.headers.get("Referer", "")
    if referer and url_has_allowed_host_and_scheme(referer, {request.get_host()}, request.is_secure()):
        return referer
    return ""


def _page(request: HttpRequest, bare: HttpResponseBase) -> HttpResponse:
    page = render(request, "405.html", {"back_url": _back(request)}, status=405)
    if bare.has_header("Allow"):
        page["Allow"] = bare["Allow"]
    return page


@sync_and_async_middleware
def method_not_allowed_page(get_response: Handler) -> Handler:
    if iscoroutinefunction(get_response):

        async def async_middleware(request: HttpRequest) -> HttpResponseBase:
            response: HttpResponseBase = await get_response(request)
            if _bare_405(response):
                # The page's header reads the person's notices from the database: not in the loop.
                return await sync_to_async(_page)(request, response)
            return response

        return async_middleware

    def middleware(request: HttpRequest) -> HttpResponseBase:
        response: HttpResponseBase = get_response(request)
        if _bare_405(response):
            return _page(request, response)
        return response

    return middleware
