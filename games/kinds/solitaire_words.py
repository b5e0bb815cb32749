"""What a solitaire page says to its player: a move as advice (a hint: "Pair the 6 of
diamonds with the 7 of diamonds"), a move as done (the status line after it: "Paired the 6
of diamonds with the 7 of diamonds"), why a game ended, and why a card cannot be used now.

Cards read as a player says them, with numbers for the number cards ("the 10 of clubs");
replays keep their own narration (``games.core.narration``), whose sentences logs and golden
tests hold. Each solitaire spec words its own moves with these pieces and implements
``SolitaireWords``; nothing here decides a rule (what is legal comes from the engine's view).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from django.utils.translation import gettext, gettext_noop

from games.engine.solitaire_common import RESIGNED
from games.kinds.solitaire import Cell
from games.kinds.spec import SolitaireSpec
from games.kinds.words import SUIT_NAMES, and_list

# Whole phrases, article and all: the article depends on the card in some languages
# ("l'asso", "il re", "la regina" in Italian).
FACE_WORDS = {
    "A": gettext_noop("the Ace of %(suit)s"),
    "J": gettext_noop("the Jack of %(suit)s"),
    "Q": gettext_noop("the Queen of %(suit)s"),
    "K": gettext_noop("the King of %(suit)s"),
    "8": gettext_noop("the 8 of %(suit)s"),
}


def card_words(card: str) -> str:
    """``"Td"`` -> ``"the 10 of diamonds"``; ``"Ks"`` -> ``"the King of spades"``."""
    suit = gettext(SUIT_NAMES[card[1]])
    template = FACE_WORDS.get(card[0])
    if template is not None:
        return gettext(template) % {"suit": suit}
    number = "10" if card[0] == "T" else card[0]
    return gettext("the %(number)s of %(suit)s") % {"number": number, "suit": suit}


def cards_words(cards: list[str] | tuple[str, ...]) -> str:
    return and_list([card_words(card) for card in cards])


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]


@dataclass(frozen=True)
class PlayCell(Cell):
    """A layout card with the reason it cannot be used now ("" when it can), which the page
    says when it is picked instead of silently selecting it."""

    why: str = ""


def play_cell(cell: Cell, why: str) -> PlayCell:
    return PlayCell(cell.x, cell.y, cell.card, cell.image, cell.label, cell.available, cell.z, why)


@runtime_checkable
class SolitaireWords(Protocol):
    def did(self, text: str, post: Any) -> str:
        """The move ``text`` as done, in the past tense, from the view after it."""

    def end_reason(self, view: Any) -> str:
        """Why the game of this finished ``view`` ended, as a sentence."""


def words_of(spec: SolitaireSpec) -> SolitaireWords:
    if not isinstance(spec, SolitaireWords):
        raise TypeError(f"{spec.slug} does not word its moves for the page")
    return spec


def said_after(spec: SolitaireSpec, text: str, post: Any) -> str:
    """The status line after the move ``text``: what was done, and why the game ended if it
    did. ``post`` is the ``SolitaireView`` after the move (``Any``: engines hand views over
    under one type)."""
    words = words_of(spec)
    done = capital(words.did(text, post)) + "."
    if post.over and post.outcome.status != RESIGNED:
        done += " " + words.end_reason(post)
    return done


def end_reason(spec: SolitaireSpec, view: Any) -> str:
    """Why the game of ``view`` (a ``SolitaireView``) ended, or "" while it runs."""
    return words_of(spec).end_reason(view) if view.over else ""
