"""JSON from strangers (WebSocket frames, imported game files), refused politely when it
nests too deep.

``json.loads`` recurses once per level of nesting, so a few thousand ``[`` end in a
``RecursionError``, which is not a ``ValueError`` and which no caller expects: a socket
closed with 1011, an import answered with 500. ``loads`` counts the nesting first, in one
pass that skips over strings, and refuses it with ``TooDeeplyNested`` (a ``ValueError``).
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from django.utils.translation import gettext

DEFAULT_MAX_DEPTH = 32

# A string (its escapes included; an unterminated one runs to the end of the text, so no
# bracket inside it is counted), or one bracket. The unrolled loop keeps this linear.
_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|[\[\]{}]', re.DOTALL)
_OPENERS = frozenset("[{")


class TooDeeplyNested(ValueError):
    """JSON whose arrays and objects nest deeper than the reader allows."""

    def __init__(self, max_depth: int) -> None:
        super().__init__(
            gettext("JSON may nest arrays and objects at most %(depth)s levels deep") % {"depth": max_depth}
        )
        self.max_depth = max_depth


def check_depth(text: str, max_depth: int) -> None:
    """``TooDeeplyNested`` if ``text`` opens more than ``max_depth`` brackets at once
    (outside strings); says nothing about whether it is valid JSON otherwise."""
    depth = 0
    for token in _TOKEN.finditer(text):
        char = token.group()[0]
        if char in _OPENERS:
            depth += 1
            if depth > max_depth:
                raise TooDeeplyNested(max_depth)
        elif char != '"' and depth:
            depth -= 1  # a closer with nothing open is invalid JSON, for json.loads to report


def loads(text: str | bytes, *, max_depth: int = DEFAULT_MAX_DEPTH) -> Any:
    """``json.loads`` for untrusted text: whatever the text, a failure is a ``ValueError``
    (``TooDeeplyNested`` for deep nesting, ``json.JSONDecodeError`` or ``UnicodeDecodeError``
    for the rest); ``Infinity``, ``NaN`` and numbers too large for a float are refused."""
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    if not isinstance(text, str):
        raise TypeError(f"JSON text is str or bytes, not {type(text).__name__}")
    check_depth(text, max_depth)
    return json.loads(text, parse_constant=_no_constant, parse_float=_finite_float)


def _no_constant(name: str) -> Any:
    # Python's json reads Infinity and NaN, which are not JSON; int() of them raised
    # OverflowError and ValueError deep inside a consumer (found by `make fuzz`).
    raise ValueError(gettext("%(name)s is not a JSON number") % {"name": name})


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(gettext("%(number)s is too large a number") % {"number": text[:20]})
    return value
