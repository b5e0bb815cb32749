"""What the solitaire engines' property tests share."""

from __future__ import annotations

from typing import Any

from games.engine import Engine, IllegalAction


def answer(engine: Engine[Any, Any], state: Any, text: str) -> str:
    """``legal`` if ``text`` applies, else the refusal's message; the state must not change."""
    before = repr(state)
    try:
        engine.apply(state, text)
    except IllegalAction as refusal:
        return str(refusal)
    finally:
        assert repr(state) == before
    return "legal"
