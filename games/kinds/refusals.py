"""The engines' refusals in the reader's language.

An engine says why it refuses an action as ``Words``: an English template it marked with
``gettext_noop`` (so it is in the catalogue) and named parameters, some of them ``Words``
themselves ("seat 1 and seat 2"). Here each template is looked up in the active language and
filled; nothing is parsed back out of an English sentence.
"""

from __future__ import annotations

from django.utils.functional import lazy
from django.utils.translation import gettext

from games.core.errors import as_sentence
from games.engine.base import Words


def worded(words: Words) -> str:
    """``words`` in the active language (a template the catalogue lacks stays English)."""
    template = gettext(words.template) if words.template else ""
    if not words.params:
        return template
    return template % {
        key: worded(value) if isinstance(value, Words) else str(value) for key, value in words.params.items()
    }


def _sentence(words: Words) -> str:
    return as_sentence(worded(words))


refusal = lazy(_sentence, str)
"""The refusal as a sentence for the page, worded when it is said: a table's moves are played
in batches on the database thread, whichever socket's language is active there, so a refusal
is put into words where it is sent, in its reader's language (``str()`` of the error)."""
