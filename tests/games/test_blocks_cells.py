"""The pyramid's still places (games/kinds/blocks.py): drawn once per process and kept, so a
kept place must never carry one viewer's knowledge into another's frame (LP-3)."""

from __future__ import annotations

from games.engine import Move
from games.engine.blocks import BlocksHand, BlocksPlace
from games.kinds import blocks


def place(face: str | None, placer: int | None, *, filled: bool = True) -> BlocksPlace:
    return BlocksPlace(row=0, index=2, filled=filled, face=face, placer=placer, open=False, takeable=False)


def still(face: str | None, placer: int | None, me: int | None, *, filled: bool = True) -> str:
    mine = bool(face) and placer == me
    return str(blocks._still(place(face, placer, filled=filled), mine))


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
    kept = blocks._still(place("Qs", 0), True)
    assert blocks._still(place("Qs", 0), True) is kept  # found, not drawn again
    assert blocks._still_html.cache_info().currsize == 4


def test_a_row_with_the_viewers_move_has_its_form_and_a_row_without_is_its_html() -> None:
    empty, filled = (
        place(None, None, filled=False),
        BlocksPlace(row=1, index=0, filled=True, face=None, placer=1, open=False, takeable=False),
    )
    move = Move("place 0,2", "place", at=(0, 2))

    class View:
        pyramid = (empty, filled)

    top, bottom = blocks._grid(View(), (move,), 0)  # type: ignore[arg-type]
    assert top == {"html": blocks._still(filled, False)}
    assert bottom == {
        "cells": [
            {
                "image": "",
                "label": "",
                "card": "",
                "filled": False,
                "where": "0,2",
                "spot": "row 1 from the bottom, place 3",
                "move": move,
            }
        ]
    }
    top, bottom = blocks._grid(View(), (), 0)  # type: ignore[arg-type]
    assert bottom == {"html": blocks._still(empty, False)}


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
