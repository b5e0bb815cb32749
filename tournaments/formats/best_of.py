"""TN-5: a match of 1, 3 or 5 games.

The first side to win a majority of ``best_of`` games wins the match. A tied game does
not count (TR-14, BL-8: it is replayed), so a best of 3 may take more than three games.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

BEST_OF = (1, 3, 5)


@dataclass(frozen=True)
class MatchScore:
    """The state of a match: ``wins`` per side (0 the first seat), ``ties`` replayed."""

    best_of: int
    wins: tuple[int, int]
    ties: int
    winner: int | None

    @property
    def decided(self) -> bool:
        return self.winner is not None

    @property
    def games_to_win(self) -> int:
        return wins_needed(self.best_of)

    def label(self) -> str:
        """'2-1': the first seat's wins first."""
        return f"{self.wins[0]}-{self.wins[1]}"


def wins_needed(best_of: int) -> int:
    if best_of not in BEST_OF:
        raise ValueError(f"a match is best of 1, 3 or 5 games, not {best_of}")
    return best_of // 2 + 1


def score_match(best_of: int, games: Sequence[int | None]) -> MatchScore:
    """TN-5: the score after ``games``, each the winning side (0 or 1) or ``None`` for a tie.

    A game after the match was decided is an error: the caller's record is inconsistent.
    """
    needed = wins_needed(best_of)
    wins = [0, 0]
    ties = 0
    winner: int | None = None
    for number, game in enumerate(games, start=1):
        if winner is not None:
            raise ValueError(f"game {number} was played after side {winner} had won the match")
        if game is None:
            ties += 1
            continue
        if game not in (0, 1):
            raise ValueError(
                f"game {number}: a game's winner is side 0 or 1 (or None for a tie), not {game!r}"
            )
        wins[game] += 1
        if wins[game] == needed:
            winner = game
    return MatchScore(best_of=best_of, wins=(wins[0], wins[1]), ties=ties, winner=winner)
