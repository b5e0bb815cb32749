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

from markupsafe import Markup

from games.engine.tauron import TauronView
from games.engine.triad import TriadResult, TriadView
from games.engine.triad_hands import sort_cards
from games.kinds.option_forms import OptionField
from games.kinds.pictures import picture
from games.kinds.spec import TableSpec
from games.kinds.words import Step, ordinal, plural, seat_name, sentence
from games.live.live_templates import live_template

if TYPE_CHECKING:
    from games.models import Seat

TRIAD_COLOURS = {"P": "Purple", "G": "Green", "O": "Orange"}
TRIAD_LEVELS = {"1": "First-Level", "2": "Second-Level", "3": "Third-Level"}
"""Capitalised like the engine's hand names ("Perfect Green Second-Level Pyramid")."""


def triad_card_name(card: str) -> str:
    """``"G2"`` -> ``"Green Second-Level"``; ``"X"`` -> ``"Capstone"``."""
    if card == "X":
        return "Capstone"
    return f"{TRIAD_COLOURS[card[0]]} {TRIAD_LEVELS[card[1]]}"


LEVEL_WORDS = {"1": "first level", "2": "second level", "3": "third level"}


def card_picture(card: str | None) -> dict[str, str]:
    """A Triad card as the table draws it; ``None`` is a face-down card."""
    if card is None:
        return {"image": picture("cards/triad/back.svg"), "label": "face-down card", "card": ""}
    label = "The Capstone" if card == "X" else f"{TRIAD_COLOURS[card[0]]}, {LEVEL_WORDS[card[1]]}"
    return {"image": picture(f"cards/triad/{card}.svg"), "label": label, "card": card}


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
        rows.append({"seat": seat, "state": entry, "cards": pictures})
    return rows


_ROUND_WORDS = {"draw": "the draw", "showdown": "the showdown"}
_SEAT_ROUNDS = ("bet", "draw", "showdown")


def _triad_cards(cards: Sequence[str]) -> str:
    return ", ".join(triad_card_name(card) for card in cards)


def with_article(hand: str) -> str:
    return "no pyramid" if hand == "No Pyramid" else f"a {hand}"


def _shown_name(result: TriadResult | None, seat: int) -> str | None:
    shown = result.shown if result is not None else ()
    return next((hand.name for hand in shown if hand.seat == seat), None)


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
    if result.deal == "place-tie":
        if len(winners) > 1:
            return f"{step.name_list(winners)} tie again ({_shown_name(result, winners[0])})"
        if result.unseen:
            return f"{step.name(winners[0])} wins the place tie-replay unseen"
        return f"{step.name(winners[0])} wins the place tie-replay ({_shown_name(result, winners[0])})"
    pot = "the held pot" if result.deal == "tie-replay" else "the pot"
    if len(winners) > 1:
        return (
            f"{step.name_list(winners)} tie ({_shown_name(result, winners[0])}): "
            f"a pot of {post.held_pot} is held for a tie-replay hand"
        )
    if result.unseen:
        return f"{step.name(winners[0])} wins {pot} of {result.pot} unseen"
    return f"{step.name(winners[0])} wins {pot} of {result.pot} ({_shown_name(result, winners[0])})"


def _triad_match_end(step: Step) -> str:
    post: TriadView = step.post
    if post.phase == "place-tie":
        if post.last_result is not None and post.last_result.deal == "place-tie":
            return "another place tie-replay follows"
        group = post.tied
        return (
            f"{step.name_list(group)} are level for {ordinal(place_of(post.places, group))} place: "
            "a place tie-replay follows"
        )
    outcome = post.outcome
    if outcome is None:
        return ""
    winner = outcome.winner
    return f"match over: {step.name(winner)} wins with {outcome.chips[winner]} chips"


def _triad_next_round(step: Step) -> str:
    pre: TriadView = step.pre
    post: TriadView = step.post
    if post.phase not in _SEAT_ROUNDS or post.hand != pre.hand or post.round == pre.round:
        return ""
    if post.phase == "bet":
        number = post.rounds[: post.round + 1].count("bet")
        return f"on to betting round {number}"
    return f"on to {_ROUND_WORDS[post.phase]}"


def place_of(places: Sequence[Sequence[int]], group: Sequence[int]) -> int:
    """The best place a group of seats level on chips is playing for (TR-15)."""
    place = 1
    for members in places:
        if sorted(members) == sorted(group):
            break
        place += len(members)
    return place


def _narrate_tie_replay(step: Step) -> str:
    pre: TriadView = step.pre
    tied = step.name_list(pre.tied)
    if pre.phase == "place-tie":
        return f"Tie for {ordinal(place_of(pre.places, pre.tied))} place: {tied} play a hand for it"
    return f"Tie: replay hand; {tied} play for the held pot of {pre.held_pot}"


