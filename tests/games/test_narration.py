"""The replay viewer's narration (games/core/narration.py): wording per game and action, and LP-3.

Pure: no database, no Django settings. Run with
``.venv/bin/python -m pytest -p no:django tests/games/test_narration.py -q``.

Hidden information is checked two ways, with ``reveal=False``: re-dealing every card a
spectator cannot see (in the state before and the state after, each on its own) leaves
every sentence and every standing the same; and no sentence names a card that neither
spectator view, before or after the step, shows.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Any

import pytest

from games.core.narration import narrate, standing
from games.engine import TABLE_SEAT, get_engine
from games.engine.blocks import BLOCKS, PLACES, BlocksState
from games.engine.cards import STANDARD_DECK
from games.engine.pyramid import PyramidState
from games.engine.rng import SeededRNG
from games.engine.triad import DECK as TRIAD_DECK
from games.engine.triad import TriadState
from games.engine.triad_hands import CARD_TEXTS, RANK_NAMES
from games.engine.tripeaks import COVERED_BY, TriPeaksState
from games.kinds.blocks import block_name
from games.kinds.triad import triad_card_name
from games.kinds.words import card_name

NAMES = ("Alice", "Bob", "Carol", "Dave", "Eve", "Fay")
Step = tuple[Any, str, Any]


# --- helpers ---------------------------------------------------------------------------------


def standard_deck(fixed: dict[int, str]) -> list[str]:
    """A 52-card deck with ``fixed`` cards at their positions, the rest in standard order."""
    rest = iter(card for card in STANDARD_DECK if card not in fixed.values())
    return [fixed[k] if k in fixed else next(rest) for k in range(len(STANDARD_DECK))]


def triad_deck(hands: dict[int, Sequence[str]], then: Sequence[str] = (), players: int = 2) -> list[str]:
    """A Triad deck dealing ``hands`` (seat -> six cards) with the first hand's dealer at seat 0,
    then ``then`` on top of what is left (TR-5: one card at a time, left of the dealer first)."""
    order = [(0 + step) % players for step in range(1, players + 1)]
    dealt = [hands[seat][k] for k in range(6) for seat in order]
    used = Counter(dealt) + Counter(then)
    rest = list((Counter(TRIAD_DECK) - used).elements())
    return dealt + list(then) + rest


def say(game: str, state: Any, action: str, *, reveal: bool = False) -> tuple[str, Any]:
    after = get_engine(game).apply(state, action)
    return narrate(game, state, action, after, NAMES, reveal=reveal), after


def playout(game: str, config: dict[str, Any] | None, seed: int, limit: int = 5000) -> Iterator[Step]:
    """(before, action, after) for a whole game of random legal actions, resigning rarely."""
    engine = get_engine(game)
    rng = SeededRNG(seed)
    state = engine.initial_state(config, seed)
    for _ in range(limit):
        if engine.current_player(state) is None:
            return
        legal = [str(action) for action in engine.legal_actions(state)]
        keep = [action for action in legal if action != "resign"]
        choices = legal if not keep or rng.below(200) == 0 else keep
        action = choices[rng.below(len(choices))]
        after = engine.apply(state, action)
        yield state, action, after
        state = after
    raise AssertionError(f"{game} seed {seed} did not end in {limit} actions")


def spectator_cards(game: str, state: Any) -> list[str]:
    """Every card text in the spectator's view of ``state``."""
    pattern = CARD_TEXT[game]
    found: list[str] = []

    def walk(data: Any) -> None:
        if isinstance(data, str) and pattern.fullmatch(data):
            found.append(data)
        elif isinstance(data, dict):
            for value in data.values():
                walk(value)
        elif isinstance(data, list | tuple):
            for value in data:
                walk(value)

    view = get_engine(game).view(state, None)
    walk(view.data())
    return found


