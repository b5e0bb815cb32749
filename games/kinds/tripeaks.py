"""Tri-Peaks solitaire on the site (RULES.md section 2): its form, board, words and standing."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext, gettext_lazy

from games.engine.base import Move
from games.engine.tripeaks import TriPeaksCell, TriPeaksView
from games.kinds import solitaire
from games.kinds.option_forms import OptionField
from games.kinds.solitaire_words import PlayCell, capital, card_words, play_cell
from games.kinds.spec import SolitaireSpec
from games.kinds.words import Step, and_list, card_name, sentence


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
        post,
        won=lambda _: gettext("the layout is cleared"),
        stuck=gettext("the stock is empty and no card can be played"),
    )


def _why(view: TriPeaksView, slot: TriPeaksCell) -> str:
    """Why a face-up card cannot be played now, or "" if it can (or the game is over)."""
    if slot.card is None or slot.playable or view.over:
        return ""
    card = capital(card_words(slot.card))
    if not slot.free:
        return gettext("%(card)s is not free: a card still lies on it.") % {"card": card}
    return gettext("%(card)s is not one rank above or below %(top)s on the waste.") % {
        "card": card,
        "top": card_words(view.waste_top),
    }


def _cell(view: TriPeaksView, slot: TriPeaksCell) -> PlayCell:
    cell = solitaire.cell(_x(slot.row, slot.index), slot.row, slot.card, slot.playable)
    return play_cell(cell, _why(view, slot))


class TriPeaksSpec(SolitaireSpec):
    slug = "tripeaks"
    name = gettext_lazy("Tri-Peaks")
    pitch = gettext_lazy("Run up and down in rank to clear three peaks before the stock ends.")
    rules_anchor = "tri-peaks-solitaire"
    invite = gettext_lazy("run the peaks in Tri-Peaks")
    prompt = gettext_lazy("Play a card one above or below the waste.")
    option_fields = (OptionField("face_up", gettext_lazy("All cards face up")),)

    def board(self, view: TriPeaksView) -> dict[str, Any]:
        cells = [_cell(view, slot) for row in view.layout for slot in row if not slot.removed]
        return {"cells": cells, "width": 10, "height": 5}

    def action_cards(self, text: str) -> tuple[str, ...]:
        move: Move = self.engine.parse_action(text).move()
        return move.cards

    def describe_action(self, text: str) -> str:
        move: Move = self.engine.parse_action(text).move()
        if move.kind != "play":
            return str(solitaire.PLAIN_ACTIONS[move.text])
        return gettext("Move %(card)s to the waste") % {"card": card_words(move.cards[0])}

    def did(self, text: str, post: TriPeaksView) -> str:
        """What a move did, as the status line says it after the move."""
        move: Move = self.engine.parse_action(text).move()
        if move.kind == "play":
            return gettext("Moved %(card)s to the waste: a run of %(run)s") % {
                "card": card_words(move.cards[0]),
                "run": post.run,
            }
        if move.kind == "draw":
            return gettext("Drew %(card)s from the stock") % {"card": card_words(post.waste_top)}
        return gettext("Resigned")

    def end_reason(self, view: TriPeaksView) -> str:
        outcome = view.outcome
        if outcome is None:
            return ""
        if outcome.won:
            return gettext("All three peaks are cleared.")
        if outcome.reason == "resigned":
            return gettext("You resigned.")
        return gettext(
            "No moves left: the stock is spent and no free card is one rank above or below %(top)s "
            "on the waste."
        ) % {"top": card_words(view.waste_top)}

    def narrate(self, step: Step) -> str:
        pre, post, text = step.pre, step.post, str(step.action)
        if text == "resign":
            return gettext("Resigned")
        if text == "draw":
            return sentence(gettext("Drew the %(card)s") % {"card": card_name(post.waste_top)}, _end(post))
        head = gettext("Played the %(card)s (run of %(run)s)") % {
            "card": card_name(step.action.move().cards[0]),
            "run": post.run,
        }
        turned = [
            after.card
            for row_before, row_after in zip(pre.layout, post.layout, strict=True)
            for before, after in zip(row_before, row_after, strict=True)
            if not before.face_up and after.face_up and after.card is not None
        ]
        if turned:
            head = gettext("%(said)s, turning up %(cards)s") % {
                "said": head,
                "cards": and_list([gettext("the %(card)s") % {"card": card_name(card)} for card in turned]),
            }
        note = ""
        if post.peaks_cleared > pre.peaks_cleared:
            note = (
                gettext("all three peaks cleared") if post.peaks_cleared == 3 else gettext("a peak cleared")
            )
        return sentence(head, note, _end(post))

    def standing(self, view: TriPeaksView, names: Sequence[str]) -> list[dict[str, Any]]:
        return solitaire.standing(
            view,
            [
                {"label": gettext("Run"), "value": view.run},
                {"label": gettext("Peaks cleared"), "value": view.peaks_cleared},
            ],
        )


SPEC = TriPeaksSpec()
