"""The pyramid's still places (games/kinds/blocks.py): drawn once per process and kept, so a
kept place must never carry one viewer's knowledge into another's frame (LP-3)."""

from __future__ import annotations

import dataclasses

from games.engine import Move
from games.engine.blocks import FOUNDATION, PLACES, BlocksHand, BlocksPlace
from games.kinds import blocks


def place(face: str | None, placer: int | None, *, filled: bool = True) -> BlocksPlace:
    return BlocksPlace(row=0, index=2, filled=filled, face=face, placer=placer, open=False, takeable=False)


def still(face: str | None, placer: int | None, me: int | None, *, filled: bool = True) -> str:
    return str(blocks._still_html(*blocks._still_key(place(face, placer, filled=filled), me)))


def test_a_kept_place_shows_each_viewer_only_what_the_key_says() -> None:
    blocks._still_html.cache_clear()
    seen_by_placer = still("Qs", 0, 0)
    hidden = still(None, 0, None)  # the same place, kept after the placer's
    assert seen_by_placer == (
        '<div class="block-slot" data-place="0,2" data-card="Qs">'
        '<img class="block mine" src="/static/cards/std/Qs.svg" alt="Queen of spades"></div>'
    )
    assert 'data-card=""' in hidden and "Qs" not in hidden and "mine" not in hidden
    assert still("Qs", 0, None) == seen_by_placer.replace("block mine", "block")  # a replay's
    assert still(None, None, None, filled=False) == '<div class="block-slot empty"></div>'
    assert blocks._still_html.cache_info().currsize == 4
    kept = blocks._still_html(*blocks._still_key(place("Qs", 0), 0))
    assert blocks._still_html(*blocks._still_key(place("Qs", 0), 0)) is kept  # found, not drawn again
    assert blocks._still_html.cache_info().currsize == 4


EMPTY = '<div class="block-slot empty"></div>'


@dataclasses.dataclass
class View:
    """What ``_grid`` reads of a view: the whole pyramid, in ``PLACES`` order."""

    pyramid: tuple[BlocksPlace, ...]


def pyramid(*given: BlocksPlace) -> View:
    """A view of a pyramid whose every place is empty but ``given``."""
    at = {(p.row, p.index): p for p in given}
    empty = BlocksPlace(row=0, index=0, filled=False, face=None, placer=None, open=False, takeable=False)
    return View(tuple(at.get((r, i), dataclasses.replace(empty, row=r, index=i)) for r, i in PLACES))


def rows(*drawn: str) -> str:
    """The grid's HTML: the rows ``drawn`` (top first) below the empty ones above them."""
    above = [
        f'<div class="block-row">{EMPTY * (FOUNDATION - r)}</div>'
        for r in range(FOUNDATION - 1, len(drawn) - 1, -1)
    ]
    return "".join(above) + "".join(f'<div class="block-row">{cells}</div>' for cells in drawn)


def test_a_row_with_the_viewers_move_has_its_form_and_a_row_without_is_its_html() -> None:
    filled = BlocksPlace(row=1, index=0, filled=True, face=None, placer=1, open=False, takeable=False)
    view = pyramid(filled)
    move = Move("place 0,2", "place", at=(0, 2))

    grid = str(blocks._grid(view, (move,), 0, 17))  # type: ignore[arg-type]
    row_1 = still(None, 1, 0).replace('"0,2"', '"1,0"') + EMPTY * 6
    form = (
        '<form data-ws-send class="block-slot">'
        '<input type="hidden" name="version" value="17"><input type="hidden" name="action" value="place 0,2">'
        '<button class="block-button open" aria-label="Place your block in row 1 from the bottom, place 3">'
        '<span aria-hidden="true">+</span></button></form>'
    )
    assert grid == rows(row_1, EMPTY * 2 + form + EMPTY * 5)
    assert str(blocks._grid(view, (move,), 0, 18)) == grid.replace('value="17"', 'value="18"')  # type: ignore[arg-type]
    assert str(blocks._grid(view, (), 0, 17)) == rows(row_1, EMPTY * 8)  # type: ignore[arg-type]