CARD_TEXT = {
    "pyramid": re.compile(r"[A2-9TJQK][cdhs]"),
    "tripeaks": re.compile(r"[A2-9TJQK][cdhs]"),
    "blocks": re.compile(r"[A2-9TJQK][cdhs]|X[12]"),
    "triad": re.compile(r"[PGO][123]|X"),
}
STANDARD_NAME = re.compile(
    r"\b(Ace|Two|Three|Four|Five|Six|Seven|Eight|Nine|Ten|Jack|Queen|King) of (clubs|diamonds|hearts|spades)"
)
NAME_TO_CARD = {card_name(card): card for card in STANDARD_DECK}
TRIAD_NAME = re.compile(r"\b(?:(?:Purple|Green|Orange) (?:First|Second|Third)-Level|Capstone)\b")
TRIAD_NAME_TO_CARD = {triad_card_name(card): card for card in CARD_TEXTS}


def named_cards(game: str, text: str) -> list[str]:
    """The cards a sentence names, by name."""
    if game == "triad":
        # Hand names ("Perfect Green Second-Level Pyramid") share words with card names.
        for hand in sorted(RANK_NAMES, key=len, reverse=True):
            text = text.replace(hand, "")
        return [TRIAD_NAME_TO_CARD[match] for match in TRIAD_NAME.findall(text)]
    return [NAME_TO_CARD[match.group(0)] for match in STANDARD_NAME.finditer(text)]


# --- re-dealing what a spectator cannot see ---------------------------------------------------


def _spread(pool: list[str], sizes: Sequence[int], rng: SeededRNG) -> list[tuple[str, ...]]:
    cards = iter(rng.shuffled(pool))
    return [tuple(next(cards) for _ in range(size)) for size in sizes]


def redeal_pyramid(state: PyramidState, rng: SeededRNG) -> PyramidState:
    """PY-2: the stock's top card is face up; the cards under it are unknown (LP-3)."""
    if len(state.stock) < 2:
        return state
    return replace(state, stock=(state.stock[0], *rng.shuffled(state.stock[1:])))


def redeal_tripeaks(state: TriPeaksState, rng: SeededRNG) -> TriPeaksState:
    """TP-1: the stock and every face-down layout card are unknown."""
    down = [
        k
        for k, card in enumerate(state.layout)
        if card is not None
        and not state.config.face_up
        and any(state.layout[j] is not None for j in COVERED_BY[k])
    ]
    pool = [*state.stock, *(state.layout[k] for k in down)]
    stock, faces = _spread(pool, [len(state.stock), len(down)], rng)
    layout = list(state.layout)
    for k, card in zip(down, faces, strict=True):
        layout[k] = card
    return replace(state, stock=stock, layout=tuple(layout))


def redeal_triad(state: TriadState, rng: SeededRNG) -> TriadState:
    """The deck, the discards, folded hands and every hand not shown (TR-7, LP-3)."""
    hidden = [
        seat
        for seat in range(state.rules.players)
        if not state.rules.face_up and not state.shown[seat] and state.hands[seat]
    ]
    places: list[tuple[str, ...]] = [state.deck, state.pile, *(state.hands[s] for s in hidden), *state.mucked]
    dealt = _spread([card for place in places for card in place], [len(place) for place in places], rng)
    deck, pile, *rest = dealt
    hands = list(state.hands)
    for seat in hidden:
        hands[seat] = rest.pop(0)
    return replace(state, deck=deck, pile=pile, hands=tuple(hands), mucked=tuple(rest))


def redeal_blocks(state: BlocksState, rng: SeededRNG) -> BlocksState:
    """Both personal supplies, the general supply, every face in the pyramid and a held
    block a spectator has not seen (BL-3, BL-4)."""
    slots = [k for k, block in enumerate(state.pyramid) if block is not None]
    held = state.holding is not None and state.holding.placer is not None
    pool = [*state.supplies[0], *state.supplies[1], *state.general]
    pool += [state.pyramid[k][0] for k in slots if state.pyramid[k] is not None]
    if held and state.holding is not None:
        pool.append(state.holding.face)
    sizes = [len(state.supplies[0]), len(state.supplies[1]), len(state.general), len(slots), int(held)]
    first, second, general, faces, holding = _spread(pool, sizes, rng)
    pyramid = list(state.pyramid)
    for k, face in zip(slots, faces, strict=True):
        block = pyramid[k]
        assert block is not None
        pyramid[k] = (face, block[1])
    new = replace(state, supplies=(first, second), general=general, pyramid=tuple(pyramid))
    if held and state.holding is not None:
        new = replace(new, holding=replace(state.holding, face=holding[0]))
    return new


