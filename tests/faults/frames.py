"""Reading a live table's frame as a scripted player: its version, its error, its moves.

A frame is the HTML partial ``games/partials/table_live.html``. The moves a seat may make
are exactly the ``<form data-ws-send>`` forms in its frame (the page shows them only on the
seat's turn), so a scripted player picks among those, as a person clicking would.
"""

from __future__ import annotations

import html
import json
import random
import re
from dataclasses import dataclass
from typing import Any

VERSION = re.compile(r'id="table-live"[^>]*data-version="(\d*)"')
ERROR = re.compile(r'data-testid="table-error">(.*?)</p>', re.S)
FORM = re.compile(r"<form data-ws-send[^>]*>(.*?)</form>", re.S)
HIDDEN = re.compile(r'<input type="hidden" name="(\w+)" value="([^"]*)">')
AMOUNT = re.compile(r'name="amount"[^>]*? min="(-?\d+)" max="(-?\d+)"')
DISCARD = re.compile(r'name="discard" value="([^"]*)"')
MAX_DISCARD = re.compile(r"Pick up to (\d+) cards")

STALE = "moved on before your move arrived"
"""The start of ``move_path.play_at_table``'s StaleVersion message: a resend the server refused."""


@dataclass(frozen=True)
class Frame:
    version: int | None
    error: str
    over: bool
    moves: tuple[dict[str, Any], ...]
    """One message per form; a bet form's amount and a discard form's cards are left to ``choose``."""
    max_discard: int

    @property
    def stale_refusal(self) -> bool:
        return STALE in self.error


def read_frame(text: str) -> Frame:
    found = VERSION.search(text)
    if found is None:
        raise ValueError(f"not a table frame: {text[:200]!r}")
    error = ERROR.search(text)
    moves = []
    for form in FORM.finditer(text):
        body = form.group(1)
        message: dict[str, Any] = {name: html.unescape(value) for name, value in HIDDEN.findall(body)}
        amount = AMOUNT.search(body)
        if amount:
            message["amount_range"] = (int(amount.group(1)), int(amount.group(2)))
        cards = [html.unescape(card) for card in DISCARD.findall(body)]
        if message.get("action") == "discard":
            message["cards"] = cards
        moves.append(message)
    max_discard = MAX_DISCARD.search(text)
    return Frame(
        version=int(found.group(1)) if found.group(1) else None,
        error=html.unescape(error.group(1)).strip() if error else "",
        over='data-testid="table-result"' in text,
        moves=tuple(moves),
        max_discard=int(max_discard.group(1)) if max_discard else 0,
    )


def choose(frame: Frame, rng: random.Random) -> dict[str, Any] | None:
    """A random legal move of the frame as the JSON message htmx would send, or None."""
    if not frame.moves:
        return None
    form = rng.choice(frame.moves)
    message = {key: value for key, value in form.items() if key not in ("amount_range", "cards")}
    if "amount_range" in form:
        low, high = form["amount_range"]
        # Mostly the smallest bet, so that matches do not end in a few all-in hands.
        message["amount"] = str(low if rng.random() < 0.7 else rng.randint(low, high))
    if "cards" in form:
        count = rng.randint(0, min(frame.max_discard, len(form["cards"])))
        message["discard"] = rng.sample(form["cards"], count)
    return message


def encode(message: dict[str, Any]) -> str:
    return json.dumps(message)
