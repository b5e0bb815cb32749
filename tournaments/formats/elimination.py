"""TN-1, TN-2: single and double elimination brackets as static graphs, and their state.

A bracket is laid out once from the number of entrants: every match it may need is a
``MatchNode`` whose two seats are filled from a ``Seed`` or from the ``WinnerOf`` or
``LoserOf`` an earlier match. Entrants are named by seed, 0 the first (``seeding``
gives the seed order). The winners' bracket has a power-of-two number of places and the
places beyond the last seed are byes, given to the top seeds by the standard order of
``tournaments.pairing`` (TN-2), so no first-round match is two byes.

``resolve`` is a pure function of the bracket and the results recorded so far: it fills
every seat it can and says which matches are ready. An empty place propagates as
``NOBODY``: a bye's winner is the entrant present and its loser is nobody, so a losers'
bracket match fed by a bye's loser is itself a bye (or empty), and no entrant ever loses
to a bye.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import TypeAlias

from tournaments import pairing


class Side(Enum):
    WINNERS = "winners"
    LOSERS = "losers"
    GRAND_FINAL = "grand_final"
    GRAND_FINAL_RESET = "grand_final_reset"
    THIRD_PLACE = "third_place"


@dataclass(frozen=True)
class Seed:
    seed: int


@dataclass(frozen=True)
class WinnerOf:
    match_id: int


@dataclass(frozen=True)
class LoserOf:
    match_id: int


Source: TypeAlias = Seed | WinnerOf | LoserOf


@dataclass(frozen=True)
class MatchNode:
    """One match of the bracket: ``round`` counts from 1 within its side, ``slot`` from 0
    within its round (top of the drawn bracket first)."""

    match_id: int
    side: Side
    round: int
    slot: int
    sources: tuple[Source, Source]


@dataclass(frozen=True)
class Bracket:
    """The whole bracket; ``matches[i].match_id == i`` and every source is an earlier match."""

    entrants: int
    double: bool
    matches: tuple[MatchNode, ...]

    @property
    def size(self) -> int:
        return pairing.bracket_size(self.entrants)

    @property
    def winners_rounds(self) -> int:
        return pairing.round_count(self.size)

    def on_side(self, side: Side) -> tuple[MatchNode, ...]:
        return tuple(node for node in self.matches if node.side is side)

    def only(self, side: Side) -> MatchNode | None:
        """The one match of a side that has one (the finals, the third-place match)."""
        nodes = self.on_side(side)
        return nodes[0] if nodes else None


class _Builder:
    def __init__(self) -> None:
        self.nodes: list[MatchNode] = []

    def add(self, side: Side, round_number: int, slot: int, first: Source, second: Source) -> int:
        match_id = len(self.nodes)
        self.nodes.append(MatchNode(match_id, side, round_number, slot, (first, second)))
        return match_id


def _halving_round(
    builder: _Builder, side: Side, number: int, previous: list[int], feed: type[WinnerOf] | type[LoserOf]
) -> list[int]:
    """A round pairing the winners (or losers) of ``previous``, two matches into one."""
    return [
        builder.add(side, number, slot, feed(previous[2 * slot]), feed(previous[2 * slot + 1]))
        for slot in range(len(previous) // 2)
    ]


def _winners_bracket(builder: _Builder, entrants: int) -> list[list[int]]:
    """The winners' bracket, round by round: lists of match ids."""
    order = pairing.seed_order(pairing.bracket_size(entrants))
    first = [
        builder.add(Side.WINNERS, 1, slot, Seed(order[2 * slot]), Seed(order[2 * slot + 1]))
        for slot in range(len(order) // 2)
    ]
    rounds = [first]
    while len(rounds[-1]) > 1:
        rounds.append(_halving_round(builder, Side.WINNERS, len(rounds) + 1, rounds[-1], WinnerOf))
    return rounds


def single_elimination(entrants: int, *, third_place: bool = False) -> Bracket:
    """TN-1: a knock-out; with ``third_place`` the semi-final losers play for 3rd (a bracket
    of two entrants has no semi-finals, so no third-place match)."""
    builder = _Builder()
    rounds = _winners_bracket(builder, entrants)
    if third_place and len(rounds) >= 2:
        semis = rounds[-2]
        builder.add(Side.THIRD_PLACE, 1, 0, LoserOf(semis[0]), LoserOf(semis[1]))
    return Bracket(entrants=entrants, double=False, matches=tuple(builder.nodes))


def double_elimination(entrants: int) -> Bracket:
    """TN-1: a winners' bracket, a losers' bracket, and a grand final between their winners;
    if the losers' bracket player wins it, a second final (the reset) decides.

    The losers' bracket of a winners' bracket of k rounds has 2(k - 1) rounds: its odd
    rounds pair its own survivors (the first pairs the first round's losers), its even
    rounds bring in the losers of winners' round j + 1 (round 2j). Those drop-ins come in
    reversed order in every other such round, as usual, so that a player does not meet
    again at once the one who just beat them in the winners' bracket.
    """
    builder = _Builder()
    winners = _winners_bracket(builder, entrants)
    wb_final = winners[-1][0]
    lb_final: Source = LoserOf(wb_final)
    if len(winners) >= 2:
        current = _halving_round(builder, Side.LOSERS, 1, winners[0], LoserOf)
        number = 1
        for j in range(1, len(winners)):
            dropping = winners[j]
            if len(current) != len(dropping):  # halve the survivors before the next drop-in
                number += 1
                current = _halving_round(builder, Side.LOSERS, number, current, WinnerOf)
            number += 1
            reverse = j % 2 == 1
            current = [
                builder.add(
                    Side.LOSERS,
                    number,
                    slot,
                    WinnerOf(current[slot]),
                    LoserOf(dropping[len(dropping) - 1 - slot if reverse else slot]),
                )
                for slot in range(len(current))
            ]
        lb_final = WinnerOf(current[0])
    builder.add(Side.GRAND_FINAL, 1, 0, WinnerOf(wb_final), lb_final)
    # The reset seats the same two players; whether it is played depends on the first final.
    builder.add(Side.GRAND_FINAL_RESET, 1, 0, WinnerOf(wb_final), lb_final)
    return Bracket(entrants=entrants, double=True, matches=tuple(builder.nodes))


class Vacancy(Enum):
    """A seat with no entrant: not decided yet, or never anyone (a bye's missing player)."""

    TBD = "to be decided"
    NOBODY = "nobody"


Seat: TypeAlias = int | Vacancy


class Status(Enum):
    WAITING = "waiting"  # a seat waits on a match not decided yet
    READY = "ready"  # two entrants, no result yet: play it
    PLAYED = "played"
    BYE = "bye"  # one entrant: they go through, nobody loses
    EMPTY = "empty"  # no entrant at all: nothing to play, nobody goes through
    NOT_NEEDED = "not needed"  # the reset, when the winners' bracket player won the grand final


DONE = frozenset({Status.PLAYED, Status.BYE, Status.EMPTY, Status.NOT_NEEDED})


@dataclass(frozen=True)
class MatchState:
    """A match as the results so far leave it. ``winner`` and ``loser`` are ``TBD`` until it
    is decided; a bye's loser, and both of an empty match's, are ``NOBODY``."""

    node: MatchNode
    seats: tuple[Seat, Seat]
    status: Status
    winner: Seat
    loser: Seat

    @property
    def match_id(self) -> int:
        return self.node.match_id

    @property
    def entrants(self) -> tuple[int, ...]:
        """The entrants known to sit here, in seat order."""
        return tuple(seat for seat in self.seats if isinstance(seat, int))

    @property
    def is_bye(self) -> bool:
        return self.status is Status.BYE


@dataclass(frozen=True)
class BracketState:
    bracket: Bracket
    matches: tuple[MatchState, ...]
    reset_needed: bool | None  # None until the grand final is decided; False without one
    champion: int | None

    @property
    def finished(self) -> bool:
        return all(state.status in DONE for state in self.matches)

    def ready(self) -> tuple[int, ...]:
        """The matches to deal now."""
        return tuple(state.match_id for state in self.matches if state.status is Status.READY)


def _seat(source: Source, bracket: Bracket, states: list[MatchState]) -> Seat:
    if isinstance(source, Seed):
        return source.seed if source.seed < bracket.entrants else Vacancy.NOBODY
    earlier = states[source.match_id]
    return earlier.winner if isinstance(source, WinnerOf) else earlier.loser


def resolve(bracket: Bracket, results: Mapping[int, int]) -> BracketState:
    """Every match's seats and status from the results so far (match id -> winning side,
    0 or 1). Only matches that are (or were) ``READY`` may have a result: a result for a
    bye, an empty match, a waiting one or an unneeded reset is an error."""
    for match_id, side in results.items():
        if not 0 <= match_id < len(bracket.matches):
            raise ValueError(f"there is no match {match_id}")
        if side not in (0, 1):
            raise ValueError(f"match {match_id}: the winning side is 0 or 1, not {side!r}")
    states: list[MatchState] = []
    reset_needed: bool | None = False
    for node in bracket.matches:
        seats: tuple[Seat, Seat]
        if node.side is Side.GRAND_FINAL_RESET:
            final = states[node.match_id - 1]
            if final.status is not Status.PLAYED:
                reset_needed = None
                seats = (Vacancy.TBD, Vacancy.TBD)
            else:
                reset_needed = results[final.match_id] == 1
                seats = final.seats if reset_needed else (Vacancy.NOBODY, Vacancy.NOBODY)
                if not reset_needed:
                    states.append(_settled(node, seats, Status.NOT_NEEDED, results))
                    continue
        else:
            seats = (_seat(node.sources[0], bracket, states), _seat(node.sources[1], bracket, states))
        states.append(_state(node, seats, results))
    return BracketState(
        bracket=bracket, matches=tuple(states), reset_needed=reset_needed, champion=_champion(bracket, states)
    )


def _settled(
    node: MatchNode, seats: tuple[Seat, Seat], status: Status, results: Mapping[int, int]
) -> MatchState:
    if node.match_id in results:
        raise ValueError(f"match {node.match_id} has a result but is {status.value}")
    nobody = Vacancy.NOBODY
    winner: Seat = nobody
    if status is Status.BYE:
        winner = next(seat for seat in seats if isinstance(seat, int))
    elif status is Status.WAITING:
        winner = Vacancy.TBD
    return MatchState(node, seats, status, winner, Vacancy.TBD if status is Status.WAITING else nobody)


def _state(node: MatchNode, seats: tuple[Seat, Seat], results: Mapping[int, int]) -> MatchState:
    if Vacancy.TBD in seats:
        return _settled(node, seats, Status.WAITING, results)
    present = [seat for seat in seats if isinstance(seat, int)]
    if len(present) < 2:
        return _settled(node, seats, Status.BYE if present else Status.EMPTY, results)
    if node.match_id not in results:
        return MatchState(node, seats, Status.READY, Vacancy.TBD, Vacancy.TBD)
    side = results[node.match_id]
    return MatchState(node, seats, Status.PLAYED, seats[side], seats[1 - side])


def _champion(bracket: Bracket, states: list[MatchState]) -> int | None:
    if bracket.double:
        final, reset = states[-2], states[-1]
        deciding = reset if reset.status is Status.PLAYED else final
        if deciding.status is not Status.PLAYED or reset.status is Status.READY:
            return None
    else:
        deciding = states[_last_winners_match(bracket)]
    return deciding.winner if isinstance(deciding.winner, int) else None


def _last_winners_match(bracket: Bracket) -> int:
    return bracket.on_side(Side.WINNERS)[-1].match_id


def champion(bracket: Bracket, results: Mapping[int, int]) -> int | None:
    return resolve(bracket, results).champion


# Places: entrants knocked out at the same stage share a place, and a place counts the
# entrants placed above it (1, 2, 3, 3, 5 ...), as in tennis draws. The stages, best first:
# single elimination: the final's winner, its loser, (the third-place match's winner and
# loser,) then each earlier winners' round's losers; double elimination: the champion, the
# runner-up, then each losers' round's losers, the last round first.

_Role: TypeAlias = bool  # True: the match's winner; False: its loser


def _presence(bracket: Bracket) -> list[tuple[bool, bool]]:
    """For each match, whether anyone ever fills each seat: byes are known from the start."""
    seats: list[tuple[bool, bool]] = []

    def present(source: Source) -> bool:
        if isinstance(source, Seed):
            return source.seed < bracket.entrants
        first, second = seats[source.match_id]
        return (first or second) if isinstance(source, WinnerOf) else (first and second)

    for node in bracket.matches:
        seats.append((present(node.sources[0]), present(node.sources[1])))
    return seats


def _stages(bracket: Bracket) -> list[list[tuple[int, _Role]]]:
    stages: list[list[tuple[int, _Role]]] = []
    if bracket.double:
        losers = bracket.on_side(Side.LOSERS)
        for number in range(max((node.round for node in losers), default=0), 0, -1):
            stages.append([(node.match_id, False) for node in losers if node.round == number])
        return stages
    winners = bracket.on_side(Side.WINNERS)
    last = winners[-1].round
    stages += [[(winners[-1].match_id, True)], [(winners[-1].match_id, False)]]
    third = bracket.only(Side.THIRD_PLACE)
    if third is not None:
        stages += [[(third.match_id, True)], [(third.match_id, False)]]
        last -= 1  # the semi-final losers are placed by the third-place match
    for number in range(last - 1, 0, -1):
        stages.append([(node.match_id, False) for node in winners if node.round == number])
    return stages


def places(bracket: Bracket, results: Mapping[int, int]) -> dict[int, int]:
    """Seed -> place for every entrant whose place is settled (everyone once finished).

    A place is known as soon as its entrant is knocked out: how many entrants can still
    finish above is fixed by the bracket, byes included.
    """
    state = resolve(bracket, results)
    out: dict[int, int] = {}
    presence = _presence(bracket)
    above = 0
    if bracket.double:
        final, reset = state.matches[-2], state.matches[-1]
        if state.champion is not None:
            out[state.champion] = 1
            runner_up = reset.loser if reset.status is Status.PLAYED else final.loser
            assert isinstance(runner_up, int)
            out[runner_up] = 2
        above = 2
    for stage in _stages(bracket):
        count = 0
        for match_id, winner in stage:
            first, second = presence[match_id]
            count += (first or second) if winner else (first and second)
            seat = state.matches[match_id].winner if winner else state.matches[match_id].loser
            if isinstance(seat, int):
                out[seat] = above + 1
        above += count
    return out
