"""Languages where Django's request machinery does not reach: a socket's, and what is kept drawn.

A socket has no ``LocaleMiddleware``: ``of_socket`` chooses its language as a page of the same
browser would be chosen (the person's profile, else the language cookie, else Accept-Language),
and ``web.consumers.FrameLimitedConsumer`` draws every frame of the socket in it.

Whatever is kept once drawn (HTML of a table's cells, the rules page) is kept per language:
``per_language`` puts the active language in the key of a ``functools.lru_cache``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any, Generic, ParamSpec, TypeVar

from django.conf import settings
from django.http import HttpRequest
from django.utils import translation

P = ParamSpec("P")
R = TypeVar("R")


def of_socket(scope: Mapping[str, Any]) -> str:
    """The language of a socket's frames: its person's profile's, else the browser's."""
    from accounts.languages import supported

    user = scope.get("user")
    own = getattr(user, "language", "") if user is not None and user.is_authenticated else ""
    if supported(own):
        return str(own)
    # Django's own choice for a request (cookie, then Accept-Language), from the handshake's.
    request = HttpRequest()
    request.COOKIES = dict(scope.get("cookies") or {})
    for name, value in scope.get("headers") or ():
        if name == b"accept-language":
            request.META["HTTP_ACCEPT_LANGUAGE"] = value.decode("latin-1")
    return translation.get_language_from_request(request)


class PerLanguage(Generic[P, R]):
    """``fn`` kept by its arguments and the active language (``functools.lru_cache`` underneath,
    ``maxsize`` entries per language)."""

    def __init__(self, fn: Callable[P, R], maxsize: int) -> None:
        self._kept = functools.lru_cache(maxsize=maxsize * len(settings.LANGUAGES))(
            lambda language, *args, **kwargs: fn(*args, **kwargs)
        )
        functools.update_wrapper(self, fn)

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        return self._kept(translation.get_language(), *args, **kwargs)  # type: ignore[arg-type,no-any-return]

    def cache_info(self) -> Any:
        return self._kept.cache_info()

    def cache_clear(self) -> None:
        self._kept.cache_clear()


def per_language(maxsize: int) -> Callable[[Callable[P, R]], PerLanguage[P, R]]:
    def wrap(fn: Callable[P, R]) -> PerLanguage[P, R]:
        return PerLanguage(fn, maxsize)

    return wrap
