"""The built-in Triad bot (LP-4): ``choose(view, seed) -> action text``.

It sees only its seat's ``TriadView``. Its yardstick is a hand's *percentile*: the chance that a
random hand of the same size is worse (exact, from the deck's composition). An opponent
who has drawn holds better than a random deal, roughly as if they had two tries, so one
opponent is beaten with about ``percentile ** 2`` (``_beats``), and several with that
to the power of their number.

- Draw: for each distinct discard (never the Capstone), it deals the same
  seeded samples of unseen cards and keeps the discard with the best average chance.
- Betting: before the last draw its chance is that best average; after, the hand's own.
  It bets or raises strong hands in proportion to the pot, calls when the chance beats
  the price (to call / pot after calling), otherwise checks or folds.
- Showdown: it folds (keeping its cards hidden) only when a shown hand already beats it.
"""

from __future__ import annotations

from functools import cache
from math import comb

from games.engine.rng import SeededRNG
from games.engine.triad import TriadSeat, TriadView
from games.engine.triad_hands import CAPSTONE, CARD_TEXTS, COPIES, to_codes, value_of_codes

_SAMPLES = {6: 96, 8: 32}
"""Sampled draws per discard option: 8-card hands offer up to 247 options, so fewer each."""
_BET_AT = 0.62
_RAISE_AT = 0.8
"""Chances of ending best from which it bets or raises: well above even, so a bet is mostly
called by worse hands; below them it only checks and calls at a fair price."""


@cache
def percentiles(size: int) -> dict[tuple[int, ...], float]:
    """Each possible hand (sorted codes) -> share of all C(55, size) hands it beats (ties half).

    Built on first use (about 0.15 s for 6 cards, 0.6 s for 8); a worker may call it at start-up.
    """
    weighted: list[tuple[int, tuple[int, ...], int]] = []

    def extend(code: int, chosen: tuple[int, ...], weight: int) -> None:
        if len(chosen) == size:
            weighted.append((value_of_codes(chosen), chosen, weight))
            return
        if code == len(COPIES):
            return
        for n in range(min(COPIES[code], size - len(chosen)) + 1):
            extend(code + 1, chosen + (code,) * n, weight * comb(COPIES[code], n))

    extend(0, (), 1)
    weighted.sort()
    total = sum(weight for _, _, weight in weighted)
    table: dict[tuple[int, ...], float] = {}
    below = 0
    index = 0
    while index < len(weighted):
        value = weighted[index][0]
        end = index
        while end < len(weighted) and weighted[end][0] == value:
            end += 1
        equal = sum(weight for _, _, weight in weighted[index:end])
        for _, key, _ in weighted[index:end]:
            table[key] = (below + equal / 2) / total
        below += equal
        index = end
    return table


def _beats(pct: float, opponents: int) -> float:
    """The chance a hand at this percentile beats ``opponents`` who have all drawn."""
    return pct ** (2 * opponents)


def _hand(view: TriadView) -> tuple[int, ...]:
    """The codes of this seat's own cards."""
    if view.cards is None:
        raise ValueError("the bot needs its own seat's view, not a spectator's")
    return to_codes(view.cards)


def _opponents(view: TriadView) -> int:
    """How many other players are still in the deal."""
    return sum(1 for e in view.seats if e.in_deal and not e.folded) - 1


def _unseen(view: TriadView, mine: tuple[int, ...]) -> list[int]:
    """Codes of the cards this seat cannot see: where its draws and the others' hands come from."""
    counts = list(COPIES)
    seen = list(mine)
    for entry in view.seats:
        if entry.seat != view.seat and entry.cards:
            seen += to_codes(entry.cards)
    for code in seen:
        counts[code] -= 1
    return [code for code, n in enumerate(counts) for _ in range(n)]


def _draw_options(mine: tuple[int, ...], longest: int) -> list[tuple[int, ...]]:
    """Every distinct multiset of up to ``longest`` cards of the hand, the Capstone never among them."""
    kinds = sorted(set(mine) - {CAPSTONE}, reverse=True)
    found: list[tuple[int, ...]] = []

    def extend(index: int, chosen: tuple[int, ...]) -> None:
        if index == len(kinds):
            found.append(chosen)
            return
        code = kinds[index]
        for n in range(min(mine.count(code), longest - len(chosen)) + 1):
            extend(index + 1, chosen + (code,) * n)

    extend(0, ())
    return found


