"""Pyramid solitaire on the site (RULES.md section 1): its form, board, words and standing."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext, gettext_noop

from games.engine.base import Move
from games.engine.pyramid import MAX_PAR_REDEALS, PyramidView
from games.engine.solitaire_common import SolitaireOutcome, and_list
from games.kinds import solitaire
from games.kinds.option_forms import OptionField
from games.kinds.solitaire_words import PlayCell, capital, card_words, play_cell
from games.kinds.spec import SolitaireSpec, SoloMatchRule
from games.kinds.words import Step, card_name, sentence


def _tableau_left(view: PyramidView) -> int:
    return sum(slot.card is not None for row in view.tableau for slot in row)


def _won(outcome: SolitaireOutcome) -> str:
    return "all 52 cards removed" if outcome.reason == "cleared" else "the pyramid is cleared"


def _removed(cards: Sequence[str]) -> str:
    if len(cards) == 2:
        return f"Pair {card_name(cards[0])} + {card_name(cards[1])} removed"
    return f"{card_name(cards[0])} removed"


def _usable(view: PyramidView) -> set[str]:
    """The cards a click may pick: the free ones, and with PY-6 ``overlap_pairs`` a covered
    card whose one covering card is its partner (the engine lists that pair among the moves)."""
    return set(view.available) | {card for move in view.moves for card in move.cards}


def _covering(view: PyramidView, row: int, index: int) -> list[str]:
    below = view.tableau[row + 1] if row + 1 < len(view.tableau) else ()
    return [slot.card for slot in below if slot.index in (index, index + 1) and slot.card is not None]


def _cells(view: PyramidView) -> list[PlayCell]:
    rows = len(view.tableau)
    usable = _usable(view)
    cells = []
    for row in view.tableau:
        for slot in row:
            if slot.card is None:
                continue
            free = slot.card in usable
            why = ""
            if not free and not view.over:
                covering = _covering(view, slot.row, slot.index)
                why = f"{capital(card_words(slot.card))} is not free: " + (
                    f"{_cards(covering)} {'lies' if len(covering) == 1 else 'lie'} on it."
                    if covering
                    else "it cannot be used now."
                )
            x = slot.index + (rows - 1 - slot.row) / 2
            cells.append(play_cell(solitaire.cell(x, slot.row, slot.card, free), why))
    return cells


def _cards(cards: Sequence[str]) -> str:
    return " and ".join(card_words(card) for card in cards)


class PyramidSpec(SolitaireSpec):
    slug = "pyramid"
    name = "Pyramid"
    pitch = "Clear a pyramid of 28 cards by pairing cards that add up to 13."
    rules_anchor = "pyramid-solitaire"
    invite = "pair cards to thirteen in Pyramid solitaire"
    prompt = "Pick two cards that make 13, or a King."
    extra_keys = (("R", "redeal"),)
    picks_pairs = True
    match = SoloMatchRule(
        name="Par match",
        deals=6,
        config={"scoring": "par", "redeals": 2},
        par=0,
        scoring=gettext_noop(
            "an emptied pyramid scores 50, 35 or 20 (emptied in the first, second or third pass "
            "through the stock) less the cards left, and a pyramid not emptied scores minus every "
            "card left"
        ),
        rules_anchor="par-the-competitive-score",
    )
    option_fields = (
        OptionField("rows", "Pyramid", ((7, "7 rows (28 cards)"), (6, "6 rows (21 cards)"))),
        OptionField(
            "redeals",
            "Passes through the stock",
            (
                (0, "1 pass (One Deal)"),
                (1, "2 passes"),
                (2, "3 passes (standard)"),
                (3, "4 passes"),
                (None, "Unlimited"),
            ),
        ),
        OptionField("reserve", "Reserve: six extra cards, face up, usable any time"),
        OptionField("clear_the_board", "Win as soon as the pyramid is cleared"),
        OptionField("overlap_pairs", "A card may pair with the one card covering it"),
        OptionField("waste_off_limits", "Waste cards can't be used"),
        OptionField("reshuffle", "Shuffle the waste at each redeal"),
        OptionField(
            "scoring", "Scoring", (("points", "Points"), ("par", "Par (competitive, 3 passes at most)"))
        ),
    )

    def option_errors(self, config: dict[str, Any]) -> dict[str, str]:
        redeals = config.get("redeals")
        if config.get("scoring") == "par" and (redeals is None or redeals > MAX_PAR_REDEALS):
            return {"redeals": gettext("Par scoring counts three passes at most: choose 1, 2 or 3 passes.")}
        return {}

    def board(self, view: PyramidView) -> dict[str, Any]:
        rows = len(view.tableau)
        stock_top = view.stock_top
        usable = _usable(view)
        waste_why = "" if view.waste_top_available else "Waste cards can't be used in this game."
        return {
            "cells": _cells(view),
            "waste_why": "" if view.over else waste_why,
            "width": rows,
            "height": rows + 1,
            "reserve": [
                {**solitaire.card_picture(c), "available": c in view.available}
                for c in view.reserve
                if c is not None
            ],
            "stock_top": stock_top and solitaire.card_picture(stock_top),
            "stock_available": stock_top in usable,
        }

    def extra_stats(self, view: PyramidView) -> list[tuple[str, str]]:
        left = view.redeals_left
        return [("Pass", f"{view.pass_number}/{'∞' if left is None else view.pass_number + left}")]

    def describe_action(self, text: str) -> str:
        """What to do, as a hint or a winning line's step says it."""
        move: Move = self.engine.parse_action(text).move()
        if move.kind != "remove":
            return solitaire.PLAIN_ACTIONS[move.text]
        if len(move.cards) == 2:
            return f"Pair {card_words(move.cards[0])} with {card_words(move.cards[1])}"
        return f"Remove {card_words(move.cards[0])}"

    def did(self, text: str, post: PyramidView) -> str:
        """What a move did, as the status line says it after the move."""
        move: Move = self.engine.parse_action(text).move()
        if move.kind == "remove":
            if len(move.cards) == 2:
                return f"Paired {card_words(move.cards[0])} with {card_words(move.cards[1])}"
            return f"Removed {card_words(move.cards[0])}"
        if move.kind == "draw":
            return f"Drew {card_words(post.waste_top)}" if post.waste_top else "Drew from the stock"
        if move.kind == "redeal":
            limit = post.config["redeals"]
            passes = f"pass {post.pass_number}" + ("" if limit is None else f" of {limit + 1}")
            verb = "Turned the waste over"
            if post.config["reshuffle"]:
                verb = "Shuffled the waste into a new stock"
            return f"{verb}: {passes}"
        return "Resigned"

    def end_reason(self, view: PyramidView) -> str:
        outcome = view.outcome
        if outcome is None:
            return ""
        if outcome.won:
            return "All 52 cards are removed." if outcome.reason == "cleared" else "The pyramid is cleared."
        if outcome.reason == "resigned":
            return "You resigned."
        if outcome.reason == "idle_pass":
            return gettext(
                "A whole pass through the stock removed no card: with unlimited redeals, each pass must "
                "remove one."
            )
        reasons = ["the stock is spent"]
        if view.waste and view.redeals_left == 0:
            reasons.append("no redeal is left" if view.config["redeals"] else "this game allows no redeal")
        reasons.append("no free cards make 13")
        return f"No moves left: {and_list(reasons)}."

    def narrate(self, step: Step) -> str:
        pre, post, text = step.pre, step.post, str(step.action)
        if text == "resign":
            return "Resigned"
        if text == "draw":
            head = f"Drew the {card_name(post.waste_top)} from the stock"
        elif text == "redeal":
            limit = post.config["redeals"]
            count = f"redeal {post.redeals_used}" + ("" if limit is None else f" of {limit}")
            reshuffled = post.config["reshuffle"]
            verb = "Shuffled the waste into a new stock" if reshuffled else "Turned the waste over"
            head = f"{verb} ({count})"
        else:
            head = _removed(step.action.move().cards)
        cleared = _tableau_left(pre) > 0 and _tableau_left(post) == 0
        ending = solitaire.solitaire_end(post, won=_won, stuck="no moves left")
        # A cleared-board win already says the pyramid is cleared.
        note = "the pyramid is cleared" if cleared and "pyramid is cleared" not in ending else ""
        return sentence(head, note, ending)

    def standing(self, view: PyramidView, names: Sequence[str]) -> list[dict[str, Any]]:
        limit = view.config["redeals"]
        passes = str(view.pass_number) if limit is None else f"{view.pass_number} of {limit + 1}"
        return solitaire.standing(view, [{"label": "Pass", "value": passes}])


SPEC = PyramidSpec()
