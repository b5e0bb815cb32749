"""Random and adversarial values: what a careless or hostile client sends.

Everything is drawn from a ``random.Random`` the caller seeds, so a run can be repeated.
"""

from __future__ import annotations

import json
import random
import string
from typing import Any

NASTY_STRINGS = (
    "",
    " ",
    "\x00",
    "a\x00b",
    "\ud800",  # a lone surrogate: not encodable as UTF-8
    "\udfff\ud800",
    "💣" * 40,
    "é\u0301\u200b\u202e\ufeff",  # combining, zero-width, right-to-left override, BOM
    "<script>alert(1)</script>",
    "' OR 1=1 --",
    "{{ settings.SECRET_KEY }}",
    "%s%s%n",
    "../../etc/passwd",
    "null",
    "NaN",
    "-0",
    "1e999",
    "9" * 5000,  # past Python's int() digit limit
    "²",  # str.isdigit() says yes, int() says no
    "١٢",  # Arabic-Indic digits: int() reads them as 12
    "take 0,0",
    "place 99,99",
    "discard X1 X1 X1 X1 X1 X1",
    "bet -1",
    "raise 99999999999999999999",
    "check\ncheck",
    "x" * 70,
    "x" * 100_000,
)
NUMBERS: tuple[Any, ...] = (
    0,
    -1,
    1,
    2**31,
    2**63,
    -(2**63) - 1,
    10**100,
    1.5,
    -0.0,
    1e308,
    float("inf"),
    float("-inf"),
    float("nan"),
    True,
    False,
    None,
)


def text(rng: random.Random, limit: int = 40) -> str:
    """A string: sometimes nasty, sometimes random printable or random code points."""
    roll = rng.random()
    if roll < 0.4:
        return rng.choice(NASTY_STRINGS)
    if roll < 0.7:
        return "".join(rng.choice(string.printable) for _ in range(rng.randint(0, limit)))
    return "".join(
        chr(rng.choice((rng.randint(0, 0x7F), rng.randint(0, 0x10FFFF))))
        for _ in range(rng.randint(0, limit))
    )


def value(rng: random.Random, depth: int = 0) -> Any:
    """Any JSON-ish value, nesting a little (Python's json also writes NaN and Infinity)."""
    roll = rng.random()
    if depth < 3 and roll < 0.15:
        return [value(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    if depth < 3 and roll < 0.3:
        return {text(rng, 8): value(rng, depth + 1) for _ in range(rng.randint(0, 4))}
    if roll < 0.65:
        return rng.choice(NUMBERS)
    return text(rng)


def nested(rng: random.Random, depth: int | None = None) -> str:
    """Deeply nested JSON text (arrays, objects or both), well formed or cut short."""
    depth = depth if depth is not None else rng.choice((9, 33, 100, 1_000, 5_000, 100_000))
    kind = rng.random()
    if kind < 0.4:
        body = "[" * depth + "1" + "]" * depth
    elif kind < 0.8:
        body = '{"a":' * depth + "1" + "}" * depth
    else:
        body = '{"a":[' * (depth // 2) + "1" + "]}" * (depth // 2)
    return body if rng.random() < 0.8 else body[: len(body) // 2]


def dumps(data: Any) -> str:
    """JSON as Python writes it (NaN and Infinity allowed); lone surrogates survive as escapes."""
    return json.dumps(data)


def random_bytes(rng: random.Random, limit: int = 200) -> bytes:
    return bytes(rng.randrange(256) for _ in range(rng.randint(0, limit)))
