"""LP-1: the move taken for a seat whose turn clock runs out.

Triad checks if it may, else folds. Where a Triad phase has no betting (the draw and the
showdown), "check" is read as its no-cost counterpart: stand pat (``discard -``) and
``show``; folding there would throw away a hand for being slow, which is not what the
rule is for. Pyramid Poker plays the move the built-in bot would play (LP-4), from the
seat's own view.
"""

from __future__ import annotations

from typing import Any

from games.engine.bots import get_bot

_TRIAD_PREFERENCE = ("check", "discard -", "show", "fold")


def timeout_action(game: str, view: dict[str, Any], seed: int) -> str:
    """The action text to apply for the seat whose ``view`` this is; ``ValueError`` if it has none."""
    legal = view.get("legal") or []
    if not legal:
        raise ValueError("this seat has no move to make")
    if game == "triad":
        for choice in _TRIAD_PREFERENCE:
            if choice in legal:
                return choice
        raise ValueError(f"no timeout move among {legal}")
    if game == "blocks":
        return get_bot("blocks")(view, seed)
    raise ValueError(f"{game!r} has no turn clock")
