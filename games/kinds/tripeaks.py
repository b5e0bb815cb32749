"""Tri-Peaks solitaire on the site (RULES.md section 2): its form, board, words and standing."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.engine.base import Move
from games.engine.solitaire_common import and_list
from games.engine.tripeaks import TriPeaksCell, TriPeaksView
from games.kinds import solitaire
from games.kinds.option_forms import OptionField
from games.kinds.solitaire_words import PlayCell, capital, card_words, play_cell
from games.kinds.spec import SolitaireSpec
from games.kinds.words import Step, card_name, sentence


def _x(row: int, index: int) -> float:
    """TP-1's covering drawn as overlaps: each card sits centred over the two it rests on."""
    if row == 3:
        return index
    if row == 2:
        return index + 0.5
    if row == 1:
        peak, k = divmod(index, 2)
        return 3 * peak + k + 1
    return 3 * index + 1.5


def _end(post: TriPeaksView) -> str:
    return solitaire.solitaire_end(
        post, won=lambda _: "the layout is cleared", stuck="the stock is empty and no card can be played"
    )


def _why(view: TriPeaksView, slot: TriPeaksCell) -> str:
    """Why a face-up card cannot be played now, or "" if it can (or the game is over)."""
    if slot.card is None or slot.playable or view.over:
        return ""
    card = capital(card_words(slot.card))
    if not slot.free:
        return f"{card} is not free: a card still lies on it."
    return f"{card} is not one rank above or below {card_words(view.waste_top)} on the waste."


def _cell(view: TriPeaksView, slot: TriPeaksCell) -> PlayCell:
    cell = solitaire.cell(_x(slot.row, slot.index), slot.row, slot.card, slot.playable)
    return play_cell(cell, _why(view, slot))


class TriPeaksSpec(SolitaireSpec):
    slug = "tripeaks"
    name = "Tri-Peaks"
    pitch = "Run up and down in rank to clear three peaks before the stock ends."
    rules_anchor = "tri-peaks-solitaire"
    invite = "run the peaks in Tri-Peaks"
    prompt = "Play a card one above or below the waste."
    option_fields = (OptionField("face_up", "All cards face up"),)

    def board(self, view: TriPeaksView) -> dict[str, Any]:
        cells = [_cell(view, slot) for row in view.layout for slot in row if not slot.removed]
        return {"cells": cells, "width": 10, "height": 5}

    def action_cards(self, text: str) -> tuple[str, ...]:
        move: Move = self.engine.parse_action(text).move()
        return move.cards

    def describe_action(self, text: str) -> str:
        move: Move = self.engine.parse_action(text).move()
        if move.kind != "play":
            return solitaire.PLAIN_ACTIONS[move.text]
        return f"Move {card_words(move.cards[0])} to the waste"

    def did(self, text: str, post: TriPeaksView) -> str:
        """What a move did, as the status line says it after the move."""
        move: Move = self.engine.parse_action(text).move()
        if move.kind == "play":
            return f"Moved {card_words(move.cards[0])} to the waste: a run of {post.run}"
        if move.kind == "draw":
            return f"Drew {card_words(post.waste_top)} from the stock"
        return "Resigned"

    def end_reason(self, view: TriPeaksView) -> str:
        outcome = view.outcome
        if outcome is None:
            return ""
        if outcome.won:
            return "All three peaks are cleared."
        if outcome.reason == "resigned":
            return "You resigned."
        return (
            f"No moves left: the stock is spent and no free card is one rank above or below "
            f"{card_words(view.waste_top)} on the waste."
        )

    def narrate(self, step: Step) -> str:
        pre, post, text = step.pre, step.post, str(step.action)
        if text == "resign":
            return "Resigned"
        if text == "draw":
            return sentence(f"Drew the {card_name(post.waste_top)}", _end(post))
        head = f"Played the {card_name(step.action.move().cards[0])} (run of {post.run})"
        turned = [
            after.card
            for row_before, row_after in zip(pre.layout, post.layout, strict=True)
            for before, after in zip(row_before, row_after, strict=True)
            if not before.face_up and after.face_up and after.card is not None
        ]
        if turned:
            head += ", turning up " + and_list([f"the {card_name(card)}" for card in turned])
        note = ""
        if post.peaks_cleared > pre.peaks_cleared:
            note = "all three peaks cleared" if post.peaks_cleared == 3 else "a peak cleared"
        return sentence(head, note, _end(post))

    def standing(self, view: TriPeaksView, names: Sequence[str]) -> list[dict[str, Any]]:
        return solitaire.standing(
            view,
            [
                {"label": "Run", "value": view.run},
                {"label": "Peaks cleared", "value": view.peaks_cleared},
            ],
        )


SPEC = TriPeaksSpec()
