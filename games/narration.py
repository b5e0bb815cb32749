"""A game's steps in plain English, and the standing beside each step, for the replay viewer.

``narrate(game, before, action, after, names, reveal=...)`` says in one sentence what one
action did; ``standing(game, state, names)`` lists the scores or chips at that moment.

Hidden information (LP-3). Everything is read from the engines' views, never from a
state's fields: with ``reveal=False`` the public view ``view(state, None)``, which holds
only what every spectator knows, so no hidden card can reach a sentence by accident;
with ``reveal=True`` (finished games only) ``full_view(state)``, where hidden cards
simply appear in the same places. The one hidden thing outside the views is the text of
a Triad discard (``discard G2 P3``): its cards are named only when the seat's hand is
seen in that view (``face_up`` or ``reveal``), otherwise only their number is given.

Pure Python: no Django import, so this runs anywhere the engines run.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from games.engine import get_engine
from games.engine.base import Engine
from games.engine.solitaire_common import and_list
from games.engine.triad_hands import sort_cards

__all__ = [
    "block_name",
    "card_name",
    "narrate",
    "standing",
    "triad_card_name",
]

RANK_NAMES = {
    "A": "Ace", "2": "Two", "3": "Three", "4": "Four", "5": "Five", "6": "Six", "7": "Seven",
    "8": "Eight", "9": "Nine", "T": "Ten", "J": "Jack", "Q": "Queen", "K": "King",
}  # fmt: skip
SUIT_NAMES = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}
TRIAD_COLOURS = {"P": "Purple", "G": "Green", "O": "Orange"}
TRIAD_LEVELS = {"1": "First-Level", "2": "Second-Level", "3": "Third-Level"}
"""Capitalised like the engine's hand names ("Perfect Green Second-Level Pyramid")."""


def card_name(card: str) -> str:
    """``"Td"`` -> ``"Ten of diamonds"``: the one place cards get their spoken names."""
    return f"{RANK_NAMES[card[0]]} of {SUIT_NAMES[card[1]]}"


def block_name(card: str) -> str:
    """A Pyramid Poker block: a standard card or one of the Jokers ``X1``, ``X2``."""
    return "Joker" if card.startswith("X") else card_name(card)


def triad_card_name(card: str) -> str:
    """``"G2"`` -> ``"Green Second-Level"``; ``"X"`` -> ``"Capstone"``."""
    if card == "X":
        return "Capstone"
    return f"{TRIAD_COLOURS[card[0]]} {TRIAD_LEVELS[card[1]]}"


def _the(card: str) -> str:
    return f"the {block_name(card)}" if not card.startswith("X") else "a Joker"


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _seat_name(names: Sequence[str], seat: int) -> str:
    # A replay of a table whose seat list is shorter than the game (a seat never filled)
    # must still read, so missing names fall back to the seat number.
    if 0 <= seat < len(names) and names[seat]:
        return names[seat]
    return f"Seat {seat + 1}"


@dataclass
class _Step:
    """One action with the two states around it, seen as ``reveal`` allows."""

    engine: Engine[Any, Any]
    before: Any
    action: Any
    after: Any
    names: Sequence[str]
    reveal: bool

    def _seen(self, state: Any) -> dict[str, Any]:
        return self.engine.full_view(state) if self.reveal else self.engine.view(state, None)

    @cached_property
    def pre(self) -> dict[str, Any]:
        return self._seen(self.before)

    @cached_property
    def post(self) -> dict[str, Any]:
        return self._seen(self.after)

    def name(self, seat: int) -> str:
        return _seat_name(self.names, seat)

    def name_list(self, seats: Sequence[int]) -> str:
        return and_list([self.name(seat) for seat in seats])


def _sentence(head: str, *tails: str) -> str:
    return "; ".join([head, *(tail for tail in tails if tail)])


# --- Pyramid -------------------------------------------------------------------------------


def _tableau_left(view: dict[str, Any]) -> int:
    return sum(slot["card"] is not None for row in view["tableau"] for slot in row)


