"""Engine views turned into what the board templates draw: positioned cards with names.

Positions are in card widths (x) and half card heights (y), so the CSS scales one board
to any screen. Nothing here decides a rule: which cards are available or playable comes
from the engine's view.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.templatetags.static import static

from games.narration import card_name


def card_image(card: str | None) -> str:
    return static(f"cards/std/{card}.svg" if card else "cards/std/back.svg")


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


def _cell(x: float, y: int, card: str | None, available: bool) -> Cell:
    if card is None:
        label = "face-down card"
    else:
        label = card_name(card) if available else f"{card_name(card)}, not free"
    return Cell(x, y, card, card_image(card), label, available, y + 1)


def pyramid_cells(view: dict[str, Any]) -> list[Cell]:
    rows = len(view["tableau"])
    available = set(view["available"])
    cells = []
    for row in view["tableau"]:
        for slot in row:
            if slot["card"] is None:
                continue
            x = slot["index"] + (rows - 1 - slot["row"]) / 2
            cells.append(_cell(x, slot["row"], slot["card"], slot["card"] in available))
    return cells


def _tripeaks_x(row: int, index: int) -> float:
    """TP-1's covering drawn as overlaps: each card sits centred over the two it rests on."""
    if row == 3:
        return index
    if row == 2:
        return index + 0.5
    if row == 1:
        peak, k = divmod(index, 2)
        return 3 * peak + k + 1
    return 3 * index + 1.5


def tripeaks_cells(view: dict[str, Any]) -> list[Cell]:
    cells = []
    for row in view["layout"]:
        for slot in row:
            if slot["removed"]:
                continue
            cells.append(
                _cell(_tripeaks_x(slot["row"], slot["index"]), slot["row"], slot["card"], slot["playable"])
            )
    return cells


def board(game: str, view: dict[str, Any]) -> dict[str, Any]:
    """The template context of a board: cells, its size in card units, and the piles."""
    if game == "pyramid":
        rows = len(view["tableau"])
        stock_top = view["stock_top"]
        return {
            "cells": pyramid_cells(view),
            "width": rows,
            "height": rows + 1,
            "reserve": [
                {
                    "card": c,
                    "image": card_image(c),
                    "label": card_name(c),
                    "available": c in view["available"],
                }
                for c in view["reserve"]
                if c is not None
            ],
            "stock_top": stock_top
            and {"card": stock_top, "image": card_image(stock_top), "label": card_name(stock_top)},
            "stock_available": stock_top in view["available"],
        }
    return {"cells": tripeaks_cells(view), "width": 10, "height": 5}


def waste_top(view: dict[str, Any]) -> dict[str, Any] | None:
    card = view.get("waste_top")
    if not card:
        return None
    return {"card": card, "image": card_image(card), "label": card_name(card)}


def describe_action(game: str, text: str) -> str:
    """An action in words, as a move list or a replay says it."""
    if text in ("draw", "redeal", "resign"):
        return {"draw": "Draw from the stock", "redeal": "Turn the waste over (redeal)", "resign": "Resign"}[
            text
        ]
    cards = text.split("+")
    if game == "pyramid":
        if len(cards) == 2:
            return f"Pair {card_name(cards[0])} + {card_name(cards[1])} removed"
        return f"{card_name(cards[0])} removed"
    return f"{card_name(cards[0])} played onto the waste"


@dataclass(frozen=True)
class Step:
    number: int
    text: str
    words: str
    cards: list[dict[str, str]]


def describe_line(game: str, line: list[str]) -> list[Step]:
    """A line of play as numbered steps with the cards it moves (for solutions and move lists)."""
    steps = []
    for number, text in enumerate(line, start=1):
        cards = [] if text in ("draw", "redeal", "resign") else text.split("+")
        images = [{"card": c, "image": card_image(c), "label": card_name(c)} for c in cards]
        steps.append(Step(number, text, describe_action(game, text), images))
    return steps
