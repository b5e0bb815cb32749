"""A chat message's text as it is kept: plain, one line, at most ``MAX_LENGTH`` characters.

Text is always escaped where it is drawn (``talk.lines``); here it loses what escaping cannot
neutralise: the bidirectional overrides and isolates (RLO, LRO, ...) that turn a line around
in the reader's eyes, the zero-width characters that hide words from the word list, control
characters, and lone surrogates (which PostgreSQL would refuse to store).
"""

from __future__ import annotations

import re
import unicodedata

MAX_LENGTH = 300

_DROPPED = frozenset(("Cc", "Cf", "Cs"))
"""Unicode categories dropped: controls, format characters (every bidi override and isolate,
the zero-width space, joiner and non-joiner, the BOM) and surrogates."""
_SPACES = re.compile(r"\s+")


def clean(text: str) -> str:
    """``text`` with format and control characters dropped and runs of white space (line
    breaks, tabs) made one space, trimmed."""
    kept = "".join(
        " " if char in "\t\n\r\v\f" else char
        for char in text
        if char in "\t\n\r\v\f" or unicodedata.category(char) not in _DROPPED
    )
    return _SPACES.sub(" ", kept).strip()