def _solitaire_end(post: dict[str, Any], game: str) -> str:
    outcome = post.get("outcome")
    if not outcome or outcome["status"] == "resigned":
        return ""
    score = outcome["score"]
    if outcome["won"]:
        if game == "tripeaks":
            what = "the layout is cleared"
        elif outcome["reason"] == "cleared":
            what = "all 52 cards removed"
        else:
            what = "the pyramid is cleared"
        return f"{what}: game won with a score of {score}"
    if outcome["reason"] == "idle_pass":
        return f"a whole pass removed no card: game over, score {score}"
    if game == "tripeaks":
        return f"the stock is empty and no card can be played: game over, score {score}"
    return f"no moves left: game over, score {score}"


def _narrate_pyramid(step: _Step) -> str:
    pre, post, text = step.pre, step.post, str(step.action)
    if text == "resign":
        return "Resigned"
    if text == "draw":
        head = f"Drew the {card_name(post['waste_top'])} from the stock"
    elif text == "redeal":
        limit = post["config"]["redeals"]
        count = f"redeal {post['redeals_used']}" + ("" if limit is None else f" of {limit}")
        verb = (
            "Shuffled the waste into a new stock" if post["config"]["reshuffle"] else "Turned the waste over"
        )
        head = f"{verb} ({count})"
    else:
        cards = step.action.cards
        if len(cards) == 2:
            head = f"Pair {card_name(cards[0])} + {card_name(cards[1])} removed"
        else:
            head = f"{card_name(cards[0])} removed"
    cleared = _tableau_left(pre) > 0 and _tableau_left(post) == 0
    ending = _solitaire_end(post, "pyramid")
    # A cleared-board win already says the pyramid is cleared.
    note = "the pyramid is cleared" if cleared and "pyramid is cleared" not in ending else ""
    return _sentence(head, note, ending)


# --- Tri-Peaks -----------------------------------------------------------------------------


def _narrate_tripeaks(step: _Step) -> str:
    pre, post, text = step.pre, step.post, str(step.action)
    if text == "resign":
        return "Resigned"
    if text == "draw":
        return _sentence(f"Drew the {card_name(post['waste_top'])}", _solitaire_end(post, "tripeaks"))
    head = f"Played the {card_name(step.action.card)} (run of {post['run']})"
    turned = [
        after["card"]
        for row_before, row_after in zip(pre["layout"], post["layout"], strict=True)
        for before, after in zip(row_before, row_after, strict=True)
        if not before["face_up"] and after["face_up"] and after["card"] is not None
    ]
    if turned:
        head += ", turning up " + and_list([f"the {card_name(card)}" for card in turned])
    peaks = post["peaks_cleared"] - pre["peaks_cleared"]
    note = ""
    if peaks:
        note = "all three peaks cleared" if post["peaks_cleared"] == 3 else "a peak cleared"
    return _sentence(head, note, _solitaire_end(post, "tripeaks"))


# --- Triad ---------------------------------------------------------------------------------

_ROUND_WORDS = {"draw": "the draw", "showdown": "the showdown"}
_SEAT_ROUNDS = ("bet", "draw", "showdown")


def _triad_cards(cards: Sequence[str]) -> str:
    return ", ".join(triad_card_name(card) for card in cards)


def _with_article(hand: str) -> str:
    return "no pyramid" if hand == "No Pyramid" else f"a {hand}"


def _shown_name(result: dict[str, Any], seat: int) -> str | None:
    return next((entry["name"] for entry in result["shown"] if entry["seat"] == seat), None)


def _triad_deal_ended(step: _Step) -> bool:
    """Whether the action settled its deal: the engine then moves on inside ``apply``.

    Only a fold or a show can end a deal, and the state after it is then a new hand, a
    tie-replay or place tie-replay waiting to be dealt, or the end of the match.
    """
    if step.action.kind not in ("fold", "show"):
        return False
    pre, post = step.pre, step.post
    return post["phase"] not in _SEAT_ROUNDS or post["hand"] != pre["hand"]


