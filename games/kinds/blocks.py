"""Pyramid Poker, the block game, on the site (RULES.md section 4): its table form, its
table as one seat sees it, its steps in words and its standing."""

from __future__ import annotations

import operator
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext, gettext_lazy, ngettext, pgettext
from markupsafe import Markup

from games.engine import Move
from games.engine.blocks import FOUNDATION, PLACE_ID, BlocksHand, BlocksPlace, BlocksView
from games.kinds.option_forms import OptionField
from games.kinds.pictures import picture
from games.kinds.spec import TableSpec
from games.kinds.words import Step, and_list, card_name, seat_name, sentence
from games.live.live_templates import live_template
from web.languages import per_language

if TYPE_CHECKING:
    from games.models import Seat


def block_name(card: str) -> str:
    """A block: a standard card or one of the Jokers ``X1``, ``X2``."""
    return gettext("Joker") if card.startswith("X") else card_name(card)


def the_block(card: str) -> str:
    if card.startswith("X"):
        return gettext("a Joker")
    # Translators: a block of Pyramid Poker, by its card's name: "the Ten of diamonds".
    return gettext("the %(card)s") % {"card": card_name(card)}


def poker_hand(name: str | None) -> str:
    """An engine's poker hand name ("Full House", marked there) in the reader's language."""
    return gettext(name) if name else ""


def spot(row: int, index: int) -> str:
    """A place of the pyramid as a person finds it: rows counted from the bottom, places from
    the left (the engine's "4,0" is row 5's first place)."""
    return gettext("row %(row)d from the bottom, place %(place)d") % {"row": row + 1, "place": index + 1}


def block_face(card: str | None) -> dict[str, str]:
    if card is None:
        return {"image": picture("cards/blocks/back.svg"), "label": gettext("hidden block"), "card": ""}
    return {"image": picture(f"cards/std/{card}.svg"), "label": block_name(card), "card": card}


# Each piece of HTML below is kept once drawn, per language (``per_language``: their words and
# the blocks' names are the reader's).
STILL_CELLS = 4096
"""More than every still place there can be: 36 places, each empty, hidden or one of 54 blocks
(the viewer's own or not)."""


def _cells() -> Any:
    return live_template("games/kinds/blocks/cells.html").module


@per_language(maxsize=STILL_CELLS)
def _still_html(row: int, index: int, filled: bool, face: str | None, mine: bool) -> Markup:
    return Markup(_cells().still(f"{row},{index}", block_face(face) if filled else None, mine))


HAND_SETS = 1024
"""Sets of hands kept drawn: a table's hands change a few times a deal, and each set is
drawn three ways at most (for each seat, and for the spectators)."""


@per_language(maxsize=64)
def _in_hand(card: str) -> Markup:
    """A block in a hand, as HTML: drawn once per process for each of the 54."""
    return Markup(_cells().in_hand(block_face(card)))


def _hand_blocks(cards: Sequence[str]) -> Markup:
    # Joined as text, then marked safe once: each piece is already Markup.
    return Markup("".join(map(_in_hand, cards)))


@per_language(maxsize=HAND_SETS)
def _hands(names: tuple[str, ...], me: int | None, hands: tuple[tuple[BlocksHand, ...], ...]) -> Markup:
    """The players' hands as HTML, ``names`` and ``hands`` by seat: the same for every viewer
    of a table but for ``me``, and for many moves on end, so drawn once for them."""
    sets = (
        _hand_set(name, number == me, seat_hands)
        for number, (name, seat_hands) in enumerate(zip(names, hands, strict=True))
    )
    return Markup('<div class="block-hands">' + "".join(sets) + "</div>")


@per_language(maxsize=HAND_SETS)
def _hand_set(name: str, is_me: bool, hands: tuple[BlocksHand, ...]) -> Markup:
    """One player's hands as HTML: a move changes one player's at most, so the other's is
    found kept, and the one that changed is drawn twice (for its player, and for the rest)."""
    shown = [{"name": poker_hand(hand.name), "blocks": _hand_blocks(hand.cards)} for hand in hands]
    return Markup(_cells().hand_set(name, is_me, shown))


_ROWS = tuple((r, PLACE_ID[r, 0], PLACE_ID[r, 0] + FOUNDATION - r) for r in reversed(range(FOUNDATION)))
"""Each row of the pyramid, top row first, as the slice of a view's places (in ``PLACES``
order) that holds it."""
_FACES, _PLACERS = operator.attrgetter("face"), operator.attrgetter("placer")


