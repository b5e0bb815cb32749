"""Actions as values at the edge: a page posts the fields of its form (the cards picked, the
chips of a bet, the cards to discard) and the engine makes the action; bad fields are an
``IllegalAction`` with a message for a person, never a crash."""

from __future__ import annotations

import pytest

from games.engine import IllegalAction, engine_names, get_engine

READ = [
    ("pyramid", {"card": "8c", "partner": "5h"}, "5h+8c"),
    ("pyramid", {"card": "kd"}, "Kd"),
    ("pyramid", {"action": "draw"}, "draw"),
    ("tripeaks", {"card": "10d", "partner": ""}, "Td"),
    ("tripeaks", {"action": "resign"}, "resign"),
    ("triad", {"action": "bet", "amount": "3"}, "bet 3"),
    ("triad", {"action": "raise", "amount": 2}, "raise 2"),
    ("triad", {"action": "discard", "discard": ["p3", "G2"]}, "discard G2 P3"),
    ("triad", {"action": "discard", "discard": "X"}, "discard X"),
    ("triad", {"action": "discard"}, "discard -"),
    ("triad", {"action": "check"}, "check"),
    ("blocks", {"action": "take 2,1"}, "take 2,1"),
    ("tauron", {"action": "bet", "amount": "5"}, "bet 5"),
    ("tauron", {"action": "fold"}, "fold"),
]

REFUSED = [
    ("pyramid", {"card": "8c", "partner": "8c"}),
    ("pyramid", {"card": "zz"}),
    ("pyramid", {"card": ["8c"]}),
    ("tripeaks", {"card": "8c", "partner": "9c"}),
    ("triad", {"action": "bet", "amount": "lots"}),
    ("triad", {"action": "bet", "amount": True}),
    ("triad", {"action": "discard", "discard": [3]}),
    ("tauron", {"action": "raise", "amount": "\u00b3"}),
]


@pytest.mark.parametrize(("game", "fields", "text"), READ)
def test_the_engine_reads_a_pages_fields(game: str, fields: dict[str, object], text: str) -> None:
    assert str(get_engine(game).action_from_fields(fields)) == text


@pytest.mark.parametrize(("game", "fields"), REFUSED)
def test_bad_fields_are_an_illegal_action(game: str, fields: dict[str, object]) -> None:
    with pytest.raises(IllegalAction):
        get_engine(game).action_from_fields(fields)


@pytest.mark.parametrize("game", engine_names())
def test_fields_that_name_no_action_are_refused(game: str) -> None:
    for fields in ({}, {"action": ""}, {"action": 5}, {"version": "0"}):
        with pytest.raises(IllegalAction):
            get_engine(game).action_from_fields(fields)
