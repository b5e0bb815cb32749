"""TN-5: best of 1, 3 or 5 games; a tied game is replayed and does not count."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.formats.best_of import score_match, wins_needed


def test_a_best_of_three_with_a_tie_replayed() -> None:
    score = score_match(3, [0, None, 1, 0])
    assert score.decided
    assert score.winner == 0
    assert score.wins == (2, 1)
    assert score.label() == "2-1"
    assert score.ties == 1


def test_a_best_of_one_is_one_decisive_game_however_many_ties() -> None:
    assert score_match(1, [None, None, 1]).winner == 1
    assert score_match(1, [None, None]).winner is None


def test_undecided_and_sweeps() -> None:
    assert not score_match(3, [0, 1]).decided
    assert score_match(5, [1, 1, 1]).label() == "0-3"
    assert score_match(5, [0, 1, 0, 1]).winner is None
    assert score_match(5, []).wins == (0, 0)


def test_refused() -> None:
    with pytest.raises(ValueError, match="best of 1, 3 or 5"):
        score_match(2, [0])
    with pytest.raises(ValueError, match="after side 0 had won"):
        score_match(3, [0, 0, 1])
    with pytest.raises(ValueError, match="side 0 or 1"):
        score_match(3, [2])


@settings(max_examples=200, deadline=None)
@given(best_of=st.sampled_from([1, 3, 5]), games=st.lists(st.sampled_from([0, 1, None]), max_size=20))
def test_a_match_is_decided_exactly_when_one_side_has_a_majority(
    best_of: int, games: list[int | None]
) -> None:
    needed = wins_needed(best_of)
    played: list[int | None] = []
    for game in games:  # stop where the match is decided: later games would be an error
        played.append(game)
        if score_match(best_of, played).decided:
            break
    score = score_match(best_of, played)
    assert score.ties == played.count(None)
    assert sum(score.wins) == len(played) - score.ties <= best_of
    assert score.decided == (max(score.wins) == needed)
    if score.winner is not None:
        assert score.wins[score.winner] == needed > score.wins[1 - score.winner]
        assert played[-1] == score.winner  # the deciding game is the last
    for cut in range(len(played) - 1):
        assert not score_match(best_of, played[: cut + 1]).decided