def _grid(view: BlocksView, moves: Sequence[Move], me: int | None, version: int) -> Markup:
    """The pyramid's rows as HTML, top row first: each place the viewer cannot move on as its
    kept HTML, the others as the move's form, which sends back ``version``. A viewer has moves
    only on their turn at a live table (``BlocksView.moves``), so the other viewers' rows are
    all kept whole."""
    here = {move.at: move for move in moves if move.kind in ("place", "take")}
    rows_with_moves = {at[0] for at in here}
    pyramid = view.pyramid
    all_faces, all_placers = tuple(map(_FACES, pyramid)), tuple(map(_PLACERS, pyramid))
    drawn = []
    for row, start, end in _ROWS:
        if row in rows_with_moves:
            places = pyramid[start:end]
            cells = "".join(_cell(place, here.get((place.row, place.index)), me, version) for place in places)
            drawn.append(f'<div class="block-row">{cells}</div>')
        else:
            faces = all_faces[start:end]
            # Whose the row's blocks are matters only where a face is shown ("mine"): rows of
            # empty and hidden places are kept once for every viewer.
            drawn.append(_still_row(row, me if any(faces) else None, faces, all_placers[start:end]))
    return Markup("".join(drawn))


def _still_key(place: BlocksPlace, me: int | None) -> tuple[int, int, bool, str | None, bool]:
    return place.row, place.index, place.filled, place.face, bool(place.face) and place.placer == me


STILL_ROWS = 8192
"""Rows kept drawn: a move changes one row of a table's pyramid, so a row is drawn again for
each of its viewers at the versions that change it, and kept for the ones between."""


@per_language(maxsize=STILL_ROWS)
def _still_row(
    row: int, me: int | None, faces: tuple[str | None, ...], placers: tuple[int | None, ...]
) -> Markup:
    """A row where the viewer ``me`` has no move, from its places' faces (``None``: empty or
    hidden from ``me``) and placers (``None``: empty), as HTML: its places' kept HTML joined
    once, and the row kept whole (most rows of most frames hold no move, and do not change from
    one version to the next)."""
    cells = (
        _still_html(row, index, placer is not None, face, bool(face) and placer == me)
        for index, (face, placer) in enumerate(zip(faces, placers, strict=True))
    )
    return Markup('<div class="block-row">' + "".join(cells) + "</div>")


def _cell(place: BlocksPlace, move: Move | None, me: int | None, version: int) -> str:
    if move is None:
        return _still_html(*_still_key(place, me))
    before, after = _move_cell(place.row, place.index, place.filled, place.face, move.text)
    return f"{before}{version}{after}"


MOVE_CELLS = 4096
"""More than every place a move can be made on: 36 places, each open or holding one of 54
blocks (face up to the taker, or hidden)."""
_VERSION = "\x00"
"""Where the version goes in a kept move's form: a character no page's HTML holds."""


@per_language(maxsize=MOVE_CELLS)
def _move_cell(row: int, index: int, filled: bool, face: str | None, text: str) -> tuple[str, str]:
    """A place the viewer may move on, as its form's HTML before and after the version it sends
    back: the same at every table and version for the same place, block and move."""
    form = _cells().move(
        f"{row},{index}", block_face(face) if filled else None, spot(row, index), text, _VERSION
    )
    before, after = str(form).split(_VERSION)
    return before, after


def _button(move: Move) -> dict[str, str]:
    if move.kind == "hand":
        label = gettext("Into hand %(number)s") % {"number": move.at[0]}
    elif move.kind == "keep":
        label = gettext("Keep %(block)s") % {"block": move.cards[0]}
    elif move.kind == "tie-replay":
        label = gettext("Tie-replay")
    else:
        label = move.text.capitalize()
    return {"text": move.text, "label": label}


def _block_at(view: BlocksView, row: int, index: int) -> BlocksPlace:
    return next(place for place in view.pyramid if place.row == row and place.index == index)


