"""Whole numbers typed or forged into a request: ASCII digits only, and not too many.

``str.isdigit`` also accepts superscripts and other scripts' digits ("²", "٣"), which
``int`` then refuses or reads differently, and ``int`` refuses a text of thousands of
digits: both ended as 500s (found by `make fuzz`). A request's number goes through here.
"""

from __future__ import annotations

import re

_WHOLE = re.compile(r"-?[0-9]{1,18}")


def whole_number(text: object, *, signed: bool = False) -> int | None:
    """``text`` as an int if it is a plain decimal number of at most 18 digits (a leading
    minus only when ``signed``), else ``None``."""
    if not isinstance(text, str) or not _WHOLE.fullmatch(text):
        return None
    if text.startswith("-") and not signed:
        return None
    return int(text)
