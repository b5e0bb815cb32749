"""How the site presents each game: names and one-line pitches (the rules live in the engines)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class GameInfo:
    slug: str
    name: str
    kind: str
    pitch: str
    rules_anchor: str
    """The id of the game's section on the rules page (docs/rules.md)."""
    solitaire: bool


CATALOGUE: tuple[GameInfo, ...] = (
    GameInfo(
        "pyramid",
        "Pyramid",
        "Solitaire",
        "Clear a pyramid of 28 cards by pairing cards that add up to 13.",
        "pyramid-solitaire",
        solitaire=True,
    ),
    GameInfo(
        "tripeaks",
        "Tri-Peaks",
        "Solitaire",
        "Run up and down in rank to clear three peaks before the stock ends.",
        "tri-peaks-solitaire",
        solitaire=True,
    ),
    GameInfo(
        "triad",
        "Triad",
        "2-6 players",
        "The Colonial card game: build the best pyramid from 55 hexagonal cards and bet.",
        "triad-the-colonial-pyramid-card-game",
        solitaire=False,
    ),
    GameInfo(
        "blocks",
        "Pyramid Poker",
        "2 players",
        "Build a pyramid of hidden blocks together, then take them apart into three poker hands.",
        "pyramid-poker-the-block-game",
        solitaire=False,
    ),
)

GAMES_BY_SLUG: dict[str, GameInfo] = {info.slug: info for info in CATALOGUE}
SOLITAIRE_GAMES: tuple[str, ...] = tuple(info.slug for info in CATALOGUE if info.solitaire)
"""The games played alone in the browser, and the games of the daily challenge."""
