"""Triad, the Colonial Pyramid card game, on the site (RULES.md section 3): its table
form, its table as one seat sees it, its steps in words and its standing.

One hidden thing lies outside the views: the text of a discard (``discard G2 P3``). Its
cards are named only when the seat's hand is seen in that view (``face_up`` or a finished
game's replay), otherwise only their number is given.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from django.utils.functional import lazy
from django.utils.translation import (
    gettext,
    gettext_lazy,
    gettext_noop,
    ngettext,
    pgettext,
    pgettext_lazy,
)
from markupsafe import Markup

from games.engine.tauron import TauronView
from games.engine.triad import TriadResult, TriadView
from games.engine.triad_hands import sort_cards
from games.kinds.option_forms import OptionField
from games.kinds.pictures import picture
from games.kinds.spec import TableSpec
from games.kinds.words import Step, ordinal, seat_name, sentence
from games.live.live_templates import live_template

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

    from games.models import Seat

# The seed's own Italian names them: viola, verde, arancione; primo, secondo, terzo livello;
# the Capstone card is the "capostipite". Marked here, worded when said.
TRIAD_COLOURS = {"P": gettext_noop("Purple"), "G": gettext_noop("Green"), "O": gettext_noop("Orange")}
TRIAD_CARD_NAMES = {
    "1": gettext_noop("%(colour)s First-Level"),
    "2": gettext_noop("%(colour)s Second-Level"),
    "3": gettext_noop("%(colour)s Third-Level"),
}
"""Capitalised like the engine's hand names ("Perfect Green Second-Level Pyramid")."""


def triad_card_name(card: str) -> str:
    """``"G2"`` -> ``"Green Second-Level"``; ``"X"`` -> ``"Capstone"``."""
    if card == "X":
        return pgettext("the Triad card", "Capstone")
    return gettext(TRIAD_CARD_NAMES[card[1]]) % {"colour": gettext(TRIAD_COLOURS[card[0]])}


LEVEL_WORDS = {
    "1": gettext_noop("%(colour)s, first level"),
    "2": gettext_noop("%(colour)s, second level"),
    "3": gettext_noop("%(colour)s, third level"),
}


def card_picture(card: str | None) -> dict[str, str]:
    """A Triad card as the table draws it; ``None`` is a face-down card."""
    if card is None:
        return {"image": picture("cards/triad/back.svg"), "label": gettext("face-down card"), "card": ""}
    if card == "X":
        label = gettext("The Capstone")
    else:
        label = gettext(LEVEL_WORDS[card[1]]) % {"colour": gettext(TRIAD_COLOURS[card[0]])}
    return {"image": picture(f"cards/triad/{card}.svg"), "label": label, "card": card}


def hand_name(name: str) -> str:
    """An engine's hand name ("Perfect Green Second-Level Pyramid", marked there) in the
    reader's language."""
    return gettext(name)


def seat_rows(seats: Sequence[Seat], view: TriadView) -> list[dict[str, Any]]:
    """Each seat with what this viewer may know of its cards (face down where hidden)."""
    entries = {entry.seat: entry for entry in view.seats}
    rows: list[dict[str, Any]] = []
    for seat in seats:
        entry = entries.get(seat.number)
        if entry is None:
            rows.append({"seat": seat, "state": None, "cards": []})
            continue
        cards = entry.cards
        pictures = [card_picture(c) for c in cards] if cards else [card_picture(None)] * entry.card_count
        rows.append({"seat": seat, "state": entry, "cards": pictures, **seat_labels(entry.chips)})
    return rows


def seat_labels(chips: int) -> dict[str, str]:
    """The words beside a seat of a chips game (Triad, Tauron Hold-Em): a plural and a word
    that needs its context are worded here, where makemessages finds them."""
    return {
        "chips_label": ngettext("%(count)s chip", "%(count)s chips", chips) % {"count": chips},
        "out_label": pgettext("a player of a match", "out"),
    }


_SEAT_ROUNDS = ("bet", "draw", "showdown")


def _triad_cards(cards: Sequence[str]) -> str:
    return ", ".join(triad_card_name(card) for card in cards)


def with_article(hand: str) -> str:
    """An engine's hand name as a sentence says it: "a Full Pyramid", "no pyramid"."""
    if hand == "No Pyramid":
        return gettext("no pyramid")
    # Translators: a hand of Triad, "a Full Pyramid" (every hand's name is a pyramid).
    return gettext("a %(hand)s") % {"hand": hand_name(hand)}


def _shown_name(result: TriadResult | None, seat: int) -> str | None:
    shown = result.shown if result is not None else ()
    return next((hand.name for hand in shown if hand.seat == seat), None)