REDEAL = {
    "pyramid": redeal_pyramid,
    "tripeaks": redeal_tripeaks,
    "triad": redeal_triad,
    "blocks": redeal_blocks,
}


def other_action(game: str, before: Any, action: str, rng: SeededRNG) -> str:
    """The action as a re-dealt world could have it: a hidden Triad discard's cards are unknown."""
    if game != "triad" or not action.startswith("discard") or action == "discard -":
        return action
    seat = get_engine(game).current_player(before)
    if get_engine(game).view(before, None).seats[seat].cards is not None:
        return action
    count = len(action.split()) - 1
    return "discard " + " ".join(CARD_TEXTS[rng.below(len(CARD_TEXTS))] for _ in range(count))


# --- playouts of every game ------------------------------------------------------------------

PLAYOUTS: list[tuple[str, dict[str, Any] | None, int]] = [
    *(("pyramid", None, seed) for seed in range(12)),
    ("pyramid", {"redeals": None}, 11),
    ("pyramid", {"redeals": 0, "reserve": True, "waste_off_limits": True}, 12),
    ("pyramid", {"rows": 6, "redeals": 3, "reshuffle": True, "overlap_pairs": True}, 13),
    ("pyramid", {"clear_the_board": True, "scoring": "par"}, 14),
    *(("tripeaks", None, seed) for seed in range(12)),
    ("tripeaks", {"face_up": True}, 21),
    *(("triad", {"players": 2 + seed % 5, "hands": 2, "stack": 12}, seed) for seed in range(16)),
    ("triad", {"players": 3, "hands": 2, "stack": 6, "face_up": True}, 31),
    ("triad", {"players": 4, "hands": 2, "stack": 6, "cards": 8, "discard_twice": True}, 32),
    ("triad", {"players": 3, "hands": 1, "stack": 2, "no_discard": True, "max_bet": 1}, 33),
    ("triad", {"players": 3, "hands": 2, "stack": 4, "ante": 2, "max_raises": 0}, 34),
    *(("blocks", None, seed) for seed in range(8)),
    # Short advanced matches (two games each): a long one costs seconds, since every view
    # re-scores each past showdown.
    ("blocks", {"scoring": "advanced"}, 74),
    ("blocks", {"scoring": "advanced"}, 93),
]


def _label(case: tuple[str, dict[str, Any] | None, int]) -> str:
    return f"{case[0]}-{case[2]}"


@pytest.fixture(scope="module", params=PLAYOUTS, ids=_label)
def game_steps(request: pytest.FixtureRequest) -> tuple[str, list[Step]]:
    game, config, seed = request.param
    return game, list(playout(game, config, seed))


def test_every_step_narrates_and_stands(game_steps: tuple[str, list[Step]]) -> None:
    game, steps = game_steps
    assert steps
    for before, action, after in steps:
        for reveal in (False, True):
            text = narrate(game, before, action, after, NAMES, reveal=reveal)
            assert isinstance(text, str) and text.strip(), (action, reveal)
            # Said as a person says it: no engine coordinates ("4,0"), no rule ids (issue 41).
            assert not re.search(r"\d,\d|\b[A-Z]{2}-\d", text), text
        rows = standing(game, after, NAMES)
        assert rows and all(isinstance(row["label"], str) and row["label"] for row in rows)
        assert all(row["value"] is not None and str(row["value"]) for row in rows)
    assert standing(game, steps[0][0], NAMES)
    last = narrate(game, *steps[-1], NAMES, reveal=False)
    if game in ("pyramid", "tripeaks") and steps[-1][1] != "resign":
        assert "game over" in last or "game won" in last, last
    if game == "triad":
        assert "match over" in last, last
    if game == "blocks":
        assert "showdown" in last, last


def test_redealing_hidden_cards_changes_no_narration(game_steps: tuple[str, list[Step]]) -> None:
    game, steps = game_steps
    redeal = REDEAL[game]
    rng = SeededRNG(len(steps))
    for before, action, after in steps:
        text = narrate(game, before, action, after, NAMES, reveal=False)
        other_before, other_after = redeal(before, rng), redeal(after, rng)
        other = other_action(game, before, action, rng)
        assert narrate(game, other_before, other, other_after, NAMES, reveal=False) == text, action
        assert standing(game, other_after, NAMES) == standing(game, after, NAMES)


