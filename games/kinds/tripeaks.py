"""Tri-Peaks solitaire on the site (RULES.md section 2): its form, board, words and standing."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.engine.base import Move
from games.engine.solitaire_common import and_list
from games.engine.tripeaks import TriPeaksView
from games.kinds import solitaire
from games.kinds.option_forms import OptionField
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


class TriPeaksSpec(SolitaireSpec):
    slug = "tripeaks"
    name = "Tri-Peaks"
    pitch = "Run up and down in rank to clear three peaks before the stock ends."
    rules_anchor = "tri-peaks-solitaire"
    invite = "run the peaks in Tri-Peaks"
    prompt = "Play a card one above or below the waste."
    option_fields = (OptionField("face_up", "All cards face up"),)

    def board(self, view: TriPeaksView) -> dict[str, Any]:
        cells = [
            solitaire.cell(_x(slot.row, slot.index), slot.row, slot.card, slot.playable)
            for row in view.layout
            for slot in row
            if not slot.removed
        ]
        return {"cells": cells, "width": 10, "height": 5}

    def action_cards(self, text: str) -> tuple[str, ...]:
        move: Move = self.engine.parse_action(text).move()
        return move.cards

    def describe_action(self, text: str) -> str:
        move: Move = self.engine.parse_action(text).move()
        if move.kind != "play":
            return solitaire.PLAIN_ACTIONS[move.text]
        return f"{card_name(move.cards[0])} played onto the waste"

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
