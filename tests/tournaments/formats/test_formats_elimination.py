"""TN-1, TN-2: single and double elimination brackets, played out with random results."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments import pairing
from tournaments.formats.elimination import (
    Bracket,
    BracketState,
    LoserOf,
    Seed,
    Side,
    Status,
    Vacancy,
    WinnerOf,
    champion,
    double_elimination,
    places,
    resolve,
    single_elimination,
)

ENTRANTS = st.integers(2, 64)
RESULT_SEEDS = st.integers(0, 2**32 - 1)
FAST = settings(max_examples=60, deadline=None)


def play_out(bracket: Bracket, seed: int) -> tuple[dict[int, int], list[BracketState]]:
    """Play every ready match, in waves, with random winners; returns the results and every state seen."""
    rng = random.Random(seed)
    results: dict[int, int] = {}
    seen = [resolve(bracket, results)]
    while seen[-1].ready():
        ready = seen[-1].ready()
        # Not every ready match at once: results arrive in any order.
        for match_id in rng.sample(ready, rng.randint(1, len(ready))):
            results[match_id] = rng.randrange(2)
        seen.append(resolve(bracket, results))
    return results, seen


def results_of(state: BracketState) -> dict[int, int]:
    return {m.match_id: m.seats.index(m.winner) for m in state.matches if m.status is Status.PLAYED}


def losses(state: BracketState) -> Counter[int]:
    return Counter(m.loser for m in state.matches if m.status is Status.PLAYED and isinstance(m.loser, int))


def check_every_state(states: list[BracketState]) -> None:
    for state in states:
        busy = [entrant for m in state.matches if m.status is Status.READY for entrant in m.entrants]
        assert len(busy) == len(set(busy)), "nobody plays two matches at once"
        for m in state.matches:
            assert not (m.status is Status.BYE and isinstance(m.loser, int)), "nobody loses to a bye"
            if m.status in (Status.BYE, Status.EMPTY):
                assert Vacancy.NOBODY in m.seats
        rounds: Counter[tuple[Side, int, int]] = Counter(
            (m.node.side, m.node.round, entrant) for m in state.matches for entrant in m.entrants
        )
        if state.bracket.double:  # the two finals seat the same players
            rounds = Counter({key: n for key, n in rounds.items() if key[0] is not Side.GRAND_FINAL_RESET})
        assert max(rounds.values(), default=1) == 1, "one match per round at most"


def check_places(bracket: Bracket, results: dict[int, int], winner: int) -> dict[int, int]:
    placed = places(bracket, results)
    assert sorted(placed) == list(range(bracket.entrants))
    assert [seed for seed, place in placed.items() if place == 1] == [winner]
    counts = Counter(placed.values())
    place = 1
    for value in sorted(counts):  # shared places skip as many places as they share (1 2 3 3 5)
        assert value == place
        place += counts[value]
    return placed


def check_byes(bracket: Bracket, state: BracketState) -> None:
    first_round = [m for m in state.matches if m.node.side is Side.WINNERS and m.node.round == 1]
    byes = sorted(m.entrants[0] for m in first_round if m.status is Status.BYE)
    assert byes == list(range(bracket.size - bracket.entrants)), "byes go to the top seeds"
    assert not any(m.status is Status.EMPTY for m in first_round)


@FAST
@given(entrants=ENTRANTS, seed=RESULT_SEEDS, third_place=st.booleans())
def test_single_elimination(entrants: int, seed: int, third_place: bool) -> None:
    bracket = single_elimination(entrants, third_place=third_place)
    results, states = play_out(bracket, seed)
    final = states[-1]
    check_every_state(states)
    assert final.finished and final.champion is not None
    assert final.reset_needed is False
    has_third = third_place and entrants >= 4  # with three, the third-place match is a bye
    assert len(results) == entrants - 1 + has_third
    check_byes(bracket, final)
    lost = losses(final)
    assert final.champion not in lost
    assert all(lost[seed] >= 1 for seed in range(entrants) if seed != final.champion)
    # Every winners' round seats exactly the previous round's winners (the first, everyone).
    alive = set(range(entrants))
    for number in range(1, bracket.winners_rounds + 1):
        in_round = [m for m in final.matches if m.node.side is Side.WINNERS and m.node.round == number]
        assert sorted(e for m in in_round for e in m.entrants) == sorted(alive)
        alive = {m.winner for m in in_round if isinstance(m.winner, int)}
    assert alive == {final.champion}
    placed = check_places(bracket, results, final.champion)
    if not third_place:  # a loser of round r of R shares place 2 ** (R - r) + 1, as in tennis draws
        rounds = bracket.winners_rounds
        for m in final.matches:
            if m.status is Status.PLAYED:
                assert isinstance(m.loser, int)
                assert placed[m.loser] == 2 ** (rounds - m.node.round) + 1
    elif has_third:
        assert sorted(placed.values())[:4] == [1, 2, 3, 4]


@FAST
@given(entrants=ENTRANTS, seed=RESULT_SEEDS)
def test_double_elimination(entrants: int, seed: int) -> None:
    bracket = double_elimination(entrants)
    results, states = play_out(bracket, seed)
    final = states[-1]
    check_every_state(states)
    assert final.finished and final.champion is not None
    check_byes(bracket, final)
    grand_final = bracket.only(Side.GRAND_FINAL)
    reset = bracket.only(Side.GRAND_FINAL_RESET)
    assert grand_final is not None and reset is not None
    # The reset is played exactly when the losers' bracket player won the first final.
    assert final.reset_needed == (results[grand_final.match_id] == 1)
    assert (reset.match_id in results) == final.reset_needed
    assert final.matches[reset.match_id].status is (
        Status.PLAYED if final.reset_needed else Status.NOT_NEEDED
    )
    assert len(results) == 2 * entrants - 2 + final.reset_needed
    # Nobody is out before two losses: at every step, whoever has a place has lost twice,
    # and nobody with two losses is dealt another match.
    for state in states:
        lost = losses(state)
        for entrant, place in places(bracket, results_of(state)).items():
            assert place == 1 or lost[entrant] == 2
        assert all(lost[e] < 2 for m in state.matches if m.status is Status.READY for e in m.entrants)
    lost = losses(final)
    # The champion has lost at most once, and exactly once if the final was reset.
    assert lost[final.champion] == (1 if final.reset_needed else 0)
    assert all(lost[seed] == 2 for seed in range(entrants) if seed != final.champion)
    check_places(bracket, results, final.champion)
    assert champion(bracket, results) == final.champion


def first_round(entrants: int) -> list[tuple[int, int | None]]:
    pairs = []
    for node in single_elimination(entrants).matches:
        if node.round == 1:
            a, b = node.sources
            assert isinstance(a, Seed) and isinstance(b, Seed)
            pairs.append((a.seed, b.seed if b.seed < entrants else None))
    return pairs


def test_the_first_round_gives_its_byes_to_the_top_seeds_and_never_two_byes_a_match() -> None:
    assert first_round(5) == [(0, None), (3, 4), (1, None), (2, None)]
    assert first_round(2) == [(0, 1)]
    for entrants in range(2, 65):
        pairs = first_round(entrants)
        byes = sorted(first for first, second in pairs if second is None)
        assert byes == list(range(len(byes)))  # the top seeds (TN-2)
        assert len(byes) == pairing.bracket_size(entrants) - entrants
        assert sorted(seed for pair in pairs for seed in pair if seed is not None) == list(range(entrants))


def test_every_source_is_an_earlier_match_and_ids_are_positions() -> None:
    for entrants in (2, 3, 5, 8, 13, 64):
        for bracket in (single_elimination(entrants, third_place=True), double_elimination(entrants)):
            for index, node in enumerate(bracket.matches):
                assert node.match_id == index
                for source in node.sources:
                    if isinstance(source, WinnerOf | LoserOf):
                        assert source.match_id < index


def test_double_elimination_of_eight_is_laid_out_as_usual() -> None:
    bracket = double_elimination(8)
    sides = Counter(node.side for node in bracket.matches)
    assert sides == {
        Side.WINNERS: 7,
        Side.LOSERS: 6,  # 2 + 2 + 1 + 1
        Side.GRAND_FINAL: 1,
        Side.GRAND_FINAL_RESET: 1,
    }
    losers_final = bracket.on_side(Side.LOSERS)[-1]
    assert losers_final.round == 4
    assert losers_final.sources[1] == LoserOf(bracket.on_side(Side.WINNERS)[-1].match_id)
    # Losers of the winners' semi-finals drop in crossed over, away from who just beat them.
    second = [node for node in bracket.on_side(Side.LOSERS) if node.round == 2]
    semis = [node.match_id for node in bracket.on_side(Side.WINNERS) if node.round == 2]
    assert [node.sources[1] for node in second] == [LoserOf(semis[1]), LoserOf(semis[0])]


def test_two_entrants_double_elimination_walk_through() -> None:
    bracket = double_elimination(2)
    assert [node.side for node in bracket.matches] == [Side.WINNERS, Side.GRAND_FINAL, Side.GRAND_FINAL_RESET]
    state = resolve(bracket, {})
    assert state.ready() == (0,)
    state = resolve(bracket, {0: 0})  # seed 0 wins; seed 1 gets a second chance
    assert state.ready() == (1,)
    assert state.matches[1].seats == (0, 1)
    assert state.reset_needed is None and state.champion is None
    state = resolve(bracket, {0: 0, 1: 1})  # the losers' side wins the final: a reset
    assert state.reset_needed is True and state.ready() == (2,) and state.champion is None
    state = resolve(bracket, {0: 0, 1: 1, 2: 1})
    assert state.champion == 1 and state.finished
    assert places(bracket, {0: 0, 1: 1, 2: 1}) == {1: 1, 0: 2}
    done = resolve(bracket, {0: 0, 1: 0})  # the winners' side wins the final: no reset
    assert done.reset_needed is False and done.finished and done.champion == 0
    assert done.matches[2].status is Status.NOT_NEEDED


def test_three_entrants_byes_resolve_into_the_losers_bracket() -> None:
    bracket = double_elimination(3)
    state = resolve(bracket, {})
    # Seed 0 has the bye; the losers' first round is fed by that bye's (absent) loser.
    assert state.matches[0].status is Status.BYE and state.matches[0].winner == 0
    assert state.matches[0].loser is Vacancy.NOBODY
    assert state.ready() == (1,)  # seed 1 v seed 2
    state = resolve(bracket, {1: 1})  # seed 2 wins; seed 1 drops
    losers_first = bracket.on_side(Side.LOSERS)[0]
    assert state.matches[losers_first.match_id].status is Status.BYE
    assert state.matches[losers_first.match_id].winner == 1
    assert places(bracket, {1: 1}) == {}  # nobody is out after one loss


def test_places_in_a_five_entrant_knock_out_with_third_place() -> None:
    bracket = single_elimination(5, third_place=True)
    # Round 1: 0 bye, 3 v 4, 1 bye, 2 bye. Semis: 0 v (3/4), 1 v 2. Then final and third place.
    results = {1: 0}  # 3 beats 4
    assert places(bracket, results) == {4: 5}  # out in the first round: 4 players above
    results |= {4: 1, 5: 0}  # 3 beats 0, 1 beats 2
    results |= {6: 0, 7: 1}  # 3 wins the final; 2 beats 0 for third
    assert places(bracket, results) == {3: 1, 1: 2, 2: 3, 0: 4, 4: 5}


def test_results_that_cannot_be_are_refused() -> None:
    bracket = single_elimination(3)
    with pytest.raises(ValueError, match="has a result but is bye"):
        resolve(bracket, {0: 0})
    with pytest.raises(ValueError, match="has a result but is waiting"):
        resolve(bracket, {2: 0})
    with pytest.raises(ValueError, match="no match"):
        resolve(bracket, {9: 0})
    with pytest.raises(ValueError, match="0 or 1"):
        resolve(bracket, {1: 2})
    with pytest.raises(ValueError, match="at least 2"):
        single_elimination(1)
