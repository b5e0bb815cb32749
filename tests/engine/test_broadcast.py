"""Broadcast odds of finished table games (issue 46): games.engine.broadcast.

Small games played by the site's bots from fixed seeds; each claim a shortcut of
``broadcast.playouts`` relies on is checked here against the plain engine and bots.
"""

from __future__ import annotations

import os
from dataclasses import replace
from fractions import Fraction
from functools import cache
from typing import Any

import pytest

from games.engine import TABLE_SEAT, get_engine
from games.engine.base import evolve
from games.engine.bots import bot_seed, bots_play
from games.engine.broadcast import FOLDED, IN, table_odds
from games.engine.broadcast.forked import map_forked
from games.engine.broadcast.playouts import Playouts, _multisets, percent
from games.engine.broadcast.tables import TABLES
from games.engine.triad_bot import percentiles
from games.engine.triad_hands import to_codes

ONE_HAND = {"players": 2, "hands": 1}


@cache
def bot_game(game: str, seed: int, players: int = 2, hands: int = 1) -> tuple[str, ...]:
    """A whole game played by the bots at every seat, as the site would play it."""
    config = {} if game == "blocks" else {"players": players, "hands": hands}
    return tuple(bots_play(game, config, seed))


def play_out(game: str, seed: int, state: Any, ply: int) -> tuple[Fraction, ...]:
    """The rest of the deal by the bots, with no shortcut: the reference for the module's."""
    engine, table = get_engine(game), TABLES[game]
    deal = table.deal(state)
    while not table.settled(state) and table.deal(state) == deal:
        seat = engine.current_player(state)
        state = engine.apply(state, engine.bot_action(engine.view(state, seat), bot_seed(seed, seat, ply)))
        ply += 1
    return table.shares(state)


def states_of(game: str, seed: int) -> list[Any]:
    return get_engine(game).replay(ONE_HAND if game != "blocks" else {}, seed, bot_game(game, seed))


def test_before_the_last_shared_card_the_figure_is_every_card_counted() -> None:
    """Tauron, the fourth betting round to come: the capstone card is any one of the deck's
    cards, each as likely; the figure is exact and equals playing each one out."""
    seed = 0
    states = states_of("tauron", seed)
    ply = next(i for i, state in enumerate(states) if len(state.board) == 5)
    state = states[ply]
    figure = Playouts("tauron", seed, TABLES["tauron"]).figure(state, ply)

    deck = state.deck
    total = [Fraction(0), Fraction(0)]
    for index, card in enumerate(deck):
        order = (card, *deck[:index], *deck[index + 1 :])
        for seat, share in enumerate(play_out("tauron", seed, TABLES["tauron"].redeal(state, order, 1), ply)):
            total[seat] += share / len(deck)
    assert figure.exact
    assert figure.shares == pytest.approx([float(share) for share in total], abs=1e-12)
    assert 0 < figure.shares[0] < 1, "a case where the last card decides something"


def test_a_sampled_figure_lies_within_its_margin_of_the_exact_one() -> None:
    """Triad before two draws (two cards, then one): enumerated exactly, draw by draw, and
    sampled (enumeration off)."""
    seed = 4
    states = states_of("triad", seed)
    ply = bot_game("triad", seed).index("discard G3 G3")
    exact = Playouts("triad", seed, TABLES["triad"]).figure(states[ply], ply)
    sampled = Playouts("triad", seed, TABLES["triad"], enumeration_limit=0).figure(states[ply], ply)
    assert exact.exact and not sampled.exact
    assert exact.playouts > 55, "more continuations than two cards' multisets: both draws enumerated"
    assert sampled.margins is not None
    for chance, share, points in zip(exact.shares, sampled.shares, sampled.margins, strict=True):
        assert 0 < chance < 1
        assert abs(100 * chance - percent(share)) <= points <= 3


