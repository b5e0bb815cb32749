"""The compiled searches (``_pyramid_core.c``, ``_tripeaks_core.c``) are the Python ones,
only faster.

Both run the same positions in the same order with the same reductions, so for any
position they must give the same verdict, the same winning line and the same count of
positions examined, also when a node budget stops them (the daily deal depends on that
count). The Python searches stay as the reference, readable next to the rules, and as
the fallback when the install had no C compiler (setup.py).
"""

from __future__ import annotations

import contextlib
import random
import time
from typing import Any

import pytest

from games.engine import get_engine
from games.engine.pyramid import PyramidState
from games.engine.solver import _pyramid_core, pyramid_search, solve_state
from games.engine.solver.pyramid_search import PyramidSearch, SearchAborted
from games.engine.solver.tripeaks_search import TriPeaksSearch
from tests.engine.test_solver import (
    REPEATING_STAGES,
    gapped_position,
    pyramid_positions,
    reshuffled_positions,
    tripeaks_positions,
)

PYRAMID = get_engine("pyramid")

Result = tuple[bool | None, int, tuple[str, ...]]


def both(
    state: Any,
    node_limit: int | None = None,
    relax: bool = True,
    failure_limit: int = pyramid_search.FAILURE_LIMIT,
) -> tuple[Result, Result]:
    results = []
    for compiled in (False, True):
        search: PyramidSearch | TriPeaksSearch = (
            PyramidSearch(
                state, node_limit=node_limit, relax=relax, compiled=compiled, failure_limit=failure_limit
            )
            if isinstance(state, PyramidState)
            else TriPeaksSearch(state, node_limit=node_limit, compiled=compiled)
        )
        try:
            won: bool | None = search.run()
        except SearchAborted:
            won = None
        results.append((won, search.nodes, tuple(search.line)))
    return results[0], results[1]


CONFIGS: list[dict[str, Any]] = [
    {},
    {"redeals": 0},
    {"redeals": None},
    {"redeals": 1, "clear_the_board": True},
    {"clear_the_board": True, "redeals": None, "overlap_pairs": True},
    {"overlap_pairs": True, "redeals": 0},
    {"rows": 6, "reserve": True},
    {"rows": 6, "reserve": True, "redeals": None, "clear_the_board": True},
    {"waste_off_limits": True, "redeals": 3},
]


@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_whole_deals_agree_to_the_position(config: dict[str, Any]) -> None:
    """Deals solved whole or stopped by the node budget, with and without the
    smaller-game proofs (which start after 20,000 positions)."""
    decided = 0
    for seed in range(12):
        state = PYRAMID.initial_state(config, seed)
        python, compiled = both(state, node_limit=25_000)
        assert python == compiled, (config, seed)
        decided += python[0] is not None
        python, compiled = both(state, node_limit=3_000, relax=False)
        assert python == compiled, (config, seed, "without the smaller games")
    assert decided >= 3


