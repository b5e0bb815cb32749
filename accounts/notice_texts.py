"""What a notice says, in the language of whoever reads it.

A notice is stored as its kind and the facts it names (``Notice.params``: a tournament's name,
a game's slug, a round's number), and worded only when it is read: on the page, in the
socket's frames, in the data export. So a notice made by someone else's request or by a task
reads in its recipient's language, and in their new one if they change it. ``Notice.text``
keeps the words in the site's own language as they were made (what older notices, made before
``params``, show).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext, ngettext

Params = Mapping[str, Any]


def _game(slug: str) -> str:
    from games import kinds  # the registry imports the apps' models

    spec = kinds.BY_SLUG.get(slug)
    return str(spec.name) if spec is not None else slug


def _ordinal(place: int) -> str:
    from games.kinds.words import ordinal

    return ordinal(place)


def _match_ready(p: Params) -> str:
    return gettext("Your match in %(tournament)s is ready: go to your table") % p


def _bye(p: Params) -> str:
    return gettext("You were given a bye in round %(round)d of %(tournament)s") % p


def _pairings(p: Params) -> str:
    return gettext("Round %(round)d pairings are out in %(tournament)s") % p


def _event_open(p: Params) -> str:
    return gettext("%(tournament)s is open: play your deals") % p


def _results(p: Params) -> str:
    words = {**p, "place": _ordinal(p["place"])}
    return gettext("%(tournament)s is over: you placed %(place)s of %(entrants)d") % words


def minutes_left(seconds: float) -> int:
    """Whole minutes, rounded up: a reminder 4 min 10 s before the start says 5 minutes."""
    return max(1, math.ceil(seconds / 60))


def starts_soon(tournament: str, minutes: int) -> str:
    """The reminder's notice, and its e-mail's subject."""
    return ngettext(
        "%(tournament)s starts in a minute", "%(tournament)s starts in %(minutes)d minutes", minutes
    ) % {"tournament": tournament, "minutes": minutes}


def _starts_soon(p: Params) -> str:
    return starts_soon(p["tournament"], p["minutes"])


def _timed_out(p: Params) -> str:
    words = {**p, "game": _game(p["game"])}
    return gettext("Time ran out at %(game)s table %(table)d: %(said)s") % words


def _rematch(p: Params) -> str:
    words = {**p, "game": _game(p["game"])}
    return gettext("%(name)s wants a rematch of %(game)s: take your seat") % words


def _your_turn(p: Params) -> str:
    words = {**p, "game": _game(p["game"])}
    return gettext("Your move against %(others)s in %(game)s") % words


def _invitation(p: Params) -> str:
    words = {**p, "game": _game(p["game"])}
    if p.get("private"):
        return gettext("%(name)s invites you to a private %(game)s table") % words
    return gettext("%(name)s invites you to %(game)s table %(table)d") % words


def _invitation_answer(p: Params) -> str:
    words = {**p, "game": _game(p["game"])}
    if p.get("accepted"):
        return gettext("%(name)s accepted your invitation to %(game)s table %(table)d") % words
    return gettext("%(name)s declined your invitation to %(game)s table %(table)d") % words


TEXTS: dict[str, Callable[[Params], str]] = {
    "match_ready": _match_ready,
    "bye": _bye,
    "pairings": _pairings,
    "event_open": _event_open,
    "results": _results,
    "starts_soon": _starts_soon,
    "timed_out": _timed_out,
    "rematch": _rematch,
    "your_turn": _your_turn,
    "invitation": _invitation,
    "invite_answer": _invitation_answer,
}
"""Each ``Notice.Kind`` worded from its params, in the active language."""


def words(kind: str, params: Params) -> str:
    return TEXTS[kind](params)


def stored(kind: str, params: Params) -> str:
    """The words kept in ``Notice.text``: in the site's own language, whoever caused them."""
    with translation.override(settings.LANGUAGE_CODE):
        return words(kind, params)