def test_a_draws_control_variate_has_the_mean_its_cards_dealt_every_way_give() -> None:
    """``Table.draw`` names a Triad draw by the seat and the cards kept, and scores the hand it
    made; ``draw_mean`` is that score's mean over every multiset the draw may deal, each as
    likely as a uniform order deals it (``playouts._multisets``, which exact figures use)."""
    seed = 4
    engine, table = get_engine("triad"), TABLES["triad"]
    ply = bot_game("triad", seed).index("discard G3 G3")
    state = states_of("triad", seed)[ply]
    after = engine.apply(state, "discard G3 G3")
    drawn = table.draw(state, after, 2)
    assert drawn is not None
    key, score = drawn
    kept = list(state.hands[state.to_act])
    kept.remove("G3")
    kept.remove("G3")
    assert key == (state.to_act, tuple(sorted(kept)), 2)
    assert score == percentiles(6)[to_codes(after.hands[state.to_act])]
    mean = sum(
        weight * percentiles(6)[to_codes((*kept, *order[:2]))] for weight, order in _multisets(state.deck, 2)
    )
    assert table.draw_mean(key, state.deck) == pytest.approx(float(mean), abs=1e-12)


def test_a_figure_sampled_with_control_variates_holds_the_exact_chance_as_often_as_it_says() -> None:
    """The margins of the regression estimate (``playouts._Control``) against the exact chance
    (enumerated): a 3-player Triad deal before its draws, sampled again and again with other
    cards (``salt``) to a loose goal, where an interval is at its least sure. 95% of the
    intervals should hold it; below 90% of these 120 would be a margin too narrow."""
    seed, config = 7, {"players": 3, "hands": 1}
    texts = bot_game("triad", seed, players=3)
    state = get_engine("triad").replay(config, seed, texts)[4]
    exact = Playouts("triad", seed, TABLES["triad"], enumeration_limit=2000).figure(state, 4)
    assert exact.exact and all(0.2 < chance < 0.5 for chance in exact.shares)
    held, played = 0, 0
    for salt in range(1, 41):
        sampled = Playouts("triad", seed, TABLES["triad"], enumeration_limit=0, salt=salt, margin_goal=6)
        figure = sampled.figure(state, 4)
        assert figure.margins is not None and max(figure.margins) <= 6
        played += figure.playouts
        held += sum(
            abs(100 * chance - percent(share)) <= points
            for chance, share, points in zip(exact.shares, figure.shares, figure.margins, strict=True)
        )
    assert held >= 0.9 * 3 * 40
    # Plain means would need about 300 playouts for a margin of 6 at these chances.
    assert played / 40 < 200


def test_the_order_of_the_cards_one_action_deals_changes_nothing() -> None:
    """What exact enumeration by multisets relies on (``Table.order_free``): the turn's two
    Tauron cards, and a Triad draw's cards, dealt in any order play out the same; so do the
    hands and shared cards put in ``Table.canonical``'s order."""
    for game, seed, board, size in (("tauron", 0, 3, 2), ("triad", 0, None, 4)):
        states = states_of(game, seed)
        if board is not None:
            ply = next(i for i, state in enumerate(states) if len(state.board) == board)
        else:
            ply = bot_game(game, seed).index("discard P2 G2 G2 G2")
        state = states[ply]
        deck = state.deck
        assert len(set(deck[:size])) > 1, "two different cards to swap"
        outcomes = set()
        for first in range(size):
            top = tuple(deck[(first + k) % size] for k in range(size))
            start = TABLES[game].redeal(state, top + deck[size:], 1)
            outcomes.add(play_out(game, seed, start, ply))
            # What Table.canonical relies on: the cards dealt so far in another order.
            outcomes.add(play_out(game, seed, TABLES[game].canonical(start), ply))
        assert len(outcomes) == 1, game


