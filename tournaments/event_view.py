"""A tournament as its page and its exports show it: each match with its entrants, score
and games, the bracket's columns, each round with the standings after it, the cross table,
the places. Plain values built by ``selectors.event`` from one read of the rows."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction

from accounts.models import User
from games.kinds.words import ordinal
from tournaments import event_state
from tournaments.formats import standings
from tournaments.formats.elimination import Side
from tournaments.formats.results import RoundResult
from tournaments.models import Entry, Match, Seating, Tournament


@dataclass(frozen=True)
class GameLink:
    """A game of a match: its live table while it is played, its replay once over."""

    number: int
    url: str
    live: bool
    finished: bool
    winner: Entry | None
    text: str  # the link's words: 'Replay', 'Watch live'; 'Game 2 live', 'Game 1 (tie)' in a longer match


@dataclass(frozen=True)
class SeatLine:
    entry: Entry
    seat: int
    place: int | None
    wins: int  # games won, in a heads-up match
    won: bool
    points: Fraction | None  # TN-3: earned at a table of more than two, once decided


@dataclass(frozen=True)
class MatchView:
    match: Match
    name: str
    seats: tuple[SeatLine, ...]
    games: tuple[GameLink, ...]
    best_of: int

    @property
    def heads_up(self) -> bool:
        return len(self.seats) == 2

    @property
    def live(self) -> GameLink | None:
        return next((game for game in self.games if game.live), None)

    @property
    def waiting(self) -> bool:
        """Seats still to be filled by earlier results."""
        return not self.seats and not self.match.decided

    @property
    def not_played(self) -> bool:
        """An empty bracket match, or a grand final reset that was not needed."""
        return not self.seats and self.match.decided

    @property
    def score(self) -> str:
        """A best of N's games won, first seat first ('2-1'); empty for a single game."""
        if self.best_of == 1 or not self.heads_up or not any(game.finished for game in self.games):
            return ""
        return f"{self.seats[0].wins}-{self.seats[1].wins}"

    @property
    def players(self) -> str:
        return (" v " if self.heads_up else ", ").join(line.entry.name for line in self.seats)

    def seat_of(self, entry_id: int) -> SeatLine | None:
        return next((seat for seat in self.seats if seat.entry.pk == entry_id), None)


@dataclass(frozen=True)
class Column:
    name: str
    matches: tuple[MatchView, ...]


@dataclass(frozen=True)
class StandingRow:
    rank: int
    entry: Entry
    points: Fraction
    buchholz: Fraction
    sonneborn_berger: Fraction
    byes: int


@dataclass(frozen=True)
class RoundView:
    number: int
    matches: tuple[MatchView, ...]
    complete: bool
    standings: tuple[StandingRow, ...]  # after this round, once it is complete


@dataclass(frozen=True)
class Meeting:
    """Two entrants at one table, from the first's side: their result against the other (1,
    1/2 or 0: TN-3's heads-up reading of a table) and both places."""

    round: int
    result: Fraction
    mine: int
    theirs: int
    seated: int
    score: str  # a best of N's games, the first's first

    @property
    def outcome(self) -> str:
        return "win" if self.result == standings.WIN else "draw" if self.result == standings.DRAW else "loss"


@dataclass(frozen=True)
class CrossRow:
    standing: StandingRow
    cells: tuple[tuple[Meeting, ...] | None, ...]  # by column, in the rows' order; None: oneself