def _triad_result(step: _Step) -> str:
    result, post = step.post["last_result"], step.post
    winners: list[int] = result["winners"]
    if result["deal"] == "place-tie":
        if len(winners) > 1:
            return f"{step.name_list(winners)} tie again ({_shown_name(result, winners[0])})"
        if result["unseen"]:
            return f"{step.name(winners[0])} wins the place tie-replay unseen"
        return f"{step.name(winners[0])} wins the place tie-replay ({_shown_name(result, winners[0])})"
    pot = "the held pot" if result["deal"] == "tie-replay" else "the pot"
    if len(winners) > 1:
        return (
            f"{step.name_list(winners)} tie ({_shown_name(result, winners[0])}): "
            f"a pot of {post['held_pot']} is held for a tie-replay hand"
        )
    if result["unseen"]:
        return f"{step.name(winners[0])} wins {pot} of {result['pot']} unseen"
    return f"{step.name(winners[0])} wins {pot} of {result['pot']} ({_shown_name(result, winners[0])})"


def _triad_match_end(step: _Step) -> str:
    post = step.post
    if post["phase"] == "place-tie":
        if post["last_result"]["deal"] == "place-tie":
            return "another place tie-replay follows"
        group = post["tied"]
        return (
            f"{step.name_list(group)} are level for {_ordinal(_place_of(post, group))} place: "
            "a place tie-replay follows"
        )
    outcome = post.get("outcome")
    if not outcome:
        return ""
    winner = outcome["winner"]
    return f"match over: {step.name(winner)} wins with {outcome['chips'][winner]} chips"


def _triad_next_round(step: _Step) -> str:
    pre, post = step.pre, step.post
    if post["phase"] not in _SEAT_ROUNDS or post["hand"] != pre["hand"] or post["round"] == pre["round"]:
        return ""
    if post["phase"] == "bet":
        number = post["rounds"][: post["round"] + 1].count("bet")
        return f"on to betting round {number}"
    return f"on to {_ROUND_WORDS[post['phase']]}"


def _place_of(view: dict[str, Any], group: Sequence[int]) -> int:
    """The best place a group of seats level on chips is playing for (TR-15)."""
    place = 1
    for members in view["places"]:
        if sorted(members) == sorted(group):
            break
        place += len(members)
    return place


def _narrate_tie_replay(step: _Step) -> str:
    pre = step.pre
    tied = step.name_list(pre["tied"])
    if pre["phase"] == "place-tie":
        return f"Tie for {_ordinal(_place_of(pre, pre['tied']))} place: {tied} play a hand for it"
    return f"Tie: replay hand; {tied} play for the held pot of {pre['held_pot']}"


def _narrate_triad(step: _Step) -> str:
    action = step.action
    if action.kind == "tie-replay":
        return _narrate_tie_replay(step)
    pre, post = step.pre, step.post
    seat: int = pre["to_act"]
    who = step.name(seat)
    mine = pre["seats"][seat]
    high = max(entry["bet"] for entry in pre["seats"])
    if action.kind == "check":
        head = f"{who} checks"
    elif action.kind == "bet":
        head = f"{who} bets {action.amount}"
    elif action.kind == "raise":
        # Players say a raise by the total they now have in this round, not by the increment.
        head = f"{who} raises to {high + action.amount}"
    elif action.kind == "call":
        head = f"{who} calls {high}" + (f" ({high - mine['bet']} more)" if mine["bet"] else "")
    elif action.kind == "fold":
        head = f"{who} folds"
        if mine["cards"]:
            head += f", holding {_with_article(mine['hand_name'])}"
    elif action.kind == "discard":
        head = _triad_discard(step, seat, who)
    else:
        if _triad_deal_ended(step):
            hand = _shown_name(post["last_result"], seat)
        else:
            hand = post["seats"][seat]["hand_name"]
        head = f"{who} shows {_with_article(hand or 'No Pyramid')}"
    if _triad_deal_ended(step):
        return _sentence(head, _triad_result(step), _triad_match_end(step))
    return _sentence(head, _triad_next_round(step))


def _triad_discard(step: _Step, seat: int, who: str) -> str:
    thrown = list(step.action.cards)
    if not thrown:
        return f"{who} stands pat"
    head = f"{who} discards {len(thrown)}"
    held, now = step.pre["seats"][seat]["cards"], step.post["seats"][seat]["cards"]
    # The discard's text names the cards, so it may be read only where the hand is seen.
    if held is None:
        return head
    head += f" ({_triad_cards(thrown)})"
    if now is not None:
        drawn = Counter(now) - (Counter(held) - Counter(thrown))
        head += f" and draws {len(thrown)} ({_triad_cards(sort_cards(drawn.elements()))})"
    return head