def _blocks_showdown(step: Step) -> str:
    post: BlocksView = step.post
    result = post.last_result
    assert result is not None
    won, winner = result.won, result.winner
    if winner is None and won[0] == 0:
        head = gettext("showdown ends equal, every pair of hands drawn")
    elif winner is None:
        head = ngettext(
            "showdown ends equal, %(count)s hand each", "showdown ends equal, %(count)s hands each", won[0]
        ) % {"count": won[0]}
    else:
        head = ngettext(
            "showdown: %(name)s wins %(count)s hand to %(other)s",
            "showdown: %(name)s wins %(count)s hands to %(other)s",
            won[winner],
        ) % {"name": step.name(winner), "count": won[winner], "other": won[1 - winner]}
    pairs = []
    for k, pair in enumerate(result.pairs):
        names = [poker_hand(result.hands[seat][k].name) for seat in (0, 1)]
        if pair is None:
            pairs.append(
                gettext("hand %(number)s drawn (%(first)s v %(second)s)")
                % {"number": k + 1, "first": names[0], "second": names[1]}
            )
        else:
            pairs.append(
                gettext("hand %(number)s to %(name)s (%(first)s v %(second)s)")
                % {"number": k + 1, "name": step.name(pair), "first": names[pair], "second": names[1 - pair]}
            )
    head += " \N{EM DASH} " + ", ".join(pairs)
    tails = []
    if result.points is not None and result.totals is not None:
        points, totals = result.points, result.totals
        tails.append(
            gettext(
                "%(first)s scores %(first_points)s, %(second)s %(second_points)s; "
                "match %(first)s %(first_total)s, %(second)s %(second_total)s"
            )
            % {
                "first": step.name(0),
                "second": step.name(1),
                "first_points": points[0],
                "second_points": points[1],
                "first_total": totals[0],
                "second_total": totals[1],
            }
        )
    phase = post.phase
    if phase == "tie-replay":
        tails.append(gettext("a tie-replay game will decide"))
    elif phase == "over" and result.points is not None and post.outcome is not None:
        winner = post.outcome.winner
        assert winner is not None  # a finished game always has a winner (BL-8)
        tails.append(gettext("%(name)s wins the match") % {"name": step.name(winner)})
    elif phase == "build":
        tails.append(gettext("next game: %(name)s starts") % {"name": step.name(post.first_player)})
    return sentence(head, *tails)


def narrate(step: Step) -> str:
    pre: BlocksView = step.pre
    post: BlocksView = step.post
    action = step.action
    text = str(action)
    if text == "tie-replay":
        first = {"name": step.name(post.first_player)}
        if pre.config["scoring"] == "advanced":
            return gettext("Tie: replay game; the match is decided by a new game, %(name)s first") % first
        return gettext("Tie: replay game; the game is decided by a new game, %(name)s first") % first
    seat = pre.to_act
    assert seat is not None
    who = step.name(seat)
    if text.startswith("place"):
        face = _block_at(post, action.row, action.index).face
        block = gettext("a block") if face is None else the_block(face)
        head = gettext("%(who)s places %(block)s in %(spot)s") % {
            "who": who,
            "block": block,
            "spot": spot(action.row, action.index),
        }
        built = post.phase == "take" and pre.phase == "build"
        note = ""
        if built and post.to_act is not None:
            note = gettext("the pyramid is built: taking begins, %(name)s first") % {
                "name": step.name(post.to_act)
            }
        return sentence(head, note)
    if text.startswith("take"):
        where = spot(action.row, action.index)
        if post.phase == "joker":
            # A taken Joker is discarded face up (BL-5), and what it turns over is public.
            extra = len(post.discards) - len(pre.discards) - 1
            head = gettext("%(who)s takes a Joker (%(spot)s), turning over %(blocks)s") % {
                "who": who,
                "spot": where,
                "blocks": and_list([the_block(card) for card in post.revealed]),
            }
            if extra > 0:
                return gettext("%(said)s (another Joker turned over is discarded)") % {"said": head}
            return head
        face = post.holding.face if post.holding else None
        if face is None:
            return gettext("%(who)s takes a hidden block (%(spot)s)") % {"who": who, "spot": where}
        return gettext("%(who)s takes %(block)s (%(spot)s)") % {
            "who": who,
            "block": the_block(face),
            "spot": where,
        }
    if text.startswith("keep"):
        others = [card for card in pre.revealed if card != action.card]
        said = {"who": who, "block": the_block(action.card)}
        if others:
            said["others"] = and_list([the_block(card) for card in others])
            return gettext("%(who)s keeps %(block)s (Joker), discarding %(others)s") % said
        return gettext("%(who)s keeps %(block)s (Joker)") % said
    hand = action.hand - 1
    showdown = len(post.results) > len(pre.results)
    hands: tuple[tuple[BlocksHand, ...], ...] = post.hands
    if showdown and post.last_result is not None:
        hands = post.last_result.hands
    card = hands[seat][hand].cards[-1]
    head = gettext("%(who)s puts %(block)s into hand %(number)s") % {
        "who": who,
        "block": the_block(card),
        "number": action.hand,
    }
    return sentence(head, _blocks_showdown(step) if showdown else "")