def _shown(result: TriadResult | None, seat: int) -> str:
    return hand_name(_shown_name(result, seat) or "No Pyramid")


def _triad_deal_ended(step: Step) -> bool:
    """Whether the action settled its deal: the engine then moves on inside ``apply``.

    Only a fold or a show can end a deal, and the state after it is then a new hand, a
    tie-replay or place tie-replay waiting to be dealt, or the end of the match.
    """
    if step.action.kind not in ("fold", "show"):
        return False
    pre: TriadView = step.pre
    post: TriadView = step.post
    return post.phase not in _SEAT_ROUNDS or post.hand != pre.hand


def _triad_result(step: Step) -> str:
    post: TriadView = step.post
    result = post.last_result
    assert result is not None  # a deal just ended
    winners = list(result.winners)
    return deal_result(
        step, winners, result.deal, result.unseen, _shown(result, winners[0]), result.pot, post.held_pot
    )


def deal_result(
    step: Step, winners: Sequence[int], deal: str, unseen: bool, best: str, pot: int, held_pot: int
) -> str:
    """Who won a deal of Triad or Tauron Hold-Em, and what (``best``: the winning hand's name)."""
    if deal == "place-tie":
        if len(winners) > 1:
            return gettext("%(names)s tie again (%(hand)s)") % {
                "names": step.name_list(winners),
                "hand": best,
            }
        if unseen:
            return gettext("%(name)s wins the place tie-replay unseen") % {"name": step.name(winners[0])}
        return gettext("%(name)s wins the place tie-replay (%(hand)s)") % {
            "name": step.name(winners[0]),
            "hand": best,
        }
    if len(winners) > 1:
        return gettext("%(names)s tie (%(hand)s): a pot of %(pot)s is held for a tie-replay hand") % {
            "names": step.name_list(winners),
            "hand": best,
            "pot": held_pot,
        }
    said = {"name": step.name(winners[0]), "pot": pot, "hand": best}
    if deal == "tie-replay":
        if unseen:
            return gettext("%(name)s wins the held pot of %(pot)s unseen") % said
        return gettext("%(name)s wins the held pot of %(pot)s (%(hand)s)") % said
    if unseen:
        return gettext("%(name)s wins the pot of %(pot)s unseen") % said
    return gettext("%(name)s wins the pot of %(pot)s (%(hand)s)") % said


def _triad_match_end(step: Step) -> str:
    post: TriadView = step.post
    if post.phase == "place-tie":
        if post.last_result is not None and post.last_result.deal == "place-tie":
            return gettext("another place tie-replay follows")
        return level_for_place(step, post.tied, place_of(post.places, post.tied))
    outcome = post.outcome
    if outcome is None:
        return ""
    return match_won(step, outcome.winner, outcome.chips[outcome.winner])


def level_for_place(step: Step, group: Sequence[int], place: int) -> str:
    return gettext("%(names)s are level for %(place)s place: a place tie-replay follows") % {
        "names": step.name_list(group),
        "place": ordinal(place),
    }


def match_won(step: Step, winner: int, chips: int) -> str:
    return ngettext(
        "match over: %(name)s wins with %(chips)s chip",
        "match over: %(name)s wins with %(chips)s chips",
        chips,
    ) % {"name": step.name(winner), "chips": chips}


def _triad_next_round(step: Step) -> str:
    pre: TriadView = step.pre
    post: TriadView = step.post
    if post.phase not in _SEAT_ROUNDS or post.hand != pre.hand or post.round == pre.round:
        return ""
    if post.phase == "bet":
        number = post.rounds[: post.round + 1].count("bet")
        return gettext("on to betting round %(number)s") % {"number": number}
    return gettext("on to the draw") if post.phase == "draw" else gettext("on to the showdown")


def place_of(places: Sequence[Sequence[int]], group: Sequence[int]) -> int:
    """The best place a group of seats level on chips is playing for (TR-15)."""
    place = 1
    for members in places:
        if sorted(members) == sorted(group):
            break
        place += len(members)
    return place


def narrate_tie_replay(step: Step) -> str:
    """A tie-replay hand dealt (Triad, Tauron Hold-Em)."""
    pre: TriadView | TauronView = step.pre
    tied = step.name_list(pre.tied)
    if pre.phase == "place-tie":
        return gettext("Tie for %(place)s place: %(names)s play a hand for it") % {
            "place": ordinal(place_of(pre.places, pre.tied)),
            "names": tied,
        }
    return gettext("Tie: replay hand; %(names)s play for the held pot of %(pot)s") % {
        "names": tied,
        "pot": pre.held_pot,
    }


