"""MCTS in a game's kernel against MCTS in the interpreter (issue 26, item 6).

    python benchmarks/mcts_kernel.py [--seconds S] [--games N] [--move-seconds T] [--seed N]
                                     [--only NAME,...]

Two tables, Markdown on stdout:

1. Iterations per second of `mcts` from the start position of each game (Tic-Tac-Toe,
   Connect Four, Hex 9x9, Gomoku, Chess, Go 9x9; those without a kernel are listed as such),
   three ways: the whole search native in the kernel (`MCTSAgent(kernel=True)`, the default,
   interpreter/kernel/search.py), the search's tree in Python over kernel states with the
   random games native (`native=False`, the kernel agent before the native search), and
   interpreted (`kernel=False`); each searching for `--seconds` (default 3) at a time, the
   median of three searches.
2. Native MCTS against the Python-tree kernel MCTS at equal time per move (`--move-seconds`,
   default 0.2) on Connect Four and Hex 9x9: `--games` games (default 20), the two taking
   each side in turn; the native agent's wins, draws, losses and score.

`--only` keeps the games whose label contains one of the names (case-insensitive).
A benchmark, not a test: the numbers depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # runnable from a checkout without installing
    sys.path.insert(0, str(ROOT))

from benchmarks.common import markdown_table  # noqa: E402
from interpreter import load_game  # noqa: E402
from interpreter.agents import MCTSAgent  # noqa: E402
from interpreter.game import Game  # noqa: E402
from interpreter.kernel import kernel_for, why_interpreted  # noqa: E402

# (file, options, label): the games of the issue; those without a kernel are listed as such.
Spec = tuple[str, dict[str, object], str]
GAMES: list[Spec] = [("tictactoe.game", {}, "Tic-Tac-Toe"),
                     ("connectfour.game", {}, "Connect Four"),
                     ("hex.game", {"size": 9}, "Hex 9x9"), ("gomoku.game", {}, "Gomoku"),
                     ("chess.game", {}, "Chess"), ("go.game", {"size": 9}, "Go 9x9")]
# The three searches: (label, MCTSAgent's keywords).
WAYS: list[tuple[str, dict[str, bool]]] = [
    ("native", {"kernel": True}), ("kernel tree", {"kernel": True, "native": False}),
    ("interpreted", {"kernel": False})]
DUELS: list[Spec] = [("connectfour.game", {}, "Connect Four"), ("hex.game", {"size": 9}, "Hex 9x9")]


def why(game: Game) -> str:
    """Why the game has no kernel, its file named from the checkout."""
    return f"no kernel: {why_interpreted(game)}".replace(f"{ROOT}/", "")


def load(name: str, options: dict[str, object]) -> Game:
    return load_game(ROOT / "games" / name, **options)


def rate(game: Game, way: dict[str, bool], seconds: float, seed: int) -> float:
    """Median iterations per second of a search from the start, over three searches."""
    rates = []
    for i in range(3):
        agent = MCTSAgent(None, seconds, seed=seed + i, **way)
        agent.choose(game.initial_state())
        assert agent.report is not None
        rates.append(agent.report.iterations / agent.report.seconds)
    return statistics.median(rates)


def duel(game: Game, games: int, move_seconds: float, seed: int) -> tuple[int, int, int]:
    """Native MCTS against MCTS with its tree in Python over kernel states: the native
    agent's wins, draws, losses."""
    won = drawn = lost = 0
    for i in range(games):
        side = i % 2  # the native agent's role
        agents = [MCTSAgent(None, move_seconds, seed=seed + 2 * i + 1, kernel=True,
                            native=False) for _ in range(2)]
        agents[side] = MCTSAgent(None, move_seconds, seed=seed + 2 * i, kernel=True)
        state = game.initial_state()
        while not state.is_over and state.legal_moves():
            state = state.play(agents[state.to_move].choose(state))
        if state.winner is None:
            drawn += 1
        elif game.players.index(state.winner) == side:
            won += 1
        else:
            lost += 1
    return won, drawn, lost


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--move-seconds", type=float, default=0.2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", default="", help="comma-separated parts of game labels")
    args = parser.parse_args(argv)
    only = [w.strip().lower() for w in args.only.split(",") if w.strip()]

    def chosen(specs: list[Spec]) -> list[Spec]:
        return [s for s in specs if not only or any(w in s[2].lower() for w in only)]

    body = []
    for name, options, label in chosen(GAMES):
        game = load(name, options)
        if kernel_for(game) is None:
            body.append([label, "interpreted", "", "", "", "", why(game)])
            continue
        rates = [rate(game, way, args.seconds, args.seed) for _, way in WAYS]
        body.append([label, *(f"{r:,.1f}" if r < 100 else f"{r:,.0f}" for r in rates),
                     f"{rates[0] / rates[1]:.1f}x", f"{rates[0] / rates[2]:.0f}x", ""])
    print("MCTS iterations per second from the start position "
          f"({args.seconds:g} s searches, median of 3):\n")
    print(markdown_table(["game", *(label for label, _ in WAYS), "native / kernel tree",
                          "native / interpreted", "note"], body))

    if not chosen(DUELS):
        return 0
    body = []
    for name, options, label in chosen(DUELS):
        game = load(name, options)
        if kernel_for(game) is None:
            body.append([label, "", "", "", "", why(game)])
            continue
        won, drawn, lost = duel(game, args.games, args.move_seconds, args.seed)
        score = (won + drawn / 2) / args.games
        body.append([label, str(won), str(drawn), str(lost), f"{score:.0%}", ""])
    print(f"\nNative MCTS against kernel-tree MCTS, {args.move_seconds:g} s a move each, "
          f"{args.games} games, sides alternating:\n")
    print(markdown_table(["game", "native wins", "draws", "losses", "native score", "note"],
                         body))
    return 0


if __name__ == "__main__":
    sys.exit(main())
