"""Play one random game of any game file and print it move by move.

    python examples/random_game.py games/mincut.game --seed 3 --option size=6
"""

from __future__ import annotations

import argparse
import random

from interpreter import GameError, load_game


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--option", action="append", default=[], metavar="K=V")
    args = parser.parse_args()
    try:
        options = dict(pair.split("=", 1) for pair in args.option)
        game = load_game(args.file, **options)
    except (GameError, ValueError) as exc:
        print(exc)
        return 1
    rng = random.Random(args.seed)
    state = game.initial_state()
    turn = 1
    while not state.is_over and state.legal_moves():
        move = rng.choice(state.legal_moves())
        print(f"{turn:3}. {state.mover}: {move}")
        state = state.play(move)
        turn += 1
    print()
    print(state.to_text(), end="")
    print("winner:", state.winner or "none (a draw)" if state.is_over else "none (stuck)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
