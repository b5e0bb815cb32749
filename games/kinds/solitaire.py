"""What the solitaire games share on the page: cards drawn as positioned cells, the waste,
the move list, the end of a game in words and the standing beside a replay's step.

Positions are in card widths (x) and half card heights (y), so the CSS scales one board
to any screen. Nothing here decides a rule: which cards are available or playable comes
from the engine's view.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext, gettext_lazy

from games.engine.solitaire_common import SolitaireOutcome, SolitaireView
from games.kinds.pictures import picture
from games.kinds.words import card_name

RESULTS = {"won": gettext_lazy("Won"), "lost": gettext_lazy("Lost"), "resigned": gettext_lazy("Resigned")}
PLAIN_ACTIONS = {
    "draw": gettext_lazy("Draw from the stock"),
    "redeal": gettext_lazy("Turn the waste over (redeal)"),
    "resign": gettext_lazy("Resign"),
}


def card_image(card: str | None) -> str:
    return picture(f"cards/std/{card}.svg" if card else "cards/std/back.svg")


def card_picture(card: str) -> dict[str, str]:
    return {"card": card, "image": card_image(card), "label": card_name(card)}


@dataclass(frozen=True)
class Cell:
    """One layout card: where it is drawn and what a click on it may do."""

    x: float
    y: int
    card: str | None
    image: str
    label: str
    available: bool
    z: int

    @property
    def style(self) -> str:
        return f"--x:{self.x:g};--y:{self.y};z-index:{self.z}"


def cell(x: float, y: int, card: str | None, available: bool) -> Cell:
    if card is None:
        label = gettext("face-down card")
    else:
        label = card_name(card) if available else gettext("%(card)s, not free") % {"card": card_name(card)}
    return Cell(x, y, card, card_image(card), label, available, y + 1)


def waste_top(view: Any) -> dict[str, str] | None:
    """The waste's top card of a ``SolitaireView`` as a picture (``Any``: replays hand over
    views of every game under one type)."""
    card: str | None = view.waste_top
    return card_picture(card) if card else None


def solitaire_end(post: SolitaireView, *, won: Callable[[SolitaireOutcome], str], stuck: str) -> str:
    """How a finished game ended, for the step that ended it; ``won`` words the win."""
    outcome = post.outcome
    if outcome is None or outcome.status == "resigned":
        return ""
    score = outcome.score
    if outcome.won:
        return gettext("%(how)s: game won with a score of %(score)s") % {"how": won(outcome), "score": score}
    if outcome.reason == "idle_pass":
        return gettext("a whole pass removed no card: game over, score %(score)s") % {"score": score}
    return gettext("%(how)s: game over, score %(score)s") % {"how": stuck, "score": score}


def standing(view: SolitaireView, middle: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Score, cards left and stock, then the game's own ``middle`` rows, moves and result."""
    rows: list[dict[str, Any]] = [
        {
            "label": gettext("Par score") if view.config.get("scoring") == "par" else gettext("Score"),
            "value": view.score,
        },
        {"label": gettext("Cards left"), "value": view.cards_left},
        {"label": gettext("Stock"), "value": view.stock_count},
        *middle,
        {"label": gettext("Moves"), "value": view.move_count},
    ]
    if view.over:
        rows.append({"label": gettext("Result"), "value": str(RESULTS[view.status])})
    return rows


@dataclass(frozen=True)
class LineStep:
    number: int
    text: str
    words: str
    cards: list[dict[str, str]]
