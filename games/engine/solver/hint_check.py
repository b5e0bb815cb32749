"""Checks that hints see only the view (LP-7), from the command line.

    python -m games.engine.solver.hint_check tripeaks --deals 399
    python -m games.engine.solver.hint_check pyramid --deals 399 --config '{"reshuffle": true}'
    python -m games.engine.solver.hint_check tripeaks --timing 50

``--deals N``: for the deals of seeds ``--first`` .. ``--first + N - 1``, the hint of the
deal and of its *twin*, the same position with the hidden cards dealt in another order
(and with ``reshuffle`` another seed); their views are checked to be equal. Prints how
many of the N hints differ: always 0 for ``hint``, which reads the view alone. With
``--full-knowledge`` it also prints the count for a hint computed from the whole state
(a winning line of the exact solver, else the line removing the most cards): what hints
were before LP-7, and what the twins are there to catch.

``--timing N``: the median and the slowest time of one ``hint`` over N positions of
seeded random play (a few to 40 moves into a deal).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from dataclasses import replace
from typing import Any

from games.engine import get_engine, rng
from games.engine.solitaire_common import PLAYING, Resign
from games.engine.solver import _searcher, solve_state
from games.engine.solver.hint import HINT_BEST_NODES, HINT_SOLVE_NODES, _first_move_values, hint
from games.engine.tripeaks import TriPeaksView


def twin(game: str, state: Any, seed: int) -> Any:
    """``state`` with its hidden cards (LP-3) in another order, drawn from ``seed``; with
    PY-6 reshuffle, another seed as well. The player's view stays the same."""
    if game == "pyramid":
        hidden = rng.shuffled(state.stock[1:], seed)
        other_seed = rng.derive_seed(seed, "twin") if state.config.reshuffle else state.seed
        return replace(state, stock=(*state.stock[:1], *hidden), seed=other_seed)
    view = get_engine(game).view(state, 0)
    assert isinstance(view, TriPeaksView)
    cells = [cell for row in view.layout for cell in row]
    face_down = [k for k, cell in enumerate(cells) if not cell.removed and cell.card is None]
    hidden = rng.shuffled([state.layout[k] for k in face_down] + list(state.stock), seed)
    layout = list(state.layout)
    for k, card in zip(face_down, hidden, strict=False):
        layout[k] = card
    return replace(state, layout=tuple(layout), stock=tuple(hidden[len(face_down) :]))


def full_knowledge_hint(game: str, state: Any) -> str | None:
    """The hint as it was before LP-7, reading every card: for comparison only."""
    if state.status != PLAYING:
        return None
    solution = solve_state(game, state, node_limit=HINT_SOLVE_NODES)
    if solution.winnable:
        return solution.actions[0]
    values = _first_move_values(_searcher(game, state, None, None), HINT_BEST_NODES)
    return max(values, key=lambda text: values[text]) if values else None


def count_differences(
    game: str, config: dict[str, Any] | None, first: int, deals: int, full_knowledge: bool = False
) -> tuple[int, int]:
    """(view hints that differ, full-knowledge hints that differ) between deals and twins."""
    engine = get_engine(game)
    differ = differ_full = 0
    for seed in range(first, first + deals):
        state = engine.initial_state(config, seed)
        other = twin(game, state, rng.derive_seed(seed, "hint-check"))
        view = engine.view(state, 0)
        if engine.view(other, 0) != view:
            raise AssertionError(f"deal {seed}: the twin's view differs, so it is no twin")
        differ += hint(game, view) != hint(game, engine.view(other, 0))
        if full_knowledge:
            differ_full += full_knowledge_hint(game, state) != full_knowledge_hint(game, other)
    return differ, differ_full


def random_positions(
    game: str, count: int, *, config: dict[str, Any] | None = None, seed: int = 0, fewest_moves: int = 3
) -> list[Any]:
    """``count`` running positions from ``fewest_moves`` to 40 moves into random deals, by
    seeded random play (removals and plays preferred to draws)."""
    engine = get_engine(game)
    rnd = random.Random(seed)
    positions: list[Any] = []
    while len(positions) < count:
        state = engine.initial_state(config, rnd.randrange(10**6))
        for _ in range(rnd.randint(fewest_moves, 40)):
            actions = [a for a in engine.legal_actions(state) if not isinstance(a, Resign)]
            if not actions:
                break
            plays = [a for a in actions if str(a) not in ("draw", "redeal")]
            state = engine.apply(state, rnd.choice(plays if plays and rnd.random() < 0.7 else actions))
        if state.status == PLAYING:
            positions.append(state)
    return positions


def time_hints(game: str, count: int) -> tuple[float, float]:
    """(median, slowest) seconds of one hint over ``count`` positions."""
    engine = get_engine(game)
    seconds = []
    for state in random_positions(game, count):
        view = engine.view(state, 0)
        start = time.perf_counter()
        hint(game, view)
        seconds.append(time.perf_counter() - start)
    return statistics.median(seconds), max(seconds)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m games.engine.solver.hint_check", description=__doc__.splitlines()[0]
    )
    parser.add_argument("game", choices=("pyramid", "tripeaks"))
    parser.add_argument("--deals", type=int, default=0, help="deals to compare with their twins")
    parser.add_argument("--first", type=int, default=1, help="the first deal's seed")
    parser.add_argument("--config", help="the variant as JSON, e.g. '{\"face_up\": true}'")
    parser.add_argument("--full-knowledge", action="store_true", help="also count the pre-LP-7 hint")
    parser.add_argument("--timing", type=int, default=0, metavar="N", help="time N hints")
    args = parser.parse_args(argv)
    config = json.loads(args.config) if args.config else None
    if args.deals:
        differ, differ_full = count_differences(
            args.game, config, args.first, args.deals, args.full_knowledge
        )
        print(f"{args.game} {config or 'standard'}: deals {args.first}..{args.first + args.deals - 1}")
        print(f"hints from the view that differ from their twin's: {differ} of {args.deals}")
        if args.full_knowledge:
            print(f"hints from the whole state (before LP-7) that differ: {differ_full} of {args.deals}")
    if args.timing:
        median, slowest = time_hints(args.game, args.timing)
        print(f"{args.game}: one hint over {args.timing} positions:", end=" ")
        print(f"median {median:.3f} s, slowest {slowest:.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