def test_no_narration_names_a_hidden_card(game_steps: tuple[str, list[Step]]) -> None:
    game, steps = game_steps
    raw = CARD_TEXT[game]
    for before, action, after in steps:
        text = narrate(game, before, action, after, NAMES, reveal=False)
        visible = Counter(spectator_cards(game, before)) + Counter(spectator_cards(game, after))
        named = Counter(named_cards(game, text))
        assert not named - visible, (action, text)
        words = re.findall(r"[\w-]+", text)
        assert not [word for word in words if raw.fullmatch(word)], (action, text)


# --- Pyramid ---------------------------------------------------------------------------------

# Row 6 of the standard tableau is slots 21-27; the stock starts at 28.
PYRAMID_DECK = standard_deck({21: "6h", 22: "7c", 23: "Ks", 24: "2d", 25: "Jd", 28: "4c"})


def test_pyramid_actions() -> None:
    state = get_engine("pyramid").initial_state(None, 0, PYRAMID_DECK)
    assert say("pyramid", state, "6h+7c")[0] == "Pair Six of hearts + Seven of clubs removed"
    assert say("pyramid", state, "7c+6h")[0] == "Pair Six of hearts + Seven of clubs removed"
    assert say("pyramid", state, "Ks")[0] == "King of spades removed"
    assert say("pyramid", state, "2d+Jd")[0] == "Pair Two of diamonds + Jack of diamonds removed"
    text, drawn = say("pyramid", state, "draw")
    assert text == "Drew the Four of clubs from the stock"
    assert say("pyramid", drawn, "resign")[0] == "Resigned"


@pytest.mark.parametrize(
    ("config", "expected"),
    [
        (None, "Turned the waste over (redeal 1 of 2)"),
        ({"redeals": None}, "Turned the waste over (redeal 1)"),
        ({"reshuffle": True, "redeals": 3}, "Shuffled the waste into a new stock (redeal 1 of 3)"),
    ],
)
def test_pyramid_redeal(config: dict[str, Any] | None, expected: str) -> None:
    engine = get_engine("pyramid")
    state = engine.initial_state(config, 0, PYRAMID_DECK)
    state = engine.apply(state, "Ks")  # unlimited redeals need a card removed this pass (PY-5)
    while state.stock:
        state = engine.apply(state, "draw")
    assert say("pyramid", state, "redeal")[0] == expected
    assert standing("pyramid", state, NAMES)[3]["label"] == "Pass"


def test_pyramid_win_and_loss() -> None:
    engine = get_engine("pyramid")
    start = engine.initial_state(None, 0, PYRAMID_DECK)
    last_king = replace(
        start,
        tableau=("Kd", *(None,) * 27),
        stock=(),
        waste=(),
        removed=tuple(card for card in STANDARD_DECK if card != "Kd"),
    )
    text, won = say("pyramid", last_king, "Kd")
    assert text.startswith("King of diamonds removed; the pyramid is cleared; all 52 cards removed: game won")
    assert {"label": "Result", "value": "Won"} in standing("pyramid", won, NAMES)

    board = replace(
        engine.initial_state({"clear_the_board": True}, 0, PYRAMID_DECK),
        tableau=("Kd", *(None,) * 27),
        removed=tuple(card for card in STANDARD_DECK if card != "Kd")[:27],
    )
    text, _ = say("pyramid", board, "Kd")
    assert text.startswith("King of diamonds removed; the pyramid is cleared: game won with a score of")

    one_deal = engine.initial_state({"redeals": 0}, 0, PYRAMID_DECK)
    stuck = replace(
        one_deal,
        tableau=("Qd", *(None,) * 27),
        stock=("5c",),
        waste=(),
        removed=tuple(card for card in STANDARD_DECK if card not in ("Qd", "5c")),
    )
    text, lost = say("pyramid", stuck, "draw")
    assert text.startswith("Drew the Five of clubs from the stock; no moves left: game over")
    assert {"label": "Result", "value": "Lost"} in standing("pyramid", lost, NAMES)