def wager_head(step: Step, who: str, high: int, mine_bet: int) -> str:
    """A check, bet, raise or call as a sentence's head (Triad, Tauron Hold-Em)."""
    action = step.action
    if action.kind == "check":
        return gettext("%(who)s checks") % {"who": who}
    if action.kind == "bet":
        return gettext("%(who)s bets %(amount)s") % {"who": who, "amount": action.amount}
    if action.kind == "raise":
        # Players say a raise by the total they now have in this round, not by the increment.
        return gettext("%(who)s raises to %(amount)s") % {"who": who, "amount": high + action.amount}
    if mine_bet:
        return gettext("%(who)s calls %(amount)s (%(more)s more)") % {
            "who": who,
            "amount": high,
            "more": high - mine_bet,
        }
    return gettext("%(who)s calls %(amount)s") % {"who": who, "amount": high}


def fold_head(who: str, hand: str | None) -> str:
    if hand:
        return gettext("%(who)s folds, holding %(hand)s") % {"who": who, "hand": with_article(hand)}
    return gettext("%(who)s folds") % {"who": who}


def show_head(who: str, hand: str | None) -> str:
    return gettext("%(who)s shows %(hand)s") % {"who": who, "hand": with_article(hand or "No Pyramid")}


def narrate(step: Step) -> str:
    action = step.action
    if action.kind == "tie-replay":
        return narrate_tie_replay(step)
    pre: TriadView = step.pre
    post: TriadView = step.post
    seat = pre.to_act
    assert seat is not None  # a seat's action
    who = step.name(seat)
    mine = pre.seats[seat]
    high = max(entry.bet for entry in pre.seats)
    if action.kind in ("check", "bet", "raise", "call"):
        head = wager_head(step, who, high, mine.bet)
    elif action.kind == "fold":
        head = fold_head(who, mine.hand_name if mine.cards else None)
    elif action.kind == "discard":
        head = _triad_discard(step, seat, who)
    else:
        ended = _triad_deal_ended(step)
        head = show_head(who, _shown_name(post.last_result, seat) if ended else post.seats[seat].hand_name)
    if _triad_deal_ended(step):
        return sentence(head, _triad_result(step), _triad_match_end(step))
    return sentence(head, _triad_next_round(step))


def _triad_discard(step: Step, seat: int, who: str) -> str:
    thrown = list(step.action.cards)
    if not thrown:
        return gettext("%(who)s stands pat") % {"who": who}
    said: dict[str, object] = {"who": who, "count": len(thrown)}
    pre: TriadView = step.pre
    post: TriadView = step.post
    held, now = pre.seats[seat].cards, post.seats[seat].cards
    # The discard's text names the cards, so it may be read only where the hand is seen.
    if held is None:
        return gettext("%(who)s discards %(count)s") % said
    said["cards"] = _triad_cards(thrown)
    if now is None:
        return gettext("%(who)s discards %(count)s (%(cards)s)") % said
    drawn = Counter(now) - (Counter(held) - Counter(thrown))
    said["drawn"] = _triad_cards(sort_cards(drawn.elements()))
    return gettext("%(who)s discards %(count)s (%(cards)s) and draws %(count)s (%(drawn)s)") % said


_TRIAD_PHASES: Mapping[str, StrOrPromise] = {
    "bet": gettext_lazy("Betting"),
    "draw": pgettext_lazy("Triad's phase", "Draw"),
    "showdown": gettext_lazy("Showdown"),
    "tie-replay": gettext_lazy("Tie replay next"),
    "place-tie": gettext_lazy("Place tie replay next"),
    "over": gettext_lazy("Match over"),
}


def standing(
    view: TriadView | TauronView, names: Sequence[str], phases: Mapping[str, StrOrPromise] = _TRIAD_PHASES
) -> list[dict[str, Any]]:
    """Chips and bets per seat, the pot, the hand and the phase (Triad, Tauron Hold-Em)."""
    rows: list[dict[str, Any]] = []
    for entry in view.seats:
        parts = [ngettext("%(count)s chip", "%(count)s chips", entry.chips) % {"count": entry.chips}]
        if entry.bet:
            parts.append(gettext("%(count)s bet") % {"count": entry.bet})
        if entry.folded:
            parts.append(gettext("folded"))
        elif entry.out:
            parts.append(pgettext("a player of a match", "out"))
        rows.append({"label": seat_name(names, entry.seat), "value": ", ".join(parts)})
    rows.append({"label": gettext("Pot"), "value": view.pot})
    if view.held_pot:
        rows.append({"label": gettext("Held pot"), "value": view.held_pot})
    said = {"hand": view.hand, "hands": view.hands}
    if view.deal == "tie-replay":
        hand = gettext("%(hand)s of %(hands)s (tie replay)") % said
    elif view.deal == "place-tie":
        hand = gettext("%(hand)s of %(hands)s (place tie replay)") % said
    else:
        hand = gettext("%(hand)s of %(hands)s") % said
    rows.append({"label": gettext("Hand"), "value": hand})
    rows.append({"label": gettext("Phase"), "value": str(phases[view.phase])})
    return rows


