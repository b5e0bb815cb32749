"""The address of a card's picture under ``static/``, looked up once per process.

A table draws dozens of cards per frame; ``static()`` asks the storage (with WhiteNoise's
manifest, a lookup and a string join) every time, for an answer fixed until the next deploy.
"""

from __future__ import annotations

from functools import lru_cache

from django.templatetags.static import static


@lru_cache(maxsize=512)
def picture(path: str) -> str:
    return static(path)
