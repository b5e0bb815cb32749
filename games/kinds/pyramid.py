"""Pyramid solitaire on the site (RULES.md section 1): its form, board, words and standing."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext, gettext_lazy, gettext_noop, ngettext

from games.engine.base import Move
from games.engine.pyramid import MAX_PAR_REDEALS, PyramidView
from games.engine.solitaire_common import SolitaireOutcome
from games.kinds import solitaire
from games.kinds.option_forms import OptionField
from games.kinds.solitaire_words import PlayCell, capital, card_words, play_cell
from games.kinds.spec import SolitaireSpec, SoloMatchRule
from games.kinds.words import Step, and_list, card_name, sentence


def _tableau_left(view: PyramidView) -> int:
    return sum(slot.card is not None for row in view.tableau for slot in row)


def _won(outcome: SolitaireOutcome) -> str:
    return (
        gettext("all 52 cards removed") if outcome.reason == "cleared" else gettext("the pyramid is cleared")
    )


def _removed(cards: Sequence[str]) -> str:
    if len(cards) == 2:
        return gettext("Pair %(first)s + %(second)s removed") % {
            "first": card_name(cards[0]),
            "second": card_name(cards[1]),
        }
    return gettext("%(card)s removed") % {"card": card_name(cards[0])}


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
                card = capital(card_words(slot.card))
                if covering:
                    why = ngettext(
                        "%(card)s is not free: %(cards)s lies on it.",
                        "%(card)s is not free: %(cards)s lie on it.",
                        len(covering),
                    ) % {"card": card, "cards": _cards(covering)}
                else:
                    why = gettext("%(card)s is not free: it cannot be used now.") % {"card": card}
            x = slot.index + (rows - 1 - slot.row) / 2
            cells.append(play_cell(solitaire.cell(x, slot.row, slot.card, free), why))
    return cells


def _cards(cards: Sequence[str]) -> str:
    return and_list([card_words(card) for card in cards])


def _redealt(post: PyramidView) -> str:
    limit = post.config["redeals"]
    said = {"number": post.redeals_used, "redeals": limit}
    if post.config["reshuffle"]:
        if limit is None:
            return gettext("Shuffled the waste into a new stock (redeal %(number)s)") % said
        return gettext("Shuffled the waste into a new stock (redeal %(number)s of %(redeals)s)") % said
    if limit is None:
        return gettext("Turned the waste over (redeal %(number)s)") % said
    return gettext("Turned the waste over (redeal %(number)s of %(redeals)s)") % said


class PyramidSpec(SolitaireSpec):
    slug = "pyramid"
    name = gettext_lazy("Pyramid")
    pitch = gettext_lazy("Clear a pyramid of 28 cards by pairing cards that add up to 13.")
    rules_anchor = "pyramid-solitaire"
    invite = gettext_lazy("pair cards to thirteen in Pyramid solitaire")
    prompt = gettext_lazy("Pick two cards that make 13, or a King.")
    # The page words each key's use (``{% translate %}``): marked here for the catalogue.
    extra_keys = (("R", gettext_noop("redeal")),)
    picks_pairs = True
    match = SoloMatchRule(
        name=gettext_lazy("Par match"),
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
        OptionField(
            "rows",
            gettext_lazy("Pyramid"),
            ((7, gettext_lazy("7 rows (28 cards)")), (6, gettext_lazy("6 rows (21 cards)"))),
        ),
        OptionField(
            "redeals",
            gettext_lazy("Passes through the stock"),
            (
                (0, gettext_lazy("1 pass (One Deal)")),
                (1, gettext_lazy("2 passes")),
                (2, gettext_lazy("3 passes (standard)")),
                (3, gettext_lazy("4 passes")),
                (None, gettext_lazy("Unlimited")),
            ),
        ),
        OptionField("reserve", gettext_lazy("Reserve: six extra cards, face up, usable any time")),
        OptionField("clear_the_board", gettext_lazy("Win as soon as the pyramid is cleared")),
        OptionField("overlap_pairs", gettext_lazy("A card may pair with the one card covering it")),
        OptionField("waste_off_limits", gettext_lazy("Waste cards can't be used")),
        OptionField("reshuffle", gettext_lazy("Shuffle the waste at each redeal")),
        OptionField(
            "scoring",
            gettext_lazy("Scoring"),
            (
                ("points", gettext_lazy("Points")),
                ("par", gettext_lazy("Par (competitive, 3 passes at most)")),
            ),
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
        waste_why = "" if view.waste_top_available else gettext("Waste cards can't be used in this game.")
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
        return [(gettext("Pass"), f"{view.pass_number}/{'∞' if left is None else view.pass_number + left}")]

    def describe_action(self, text: str) -> str:
        """What to do, as a hint or a winning line's step says it."""
        move: Move = self.engine.parse_action(text).move()
        if move.kind != "remove":
            return str(solitaire.PLAIN_ACTIONS[move.text])
        if len(move.cards) == 2:
            return gettext("Pair %(first)s with %(second)s") % {
                "first": card_words(move.cards[0]),
                "second": card_words(move.cards[1]),
            }
        return gettext("Remove %(card)s") % {"card": card_words(move.cards[0])}

    def did(self, text: str, post: PyramidView) -> str:
        """What a move did, as the status line says it after the move."""
        move: Move = self.engine.parse_action(text).move()
        if move.kind == "remove":
            if len(move.cards) == 2:
                return gettext("Paired %(first)s with %(second)s") % {
                    "first": card_words(move.cards[0]),
                    "second": card_words(move.cards[1]),
                }
            return gettext("Removed %(card)s") % {"card": card_words(move.cards[0])}
        if move.kind == "draw":
            if post.waste_top:
                return gettext("Drew %(card)s") % {"card": card_words(post.waste_top)}
            return gettext("Drew from the stock")
        if move.kind == "redeal":
            limit = post.config["redeals"]
            said = {"number": post.pass_number, "passes": "" if limit is None else limit + 1}
            if post.config["reshuffle"]:
                if limit is None:
                    return gettext("Shuffled the waste into a new stock: pass %(number)s") % said
                return gettext("Shuffled the waste into a new stock: pass %(number)s of %(passes)s") % said
            if limit is None:
                return gettext("Turned the waste over: pass %(number)s") % said
            return gettext("Turned the waste over: pass %(number)s of %(passes)s") % said
        return gettext("Resigned")

    def end_reason(self, view: PyramidView) -> str:
        outcome = view.outcome
        if outcome is None:
            return ""
        if outcome.won:
            if outcome.reason == "cleared":
                return gettext("All 52 cards are removed.")
            return gettext("The pyramid is cleared.")
        if outcome.reason == "resigned":
            return gettext("You resigned.")
        if outcome.reason == "idle_pass":
            return gettext(
                "A whole pass through the stock removed no card: with unlimited redeals, each pass must "
                "remove one."
            )
        reasons = [gettext("the stock is spent")]
        if view.waste and view.redeals_left == 0:
            reasons.append(
                gettext("no redeal is left")
                if view.config["redeals"]
                else gettext("this game allows no redeal")
            )
        reasons.append(gettext("no free cards make 13"))
        return gettext("No moves left: %(reasons)s.") % {"reasons": and_list(reasons)}

    def narrate(self, step: Step) -> str:
        pre, post, text = step.pre, step.post, str(step.action)
        if text == "resign":
            return gettext("Resigned")
        if text == "draw":
            head = gettext("Drew the %(card)s from the stock") % {"card": card_name(post.waste_top)}
        elif text == "redeal":
            head = _redealt(post)
        else:
            head = _removed(step.action.move().cards)
        cleared = _tableau_left(pre) > 0 and _tableau_left(post) == 0
        ending = solitaire.solitaire_end(post, won=_won, stuck=gettext("no moves left"))
        # A cleared-board win already says the pyramid is cleared.
        won_cleared = post.outcome is not None and post.outcome.won and post.outcome.reason != "cleared"
        note = gettext("the pyramid is cleared") if cleared and not won_cleared else ""
        return sentence(head, note, ending)

    def standing(self, view: PyramidView, names: Sequence[str]) -> list[dict[str, Any]]:
        limit = view.config["redeals"]
        if limit is None:
            passes = str(view.pass_number)
        else:
            passes = gettext("%(number)s of %(passes)s") % {"number": view.pass_number, "passes": limit + 1}
        return solitaire.standing(view, [{"label": gettext("Pass"), "value": passes}])


SPEC = PyramidSpec()