def test_the_bots_play_the_same_until_a_card_is_dealt_whatever_the_deck() -> None:
    """What sharing one figure between the steps before a dealt card relies on."""
    engine, table = get_engine("triad"), TABLES["triad"]
    seed = 3
    first = engine.initial_state({"players": 3}, seed)
    lines = []
    for order in (first.deck, tuple(reversed(first.deck))):
        state, ply, line = table.redeal(first, order, 7), 0, []
        while True:
            seat = engine.current_player(state)
            move = engine.bot_action(engine.view(state, seat), bot_seed(seed, seat, ply))
            after = engine.apply(state, move)
            line.append(move)
            if table.dealt(state, after):
                break
            state, ply = after, ply + 1
        lines.append(line)
    assert lines[0] == lines[1]
    assert len(lines[0]) > 3


def test_a_finished_game_gets_a_figure_per_step_each_deal_ending_exact() -> None:
    seed = 3
    texts = bot_game("triad", seed)
    steps = table_odds("triad", dict(ONE_HAND), seed, texts)
    assert len(steps) == len(texts) + 1
    final = steps[-1]
    assert final is not None and final.exact
    outcome = get_engine("triad").outcome(states_of("triad", seed)[-1])
    assert outcome is not None
    assert [seat.percent for seat in final.seats] == [100 if s == outcome["winner"] else 0 for s in range(2)]
    ending = [step for step in steps if step is not None and step.result is not None]
    assert [step.result for step in ending] == [tuple(seat.chance for seat in final.seats)]
    # The last action was a fold at the showdown: that seat has folded, and 0.
    folder = final.seats[1 - outcome["winner"]]
    assert (folder.standing, folder.percent, folder.margin) == (FOLDED, 0, 0)
    assert all(seat.margin <= 3 for step in steps if step is not None for seat in step.seats)
    assert any(not step.exact for step in steps if step is not None), "some figures are sampled"
    for step in steps:
        assert step is not None
        assert step.playouts >= (0 if step.exact else 100)
        assert not step.exact or all(seat.margin == 0 for seat in step.seats)


def test_the_same_record_gets_the_same_figures() -> None:
    seed = 3
    texts = bot_game("triad", seed)
    assert table_odds("triad", dict(ONE_HAND), seed, texts) == table_odds(
        "triad", dict(ONE_HAND), seed, texts
    )


def test_blocks_figures_end_on_the_game_won() -> None:
    seed = 7
    texts = bot_game("blocks", seed)
    steps = table_odds("blocks", None, seed, texts)
    outcome = get_engine("blocks").outcome(get_engine("blocks").replay(None, seed, texts)[-1])
    assert outcome is not None
    final = steps[-1]
    assert final is not None and final.exact
    assert [seat.percent for seat in final.seats] == [100 if s == outcome["winner"] else 0 for s in (0, 1)]
    assert all(seat.standing == IN and seat.margin <= 3 for step in steps if step for seat in step.seats)
    assert any(not step.exact for step in steps if step is not None)


def test_only_a_finished_table_game_is_taken() -> None:
    texts = bot_game("triad", 3)
    with pytest.raises(ValueError, match="not over"):
        table_odds("triad", dict(ONE_HAND), 3, texts[:-1])
    with pytest.raises(ValueError, match="not 'pyramid'"):
        table_odds("pyramid", None, 3, [])
    with pytest.raises(ValueError, match="action 1 cannot be applied"):
        table_odds("triad", dict(ONE_HAND), 3, [texts[0], "discard X X X X X"])


