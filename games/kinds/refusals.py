"""The engines' refusals in the reader's language.

An engine says why it refuses an action as ``Words``: an English template it marked with
``gettext_noop`` (so it is in the catalogue) and named parameters, some of them ``Words``
themselves ("seat 1 and seat 2"). Here each template is looked up in the active language and
filled; nothing is parsed back out of an English sentence.
"""

from __future__ import annotations

from django.utils.translation import gettext

from games.engine.base import Words


def worded(words: Words) -> str:
    """``words`` in the active language (a template the catalogue lacks stays English)."""
    template = gettext(words.template) if words.template else ""
    if not words.params:
        return template
    return template % {
        key: worded(value) if isinstance(value, Words) else str(value) for key, value in words.params.items()
    }
