"""Every engine's ``parse_action`` raises only ``IllegalAction`` for any text whatever.

Action texts come from strangers (a WebSocket frame, a POST, an imported file); the
engine contract promises ``IllegalAction`` with a message a person can read for a bad one,
and nothing else. What it does accept is read as its canonical text says: ASCII digits
only (``str.isdigit`` also passes '³', which ``int()`` refuses, and Arabic-Indic or
fullwidth digits, which it reads), and the canonical text of the result reads back as
the same action.
"""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import IllegalAction, engine_names, get_engine

GAMES = engine_names()

LEGAL_TEXTS: dict[str, list[str]] = {
    "pyramid": ["draw", "redeal", "resign", "Kh", "5h+8c", "10d+3c", "As+Qc", "tc+3D"],
    "tripeaks": ["draw", "resign", "Td", "play 7c", "10h", "PLAY qs"],
    "triad": [
        "check",
        "call",
        "fold",
        "show",
        "tie-replay",
        "bet 3",
        "raise 12",
        "discard G2 P3",
        "discard -",
        "discard x",
    ],
    "blocks": ["place 0,3", "take 2, 1", "hand 2", "keep Ah", "keep X1", "tie-replay"],
    "tauron": ["check", "call", "fold", "show", "tie-replay", "bet 3", "RAISE 12"],
}
"""Texts of each game's grammar that parse, to mutate; every engine must have some."""

OTHER_DIGITS = ["\u00b3", "\u0663", "\uff11", "\u07c3", "\U0001d7d1", "\u2163", "\u00bd", "\u0e53"]
"""Superscript three, Arabic-Indic three, fullwidth one, NKo three, mathematical bold
three, Roman numeral four, one half, Thai three: digits and numbers of other scripts."""
other_digits = st.sampled_from(OTHER_DIGITS) | st.characters(categories=["Nd", "No", "Nl"]).filter(
    lambda ch: not ch.isascii()
)


def test_every_engine_has_texts_to_mutate() -> None:
    assert set(LEGAL_TEXTS) == set(GAMES)
    for game, texts in LEGAL_TEXTS.items():
        for text in texts:
            get_engine(game).parse_action(text)  # they do parse


def check(game: str, text: str) -> None:
    """``text`` is refused with ``IllegalAction`` only, or read as a canonical action."""
    engine = get_engine(game)
    try:
        action = engine.parse_action(text)
    except IllegalAction as exc:
        assert str(exc), "an IllegalAction must say what is wrong"
        return
    canonical = str(action)
    assert canonical.isascii(), (text, canonical)
    assert engine.parse_action(canonical) == action, (text, canonical)
    assert not any(unicodedata.category(ch) == "Nd" and not ch.isascii() for ch in text), (text, action)


LOOKALIKES = {"k": "\u212a", "s": "\u017f", "i": "\u0131"}
"""Kelvin sign, long s, dotless i: not ASCII, yet a case-insensitive match or ``upper()``
takes them for K, S and I."""
SPACES = ["\u00a0", "\u2003", "\t", "\n", "\u3000"]


def mutate(text: str, draw: st.DrawFn) -> str:
    """``text`` with garbage inserted, a character replaced, its digits swapped for other
    scripts' or made very long, or letters swapped for lookalikes: one to three times."""
    for _ in range(draw(st.integers(1, 3))):
        where = draw(st.integers(0, len(text)))
        how = draw(st.sampled_from(["insert", "replace", "digits", "long", "spaces", "case", "lookalike"]))
        if how == "insert":
            text = text[:where] + draw(st.text(max_size=5)) + text[where:]
        elif how == "replace" and text:
            where = min(where, len(text) - 1)
            text = text[:where] + draw(st.characters()) + text[where + 1 :]
        elif how == "digits":
            text = "".join(draw(other_digits) if ch.isdigit() else ch for ch in text)
        elif how == "long" and len(text) < 100:  # once: past int()'s 4,300-digit limit
            text = "".join(ch * 5000 if ch.isdigit() else ch for ch in text)
        elif how == "spaces":
            text = text[:where] + draw(st.sampled_from(SPACES)) + text[where:]
        elif how == "lookalike":
            text = "".join(LOOKALIKES.get(ch.lower(), ch) if draw(st.booleans()) else ch for ch in text)
        else:
            text = text.swapcase()
    return text


@st.composite
def mutated_texts(draw: st.DrawFn, game: str) -> str:
    return mutate(draw(st.sampled_from(LEGAL_TEXTS[game])), draw)


@pytest.mark.parametrize("game", GAMES)
@given(text=st.text())
def test_any_text_is_an_action_or_illegal(game: str, text: str) -> None:
    check(game, text)


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=300)
@given(data=st.data())
def test_legal_texts_with_garbage_are_an_action_or_illegal(game: str, data: st.DataObject) -> None:
    check(game, data.draw(mutated_texts(game)))


@pytest.mark.parametrize(
    ("game", "text"),
    [
        ("triad", "bet \u00b3"),  # str.isdigit says yes, int() says no
        ("triad", "bet \u0663"),  # int() reads 3
        ("triad", "raise \uff11"),  # int() reads 1
        ("triad", "bet " + "9" * 5000),  # beyond int()'s 4,300-digit limit
        ("blocks", "place \u0663,\uff11"),
        ("blocks", "hand " + "1" * 5000),
        ("blocks", "keep \u0663"),
        ("pyramid", "\u212ah"),  # the Kelvin sign, which IGNORECASE takes for K
        ("pyramid", "5\u017f+8c"),  # the long s, which IGNORECASE takes for S
        ("pyramid", "\uff15h+8c"),
        ("tripeaks", "play A\u017f"),
        ("tripeaks", "\u0663c"),
    ],
)
def test_other_scripts_digits_and_letters_are_illegal(game: str, text: str) -> None:
    with pytest.raises(IllegalAction):
        get_engine(game).parse_action(text)