def _last_shown(view: TriadView, seats: Sequence[Seat]) -> list[dict[str, Any]]:
    names = {seat.number: seat.name for seat in seats}
    shown = view.last_result.shown if view.last_result is not None else ()
    return [
        {
            "name": names[hand.seat],
            "hand_name": hand_name(hand.name),
            "cards": [card_picture(c) for c in hand.cards],
        }
        for hand in shown
    ]


def chips_info(view: TriadView | TauronView, words: Mapping[str, Any]) -> dict[str, Markup]:
    """A chips game's hand, pot and phase (Triad, Tauron Hold-Em): the same for every viewer of
    a version, so drawn once for them all (``TableSpec.public_html``)."""
    bar = live_template("games/partials/chips_info.html")
    return {"info_bar": Markup(bar.render(view=view, phase_name=words["phase_name"]))}


def ante_errors(config: dict[str, Any]) -> dict[str, str]:
    """TR-4's ante within the stack, worded for the table form (Triad, Tauron Hold-Em)."""
    if config["ante"] > config["stack"]:
        return {"ante": gettext("The ante cannot be more than the chips each player brings.")}
    return {}


def _seats_label(n: int) -> str:
    return ngettext("%(count)s player", "%(count)s players", n) % {"count": n}


seats_label = lazy(_seats_label, str)
"""A choice of how many seats a table has, "3 players", worded when a form is drawn."""


class TriadSpec(TableSpec):
    slug = "triad"
    name = gettext_lazy("Triad")
    players_label = gettext_lazy("2-6 players")
    pitch = gettext_lazy("The Colonial card game: build the best pyramid from 55 hexagonal cards and bet.")
    rules_anchor = "triad-the-colonial-pyramid-card-game"
    invite = gettext_lazy("bluff your way to a Capstone Pyramid in Triad")
    tie_replay_word = "hand"
    demo_series = {"hands": 3}
    option_fields = (
        OptionField(
            "players", gettext_lazy("Seats (Triad)"), tuple((n, seats_label(n)) for n in range(2, 7))
        ),
        OptionField("stack", gettext_lazy("Chips each (Triad)")),
        OptionField("ante", gettext_lazy("Ante (Triad)")),
        OptionField("hands", gettext_lazy("Hands in the match (Triad)")),
        OptionField(
            "cards",
            gettext_lazy("Deal (Triad)"),
            ((6, gettext_lazy("6 cards")), (8, gettext_lazy("8 cards"))),
        ),
        OptionField("no_discard", gettext_lazy("No discarding (Triad)")),
        OptionField("discard_twice", gettext_lazy("Two draws (Triad)")),
        OptionField("face_up", gettext_lazy("All cards face up (Triad)")),
    )

    def public_html(
        self, view: TriadView, seats: Sequence[Seat], words: Mapping[str, Any]
    ) -> dict[str, Markup]:
        return chips_info(view, words)

    def option_errors(self, config: dict[str, Any]) -> dict[str, str]:
        errors = ante_errors(config)
        if config["no_discard"] and config["discard_twice"]:
            errors["discard_twice"] = gettext("Choose either no discarding or two draws, not both.")
        return errors

    def game_area(
        self,
        view: TriadView,
        seats: Sequence[Seat],
        me: int | None,
        to_act: int | None,
        *,
        live: bool,
        version: int = 0,
    ) -> dict[str, Any]:
        moves = view.moves if live else ()
        return {
            "seat_rows": seat_rows(seats, view),
            "my_cards": [card_picture(c) for c in view.cards or ()],
            "bets": [move for move in moves if move.amount is not None],
            "simple_actions": [move.text for move in moves if move.kind in ("check", "call", "fold", "show")],
            "can_discard": any(move.kind == "discard" for move in moves),
            "discard_legend": ngettext(
                "Pick up to %(count)s card to discard, or none to keep your hand",
                "Pick up to %(count)s cards to discard, or none to keep your hand",
                view.max_discard or 0,
            )
            % {"count": view.max_discard},
            "draw_label": pgettext("Triad's draw: the button", "Draw"),
            "can_move": bool(moves),
            "last_shown": _last_shown(view, seats),
        }

    def narrate(self, step: Step) -> str:
        return narrate(step)

    def standing(self, view: TriadView, names: Sequence[str]) -> list[dict[str, Any]]:
        return standing(view, names)


SPEC = TriadSpec()