def _blocks_phase(view: BlocksView) -> str:
    phase = view.phase
    if phase == "build":
        return gettext("Building (%(placed)s of 30 placed)") % {"placed": view.placed}
    if phase in ("take", "hand"):
        left = sum(place.filled for place in view.pyramid)
        return ngettext("Taking (%(count)s block left)", "Taking (%(count)s blocks left)", left) % {
            "count": left
        }
    if phase == "joker":
        return gettext("Joker: choosing a block")
    if phase == "tie-replay":
        return gettext("Tie replay next")
    return pgettext("a game", "Over")


def standing(view: BlocksView, names: Sequence[str]) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    last = view.last_result
    for seat in (0, 1):
        if view.scores is not None:
            points = view.scores[seat]
            value = ngettext("%(count)s point", "%(count)s points", points) % {"count": points}
        elif last is not None:
            hands = last.won[seat]
            value = ngettext("won %(count)s hand", "won %(count)s hands", hands) % {"count": hands}
        else:
            blocks = sum(len(hand.cards) for hand in view.hands[seat])
            value = ngettext("%(count)s block in hands", "%(count)s blocks in hands", blocks) % {
                "count": blocks
            }
        rows.append({"label": seat_name(names, seat), "value": value})
    if view.scores is not None:
        rows.append({"label": gettext("Target"), "value": view.config["target"]})
        rows.append({"label": gettext("Game"), "value": view.game_number + 1})
    rows.append({"label": gettext("Phase"), "value": _blocks_phase(view)})
    return rows


class BlocksSpec(TableSpec):
    slug = "blocks"
    name = gettext_lazy("Pyramid Poker")
    players_label = gettext_lazy("2 players")
    pitch = gettext_lazy(
        "Build a pyramid of hidden blocks together, then take them apart into three poker hands."
    )
    rules_anchor = "pyramid-poker-the-block-game"
    invite = gettext_lazy("out-build a friend in Pyramid Poker")
    option_fields = (
        OptionField(
            "scoring",
            gettext_lazy("Scoring (Pyramid Poker)"),
            (
                ("basic", gettext_lazy("Basic: one game")),
                ("advanced", gettext_lazy("Advanced: points, a match")),
            ),
        ),
        OptionField(
            "target",
            gettext_lazy("Match to"),
            ((7, gettext_lazy("7 points (short)")), (11, gettext_lazy("11 points (long)"))),
        ),
    )

    def game_area(
        self,
        view: BlocksView,
        seats: Sequence[Seat],
        me: int | None,
        to_act: int | None,
        *,
        live: bool,
        version: int = 0,
    ) -> dict[str, Any]:
        names = {seat.number: seat.name for seat in seats}
        held = view.holding
        holding = None
        if held is not None and held.face:
            taker = next((seat.name for seat in seats if seat.number == held.seat), "")
            holding = {**block_face(held.face), "taker": taker, "mine": held.seat == me}
        moves = view.moves if live else ()
        context: dict[str, Any] = {
            "grid": _grid(view, moves, me, version),
            "buttons": [_button(move) for move in moves if move.kind in ("hand", "keep", "tie-replay")],
            "hands": _hands(tuple(names.get(seat, "") for seat in range(len(view.hands))), me, view.hands),
            "holding": holding,
            "next_block": block_face(view.next_block) if live and view.next_block else None,
            "revealed": [block_face(c) for c in view.revealed],
        }
        return context

    def public_html(
        self, view: BlocksView, seats: Sequence[Seat], words: Mapping[str, Any]
    ) -> dict[str, Markup]:
        scores, showdown, cells = view.scores, words["showdown"], _cells()
        rows = [{"name": seat.name, "score": scores[seat.number]} for seat in seats] if scores else []
        return {
            "info_bar": Markup(cells.info_bar(words["phase_name"], view.placed, rows, view.config["target"])),
            "showdown_part": Markup(cells.showdown(showdown, view.phase == "over") if showdown else ""),
        }

    def narrate(self, step: Step) -> str:
        return narrate(step)

    def standing(self, view: BlocksView, names: Sequence[str]) -> list[dict[str, Any]]:
        return standing(view, names)


SPEC = BlocksSpec()
