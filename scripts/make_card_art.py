#!/usr/bin/env python3
"""Generate Capstone's card art: every SVG under static/cards/.

Deterministic and dependency-free: the same script always writes byte-identical files.

    python scripts/make_card_art.py          # (re)write static/cards/
    python scripts/make_card_art.py --check  # exit 1 if a file is missing or out of date

The art is our own work; see static/cards/README.md.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "static" / "cards"

FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'DejaVu Sans', Arial, sans-serif"

# Palette (shared with static/css/site.css: felt, felt-dark, gold, ink).
RED = "#c62828"
BLACK = "#1d2521"
FELT = "#1f6f4a"
FELT_DARK = "#154d34"
GOLD = "#e8b64c"
GOLD_DARK = "#8a6414"
BORDER = "#8f9892"

# ----------------------------------------------------------------------------------------------------
# Helpers


def n(x: float) -> str:
    """A number for SVG text: at most two decimals, no trailing zeros, never "-0"."""
    s = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def pts(points: Iterable[tuple[float, float]]) -> str:
    return " ".join(f"{n(x)},{n(y)}" for x, y in points)


def poly_path(points: Iterable[tuple[float, float]]) -> str:
    return "M" + "L".join(f"{n(x)},{n(y)}" for x, y in points) + "Z"


def svg(width: float, height: float, title: str, body: str) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" version="1.1" '
        f'width="{n(width)}" height="{n(height)}" viewBox="0 0 {n(width)} {n(height)}" role="img">\n'
        f"<title>{title}</title>\n{body}</svg>\n"
    )


def use(ref: str, x: float, y: float, size: float, extra: str = "") -> str:
    """A square <use> of a symbol, centred on (x, y)."""
    h = size / 2
    return (
        f'<use xlink:href="#{ref}" x="{n(x - h)}" y="{n(y - h)}" '
        f'width="{n(size)}" height="{n(size)}"{extra}/>'
    )


def star(cx: float, cy: float, r: float, inner: float = 0.4, points: int = 5) -> str:
    coords = []
    for i in range(points * 2):
        rad = r if i % 2 == 0 else r * inner
        a = -math.pi / 2 + i * math.pi / points
        coords.append((cx + rad * math.cos(a), cy + rad * math.sin(a)))
    return poly_path(coords)


# ----------------------------------------------------------------------------------------------------
# Suit symbols, drawn in a 100 x 100 box centred on (0, 0).

SUIT_SHAPES = {
    "h": '<path d="M0,46C-5,33-48,11-48,-17C-48,-36-35,-46-22,-46C-11,-46-3,-39 0,-29'
    'C3,-39 11,-46 22,-46C35,-46 48,-36 48,-17C48,11 5,33 0,46Z"/>',
    "d": '<path d="M0,-50Q15,-22 38,0Q15,22 0,50Q-15,22-38,0Q-15,-22 0,-50Z"/>',
    "s": '<path d="M0,-48C-6,-33-46,-13-46,12C-46,28-34,36-22,36C-13,36-6,32-2,25C-3,37-8,43-17,48H17'
    'C8,43 3,37 2,25C6,32 13,36 22,36C34,36 46,28 46,12C46,-13 6,-33 0,-48Z"/>',
    "c": '<circle cy="-24" r="22"/><circle cx="-24" cy="10" r="22"/><circle cx="24" cy="10" r="22"/>'
    '<path d="M0,-8L-16,16H16ZM-4,10C-4,30-9,41-18,48H18C9,41 4,30 4,10Z"/>',
}
SUIT_NAMES = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}
SUIT_COLOURS = {"c": BLACK, "d": RED, "h": RED, "s": BLACK}


def suit_symbol(suit: str, ref: str = "s") -> str:
    return f'<symbol id="{ref}" viewBox="-50 -50 100 100">{SUIT_SHAPES[suit]}</symbol>'


# ----------------------------------------------------------------------------------------------------
# Standard cards (250 x 350)

W, H = 250, 350
RANKS = "A23456789TJQK"
RANK_NAMES = {
    "A": "Ace", "2": "Two", "3": "Three", "4": "Four", "5": "Five", "6": "Six", "7": "Seven",
    "8": "Eight", "9": "Nine", "T": "Ten", "J": "Jack", "Q": "Queen", "K": "King",
}  # fmt: skip
CARD_RECT = f'<rect x="1.5" y="1.5" width="{W - 3}" height="{H - 3}" rx="16"'
CARD_FACE = f'{CARD_RECT} fill="#fff" stroke="{BORDER}" stroke-width="3"/>\n'

# The corner index: a big rank over a big suit, readable when only the top ~40% shows.
IDX_X = 36
IDX_RANK_Y = 78
IDX_RANK_SIZE = 80
IDX_SUIT_Y = 110
IDX_SUIT_SIZE = 46

# Pips live between the two index columns.
PIP_L, PIP_C, PIP_R = 91, 125, 159
PIP_TOP, PIP_BOTTOM = 74, 276
PIP_SIZE = 38

# Classic layouts: (column, fraction of the way from the top row to the bottom row).
PIP_LAYOUTS: dict[str, list[tuple[str, float]]] = {
    "2": [("C", 0), ("C", 1)],
    "3": [("C", 0), ("C", 0.5), ("C", 1)],
    "4": [("L", 0), ("R", 0), ("L", 1), ("R", 1)],
    "5": [("L", 0), ("R", 0), ("C", 0.5), ("L", 1), ("R", 1)],
    "6": [("L", 0), ("R", 0), ("L", 0.5), ("R", 0.5), ("L", 1), ("R", 1)],
    "7": [("L", 0), ("R", 0), ("C", 0.25), ("L", 0.5), ("R", 0.5), ("L", 1), ("R", 1)],
    "8": [("L", 0), ("R", 0), ("C", 0.25), ("L", 0.5), ("R", 0.5), ("C", 0.75), ("L", 1), ("R", 1)],
    "9": [(c, f) for c in "LR" for f in (0, 1 / 3, 2 / 3, 1)] + [("C", 0.5)],
    "T": [(c, f) for c in "LR" for f in (0, 1 / 3, 2 / 3, 1)] + [("C", 1 / 6), ("C", 5 / 6)],
}


def rank_text(rank: str, x: float, y: float, size: float) -> str:
    if rank == "T":
        # "10" is squeezed to the width of one wide letter so the index column stays narrow.
        return (
            f'<text x="{n(x)}" y="{n(y)}" font-size="{n(size * 0.94)}" textLength="{n(size * 0.9)}" '
            f'lengthAdjust="spacingAndGlyphs">10</text>'
        )
    return f'<text x="{n(x)}" y="{n(y)}" font-size="{n(size)}">{rank}</text>'


def corner_index(rank: str, colour: str) -> str:
    return (
        f'<g id="i" fill="{colour}">'
        f'<g font-family="{FONT}" font-weight="700" text-anchor="middle">'
        f"{rank_text(rank, IDX_X, IDX_RANK_Y, IDX_RANK_SIZE)}</g>"
        f"{use('s', IDX_X, IDX_SUIT_Y, IDX_SUIT_SIZE)}</g>\n"
        f'<use xlink:href="#i" transform="rotate(180 {W // 2} {H // 2})"/>\n'
    )


def pips(rank: str) -> str:
    out = []
    cols = {"L": PIP_L, "C": PIP_C, "R": PIP_R}
    for col, frac in PIP_LAYOUTS[rank]:
        x = cols[col]
        y = PIP_TOP + frac * (PIP_BOTTOM - PIP_TOP)
        flip = f' transform="rotate(180 {n(x)} {n(y)})"' if frac > 0.5 else ""
        out.append(use("s", x, y, PIP_SIZE, flip))
    return "".join(out) + "\n"


# Court headgear, drawn around (0, 0) in a box about 64 x 48.
HEADGEAR = {
    "K": (
        '<path d="M-28,16L-31,-10L-15,3L0,-19L15,3L31,-10L28,16Z"/>'
        '<circle cx="-31" cy="-12" r="4.5"/><circle cy="-22" r="4.5"/><circle cx="31" cy="-12" r="4.5"/>'
        '<rect x="-29" y="14" width="58" height="10" rx="2"/>'
    ),
    "Q": (
        '<path d="M-27,16C-28,0-18,-6-10,4C-8,-12 8,-12 10,4C18,-6 28,0 27,16Z"/>'
        '<circle cy="-13" r="4.5"/><circle cx="-19" cy="-3" r="3.5"/><circle cx="19" cy="-3" r="3.5"/>'
        '<rect x="-29" y="14" width="58" height="10" rx="5"/>'
    ),
    "J": (
        '<path d="M6,-4C8,-22 20,-32 34,-36C28,-26 22,-14 16,-2Z"/>'
        '<path d="M-30,14C-32,-2-16,-10 2,-10C20,-10 32,-2 30,14C20,20-20,20-30,14Z"/>'
        '<rect x="-24" y="14" width="48" height="9" rx="4.5"/>'
    ),
}


def court(rank: str, suit: str) -> str:
    colour = SUIT_COLOURS[suit]
    tint = "#fdeeee" if colour == RED else "#eef2f0"
    x0, y0, x1, y1 = 80, 26, 170, 324
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    half = (
        f'<g id="h"><g transform="translate({n(cx)} 66)" fill="{GOLD}" stroke="{GOLD_DARK}" '
        f'stroke-width="2.5" stroke-linejoin="round">{HEADGEAR[rank]}'
        f'<circle cy="19" r="3.5" fill="{colour}" stroke="none"/></g>'
        f'<text x="{n(cx)}" y="142" font-family="{FONT}" font-weight="700" font-size="64" '
        f'text-anchor="middle" fill="{colour}">{rank}</text></g>\n'
    )
    return (
        f'<rect x="{x0}" y="{y0}" width="{x1 - x0}" height="{y1 - y0}" rx="10" fill="{tint}" '
        f'stroke="{colour}" stroke-width="5"/>\n'
        f'<rect x="{x0 + 7}" y="{y0 + 7}" width="{x1 - x0 - 14}" height="{y1 - y0 - 14}" rx="5" '
        f'fill="none" stroke="{GOLD}" stroke-width="2.5"/>\n'
        f'<path d="M{x0 + 7},{n(cy)}H{x1 - 7}" stroke="{GOLD}" stroke-width="2.5"/>\n'
        f"{half}"
        f'<use xlink:href="#h" transform="rotate(180 {n(cx)} {n(cy)})"/>\n'
        f'<circle cx="{n(cx)}" cy="{n(cy)}" r="19" fill="#fff" stroke="{GOLD}" stroke-width="2.5"/>\n'
        f'<g fill="{colour}">{use("s", cx, cy, 24)}</g>\n'
    )


def std_face(rank: str, suit: str) -> str:
    colour = SUIT_COLOURS[suit]
    title = f"{RANK_NAMES[rank]} of {SUIT_NAMES[suit]}"
    body = [f"<defs>{suit_symbol(suit)}</defs>\n", CARD_FACE, corner_index(rank, colour)]
    if rank == "A":
        size = 150 if suit != "c" else 140
        body.append(f'<g fill="{colour}">{use("s", W / 2, H / 2, size)}</g>\n')
    elif rank in "JQK":
        body.append(court(rank, suit))
    else:
        body.append(f'<g fill="{colour}">{pips(rank)}</g>')
    return svg(W, H, title, "".join(body))


def pyramid_emblem(cx: float, cy: float, side: float, body: str, tip: str) -> str:
    """The brand mark: a triangle with a gold capstone (a third of its height)."""
    h = side * math.sqrt(3) / 2
    top = (cx, cy - h * 2 / 3)
    left = (cx - side / 2, cy + h / 3)
    right = (cx + side / 2, cy + h / 3)
    k = 1 / 3
    cap_l = (top[0] + (left[0] - top[0]) * k, top[1] + (left[1] - top[1]) * k)
    cap_r = (top[0] + (right[0] - top[0]) * k, top[1] + (right[1] - top[1]) * k)
    return (
        f'<path d="{poly_path([top, right, left])}" fill="{body}"/>'
        f'<path d="{poly_path([top, cap_r, cap_l])}" fill="{tip}"/>'
    )


def std_back() -> str:
    inset = 12
    iw, ih = W - 2 * inset, H - 2 * inset
    pattern = (
        '<pattern id="p" width="28" height="24.25" patternUnits="userSpaceOnUse">'
        '<path d="M0,24.25L14,0L28,24.25Z" fill="#fff" fill-opacity=".07"/>'
        '<path d="M14,0L21,12.12H7Z" fill="#000" fill-opacity=".1"/></pattern>'
    )
    cx, cy = W / 2, H / 2
    body = (
        f"<defs>{pattern}</defs>\n"
        f'{CARD_RECT} fill="#fff" stroke="{BORDER}" stroke-width="3"/>\n'
        f'<rect x="{inset}" y="{inset}" width="{iw}" height="{ih}" rx="9" fill="{FELT}"/>\n'
        f'<rect x="{inset}" y="{inset}" width="{iw}" height="{ih}" rx="9" fill="url(#p)"/>\n'
        f'<rect x="{inset + 8}" y="{inset + 8}" width="{iw - 16}" height="{ih - 16}" rx="5" fill="none" '
        f'stroke="{GOLD}" stroke-width="3"/>\n'
        f'<rect x="{inset + 14}" y="{inset + 14}" width="{iw - 28}" height="{ih - 28}" rx="3" fill="none" '
        f'stroke="{GOLD}" stroke-opacity=".45" stroke-width="1.5"/>\n'
        f'<circle cx="{cx}" cy="{cy}" r="58" fill="{FELT_DARK}" stroke="{GOLD}" stroke-width="4"/>\n'
        f'<circle cx="{cx}" cy="{cy}" r="49" fill="none" stroke="{GOLD}" stroke-opacity=".5" '
        f'stroke-width="1.5"/>\n'
        f"{pyramid_emblem(cx, cy + 4, 72, '#2f9466', GOLD)}\n"
    )
    return svg(W, H, "Card back", body)


def std_empty() -> str:
    # A dark halo under light dashes, so the outline shows on the felt and on the paper background alike.
    rect = f'<rect x="4" y="4" width="{W - 8}" height="{H - 8}" rx="15" stroke-dasharray="16 10"'
    tri = poly_path([(125, 140), (165, 209), (85, 209)])
    body = (
        f'{rect} fill="#000" fill-opacity=".07" stroke="#000" stroke-opacity=".22" stroke-width="7"/>\n'
        f'{rect} fill="none" stroke="#fff" stroke-opacity=".75" stroke-width="3.5"/>\n'
        f'<path d="{tri}" fill="none" stroke="#000" stroke-opacity=".12" stroke-width="9" '
        f'stroke-linejoin="round"/>\n'
        f'<path d="{tri}" fill="none" stroke="#fff" stroke-opacity=".55" stroke-width="5" '
        f'stroke-linejoin="round"/>\n'
    )
    return svg(W, H, "Empty place", body)


def joker(which: str) -> str:
    colour = RED if which == "1" else BLACK
    name = "Red Joker" if which == "1" else "Black Joker"
    letters = "".join(f'<tspan x="{IDX_X}" y="{120 + 30 * i}">{c}</tspan>' for i, c in enumerate("JOKER"))
    index = (
        f'<g id="i" fill="{colour}"><path d="{star(IDX_X, 50, 34)}"/>'
        f'<text font-family="{FONT}" font-weight="700" font-size="30" text-anchor="middle">{letters}</text>'
        f"</g>\n"
        f'<use xlink:href="#i" transform="rotate(180 {W // 2} {H // 2})"/>\n'
    )
    cx, cy = W / 2, H / 2
    body = (
        CARD_FACE
        + index
        + f'<path id="k" d="{star(W - IDX_X, 46, 15)}" fill="{colour}" fill-opacity=".55"/>\n'
        + f'<use xlink:href="#k" transform="rotate(180 {W // 2} {H // 2})"/>\n'
        + f'<circle cx="{cx}" cy="{cy}" r="70" fill="{GOLD}" fill-opacity=".2" stroke="{GOLD}" '
        f'stroke-width="4"/>\n'
        + f'<circle cx="{cx}" cy="{cy}" r="62" fill="none" stroke="{GOLD}" stroke-opacity=".5" '
        f'stroke-width="1.5"/>\n'
        + f'<path d="{star(cx, cy + 4, 58)}" fill="{colour}"/>\n'
        + f'<path d="{star(cx, cy + 4, 18)}" fill="{GOLD}"/>\n'
    )
    return svg(W, H, name, body)


# ----------------------------------------------------------------------------------------------------
# Triad cards: pointy-top regular hexagons (174 x 200)

HEX_W, HEX_H = 174, 200
HEX_C = (87.0, 100.0)
HEX_R = 98.0
TRIAD_COLOURS = {"P": ("Purple", "#6a1b9a"), "G": ("Green", "#2e7d32"), "O": ("Orange", "#ef6c00")}
LEVEL_NAMES = {1: "first", 2: "second", 3: "third"}
CAP_BLACK = "#111"
HEX_FACE = "#fffdf8"


def hex_points(r: float) -> list[tuple[float, float]]:
    cx, cy = HEX_C
    return [
        (cx + r * math.cos(math.radians(-90 + 60 * i)), cy + r * math.sin(math.radians(-90 + 60 * i)))
        for i in range(6)
    ]


def edge_triangles(count: int, base: float, gap: float, inset: float) -> str:
    """`count` inward-pointing triangles centred along each of the six edges."""
    cx, cy = HEX_C
    verts = hex_points(HEX_R)
    shapes = []
    for i in range(6):
        (ax, ay), (bx, by) = verts[i], verts[(i + 1) % 6]
        mx, my = (ax + bx) / 2, (ay + by) / 2
        tx, ty = (bx - ax) / HEX_R, (by - ay) / HEX_R
        d = math.hypot(cx - mx, cy - my)
        nx, ny = (cx - mx) / d, (cy - my) / d
        height = base * math.sqrt(3) / 2
        for k in range(count):
            off = (k - (count - 1) / 2) * (base + gap)
            px, py = mx + tx * off + nx * inset, my + ty * off + ny * inset
            shapes.append(
                [
                    (px - tx * base / 2, py - ty * base / 2),
                    (px + tx * base / 2, py + ty * base / 2),
                    (px + nx * height, py + ny * height),
                ]
            )
    return "".join(poly_path(s) for s in shapes)


def centre_triangle(side: float, dy: float = 0) -> list[tuple[float, float]]:
    cx, cy = HEX_C[0], HEX_C[1] + dy
    h = side * math.sqrt(3) / 2
    return [(cx, cy - 2 * h / 3), (cx + side / 2, cy + h / 3), (cx - side / 2, cy + h / 3)]


LEVEL_TRIANGLES = {1: (3, 18, 7), 2: (2, 24, 10), 3: (1, 33, 0)}  # count, base, gap
HEX_INSET = 9
LABEL_XY = (44.0, 88.0)
LABEL_SIZE = 35


def triad_face(colour_key: str | None, level: int) -> str:
    if colour_key is None:
        colour, name, label = CAP_BLACK, "The Capstone", "X"
    else:
        cname, colour = TRIAD_COLOURS[colour_key]
        name, label = f"{cname}, {LEVEL_NAMES[level]} level", f"{colour_key}{level}"
    outline = pts(hex_points(HEX_R))
    inner = pts(hex_points(HEX_R - 6))
    count, base, gap = LEVEL_TRIANGLES[level]
    inner_colour, inner_opacity = (GOLD, 1.0) if colour_key is None else (colour, 0.35)
    body = [
        f'<polygon points="{outline}" fill="{HEX_FACE}" stroke="{colour}" stroke-width="5" '
        f'stroke-linejoin="round"/>\n',
        f'<polygon points="{inner}" fill="none" stroke="{inner_colour}" stroke-opacity="{n(inner_opacity)}" '
        f'stroke-width="1.5" stroke-linejoin="round"/>\n',
        f'<path d="{edge_triangles(count, base, gap, HEX_INSET)}" fill="{colour}"/>\n',
    ]
    tri = centre_triangle(64, 6)
    if level == 2:
        body.append(
            f'<path d="{poly_path(centre_triangle(58, 6))}" fill="none" stroke="{colour}" stroke-width="7" '
            f'stroke-linejoin="round"/>\n'
        )
    elif level == 3:
        body.append(f'<path d="{poly_path(tri)}" fill="{colour}"/>\n')
        if colour_key is None:
            # The gold capstone: the top 42% of the triangle.
            (tx, ty), (rx, ry), (lx, ly) = tri
            k = 0.42
            cap = [(tx, ty), (tx + (rx - tx) * k, ty + (ry - ty) * k)]
            cap.append((tx + (lx - tx) * k, ty + (ly - ty) * k))
            body.append(f'<path d="{poly_path(cap)}" fill="{GOLD}"/>\n')
    left, right = (label[0], label[-1])
    (lx, ly), (rx, ry) = LABEL_XY, (HEX_W - LABEL_XY[0], LABEL_XY[1])
    body.append(
        f'<g font-family="{FONT}" font-weight="700" font-size="{LABEL_SIZE}" text-anchor="middle" '
        f'fill="{colour}"><text x="{n(lx)}" y="{n(ly)}">{left}</text><text x="{n(rx)}" y="{n(ry)}">{right}'
        f"</text></g>\n"
    )
    return svg(HEX_W, HEX_H, name, "".join(body))


def triad_back() -> str:
    outline = pts(hex_points(HEX_R))
    field = pts(hex_points(HEX_R - 9))
    pattern = (
        '<pattern id="p" width="20" height="17.32" patternUnits="userSpaceOnUse">'
        '<path d="M0,17.32L10,0L20,17.32Z" fill="#fff" fill-opacity=".07"/></pattern>'
    )
    # The full pyramid of a Triad hand: 3 + 2 + 1 triangles.
    side = 25
    h = side * math.sqrt(3) / 2
    cx, cy = HEX_C
    base_y = cy + 1.25 * h
    tris = []
    for row, count in enumerate((3, 2, 1)):
        for k in range(count):
            x = cx + (k - (count - 1) / 2) * side
            y = base_y - row * h
            shape = [(x - side / 2 + 1.5, y), (x + side / 2 - 1.5, y), (x, y - h + 2.6)]
            tris.append((row, poly_path(shape)))
    mark = "".join(f'<path d="{d}" fill="{GOLD if row == 2 else "#2f9466"}"/>' for row, d in tris)
    body = (
        f"<defs>{pattern}</defs>\n"
        f'<polygon points="{outline}" fill="{HEX_FACE}" stroke="{BORDER}" stroke-width="3" '
        f'stroke-linejoin="round"/>\n'
        f'<polygon points="{field}" fill="{FELT}"/>\n'
        f'<polygon points="{field}" fill="url(#p)"/>\n'
        f'<polygon points="{pts(hex_points(HEX_R - 18))}" fill="none" stroke="{GOLD}" stroke-width="3" '
        f'stroke-linejoin="round"/>\n'
        f'<polygon points="{pts(hex_points(HEX_R - 24))}" fill="none" stroke="{GOLD}" stroke-opacity=".45" '
        f'stroke-width="1.5" stroke-linejoin="round"/>\n'
        f'<circle cx="{n(cx)}" cy="{n(cy)}" r="50" fill="{FELT_DARK}" stroke="{GOLD}" stroke-width="3"/>\n'
        f"{mark}\n"
    )
    return svg(HEX_W, HEX_H, "Triad card back", body)


# ----------------------------------------------------------------------------------------------------
# Pyramid Poker blocks (same 250 x 350 box as the cards, so a block can take a card's place)


def block_back() -> str:
    grads = (
        '<linearGradient id="b" x1="0" y1="0" x2="1" y2="1">'
        '<stop offset="0" stop-color="#e2d9c6"/><stop offset=".5" stop-color="#a99d86"/>'
        '<stop offset="1" stop-color="#5b5244"/></linearGradient>'
        '<linearGradient id="f" x1="0" y1="0" x2="0" y2="1">'
        '<stop offset="0" stop-color="#b7ac95"/><stop offset="1" stop-color="#978b76"/></linearGradient>'
    )
    speckles = "".join(
        f'<circle cx="{40 + (i * 73) % 170}" cy="{40 + (i * 131) % 270}" r="{1.5 + (i * 7) % 3}"/>'
        for i in range(18)
    )
    cx, cy = W / 2, H / 2
    tri = [(cx, cy - 52), (cx + 60, cy + 52), (cx - 60, cy + 52)]
    cap = [(cx, cy - 52), (cx + 20, cy - 17.3), (cx - 20, cy - 17.3)]
    body = (
        f"<defs>{grads}</defs>\n"
        f'<rect x="1.5" y="1.5" width="{W - 3}" height="{H - 3}" rx="20" fill="url(#b)" stroke="#4a4236" '
        f'stroke-width="3"/>\n'
        f'<rect x="20" y="20" width="{W - 40}" height="{H - 40}" rx="10" fill="url(#f)"/>\n'
        f'<g fill="#4f4639" fill-opacity=".3">{speckles}</g>\n'
        f'<path d="M62,58L84,94L78,124M194,236L174,258L180,296" fill="none" stroke="#4f4639" '
        f'stroke-opacity=".3" stroke-width="2.5" stroke-linecap="round"/>\n'
        f'<g fill="none" stroke-linejoin="round" stroke-width="6">'
        f'<path d="{poly_path(tri)}" stroke="#ece4d2" stroke-opacity=".7" transform="translate(2 2)"/>'
        f'<path d="{poly_path(tri)}" stroke="#4f4639" stroke-opacity=".75"/>'
        f'<path d="{poly_path(cap)}" fill="#4f4639" fill-opacity=".6" stroke="none"/></g>\n'
    )
    return svg(W, H, "Face-down block", body)


def block_known_back() -> str:
    body = (
        f'<rect x="5" y="5" width="{W - 10}" height="{H - 10}" rx="14" fill="none" stroke="{GOLD}" '
        f'stroke-width="8"/>\n'
        f'<rect x="12" y="12" width="{W - 24}" height="{H - 24}" rx="9" fill="none" stroke="{GOLD}" '
        f'stroke-opacity=".35" stroke-width="6"/>\n'
        f'<g transform="translate(40 306)"><circle r="24" fill="{GOLD}" fill-opacity=".92"/>'
        f'<path d="M-15,0C-8,-10 8,-10 15,0C8,10-8,10-15,0Z" fill="none" stroke="{BLACK}" '
        f'stroke-width="3.5"/>'
        f'<circle r="4.5" fill="{BLACK}"/>'
        f'<path d="M-14,12L14,-12" stroke="{GOLD}" stroke-width="8"/>'
        f'<path d="M-14,12L14,-12" stroke="{BLACK}" stroke-width="3.5" stroke-linecap="round"/></g>\n'
    )
    return svg(W, H, "Your block, hidden from your opponent", body)


# ----------------------------------------------------------------------------------------------------


def all_files() -> dict[str, str]:
    files: dict[str, str] = {}
    for suit in "cdhs":
        for rank in RANKS:
            files[f"std/{rank}{suit}.svg"] = std_face(rank, suit)
    files["std/back.svg"] = std_back()
    files["std/empty.svg"] = std_empty()
    files["std/X1.svg"] = joker("1")
    files["std/X2.svg"] = joker("2")
    for key in TRIAD_COLOURS:
        for level in (1, 2, 3):
            files[f"triad/{key}{level}.svg"] = triad_face(key, level)
    files["triad/X.svg"] = triad_face(None, 3)
    files["triad/back.svg"] = triad_back()
    files["blocks/back.svg"] = block_back()
    files["blocks/known-back.svg"] = block_known_back()
    return files


def main(argv: list[str]) -> int:
    check = "--check" in argv
    stale = []
    for rel, text in all_files().items():
        path = OUT / rel
        data = text.encode("utf-8")
        if check:
            if not path.exists() or path.read_bytes() != data:
                stale.append(rel)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists() or path.read_bytes() != data:
            path.write_bytes(data)
    if stale:
        print("out of date: " + ", ".join(stale) + " (run python scripts/make_card_art.py)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