@pytest.mark.parametrize(
    ("game", "config", "seed"),
    [
        ("triad", {"players": 3, "hands": 1}, 5),
        ("triad", {"players": 2, "hands": 1, "face_up": True}, 2),
        ("tauron", {"players": 2, "hands": 1}, 0),
    ],
)
def test_what_a_bot_is_looked_up_by_tells_apart_every_two_views(
    game: str, config: dict[str, Any], seed: int
) -> None:
    """What looking a bot's move up by ``Table.knowledge`` relies on: states of the playouts
    with equal knowledge for the seat to act give it equal views."""
    engine, table = get_engine(game), TABLES[game]
    texts = []
    state = engine.initial_state(config, seed)
    while (seat := engine.current_player(state)) is not None and seat != TABLE_SEAT:
        texts.append(engine.bot_action(engine.view(state, seat), bot_seed(seed, seat, len(texts))))
        state = engine.apply(state, texts[-1])
    views: dict[tuple[object, ...], Any] = {}
    collisions = 0
    for ply, start in enumerate(engine.replay(config, seed, texts)[:-1]):
        for stream in range(3):
            deck = table.undealt(start)
            state = table.redeal(start, tuple(deck[stream:] + deck[:stream]), stream)
            at = ply
            while not table.settled(state) and table.deal(state) == table.deal(start):
                seat = engine.current_player(state)
                view = engine.view(state, seat)
                key = (at, table.knowledge(state, seat))
                if key in views:
                    collisions += 1
                    assert views[key] == view
                views[key] = view
                # The same state with every other seat's cards swapped for the deck's.
                holding = getattr(state, table.cards)
                swapped, top = [], 0
                for other, cards in enumerate(holding):
                    swapped.append(cards if other == seat else state.deck[top : top + len(cards)])
                    top += 0 if other == seat else len(cards)
                other_state = replace(state, **{table.cards: tuple(swapped)})
                if table.knowledge(other_state, seat) == key[1]:
                    collisions += 1
                    assert engine.view(other_state, seat) == view
                state = engine.apply(state, engine.bot_action(view, bot_seed(seed, seat, at)))
                at += 1
    assert collisions > 20


@pytest.mark.parametrize("game", ["triad", "tauron", "blocks"])
def test_evolve_is_replace(game: str) -> None:
    """What ``base.evolve``, the playouts' quick ``dataclasses.replace``, relies on: every
    game's state is remade by it as ``replace`` remakes it, and an unknown name is refused."""
    state = states_of(game, 3)[5]
    table = TABLES[game]
    cards = tuple(reversed(table.undealt(state)))
    field = "general" if game == "blocks" else "deck"
    redealt = table.redeal(state, cards, 9)
    assert redealt == replace(state, seed=9, **{field: cards})
    assert hash(redealt) == hash(replace(state, seed=9, **{field: cards}))
    assert evolve(state) == state and evolve(state) is not state
    assert state.seed != 9, "the old state is left as it was"
    with pytest.raises(TypeError, match="no fields"):
        evolve(state, sed=9)


def test_figures_worked_out_in_two_processes_are_those_of_one() -> None:
    seed = 5
    config = {"players": 3, "hands": 1}
    texts = bot_game("triad", seed, players=3)
    one = table_odds("triad", dict(config), seed, texts, workers=1)
    assert sum(not step.exact for step in one if step is not None) > 1, "figures for two processes to share"
    assert table_odds("triad", dict(config), seed, texts, workers=2) == one


def test_work_shared_with_a_forked_process_comes_back_in_order_or_fails_the_whole() -> None:
    parent = os.getpid()
    failed, failing = os.pipe()
    waited: list[bytes] = []

    def in_child_fails(index: int) -> int:
        if os.getpid() != parent:
            os.write(failing, b"!")
            raise ValueError(f"item {index}")
        if not waited:  # however slow the child is to start, it takes an item meanwhile
            waited.append(os.read(failed, 1))
        return index

    never, unwritten = os.pipe()

    def here_fails(index: int) -> int:
        if os.getpid() == parent:
            raise KeyError(index)
        os.read(never, 1)  # the child holds its first item: the parent is left the others
        return index

    assert map_forked(lambda index: index * index, 5, 1) == [0, 1, 4, 9, 16]
    assert map_forked(lambda index: index * index, 40, 2) == [index * index for index in range(40)]
    # More items than the queue's pipe may hold entries: an entry stands for a run of them.
    assert map_forked(lambda index: -index, 3000, 2) == [-index for index in range(3000)]
    with pytest.raises(RuntimeError, match="ValueError: item"):
        map_forked(in_child_fails, 40, 2)
    os.close(failed)
    os.close(failing)
    with pytest.raises(KeyError):  # and the child, waiting still, is killed
        map_forked(here_fails, 40, 2)
    os.close(never)
    os.close(unwritten)
