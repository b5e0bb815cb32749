"""TN-6 in the engines at tables: ``forfeit`` ends the game with the seat to act last, is no
legal action (no bot or page offers it), replays like any stored action, and is refused
where there is no seat to act or the game is not played at a table."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import FORFEIT, TABLE_SEAT, IllegalAction, get_engine

TABLE_GAMES = {"triad": {"players": 4, "hands": 2}, "tauron": {"players": 3, "hands": 2}, "blocks": {}}


def played(game: str, seed: int, moves: int) -> tuple[Any, list[str], Any]:
    """A game after up to ``moves`` random legal actions, stopped at a seat's turn."""
    engine = get_engine(game)
    config = engine.normalize_config(TABLE_GAMES[game])
    state = engine.initial_state(config, seed)
    texts: list[str] = []
    rng = random.Random(seed)
    for _ in range(moves):
        if engine.current_player(state) is None:
            break
        text = str(rng.choice(engine.legal_actions(state)))
        state = engine.apply(state, text)
        texts.append(text)
    while engine.current_player(state) == TABLE_SEAT:
        text = str(engine.legal_actions(state)[0])
        state = engine.apply(state, text)
        texts.append(text)
    return config, texts, state


@pytest.mark.parametrize("game", sorted(TABLE_GAMES))
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), moves=st.integers(0, 60))
def test_a_forfeit_ends_the_game_with_the_seat_to_act_last(game: str, seed: int, moves: int) -> None:
    engine = get_engine(game)
    config, texts, state = played(game, seed, moves)
    seat = engine.current_player(state)
    if seat is None:
        return  # the game ended on its own
    assert FORFEIT not in {str(action) for action in engine.legal_actions(state)}
    over = engine.apply(state, FORFEIT)
    outcome = engine.outcome(over)
    assert engine.current_player(over) is None and outcome is not None
    assert outcome["forfeit"] == seat
    places = engine.places(outcome)
    assert places[seat] == max(places) and places.count(1) == 1 and outcome["winner"] != seat
    with pytest.raises(IllegalAction):
        engine.apply(over, FORFEIT)
    assert engine.outcome(engine.replay(config, seed, [*texts, FORFEIT])[-1]) == outcome
    view = engine.view(over, None)
    assert view.legal == ()


def test_the_betting_games_place_the_others_by_their_chips() -> None:
    engine = get_engine("triad")
    _, _, state = played("triad", 7, 12)
    seat = engine.current_player(state)
    assert seat is not None and seat != TABLE_SEAT
    outcome = engine.outcome(engine.apply(state, FORFEIT))
    assert outcome is not None
    others = [other for other in outcome["ranking"] if other != seat]
    assert outcome["ranking"][-1] == seat
    assert [state.chips[other] for other in others] == sorted((state.chips[o] for o in others), reverse=True)


def test_pyramid_poker_gives_the_game_to_the_other_seat_even_before_a_showdown() -> None:
    engine = get_engine("blocks")
    config = engine.normalize_config({})
    state = engine.initial_state(config, 3)
    seat = engine.current_player(state)
    assert seat in (0, 1)
    outcome = engine.outcome(engine.apply(state, FORFEIT))
    assert outcome is not None
    assert (outcome["winner"], outcome["forfeit"], outcome["hands"], outcome["games"]) == (
        1 - seat,
        seat,
        None,
        [],
    )
    assert engine.view(engine.apply(state, FORFEIT), 0).outcome is not None


@pytest.mark.parametrize("game", ["pyramid", "tripeaks"])
def test_solitaire_has_no_forfeit(game: str) -> None:
    engine = get_engine(game)
    state = engine.initial_state(engine.normalize_config({}), 5)
    with pytest.raises(IllegalAction, match="no forfeit"):
        engine.apply(state, FORFEIT)
