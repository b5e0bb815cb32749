"""The games the site plays: one spec per game, in the order the site lists them.

Adding a game is one line here (and the game's own modules: its engine in
``games.engine.<slug>``, its spec in ``games.kinds.<slug>``, its templates in
``templates/games/kinds/<slug>/``). Every other module asks this registry.
"""

from __future__ import annotations

from importlib import import_module

from django.utils.translation import gettext

from games.kinds.spec import GameSpec, SolitaireSpec, TableSpec

GAMES: tuple[GameSpec, ...] = tuple(
    import_module(f"games.kinds.{slug}").SPEC for slug in ("pyramid", "tripeaks", "triad", "blocks", "tauron")
)

BY_SLUG: dict[str, GameSpec] = {spec.slug: spec for spec in GAMES}
SOLITAIRE: tuple[SolitaireSpec, ...] = tuple(spec for spec in GAMES if isinstance(spec, SolitaireSpec))
TABLE_GAMES: tuple[TableSpec, ...] = tuple(spec for spec in GAMES if isinstance(spec, TableSpec))
TABLE_BY_SLUG: dict[str, TableSpec] = {spec.slug: spec for spec in TABLE_GAMES}
SOLITAIRE_SLUGS: tuple[str, ...] = tuple(spec.slug for spec in SOLITAIRE)
"""The games played alone in the browser, and the games of the daily challenge."""


def names(specs: tuple[GameSpec, ...], joiner: str = "and") -> str:
    """The games' names as a sentence says them: "Triad, Pyramid Poker and Tauron Hold-Em"."""
    words = [str(spec.name) for spec in specs]
    if len(words) == 1:
        return words[0]
    if joiner == "or":
        return gettext("%(first)s or %(last)s") % {"first": ", ".join(words[:-1]), "last": words[-1]}
    return gettext("%(first)s and %(last)s") % {"first": ", ".join(words[:-1]), "last": words[-1]}


def invitation() -> str:
    """One sentence inviting to every game, from each spec's ``invite``."""
    phrases = [str(spec.invite) for spec in GAMES]
    text = (
        phrases[0]
        if len(phrases) == 1
        else gettext("%(first)s, or %(last)s")
        % {
            "first": ", ".join(phrases[:-1]),
            "last": phrases[-1],
        }
    )
    return text[:1].upper() + text[1:] + "."


class UnknownGame(LookupError):
    pass


def get(slug: str) -> GameSpec:
    try:
        return BY_SLUG[slug]
    except (KeyError, TypeError):
        raise UnknownGame(f"Capstone does not play {slug!r}") from None


def get_solitaire(slug: str) -> SolitaireSpec:
    spec = get(slug)
    if not isinstance(spec, SolitaireSpec):
        raise UnknownGame(f"{spec.name} is not a solitaire game")
    return spec


def get_table_game(slug: str) -> TableSpec:
    spec = get(slug)
    if not isinstance(spec, TableSpec):
        raise UnknownGame(f"{spec.name} is not played at tables")
    return spec