# --- Pyramid Poker (blocks) ----------------------------------------------------------------


def _block_at(view: dict[str, Any], row: int, index: int) -> dict[str, Any]:
    return next(place for place in view["pyramid"] if place["row"] == row and place["index"] == index)


def _blocks_showdown(step: _Step) -> str:
    result = step.post["last_result"]
    won, winner = result["won"], result["winner"]
    if winner is None and won[0] == 0:
        head = "showdown ends equal, every pair of hands drawn"
    elif winner is None:
        head = f"showdown ends equal, {_plural(won[0], 'hand')} each"
    else:
        head = f"showdown: {step.name(winner)} wins {_plural(won[winner], 'hand')} to {won[1 - winner]}"
    pairs = []
    for k, pair in enumerate(result["pairs"]):
        names = [result["hands"][seat][k]["name"] for seat in (0, 1)]
        if pair is None:
            pairs.append(f"hand {k + 1} drawn ({names[0]} v {names[1]})")
        else:
            pairs.append(f"hand {k + 1} to {step.name(pair)} ({names[pair]} v {names[1 - pair]})")
    head += " \N{EM DASH} " + ", ".join(pairs)
    tails = []
    if result["points"] is not None:
        points, totals = result["points"], result["totals"]
        tails.append(
            f"{step.name(0)} scores {points[0]}, {step.name(1)} {points[1]}; "
            f"match {step.name(0)} {totals[0]}, {step.name(1)} {totals[1]}"
        )
    phase = step.post["phase"]
    if phase == "tie-replay":
        tails.append("a tie-replay game will decide")
    elif phase == "over" and result["points"] is not None:
        tails.append(f"{step.name(step.post['outcome']['winner'])} wins the match")
    elif phase == "build":
        tails.append(f"next game: {step.name(step.post['first_player'])} starts")
    return _sentence(head, *tails)


def _narrate_blocks(step: _Step) -> str:
    pre, post, action = step.pre, step.post, step.action
    text = str(action)
    if text == "tie-replay":
        what = "match" if pre["config"]["scoring"] == "advanced" else "game"
        return (
            f"Tie: replay game; the {what} is decided by a new game, {step.name(post['first_player'])} first"
        )
    seat: int = pre["to_act"]
    who = step.name(seat)
    if text.startswith("place"):
        face = _block_at(post, action.row, action.index)["face"]
        block = "a block" if face is None else _the(face)
        head = f"{who} places {block} on {action.row},{action.index}"
        built = post["phase"] == "take" and pre["phase"] == "build"
        note = f"the pyramid is built: taking begins, {step.name(post['to_act'])} first" if built else ""
        return _sentence(head, note)
    if text.startswith("take"):
        where = f"{action.row},{action.index}"
        if post["phase"] == "joker":
            # A taken Joker is discarded face up (BL-5), and what it turns over is public.
            extra = len(post["discards"]) - len(pre["discards"]) - 1
            head = f"{who} takes a Joker from {where}, turning over " + and_list(
                [_the(card) for card in post["revealed"]]
            )
            return head + (" (another Joker turned over is discarded)" if extra > 0 else "")
        face = post["holding"]["face"] if post["holding"] else None
        if face is None:
            return f"{who} takes the block at {where}"
        return f"{who} takes {_the(face)} from {where}"
    if text.startswith("keep"):
        others = [card for card in pre["revealed"] if card != action.card]
        head = f"{who} keeps {_the(action.card)} (Joker)"
        if others:
            head += ", discarding " + and_list([_the(card) for card in others])
        return head
    hand = action.hand - 1
    showdown = len(post["results"]) > len(pre["results"])
    hands = post["last_result"]["hands"] if showdown else post["hands"]
    card = hands[seat][hand]["cards"][-1]
    head = f"{who} puts {_the(card)} into hand {action.hand}"
    return _sentence(head, _blocks_showdown(step) if showdown else "")


_NARRATORS: dict[str, Callable[[_Step], str]] = {
    "pyramid": _narrate_pyramid,
    "tripeaks": _narrate_tripeaks,
    "triad": _narrate_triad,
    "blocks": _narrate_blocks,
}