def test_pyramid_standing() -> None:
    state = get_engine("pyramid").initial_state(None, 0, PYRAMID_DECK)
    assert standing("pyramid", state, NAMES) == [
        {"label": "Score", "value": 0},
        {"label": "Cards left", "value": 52},
        {"label": "Stock", "value": 24},
        {"label": "Pass", "value": "1 of 3"},
        {"label": "Moves", "value": 0},
    ]
    par = get_engine("pyramid").initial_state({"scoring": "par"}, 0, PYRAMID_DECK)
    assert standing("pyramid", par, NAMES)[0] == {"label": "Par score", "value": -52}


# --- Tri-Peaks -------------------------------------------------------------------------------

# Row 3 is slots 18-27 (face up); slot 9, row 2's first card, rests under 18 and 19. The
# waste starts with card 28 and the stock with card 29.
TRIPEAKS_DECK = standard_deck({18: "6d", 19: "7c", 9: "Jd", 28: "5h", 29: "2s"})


def test_tripeaks_actions() -> None:
    state = get_engine("tripeaks").initial_state(None, 0, TRIPEAKS_DECK)
    text, state = say("tripeaks", state, "6d")
    assert text == "Played the Six of diamonds (run of 1)"
    text, state = say("tripeaks", state, "7c")
    assert text == "Played the Seven of clubs (run of 2), turning up the Jack of diamonds"
    text, state = say("tripeaks", state, "draw")
    assert text == "Drew the Two of spades"
    assert say("tripeaks", state, "resign")[0] == "Resigned"
    rows = {row["label"]: row["value"] for row in standing("tripeaks", state, NAMES)}
    assert rows == {"Score": 0, "Cards left": 26, "Stock": 22, "Run": 0, "Peaks cleared": 0, "Moves": 3}


def test_tripeaks_face_down_cards_stay_unnamed_until_turned_up() -> None:
    state = get_engine("tripeaks").initial_state(None, 0, TRIPEAKS_DECK)
    text, _ = say("tripeaks", state, "6d", reveal=False)
    assert "Jack of diamonds" not in text


def test_tripeaks_last_peak_wins() -> None:
    start = get_engine("tripeaks").initial_state(None, 0, TRIPEAKS_DECK)
    last = replace(start, layout=("4c", *(None,) * 27), waste=("5h",), stock=("2s", "9d"))
    text, _ = say("tripeaks", last, "4c")
    assert text.startswith(
        "Played the Four of clubs (run of 1); all three peaks cleared; the layout is cleared: game won"
    )


# --- Triad -----------------------------------------------------------------------------------

# Seat 0 (Alice) deals, so seat 1 (Bob) is dealt first and acts first.
ALICE = ("P3", "P3", "P3", "P2", "P2", "P1")  # Perfect Purple Full Pyramid (a hand is a tuple)
BOB = ["G3", "G3", "G2", "O3", "O2", "O1"]  # Full Pyramid


def test_triad_hand_step_by_step() -> None:
    engine = get_engine("triad")
    state = engine.initial_state({"players": 2}, 0, triad_deck({0: ALICE, 1: BOB}, then=["O3", "O3"]))
    steps = [
        ("bet 2", "Bob bets 2"),
        ("raise 3", "Alice raises to 5"),
        ("call", "Bob calls 5 (3 more); on to the draw"),
        ("discard O2 O1", "Bob discards 2"),
        ("discard -", "Alice stands pat; on to betting round 2"),
        ("check", "Bob checks"),
        ("check", "Alice checks; on to the showdown"),
        ("show", "Bob shows a Perfect Green First-Level Pyramid"),
        (
            "show",
            "Alice shows a Perfect Purple Full Pyramid; "
            "Alice wins the pot of 12 (Perfect Purple Full Pyramid)",
        ),
    ]
    for action, expected in steps:
        before = state
        text, state = say("triad", before, action)
        assert text == expected
        if action.startswith("discard O2"):
            revealed = narrate("triad", before, action, state, NAMES, reveal=True)
            assert revealed == (
                "Bob discards 2 (Orange First-Level, Orange Second-Level) "
                "and draws 2 (Orange Third-Level, Orange Third-Level)"
            )
    rows = standing("triad", state, NAMES)
    # Hand 2 is dealt at once, and both ante 1.
    assert rows[:2] == [{"label": "Alice", "value": "105 chips"}, {"label": "Bob", "value": "93 chips"}]
    assert {"label": "Pot", "value": 2} in rows


