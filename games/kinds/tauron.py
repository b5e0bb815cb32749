"""Tauron Hold-Em on the site (RULES.md section 6): its table form, its table as one seat
sees it, its steps in words and its standing. It plays with Triad's cards, so it draws
and names them as Triad does."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from markupsafe import Markup

from games.engine.tauron import TauronView
from games.kinds.option_forms import OptionField
from games.kinds.spec import TableSpec
from games.kinds.triad import (
    ante_errors,
    card_picture,
    chips_info,
    place_of,
    standing,
    triad_card_name,
    with_article,
)
from games.kinds.words import Step, ordinal, sentence

if TYPE_CHECKING:
    from games.models import Seat

STAGE_WORDS = {3: "the first three shared cards", 5: "two more shared cards", 6: "the capstone card"}
PHASE_WORDS = {
    "bet": "Betting",
    "showdown": "Showdown",
    "tie-replay": "Tie replay next",
    "place-tie": "Place tie replay next",
    "over": "Match over",
}


def _cards(cards: Sequence[str]) -> str:
    return ", ".join(triad_card_name(card) for card in cards)


def _shown_name(view: TauronView, seat: int) -> str:
    result = view.last_result
    return next((hand.name for hand in result.shown if hand.seat == seat), "No Pyramid") if result else ""


def _deal_ended(step: Step) -> bool:
    """Only a fold or a show settles a deal; the engine then deals on inside ``apply``."""
    pre, post = step.pre, step.post
    if step.action.kind not in ("fold", "show"):
        return False
    return post.phase not in ("bet", "showdown") or post.hand != pre.hand or post.deal != pre.deal


def _result(step: Step) -> str:
    post: TauronView = step.post
    result = post.last_result
    assert result is not None
    winners = list(result.winners)
    best = _shown_name(post, winners[0])
    if result.deal == "place-tie":
        if len(winners) > 1:
            return f"{step.name_list(winners)} tie again ({best})"
        seen = " unseen" if result.unseen else f" ({best})"
        return f"{step.name(winners[0])} wins the place tie-replay{seen}"
    pot = "the held pot" if result.deal == "tie-replay" else "the pot"
    if len(winners) > 1:
        held = f"a pot of {post.held_pot} is held for a tie-replay hand"
        return f"{step.name_list(winners)} tie ({best}): {held}"
    seen = " unseen" if result.unseen else f" ({best})"
    return f"{step.name(winners[0])} wins {pot} of {result.pot}{seen}"


def _match_end(step: Step) -> str:
    post: TauronView = step.post
    if post.phase == "place-tie":
        group = post.tied
        place = ordinal(place_of(post.places, group))
        return f"{step.name_list(group)} are level for {place} place: a place tie-replay follows"
    if post.outcome is None:
        return ""
    winner = post.outcome.winner
    return f"match over: {step.name(winner)} wins with {post.outcome.chips[winner]} chips"


def _stage(step: Step) -> str:
    pre, post = step.pre, step.post
    if post.hand != pre.hand or post.deal != pre.deal or post.stage == pre.stage:
        return ""
    return f"{STAGE_WORDS[post.stage]} turned up: {_cards(post.board[pre.stage :])}"


def narrate(step: Step) -> str:
    action, pre = step.action, step.pre
    if action.kind == "tie-replay":
        tied = step.name_list(pre.tied)
        if pre.phase == "place-tie":
            return f"Tie for {ordinal(place_of(pre.places, pre.tied))} place: {tied} play a hand for it"
        return f"Tie: replay hand; {tied} play for the held pot of {pre.held_pot}"
    seat: int = pre.to_act
    who = step.name(seat)
    high = max(entry.bet for entry in pre.seats)
    mine = pre.seats[seat]
    if action.kind == "raise":
        head = f"{who} raises to {high + action.amount}"
    elif action.kind == "bet":
        head = f"{who} bets {action.amount}"
    elif action.kind == "call":
        head = f"{who} calls {high}" + (f" ({high - mine.bet} more)" if mine.bet else "")
    elif action.kind == "fold":
        head = f"{who} folds" + (f", holding {with_article(mine.hand_name)}" if mine.hand_name else "")
    elif action.kind == "show":
        name = _shown_name(step.post, seat) if _deal_ended(step) else step.post.seats[seat].hand_name
        head = f"{who} shows {with_article(name or 'No Pyramid')}"
    else:
        head = f"{who} checks"
    if _deal_ended(step):
        return sentence(head, _result(step), _match_end(step))
    return sentence(head, _stage(step))


class TauronSpec(TableSpec):
    slug = "tauron"
    name = "Tauron Hold-Em"
    players_label = "2-6 players"
    pitch = "Triad's cards, hold-em style: two hidden cards each, six shared in the centre, four bets."
    rules_anchor = "tauron-hold-em"
    invite = "share six centre cards in Tauron Hold-Em"
    tie_replay_word = "hand"
    option_fields = (
        OptionField("players", "Seats (Tauron)", tuple((n, f"{n} players") for n in range(2, 7))),
        OptionField("stack", "Chips each (Tauron)"),
        OptionField("ante", "Ante (Tauron)"),
        OptionField("hands", "Hands in the match (Tauron)"),
    )

    def public_html(
        self, view: TauronView, seats: Sequence[Seat], words: Mapping[str, Any]
    ) -> dict[str, Markup]:
        return chips_info(view, words)

    def option_errors(self, config: dict[str, Any]) -> dict[str, str]:
        return ante_errors(config)

    def game_area(
        self,
        view: TauronView,
        seats: Sequence[Seat],
        me: int | None,
        to_act: int | None,
        *,
        live: bool,
        version: int = 0,
    ) -> dict[str, Any]:
        moves = view.moves if live else ()
        names = {seat.number: seat.name for seat in seats}
        entries = {entry.seat: entry for entry in view.seats}
        rows = []
        for seat in seats:
            entry = entries[seat.number]
            hole = entry.hole if entry.hole is not None else (None,) * entry.card_count
            rows.append({"seat": seat, "state": entry, "cards": [card_picture(c) for c in hole]})
        shown = view.last_result.shown if view.last_result else ()
        return {
            "seat_rows": rows,
            "board": [card_picture(c) for c in view.board],
            "board_left": range(6 - len(view.board)),
            "bets": [move for move in moves if move.amount is not None],
            "simple_actions": [move.text for move in moves if move.amount is None],
            "can_move": bool(moves),
            "last_shown": [
                {"name": names.get(h.seat, ""), "hand_name": h.name, "cards": list(map(card_picture, h.hole))}
                for h in shown
            ],
        }

    def narrate(self, step: Step) -> str:
        return narrate(step)

    def standing(self, view: TauronView, names: Sequence[str]) -> list[dict[str, Any]]:
        return standing(view, names, PHASE_WORDS)


SPEC = TauronSpec()