@dataclass(frozen=True)
class Event:
    """A tournament as read once: its entrants (seed order), every match, and the standings."""

    tournament: Tournament
    entrants: tuple[Entry, ...]
    matches: tuple[MatchView, ...]
    seats: dict[int, list[Seating]]
    standings: tuple[StandingRow, ...]  # round robin and Swiss: after every decided match

    def on_side(self, side: Side) -> tuple[MatchView, ...]:
        return tuple(view for view in self.matches if view.match.side == side.value)

    def winners(self) -> tuple[Column, ...]:
        return self._columns(Side.WINNERS)

    def losers(self) -> tuple[Column, ...]:
        return self._columns(Side.LOSERS)

    def _columns(self, side: Side) -> tuple[Column, ...]:
        by_round: dict[int, list[MatchView]] = defaultdict(list)
        for view in self.on_side(side):
            by_round[view.match.round].append(view)
        return tuple(Column(views[0].name, tuple(views)) for _, views in sorted(by_round.items()))

    def finals(self) -> tuple[MatchView, ...]:
        return tuple(
            view
            for side in (Side.GRAND_FINAL, Side.GRAND_FINAL_RESET, Side.THIRD_PLACE)
            for view in self.on_side(side)
        )

    def rounds(self) -> tuple[RoundView, ...]:
        """Round robin and Swiss: each round drawn so far, the latest first."""
        by_round: dict[int, list[MatchView]] = defaultdict(list)
        for view in self.matches:
            by_round[view.match.round].append(view)
        out = []
        for number, views in sorted(by_round.items(), reverse=True):
            complete = all(view.match.decided for view in views)
            out.append(
                RoundView(number, tuple(views), complete, self._standings_after(number) if complete else ())
            )
        return tuple(out)

    def _standings_after(self, number: int) -> tuple[StandingRow, ...]:
        """TN-4: the standings as they stood after round ``number``, among those in it by then."""
        matches = [view.match for view in self.matches]
        present = {
            line.entry.pk for view in self.matches if view.match.round <= number for line in view.seats
        }
        return standing_rows(
            [entry for entry in self.entrants if entry.pk in present],
            event_state.round_results(matches, self.seats, through=number),
        )

    def cross_table(self) -> tuple[CrossRow, ...]:
        """Round robin: every entrant against every other, rows and columns in standings order."""
        met: dict[tuple[int, int], list[Meeting]] = defaultdict(list)
        for view in self.matches:
            lines = view.seats
            if view.match.bye or not view.match.decided or any(line.place is None for line in lines):
                continue
            for line in lines:
                for other in lines:
                    if other is not line:
                        met[line.entry.pk, other.entry.pk].append(_meeting(view, line, other))
        order = [row.entry.pk for row in self.standings]
        return tuple(
            CrossRow(row, tuple(None if pk == row.entry.pk else tuple(met[row.entry.pk, pk]) for pk in order))
            for row in self.standings
        )

    def places(self) -> tuple[tuple[str, Entry], ...]:
        """Every placed entrant, best first, with their place ('1st', shared: '5th-8th')."""
        placed = sorted((entry for entry in self.entrants if entry.place), key=lambda e: (e.place, e.seed))
        shared: dict[int, int] = defaultdict(int)
        for entry in placed:
            shared[entry.place or 0] += 1
        return tuple((place_label(entry.place or 0, shared[entry.place or 0]), entry) for entry in placed)

    def champions(self) -> tuple[Entry, ...]:
        if self.tournament.status != Tournament.Status.FINISHED:
            return ()
        return tuple(entry for entry in self.entrants if entry.place == 1)

    def entry_of(self, user: User | None) -> Entry | None:
        """``user``'s entry, unless they withdrew."""
        if user is None or not user.is_authenticated:
            return None
        return next((e for e in self.entrants if e.user_id == user.pk and e.withdrawn_at is None), None)

    def playing(self, entry: Entry) -> bool:
        """Whether ``entry`` is seated in a match not decided yet."""
        return any(not view.match.decided and view.seat_of(entry.pk) for view in self.matches)

    def match_of(self, user: User | None) -> MatchView | None:
        """The match ``user`` should be playing now: theirs, undecided, its latest game live."""
        mine = self.entry_of(user)
        if mine is None or self.tournament.status != Tournament.Status.RUNNING:
            return None
        for view in self.matches:
            if not view.match.decided and view.seat_of(mine.pk) and view.games and view.games[-1].live:
                return view
        return None


def _meeting(view: MatchView, line: SeatLine, other: SeatLine) -> Meeting:
    mine, theirs = line.place or 0, other.place or 0
    result = standings.WIN if mine < theirs else standings.DRAW if mine == theirs else standings.LOSS
    score = f"{line.wins}-{other.wins}" if view.score else ""
    return Meeting(view.match.round, result, mine, theirs, len(view.seats), score)


def place_label(place: int, sharing: int) -> str:
    """'3rd', or the places a group covers: four sharing 5th are '5th-8th'."""
    if sharing <= 1:
        return ordinal(place)
    return f"{ordinal(place)}-{ordinal(place + sharing - 1)}"


def standing_rows(entries: list[Entry], results: list[RoundResult]) -> tuple[StandingRow, ...]:
    """TN-4: the standings of ``entries`` (those seeded) from the rounds played."""
    by_seed = {entry.seed: entry for entry in entries if entry.seed is not None}
    order = sorted(by_seed)
    ratings = {seed: entry.rating for seed, entry in by_seed.items()}
    return tuple(
        StandingRow(
            rank=row.rank,
            entry=by_seed[row.entrant],
            points=row.points,
            buchholz=row.buchholz,
            sonneborn_berger=row.sonneborn_berger,
            byes=row.byes,
        )
        for row in standings.standings(order, results, ratings)
    )