def test_triad_fold_wins_unseen_and_reveal_names_the_folded_hand() -> None:
    engine = get_engine("triad")
    state = engine.initial_state({"players": 2}, 0, triad_deck({0: ALICE, 1: BOB}))
    assert say("triad", state, "fold")[0] == "Bob folds; Alice wins the pot of 2 unseen"
    assert say("triad", state, "fold", reveal=True)[0] == (
        "Bob folds, holding a Full Pyramid; Alice wins the pot of 2 unseen"
    )


def test_triad_face_up_discards_are_named_without_reveal() -> None:
    engine = get_engine("triad")
    deck = triad_deck({0: ALICE, 1: BOB}, then=["O3", "G3"])
    state = engine.initial_state({"players": 2, "face_up": True}, 0, deck)
    state = engine.apply(engine.apply(state, "check"), "check")
    text, _ = say("triad", state, "discard O1 O2")
    assert text == (
        "Bob discards 2 (Orange First-Level, Orange Second-Level) "
        "and draws 2 (Green Third-Level, Orange Third-Level)"
    )


def test_triad_tie_holds_the_pot_and_the_table_replays() -> None:
    engine = get_engine("triad")
    same = ["O3", "O3", "O3", "O2", "O2", "O1"]
    config = {"players": 2, "no_discard": True}
    state = engine.initial_state(config, 0, triad_deck({0: same, 1: same}))
    for action in ("check", "check", "show"):
        state = engine.apply(state, action)
    text, state = say("triad", state, "show")
    assert text == (
        "Alice shows a Perfect Orange Full Pyramid; "
        "Bob and Alice tie (Perfect Orange Full Pyramid): a pot of 2 is held for a tie-replay hand"
    )
    assert engine.current_player(state) == TABLE_SEAT
    assert {"label": "Held pot", "value": 2} in standing("triad", state, NAMES)
    text, state = say("triad", state, "tie-replay")
    assert text == "Tie: replay hand; Bob and Alice play for the held pot of 2"


def test_triad_place_tie_and_match_end() -> None:
    engine = get_engine("triad")
    config = {"players": 3, "hands": 1, "no_discard": True}
    state = engine.initial_state(config, 5)
    state = engine.apply(state, "fold")  # Bob
    text, state = say("triad", state, "fold")  # Carol
    assert text == (
        "Carol folds; Alice wins the pot of 3 unseen; "
        "Bob and Carol are level for 2nd place: a place tie-replay follows"
    )
    text, state = say("triad", state, "tie-replay")
    assert text == "Tie for 2nd place: Bob and Carol play a hand for it"
    level = replace(state, hands=(state.hands[0], ALICE, ALICE))
    text, again = say("triad", engine.apply(level, "show"), "show")
    assert text == (
        "Carol shows a Perfect Purple Full Pyramid; Bob and Carol tie again (Perfect Purple Full Pyramid); "
        "another place tie-replay follows"
    )
    assert say("triad", again, "tie-replay")[0] == "Tie for 2nd place: Bob and Carol play a hand for it"
    state = engine.apply(state, "show")
    text, state = say("triad", state, "show")
    assert re.fullmatch(
        r"Carol shows .+; (Bob|Carol) wins the place tie-replay \(.+\); "
        r"match over: Alice wins with 102 chips|Carol shows .+; Bob and Carol tie again \(.+\)",
        text,
    ), text


# --- Pyramid Poker ---------------------------------------------------------------------------


def blocks_deck(first: Sequence[str], general: Sequence[str] = ()) -> list[str]:
    """``first`` are blocks 0.. of the deal (seat 0's supply is 0-14, seat 1's 15-29), then
    ``general`` on top of the general supply, then the rest."""
    used = set(first) | set(general)
    rest = [block for block in BLOCKS if block not in used]
    cut = 30 - len(first)
    return [*first, *rest[:cut], *general, *rest[cut:]]