def test_the_smaller_game_proofs_agree(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the proofs tried almost at once, so that many deals are settled by them: the
    smaller games of some classes from 30 positions on, the free stock's at 100."""
    monkeypatch.setattr(pyramid_search, "RELAX_STAGES", ((30, (1, 2, 3), 2_000), (100, (4,), 3_000)))
    monkeypatch.setattr(pyramid_search, "FREE_STOCK_AFTER", 100)
    proven_by_them = 0
    for seed in range(25):
        state = PYRAMID.initial_state({"redeals": seed % 3}, seed)
        python, compiled = both(state, node_limit=40_000)
        assert python == compiled, seed
        plain = PyramidSearch(state, node_limit=40_000, relax=False, compiled=True)
        with contextlib.suppress(SearchAborted):
            plain.run()
        proven_by_them += python[0] is False and python[1] < plain.nodes
    assert proven_by_them >= 3


@pytest.mark.parametrize("config", [{}, {"rows": 6, "reserve": True}], ids=str)
def test_stages_that_repeat_smaller_games_agree(
    config: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Stages that come back to games of sizes played before: both searches skip the same
    ones (PyramidSearch.known_not_lost)."""
    monkeypatch.setattr(pyramid_search, "RELAX_STAGES", REPEATING_STAGES)
    monkeypatch.setattr(pyramid_search, "FREE_STOCK_AFTER", 90)
    for seed in range(20):
        state = PYRAMID.initial_state(config, seed)
        python, compiled = both(state, node_limit=30_000)
        assert python == compiled, seed


def deals_agree(config: dict[str, Any]) -> None:
    """The deals of seeds 0 to 14, within 20,000 positions and within 3,000."""
    for seed in range(15):
        state = PYRAMID.initial_state(config, seed)
        for node_limit in (20_000, 3_000):
            python, compiled = both(state, node_limit=node_limit)
            assert python == compiled, (seed, node_limit)


@pytest.mark.parametrize("config", [{}, {"redeals": None}, {"rows": 6, "reserve": True}], ids=str)
def test_alternating_orders_agree(config: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """From ORDER_FROM positions on the two orders alternate in runs of ORDER_RUN positions,
    with the stages in between: here from 20 positions on, in runs of 1,000, stages at 30
    and 400, so that a deal switches orders many times."""
    monkeypatch.setattr(pyramid_search, "RELAX_STAGES", ((30, (1, 2), 1_000), (400, (3,), 500)))
    monkeypatch.setattr(pyramid_search, "FREE_STOCK_AFTER", 400)
    monkeypatch.setattr(pyramid_search, "ORDER_FROM", 20)
    monkeypatch.setattr(pyramid_search, "ORDER_RUN", 1_000)
    deals_agree(config)


@pytest.mark.parametrize(
    "config", [{}, {"redeals": 3, "clear_the_board": True}, {"rows": 6, "reserve": True}], ids=str
)
def test_fewer_passes_agree(config: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """Runs with fewer passes (FEWER_PASSES_AFTER): the smaller games of the stages from 200
    positions on play them first, and the search one of 300 positions after each such stage,
    in one order while the orders alternate in runs of 400 from 20 positions on; the third
    stage comes back in the middle of one such run."""
    monkeypatch.setattr(
        pyramid_search, "RELAX_STAGES", ((30, (1, 2), 500), (200, (3,), 500), (350, (2, 3), 800))
    )
    monkeypatch.setattr(pyramid_search, "FREE_STOCK_AFTER", 200)
    monkeypatch.setattr(pyramid_search, "ORDER_FROM", 20)
    monkeypatch.setattr(pyramid_search, "ORDER_RUN", 400)
    monkeypatch.setattr(pyramid_search, "FEWER_PASSES_AFTER", 200)
    monkeypatch.setattr(pyramid_search, "FEWER_PASSES_NODES", 300)
    deals_agree(config)


@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_smaller_games_inside_the_search_agree(
    config: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The smaller games tried on positions inside the search (PyramidSearch: settled), here
    from 30 positions on, every 10 positions of a position's search, 500 positions each; also
    with a failure table of 50 positions a generation, which forgets their verdicts too, and
    on positions from play."""
    monkeypatch.setattr(pyramid_search, "CLASS_PROOFS_AFTER", 30)
    monkeypatch.setattr(pyramid_search, "CLASS_PROOF_EVERY", 10)
    monkeypatch.setattr(pyramid_search, "CLASS_PROOF_NODES", 500)
    for seed in range(8):
        state = PYRAMID.initial_state(config, seed)
        python, compiled = both(state, node_limit=20_000)
        assert python == compiled, seed
        python, compiled = both(state, node_limit=5_000, failure_limit=50)
        assert python == compiled, (seed, "forgetting")
    for _, state in pyramid_positions(4, seed=len(str(config)), small=24):
        python, compiled = both(state, node_limit=10_000)
        assert python == compiled, state


@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_capped_smaller_games_inside_the_search_agree(
    config: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same, with their share of the positions capped (CLASS_PROOFS_CAPPED_AFTER,
    CLASS_PROOF_SHARE) from 300 positions on: at most a third of them, then a half."""
    monkeypatch.setattr(pyramid_search, "CLASS_PROOFS_AFTER", 30)
    monkeypatch.setattr(pyramid_search, "CLASS_PROOF_EVERY", 10)
    monkeypatch.setattr(pyramid_search, "CLASS_PROOF_NODES", 500)
    monkeypatch.setattr(pyramid_search, "CLASS_PROOFS_CAPPED_AFTER", 300)
    for seed in range(6):
        monkeypatch.setattr(pyramid_search, "CLASS_PROOF_SHARE", 3 if seed % 2 else 2)
        state = PYRAMID.initial_state(config, seed)
        python, compiled = both(state, node_limit=20_000)
        assert python == compiled, seed
        python, compiled = both(state, node_limit=5_000, failure_limit=50)
        assert python == compiled, (seed, "forgetting")


def test_positions_from_play_and_hand_built_ones_agree() -> None:
    """Positions in the middle of a game, and positions with gaps in the tableau that no
    deal reaches, in every variant."""
    positions = [state for _, state in pyramid_positions(60, seed=11, small=20)]
    rnd = random.Random(3)
    positions += [gapped_position(rnd) for _ in range(200)]
    for state in positions:
        python, compiled = both(state, node_limit=20_000)
        assert python == compiled, state


@pytest.mark.parametrize("face_up", [False, True])
def test_tripeaks_deals_and_positions_agree(face_up: bool) -> None:
    tripeaks = get_engine("tripeaks")
    decided = 0
    for seed in range(150):
        state = tripeaks.initial_state({"face_up": face_up}, seed)
        python, compiled = both(state, node_limit=30_000 if seed % 4 else 500)
        assert python == compiled, seed
        decided += python[0] is not None
    assert 100 < decided < 150
    for state in tripeaks_positions(40, seed=int(face_up)):
        python, compiled = both(state)
        assert python == compiled, state


def test_a_deadline_stops_the_compiled_search() -> None:
    state = PYRAMID.initial_state({"rows": 6, "reserve": True}, 4)
    search = PyramidSearch(state, deadline=time.monotonic() - 1)
    with pytest.raises(SearchAborted):
        search.run()
    assert 0 < search.nodes <= 4_096 * 8


def test_the_compiled_searches_are_built_and_used() -> None:
    """setup.py lets the install go on without a C compiler; CI must not."""
    assert PyramidSearch(PYRAMID.initial_state(None, 1)).compiled
    assert PyramidSearch(PYRAMID.initial_state({"reshuffle": True}, 1)).compiled
    assert TriPeaksSearch(get_engine("tripeaks").initial_state(None, 1)).compiled


RESHUFFLE_CONFIGS: list[dict[str, Any]] = [
    {"reshuffle": True},
    {"reshuffle": True, "redeals": None},
    {"reshuffle": True, "redeals": None, "clear_the_board": True, "overlap_pairs": True},
    {"reshuffle": True, "redeals": 0},
    {"reshuffle": True, "rows": 6, "reserve": True, "redeals": 3},
    {"reshuffle": True, "waste_off_limits": True},
]


@pytest.mark.parametrize("config", RESHUFFLE_CONFIGS, ids=str)
def test_reshuffled_redeals_agree(config: dict[str, Any]) -> None:
    """PY-6 reshuffle: each redeal's order comes from the engine's seeded shuffle, given to
    the compiled search as permutations (pyramid_search.redeal_orders)."""
    for seed in range(10):
        python, compiled = both(PYRAMID.initial_state(config, seed), node_limit=20_000)
        assert python == compiled, (config, seed)


def test_reshuffled_positions_in_the_middle_of_a_game_agree() -> None:
    played = [state for config, state in pyramid_positions(80, seed=12, small=24) if config["reshuffle"]]
    assert len(played) >= 10
    # With a shuffle still ahead, and so a last pass in a shuffled order (not by id).
    played += [state for _, state in reshuffled_positions(20, seed=5, small=30)]
    for state in played:
        python, compiled = both(state, node_limit=20_000)
        assert python == compiled, state


@pytest.mark.parametrize(
    ("config", "seed"),
    [
        ({}, 33),
        ({}, 38),
        ({"rows": 6, "reserve": True}, 6),
        ({"rows": 6, "reserve": True}, 26),
        ({"reshuffle": True}, 36),
        ({"reshuffle": True, "redeals": None}, 38),
    ],
    ids=str,
)
def test_a_failure_table_that_forgets_agrees(config: dict[str, Any], seed: int) -> None:
    """The failure table is a cache of two generations (FAILURE_LIMIT). With room for only
    100 failures a generation, these deals take more positions (they forgot failures), both
    searches still examine the same ones, and the verdict is the one with room for all."""
    state = PYRAMID.initial_state(config, seed)
    python, compiled = both(state, node_limit=100_000, failure_limit=100)
    assert python == compiled
    roomy = PyramidSearch(state)
    assert compiled[0] == roomy.run()
    assert compiled[1] > roomy.nodes


def test_without_the_compiled_modules_the_python_searches_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    from games.engine.solver import solve, tripeaks_search

    monkeypatch.setattr(pyramid_search, "_pyramid_core", None)
    monkeypatch.setattr(tripeaks_search, "_tripeaks_core", None)
    assert not PyramidSearch(PYRAMID.initial_state(None, 1)).compiled
    assert solve("pyramid", None, 0).winnable is True
    assert solve("tripeaks", None, 0).winnable is not None


def core_args(**changes: Any) -> list[Any]:
    """Arguments of ``_pyramid_core.run`` for the standard deal of seed 1, with ``changes``."""
    state = PYRAMID.initial_state(None, 1)
    search = PyramidSearch(state)
    args = {
        "values": bytes(search.values),
        "size": 28,
        "reserve": 0,
        "start_p": 0,
        "used": 0,
        "redeals": 2,
        "pass_removed": False,
        "clear_the_board": False,
        "waste_usable": True,
        "overlap": False,
        "reshuffle": False,
        "covered_by": bytes(b for pair in state.geometry.covered_by for b in (*pair, 255, 255)[:2]),
        "covers": bytes(b for pair in state.geometry.covers for b in (*pair, 255, 255)[:2]),
        "node_limit": -1,
        "deadline": -1.0,
        "relax": True,
        "fewer_passes_first": False,
        "stages": (),
        "draws": b"",
        "redeal_first": 0,
        "redeal_count": 0,
        "failure_limit": pyramid_search.FAILURE_LIMIT,
        "free_stock_nodes": pyramid_search.FREE_STOCK_NODES,
        "free_stock_after": pyramid_search.FREE_STOCK_AFTER,
        "order_from": pyramid_search.ORDER_FROM,
        "order_run": pyramid_search.ORDER_RUN,
        "class_proofs_after": pyramid_search.CLASS_PROOFS_AFTER,
        "class_proof_nodes": pyramid_search.CLASS_PROOF_NODES,
        "class_proof_every": pyramid_search.CLASS_PROOF_EVERY,
        "class_proofs_capped_after": pyramid_search.CLASS_PROOFS_CAPPED_AFTER,
        "class_proof_share": pyramid_search.CLASS_PROOF_SHARE,
        "fewer_passes_after": pyramid_search.FEWER_PASSES_AFTER,
        "fewer_passes_nodes": pyramid_search.FEWER_PASSES_NODES,
    }
    return list({**args, **changes}.values())


def test_the_core_arguments_reach_a_verdict() -> None:
    status, nodes, line = _pyramid_core.run(*core_args())
    assert (status == 1) == solve_state("pyramid", PYRAMID.initial_state(None, 1)).winnable
    assert nodes > 0 and (line or status == 0)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"values": bytes(70)}, "position out of range"),
        ({"values": bytes([14] * 52)}, "card values"),
        ({"covers": bytes(3)}, "covers"),
        ({"stages": [(1, (9,), 1)]}, "stages"),
        ({"stages": [(1, (1,), 1)] * 9}, "at most 8"),
        ({"failure_limit": 0}, "failure_limit"),
        ({"order_run": 0}, "order_run"),
        ({"order_from": 0}, "order_from"),
        ({"class_proof_nodes": 0}, "class_proof_nodes"),
        ({"class_proof_every": 0}, "class_proof_every"),
        ({"class_proof_share": 0}, "class_proof_share"),
        ({"fewer_passes_nodes": 0}, "fewer_passes_nodes"),
        ({"reshuffle": True, "redeal_count": 1, "draws": b"x"}, "draws"),
        ({"reshuffle": True, "redeal_count": 1, "draws": bytes(8) * 22 + b"\x00" * 7 + b"\xf0"}, "draws"),
    ],
)
def test_the_core_rejects_malformed_arguments(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        _pyramid_core.run(*core_args(**changes))


def test_a_redeal_beyond_the_draws_given_is_an_error() -> None:
    # Seed 1 runs out of its first pass without a win: it needs the first redeal's draws.
    with pytest.raises(ValueError, match="beyond the draws"):
        _pyramid_core.run(*core_args(reshuffle=True))