def narrate(game: str, before: Any, action: str, after: Any, names: Sequence[str], *, reveal: bool) -> str:
    """One sentence saying what ``action`` did, taking ``before`` to ``after``.

    ``names[seat]`` is each seat's display name. With ``reveal=False`` the sentence holds
    only what a spectator could see at that moment; ``reveal=True`` (finished games only)
    may name every card. ``ValueError`` for an unknown game or an unreadable action.
    """
    engine = get_engine(game)
    step = _Step(engine, before, engine.parse_action(action), after, names, reveal)
    return _NARRATORS[game](step)


# --- standing ------------------------------------------------------------------------------

_RESULTS = {"won": "Won", "lost": "Lost", "resigned": "Resigned"}


def _solitaire_standing(game: str, view: dict[str, Any]) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = [
        {"label": "Par score" if view["config"].get("scoring") == "par" else "Score", "value": view["score"]},
        {"label": "Cards left", "value": view["cards_left"]},
        {"label": "Stock", "value": view["stock_count"]},
    ]
    if game == "pyramid":
        limit = view["config"]["redeals"]
        passes = str(view["pass"]) if limit is None else f"{view['pass']} of {limit + 1}"
        rows.append({"label": "Pass", "value": passes})
    else:
        rows.append({"label": "Run", "value": view["run"]})
        rows.append({"label": "Peaks cleared", "value": view["peaks_cleared"]})
    rows.append({"label": "Moves", "value": view["moves"]})
    if view["over"]:
        rows.append({"label": "Result", "value": _RESULTS[view["status"]]})
    return rows


_TRIAD_PHASES = {
    "bet": "Betting",
    "draw": "Draw",
    "showdown": "Showdown",
    "tie-replay": "Tie replay next",
    "place-tie": "Place tie replay next",
    "over": "Match over",
}


def _triad_standing(view: dict[str, Any], names: Sequence[str]) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for entry in view["seats"]:
        parts = [_plural(entry["chips"], "chip")]
        if entry["bet"]:
            parts.append(f"{entry['bet']} bet")
        if entry["folded"]:
            parts.append("folded")
        elif entry["out"]:
            parts.append("out")
        rows.append({"label": _seat_name(names, entry["seat"]), "value": ", ".join(parts)})
    rows.append({"label": "Pot", "value": view["pot"]})
    if view["held_pot"]:
        rows.append({"label": "Held pot", "value": view["held_pot"]})
    deal = {"tie-replay": " (tie replay)", "place-tie": " (place tie replay)"}.get(view["deal"], "")
    rows.append({"label": "Hand", "value": f"{view['hand']} of {view['hands']}{deal}"})
    rows.append({"label": "Phase", "value": _TRIAD_PHASES[view["phase"]]})
    return rows


def _blocks_phase(view: dict[str, Any]) -> str:
    phase = view["phase"]
    if phase == "build":
        return f"Building ({view['placed']} of 30 placed)"
    if phase in ("take", "hand"):
        left = sum(place["filled"] for place in view["pyramid"])
        return f"Taking ({_plural(left, 'block')} left)"
    return {"joker": "Joker: choosing a block", "tie-replay": "Tie replay next", "over": "Over"}[phase]


def _blocks_standing(view: dict[str, Any], names: Sequence[str]) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    last = view["last_result"]
    for seat in (0, 1):
        if view["scores"] is not None:
            value = _plural(view["scores"][seat], "point")
        elif last is not None:
            value = f"won {_plural(last['won'][seat], 'hand')}"
        else:
            value = f"{_plural(sum(len(hand['cards']) for hand in view['hands'][seat]), 'block')} in hands"
        rows.append({"label": _seat_name(names, seat), "value": value})
    if view["scores"] is not None:
        rows.append({"label": "Target", "value": view["config"]["target"]})
        rows.append({"label": "Game", "value": view["game_number"] + 1})
    rows.append({"label": "Phase", "value": _blocks_phase(view)})
    return rows


def standing(game: str, state: Any, names: Sequence[str]) -> list[dict[str, Any]]:
    """The scores or chips at this moment, public information only: ``[{"label", "value"}]``."""
    view = get_engine(game).view(state, None)
    if game in ("pyramid", "tripeaks"):
        return _solitaire_standing(game, view)
    if game == "triad":
        return _triad_standing(view, names)
    return _blocks_standing(view, names)