def build_in_order(state: BlocksState) -> BlocksState:
    """Fill places in PLACES order: place k gets block k // 2 of seat k % 2's supply."""
    engine = get_engine("blocks")
    while state.phase == "build":
        state = engine.apply(state, str(engine.legal_actions(state)[0]))
    return state


def test_blocks_building_taking_and_a_joker() -> None:
    engine = get_engine("blocks")
    # Block 0 goes on 0,0; block 14 (Alice's last) on 4,2; block 29 (Bob's last) on 4,3.
    others = [card for card in STANDARD_DECK if card not in ("Ah", "Qs", "Ac", "2h", "9s")]
    deck = blocks_deck(["Ah", *others[:13], "Qs", *others[13:27], "X1"], general=["Ac", "2h", "X2", "9s"])
    state = engine.initial_state(None, 0, deck)
    text, after = say("blocks", state, "place 0,0")
    assert text == "Alice places a block in row 1 from the bottom, place 1"
    assert narrate("blocks", state, "place 0,0", after, NAMES, reveal=True) == (
        "Alice places the Ace of hearts in row 1 from the bottom, place 1"
    )
    state = build_in_order(state)
    assert state.phase == "take"
    # The 30th block, a Joker from Bob's supply, went on 4,3.
    rebuilt = engine.replay(None, 0, [], deck)[-1]
    while rebuilt.placed < 29:
        rebuilt = engine.apply(rebuilt, str(engine.legal_actions(rebuilt)[0]))
    text, _ = say("blocks", rebuilt, "place 4,3")
    assert text == (
        "Bob places a block in row 5 from the bottom, place 4; the pyramid is built: taking begins, "
        "Alice first"
    )
    assert say("blocks", rebuilt, "place 4,3", reveal=True)[0].startswith(
        "Bob places a Joker in row 5 from the bottom, place 4"
    )

    text, state = say("blocks", state, "take 4,3")
    assert text == (
        "Alice takes a Joker (row 5 from the bottom, place 4), turning over the Ace of clubs, the Two "
        "of hearts and the Nine of spades (another Joker turned over is discarded)"
    )
    text, state = say("blocks", state, "keep Ac")
    assert text == "Alice keeps the Ace of clubs (Joker), discarding the Two of hearts and the Nine of spades"
    text, state = say("blocks", state, "hand 1")
    assert text == "Alice puts the Ace of clubs into hand 1"
    before = state
    text, state = say("blocks", before, "take 4,2")
    assert text == "Bob takes a hidden block (row 5 from the bottom, place 3)"
    assert narrate("blocks", before, "take 4,2", state, NAMES, reveal=True) == (
        "Bob takes the Queen of spades (row 5 from the bottom, place 3)"
    )
    text, state = say("blocks", state, "hand 2")
    assert text == "Bob puts the Queen of spades into hand 2"
    rows = standing("blocks", state, NAMES)
    assert rows == [
        {"label": "Alice", "value": "1 block in hands"},
        {"label": "Bob", "value": "1 block in hands"},
        {"label": "Phase", "value": "Taking (28 blocks left)"},
    ]


# Taken from the top down (place 29 first), Alice takes the odd places, which hold Bob's
# supply (blocks 29, 28 .. 15), and Bob the even ones (blocks 14 .. 0); five a hand in turn.
# Every pair of hands is the same poker hand in other suits, so every pair is drawn.
BOB_HANDS = [["2s", "3h", "4s", "5h", "7s"], ["8h", "9s", "Th", "Js", "Kh"], ["2h", "3s", "4h", "5s", "7h"]]
ALICE_HANDS = [["2c", "3d", "4c", "5d", "7c"], ["8c", "9d", "Tc", "Jd", "Kc"], ["2d", "3c", "4d", "5c", "7d"]]
EQUAL_DECK = blocks_deck(
    [*BOB_HANDS[2], *BOB_HANDS[1], *BOB_HANDS[0], *ALICE_HANDS[2], *ALICE_HANDS[1], *ALICE_HANDS[0]]
)


# Alice's pair of eights wins hand 2, Bob's pair of queens hand 3; hand 1 is drawn.
ONE_EACH_DECK = blocks_deck(
    [
        *["Qh", "Qs", "4h", "5s", "7h"],
        *BOB_HANDS[1],
        *BOB_HANDS[0],
        *ALICE_HANDS[2],
        *["8c", "8d", "Tc", "Jd", "Kc"],
        *ALICE_HANDS[0],
    ]
)


