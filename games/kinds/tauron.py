"""Tauron Hold-Em on the site (RULES.md section 6): its table form, its table as one seat
sees it, its steps in words and its standing. It plays with Triad's cards, so it draws
and names them as Triad does."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext, gettext_lazy, gettext_noop
from markupsafe import Markup

from games.engine.tauron import TauronView
from games.kinds.option_forms import OptionField
from games.kinds.spec import TableSpec
from games.kinds.triad import (
    ante_errors,
    card_picture,
    chips_info,
    deal_result,
    fold_head,
    hand_name,
    level_for_place,
    match_won,
    narrate_tie_replay,
    place_of,
    seat_labels,
    seats_label,
    show_head,
    standing,
    triad_card_name,
    wager_head,
)
from games.kinds.words import Step, sentence

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

    from games.models import Seat

STAGE_WORDS = {
    3: gettext_noop("the first three shared cards turned up: %(cards)s"),
    5: gettext_noop("two more shared cards turned up: %(cards)s"),
    6: gettext_noop("the capstone card turned up: %(cards)s"),
}
PHASE_WORDS: Mapping[str, StrOrPromise] = {
    "bet": gettext_lazy("Betting"),
    "showdown": gettext_lazy("Showdown"),
    "tie-replay": gettext_lazy("Tie replay next"),
    "place-tie": gettext_lazy("Place tie replay next"),
    "over": gettext_lazy("Match over"),
}


def _cards(cards: Sequence[str]) -> str:
    return ", ".join(triad_card_name(card) for card in cards)


def _shown_name(view: TauronView, seat: int) -> str:
    result = view.last_result
    name = next((hand.name for hand in result.shown if hand.seat == seat), "No Pyramid") if result else ""
    return hand_name(name) if name else ""


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
    return deal_result(step, winners, result.deal, result.unseen, best, result.pot, post.held_pot)


def _match_end(step: Step) -> str:
    post: TauronView = step.post
    if post.phase == "place-tie":
        return level_for_place(step, post.tied, place_of(post.places, post.tied))
    if post.outcome is None:
        return ""
    winner = post.outcome.winner
    return match_won(step, winner, post.outcome.chips[winner])


def _stage(step: Step) -> str:
    pre, post = step.pre, step.post
    if post.hand != pre.hand or post.deal != pre.deal or post.stage == pre.stage:
        return ""
    return gettext(STAGE_WORDS[post.stage]) % {"cards": _cards(post.board[pre.stage :])}


def narrate(step: Step) -> str:
    action, pre = step.action, step.pre
    if action.kind == "tie-replay":
        return narrate_tie_replay(step)
    seat: int = pre.to_act
    who = step.name(seat)
    high = max(entry.bet for entry in pre.seats)
    mine = pre.seats[seat]
    if action.kind == "fold":
        head = fold_head(who, mine.hand_name)
    elif action.kind == "show":
        # The engine's name, not yet worded: ``show_head`` words it.
        post = step.post
        shown = post.last_result.shown if _deal_ended(step) and post.last_result else None
        name = (
            next((hand.name for hand in shown if hand.seat == seat), "No Pyramid")
            if shown is not None
            else post.seats[seat].hand_name
        )
        head = show_head(who, name)
    else:
        head = wager_head(step, who, high, mine.bet)
    if _deal_ended(step):
        return sentence(head, _result(step), _match_end(step))
    return sentence(head, _stage(step))


class TauronSpec(TableSpec):
    slug = "tauron"
    name = gettext_lazy("Tauron Hold-Em")
    players_label = gettext_lazy("2-6 players")
    pitch = gettext_lazy(
        "Triad's cards, hold-em style: two hidden cards each, six shared in the centre, four bets."
    )
    rules_anchor = "tauron-hold-em"
    invite = gettext_lazy("share six centre cards in Tauron Hold-Em")
    tie_replay_word = "hand"
    option_fields = (
        OptionField(
            "players", gettext_lazy("Seats (Tauron)"), tuple((n, seats_label(n)) for n in range(2, 7))
        ),
        OptionField("stack", gettext_lazy("Chips each (Tauron)")),
        OptionField("ante", gettext_lazy("Ante (Tauron)")),
        OptionField("hands", gettext_lazy("Hands in the match (Tauron)")),
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
            rows.append(
                {
                    "seat": seat,
                    "state": entry,
                    "cards": [card_picture(c) for c in hole],
                    **seat_labels(entry.chips),
                }
            )
        shown = view.last_result.shown if view.last_result else ()
        return {
            "seat_rows": rows,
            "board": [card_picture(c) for c in view.board],
            "board_left": range(6 - len(view.board)),
            "bets": [move for move in moves if move.amount is not None],
            "simple_actions": [move.text for move in moves if move.amount is None],
            "can_move": bool(moves),
            "last_shown": [
                {
                    "name": names.get(h.seat, ""),
                    "hand_name": hand_name(h.name),
                    "cards": list(map(card_picture, h.hole)),
                }
                for h in shown
            ],
        }

    def narrate(self, step: Step) -> str:
        return narrate(step)

    def standing(self, view: TauronView, names: Sequence[str]) -> list[dict[str, Any]]:
        return standing(view, names, PHASE_WORDS)


SPEC = TauronSpec()