def narrate(step: Step) -> str:
    action = step.action
    if action.kind == "tie-replay":
        return _narrate_tie_replay(step)
    pre: TriadView = step.pre
    post: TriadView = step.post
    seat = pre.to_act
    assert seat is not None  # a seat's action
    who = step.name(seat)
    mine = pre.seats[seat]
    high = max(entry.bet for entry in pre.seats)
    if action.kind == "check":
        head = f"{who} checks"
    elif action.kind == "bet":
        head = f"{who} bets {action.amount}"
    elif action.kind == "raise":
        # Players say a raise by the total they now have in this round, not by the increment.
        head = f"{who} raises to {high + action.amount}"
    elif action.kind == "call":
        head = f"{who} calls {high}" + (f" ({high - mine.bet} more)" if mine.bet else "")
    elif action.kind == "fold":
        head = f"{who} folds"
        if mine.cards and mine.hand_name:
            head += f", holding {with_article(mine.hand_name)}"
    elif action.kind == "discard":
        head = _triad_discard(step, seat, who)
    else:
        ended = _triad_deal_ended(step)
        hand = _shown_name(post.last_result, seat) if ended else post.seats[seat].hand_name
        head = f"{who} shows {with_article(hand or 'No Pyramid')}"
    if _triad_deal_ended(step):
        return sentence(head, _triad_result(step), _triad_match_end(step))
    return sentence(head, _triad_next_round(step))


def _triad_discard(step: Step, seat: int, who: str) -> str:
    thrown = list(step.action.cards)
    if not thrown:
        return f"{who} stands pat"
    head = f"{who} discards {len(thrown)}"
    pre: TriadView = step.pre
    post: TriadView = step.post
    held, now = pre.seats[seat].cards, post.seats[seat].cards
    # The discard's text names the cards, so it may be read only where the hand is seen.
    if held is None:
        return head
    head += f" ({_triad_cards(thrown)})"
    if now is not None:
        drawn = Counter(now) - (Counter(held) - Counter(thrown))
        head += f" and draws {len(thrown)} ({_triad_cards(sort_cards(drawn.elements()))})"
    return head


_TRIAD_PHASES = {
    "bet": "Betting",
    "draw": "Draw",
    "showdown": "Showdown",
    "tie-replay": "Tie replay next",
    "place-tie": "Place tie replay next",
    "over": "Match over",
}


def standing(
    view: TriadView | TauronView, names: Sequence[str], phases: Mapping[str, str] = _TRIAD_PHASES
) -> list[dict[str, Any]]:
    """Chips and bets per seat, the pot, the hand and the phase (Triad, Tauron Hold-Em)."""
    rows: list[dict[str, Any]] = []
    for entry in view.seats:
        parts = [plural(entry.chips, "chip")]
        if entry.bet:
            parts.append(f"{entry.bet} bet")
        if entry.folded:
            parts.append("folded")
        elif entry.out:
            parts.append("out")
        rows.append({"label": seat_name(names, entry.seat), "value": ", ".join(parts)})
    rows.append({"label": "Pot", "value": view.pot})
    if view.held_pot:
        rows.append({"label": "Held pot", "value": view.held_pot})
    deal = {"tie-replay": " (tie replay)", "place-tie": " (place tie replay)"}.get(view.deal, "")
    rows.append({"label": "Hand", "value": f"{view.hand} of {view.hands}{deal}"})
    rows.append({"label": "Phase", "value": phases[view.phase]})
    return rows


def _last_shown(view: TriadView, seats: Sequence[Seat]) -> list[dict[str, Any]]:
    names = {seat.number: seat.name for seat in seats}
    shown = view.last_result.shown if view.last_result is not None else ()
    return [
        {
            "name": names[hand.seat],
            "hand_name": hand.name,
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
        return {"ante": "The ante cannot be more than the chips each player brings."}
    return {}


class TriadSpec(TableSpec):
    slug = "triad"
    name = "Triad"
    players_label = "2-6 players"
    pitch = "The Colonial card game: build the best pyramid from 55 hexagonal cards and bet."
    rules_anchor = "triad-the-colonial-pyramid-card-game"
    invite = "bluff your way to a Capstone Pyramid in Triad"
    tie_replay_word = "hand"
    demo_series = {"hands": 3}
    option_fields = (
        OptionField("players", "Seats (Triad)", tuple((n, f"{n} players") for n in range(2, 7))),
        OptionField("stack", "Chips each (Triad)"),
        OptionField("ante", "Ante (Triad)"),
        OptionField("hands", "Hands in the match (Triad)"),
        OptionField("cards", "Deal (Triad)", ((6, "6 cards"), (8, "8 cards"))),
        OptionField("no_discard", "No discarding (Triad)"),
        OptionField("discard_twice", "Two draws (Triad)"),
        OptionField("face_up", "All cards face up (Triad)"),
    )

    def public_html(
        self, view: TriadView, seats: Sequence[Seat], words: Mapping[str, Any]
    ) -> dict[str, Markup]:
        return chips_info(view, words)

    def option_errors(self, config: dict[str, Any]) -> dict[str, str]:
        errors = ante_errors(config)
        if config["no_discard"] and config["discard_twice"]:
            errors["discard_twice"] = "Choose either no discarding or two draws, not both."
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
            "can_move": bool(moves),
            "last_shown": _last_shown(view, seats),
        }

    def narrate(self, step: Step) -> str:
        return narrate(step)

    def standing(self, view: TriadView, names: Sequence[str]) -> list[dict[str, Any]]:
        return standing(view, names)


SPEC = TriadSpec()