@pytest.mark.parametrize(
    ("deck", "expected"),
    [
        (
            EQUAL_DECK,
            "showdown ends equal, every pair of hands drawn \N{EM DASH} hand 1 drawn (No Pair v No Pair), "
            "hand 2 drawn (No Pair v No Pair), hand 3 drawn (No Pair v No Pair); "
            "a tie-replay game will decide",
        ),
        (
            ONE_EACH_DECK,
            "showdown ends equal, 1 hand each \N{EM DASH} hand 1 drawn (No Pair v No Pair), "
            "hand 2 to Alice (Pair v No Pair), hand 3 to Bob (Pair v No Pair); a tie-replay game will decide",
        ),
    ],
)
def test_blocks_equal_showdown_and_tie_replay(deck: list[str], expected: str) -> None:
    engine = get_engine("blocks")
    state = build_in_order(engine.initial_state(None, 0, deck))
    taken = {0: 0, 1: 0}
    text = ""
    while state.phase != "tie-replay":
        if state.phase == "take":
            state = engine.apply(state, take_top(state))
        else:
            seat = state.to_act
            before, action = state, f"hand {taken[seat] // 5 + 1}"
            taken[seat] += 1
            text, state = say("blocks", before, action)
    assert text.endswith(expected)
    won = "won 0 hands" if deck is EQUAL_DECK else "won 1 hand"
    assert standing("blocks", state, NAMES)[:2] == [
        {"label": "Alice", "value": won},
        {"label": "Bob", "value": won},
    ]
    assert say("blocks", state, "tie-replay")[0] == (
        "Tie: replay game; the game is decided by a new game, Bob first"
    )


def take_top(state: BlocksState) -> str:
    """Take the block at the highest place still filled: nothing can rest on it."""
    top = max(k for k, block in enumerate(state.pyramid) if block is not None)
    return f"take {PLACES[top][0]},{PLACES[top][1]}"


def test_blocks_advanced_showdown_reports_points() -> None:
    steps = list(playout("blocks", {"scoring": "advanced"}, 74))
    texts = [narrate("blocks", *step, NAMES, reveal=False) for step in steps]
    showdowns = [text for text in texts if "showdown" in text]
    assert showdowns and all(re.search(r"Alice scores -?\d+, Bob -?\d+; match Alice", t) for t in showdowns)
    assert showdowns[-1].endswith("wins the match")
    rows = standing("blocks", steps[-1][2], NAMES)
    assert [row["label"] for row in rows] == ["Alice", "Bob", "Target", "Game", "Phase"]
    assert rows[-1] == {"label": "Phase", "value": "Over"}


# --- names and helpers -----------------------------------------------------------------------


def test_card_names() -> None:
    assert card_name("Td") == "Ten of diamonds" and card_name("As") == "Ace of spades"
    assert block_name("X2") == "Joker"
    assert triad_card_name("X") == "Capstone" and triad_card_name("O1") == "Orange First-Level"


def test_missing_seat_names_fall_back_to_seat_numbers() -> None:
    engine = get_engine("triad")
    state = engine.initial_state({"players": 3}, 1)
    after = engine.apply(state, "check")
    assert narrate("triad", state, "check", after, ["Alice"], reveal=False) == "Seat 2 checks"
    assert standing("triad", state, [])[0] == {"label": "Seat 1", "value": "99 chips"}


def test_unknown_game_or_action_is_a_value_error() -> None:
    state = get_engine("pyramid").initial_state(None, 0)
    with pytest.raises(ValueError):
        narrate("chess", state, "draw", state, NAMES, reveal=False)
    with pytest.raises(ValueError):
        narrate("pyramid", state, "castle", state, NAMES, reveal=False)


def test_a_forfeit_says_why_and_names_no_rule() -> None:
    engine = get_engine("triad")
    state = engine.initial_state({"players": 2}, 3)
    seat = engine.current_player(state)
    assert seat is not None
    text = narrate("triad", state, "forfeit", state, NAMES, reveal=False)
    assert text == f"{NAMES[seat]} loses by forfeit: no move was made before the clock ran out twice."