def test_a_kept_move_is_drawn_once_and_shows_only_the_block_its_key_says() -> None:
    blocks._move_cell.cache_clear()
    taken = BlocksPlace(row=2, index=1, filled=True, face="Qs", placer=0, open=False, takeable=True)
    hidden = dataclasses.replace(taken, face=None)
    move = Move("take 2,1", "take", at=(2, 1))

    seen = str(blocks._grid(pyramid(taken), (move,), 1, 5))  # type: ignore[arg-type]
    unseen = str(blocks._grid(pyramid(hidden), (move,), 1, 5))  # type: ignore[arg-type]
    assert 'data-card="Qs"' in seen and "Take the Queen of spades (row 3 from the bottom, place 2)" in seen
    assert "Qs" not in unseen and "Take the hidden block" in unseen
    assert str(blocks._grid(pyramid(taken), (move,), 1, 6)) == seen.replace('value="5"', 'value="6"')  # type: ignore[arg-type]
    assert blocks._move_cell.cache_info().currsize == 2


def test_a_kept_row_is_drawn_once_for_its_places_and_shows_each_viewer_its_own_blocks() -> None:
    """LP-3: the faces the viewer is shown are part of a row's key, so no other viewer is
    shown them."""
    blocks._still_row.cache_clear()
    row = (
        BlocksPlace(row=0, index=0, filled=True, face="Qs", placer=0, open=False, takeable=False),
        BlocksPlace(row=0, index=1, filled=True, face=None, placer=1, open=False, takeable=False),
    )
    hidden = (dataclasses.replace(row[0], face=None), row[1])

    as_placer = blocks._grid(pyramid(*row), (), 0, 3)  # type: ignore[arg-type]
    as_other = blocks._grid(pyramid(*hidden), (), 1, 3)  # type: ignore[arg-type]
    assert 'data-card="Qs"' in as_placer and "block mine" in as_placer
    assert "Qs" not in as_other and "mine" not in as_other
    assert blocks._still_row.cache_info().currsize == 7 + 2  # the empty rows once, and row 0 twice
    faces, placers = ("Qs", None, *[None] * 6), (0, 1, *[None] * 6)
    assert blocks._still_row(0, 0, faces, placers) in as_placer  # kept, not drawn again
    assert blocks._still_row.cache_info().currsize == 7 + 2


def test_a_hands_blocks_are_drawn_from_their_kept_pictures() -> None:
    assert str(blocks._hand_blocks(("Qs", "X1"))) == (
        '<img class="block mini" src="/static/cards/std/Qs.svg" alt="Queen of spades" data-card="Qs">'
        '<img class="block mini" src="/static/cards/std/X1.svg" alt="Joker" data-card="X1">'
    )
    assert blocks._in_hand("Qs") is blocks._in_hand("Qs")


def test_kept_hands_mark_only_the_viewers_own_and_are_drawn_once_for_the_same_hands() -> None:
    """BL-4: hands are face up to all, but "is-me" is the viewer's: part of the key."""
    blocks._hands.cache_clear()
    hands = (
        (BlocksHand(cards=("Qs", "Qh"), name=None), BlocksHand(cards=(), name=None)),
        (BlocksHand(cards=("2c",), name=None), BlocksHand(cards=(), name=None)),
    )
    names = ("ann", "bob")
    as_ann, as_bob, watching = (str(blocks._hands(names, me, hands)) for me in (0, 1, None))
    assert as_ann.count("is-me") == as_bob.count("is-me") == 1 and "is-me" not in watching
    assert as_ann.index("is-me") < as_ann.index("ann") < as_ann.index("bob")
    assert as_bob.index("ann") < as_bob.index("is-me") < as_bob.index("bob")
    for html in (as_ann, as_bob, watching):
        assert html.count('data-card="Qs"') == 1 and html.count('data-card="2c"') == 1
    assert blocks._hands(names, 0, hands) is blocks._hands(names, 0, hands)
    assert blocks._hands.cache_info().currsize == 3


def test_a_move_draws_again_only_the_hands_it_changed() -> None:
    blocks._hand_set.cache_clear()
    ann = (BlocksHand(cards=("Qs",), name=None),)
    bob = (BlocksHand(cards=("2c",), name=None),)
    for me in (0, 1, None):
        blocks._hands(("ann", "bob"), me, (ann, bob))
    assert blocks._hand_set.cache_info().currsize == 4  # each player's, as theirs and not
    bob_after = (BlocksHand(cards=("2c", "3c"), name=None),)
    drawn = [str(blocks._hands(("ann", "bob"), me, (ann, bob_after))) for me in (0, 1, None)]
    assert blocks._hand_set.cache_info().currsize == 6  # ann's found, bob's drawn again
    assert all('data-card="3c"' in html for html in drawn)