def _best_discard(view: TriadView, rng: SeededRNG, opponents: int) -> tuple[str, float]:
    """The discard with the best average chance over shared samples, and that chance."""
    mine = _hand(view)
    table = percentiles(len(mine))
    unseen = _unseen(view, mine)
    longest = view.max_discard
    samples = [rng.shuffled(unseen)[:longest] for _ in range(_SAMPLES[len(mine)])]
    best: tuple[int, ...] = ()
    best_score = -1.0
    for discarded in _draw_options(mine, longest):
        kept = list(mine)
        for code in discarded:
            kept.remove(code)
        k = len(discarded)
        score = 0.0
        for sample in samples:
            score += _beats(table[tuple(sorted(kept + sample[:k]))], opponents)
        score /= len(samples)
        # Seeded jitter far below a sample's weight breaks exact ties between equal discards.
        score += rng.random() * 1e-9
        if score > best_score:
            best, best_score = discarded, score
    return "discard " + (" ".join(CARD_TEXTS[code] for code in best) or "-"), best_score


def _chance(view: TriadView, rng: SeededRNG, opponents: int) -> float:
    """The chance this seat's hand ends best, as far as the view tells."""
    if view.draws_left:
        return _best_discard(view, rng, opponents)[1]
    mine = _hand(view)
    others = [e for e in view.seats if e.seat != view.seat and e.in_deal and not e.folded]
    if others and all(e.cards for e in others):
        # Every live hand is visible (face_up) and no draw is left: the result is known.
        ours = value_of_codes(mine)
        chance = 1.0
        for entry in others:
            theirs = value_of_codes(to_codes(_cards(entry)))
            chance *= 1.0 if ours > theirs else 0.5 if ours == theirs else 0.0
        return chance
    return _beats(percentiles(len(mine))[mine], opponents)


def _cards(entry: TriadSeat) -> tuple[str, ...]:
    """A seat's cards, which the caller knows the view shows."""
    assert entry.cards is not None
    return entry.cards


def _sized(kind: str, fraction: float, view: TriadView, legal: set[str]) -> str | None:
    """``bet``/``raise`` of about ``fraction`` of the pot, clamped to what is legal."""
    if view.min_bet is None or view.max_bet is None:
        return None
    amount = max(view.min_bet, min(view.max_bet, round(view.pot * fraction)))
    text = f"{kind} {amount}"
    return text if text in legal else None


def _bet(view: TriadView, rng: SeededRNG) -> str:
    legal = set(view.legal)
    chance = _chance(view, rng, _opponents(view))
    to_call = view.to_call or 0
    if not to_call:
        if chance >= _BET_AT:
            sized = _sized("bet", 0.4 + chance - _BET_AT, view, legal)
            if sized:
                return sized
        return "check"
    if chance >= _RAISE_AT:
        sized = _sized("raise", 0.5 + chance - _RAISE_AT, view, legal)
        if sized:
            return sized
    price = to_call / (view.pot + to_call)
    return "call" if chance >= price else "fold"


def _showdown(view: TriadView) -> str:
    ours = value_of_codes(_hand(view))
    shown = [_cards(entry) for entry in view.seats if entry.shown and entry.seat != view.seat]
    return "fold" if any(value_of_codes(to_codes(cards)) > ours for cards in shown) else "show"


def choose(view: TriadView, seed: int) -> str:
    """One of ``view.legal``, decided from the view alone and ``seed`` (LP-4)."""
    legal = view.legal
    if not legal:
        raise ValueError("this seat has no legal action in the view it was given")
    if len(legal) == 1:
        return legal[0]
    if view.phase == "showdown":
        return _showdown(view)
    # Seeded only where it is used: seeding costs more than a showdown's whole decision.
    rng = SeededRNG(seed)
    if view.phase == "draw":
        return _best_discard(view, rng, _opponents(view))[0]
    return _bet(view, rng)
